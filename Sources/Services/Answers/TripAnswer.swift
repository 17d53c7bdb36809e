import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// One trip's every call as `trip show` shows it: the report (`TripInspector`), what the
/// realtime was and matched, and the clock it is told on. Its `Encodable` form is
/// `trip show --json`.
public struct TripAnswer: Sendable {
  /// Why a trip has no answer, with what the realtime read on the way said (a command tells
  /// that before the failure: a feed that failed may be why a vehicle is unknown).
  public struct Failure: Error, Sendable {
    public var reason: TripInspector.Failure
    public var report: RealtimeReport
    public var realtimeProblems: [RealtimeProblem]
  }

  public var trip: TripReport
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// Whether any realtime feed was read.
  public var hasRealtime: Bool
  /// The trip's feed's clock, the one every time of the answer is on.
  public var zone: LocalZone
  /// The moment asked at.
  public var now: UnixTime
  /// Whether several feeds are held (then the trip names its feed).
  public var namesFeed: Bool
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem]
}

extension TransitSession {
  /// The trip `reference` names on `date` (else the instance running nearest `now`, or the one
  /// the realtime follows), its calls merged with the session's realtime (every feed).
  /// - Throws: `TripAnswer.Failure` when no trip fits, the store's errors, and what the
  ///   realtime source cannot go on without.
  public func trip(_ reference: TripReference, date: ServiceDate?, now: UnixTime) throws -> TripAnswer {
    let read = try realtime.read(preferring: nil)
    let live = try LiveRealtime(store: store, feeds: read.feeds, now: now, options: options)
    let trip: TripReport
    do {
      trip = try TripInspector.report(reference, date: date, store: store, live: live)
    } catch let failure as TripInspector.Failure {
      throw TripAnswer.Failure(reason: failure, report: live.report, realtimeProblems: read.problems)
    }
    return TripAnswer(
      trip: trip, report: live.report, hasRealtime: !read.feeds.isEmpty, zone: store.timeZone(of: trip.feed), now: now,
      namesFeed: store.feedNames.count > 1, realtimeProblems: read.problems)
  }

  /// The clock of `feed`'s agency (a time the rider gives, such as `--at 07:50`, is on it).
  public func zone(of feed: FeedName) -> LocalZone { store.timeZone(of: feed) }
}

// MARK: - JSON

extension TripAnswer: Encodable {
  /// `trip show --json`: the trip, now, the realtime object, the vehicle (`VehicleAnswer`, as
  /// `vehicles` gives it), the occupancy, the calls and the block's next trip.
  public func encode(to encoder: any Encoder) throws {
    let zone = self.zone
    var members = encoder.container(keyedBy: JSONKey.self)
    var head = members.nestedContainer(keyedBy: JSONKey.self, forKey: "trip")
    if namesFeed { try head.encode(trip.feed.rawValue, forKey: "feed") }
    try head.encode(trip.tripID.rawValue, forKey: "trip_id")
    try head.encode(trip.shortName, forKey: "trip_short_name")
    try head.encode(trip.route.id.rawValue, forKey: "route_id")
    try head.encode(trip.route.shortName, forKey: "route_short_name")
    try head.encode(trip.headsign, forKey: "headsign")
    try head.encode(trip.directionID, forKey: "direction_id")
    try head.encode(trip.blockID, forKey: "block_id")
    try head.encode(trip.serviceDate.description, forKey: "service_date")
    try head.encode(trip.startTime?.description, forKey: "start_time")
    try head.encode(trip.wheelchairAccessible, forKey: "wheelchair_accessible")
    try head.encode(trip.isCancelled, forKey: "cancelled")
    try head.encode(trip.isAdded, forKey: "added")
    try members.encode(zone.isoText(now), forKey: "now")
    try members.encode(RealtimeAnswer(report, zone: zone), forKey: "realtime")
    // The vehicle object of `vehicles --json` and `follow --json` (issue 33: one shape).
    try members.encode(trip.vehicle.map { VehicleAnswer($0, now: now, zone: zone) }, forKey: "vehicle")
    try members.encode(trip.crowding, forKey: "occupancy")
    var calls = members.nestedUnkeyedContainer(forKey: "calls")
    for call in trip.calls {
      var item = calls.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(call.stopID.rawValue, forKey: "stop_id")
      try item.encode(call.name, forKey: "name")
      try item.encode(call.platform, forKey: "platform")
      try item.encode(call.stopSequence, forKey: "stop_sequence")
      try item.encode(call.scheduledArrival.map(zone.isoText), forKey: "scheduled_arrival")
      try item.encode(call.scheduledDeparture.map(zone.isoText), forKey: "scheduled_departure")
      try item.encode(call.expectedArrival.map(zone.isoText), forKey: "expected_arrival")
      try item.encode(call.expectedDeparture.map(zone.isoText), forKey: "expected_departure")
      try item.encode(call.delaySeconds, forKey: "delay_seconds")
      try item.encode(call.source.rawValue, forKey: "source")
      try item.encode(call.status.rawValue, forKey: "status")
      try item.encode(call.isVehicleHere, forKey: "vehicle_here")
      try item.encode(call.wheelchairBoarding, forKey: "wheelchair_boarding")
      try item.encode(call.access.rawValue, forKey: "wheelchair_access")
    }
    if let next = trip.next {
      var item = members.nestedContainer(keyedBy: JSONKey.self, forKey: "next_trip")
      try item.encode(next.tripID.rawValue, forKey: "trip_id")
      try item.encode(next.routeShortName, forKey: "route_short_name")
      try item.encode(next.headsign, forKey: "headsign")
      try item.encode(next.departure.map(zone.isoText), forKey: "departure")
    } else {
      try members.encodeNil(forKey: "next_trip")
    }
  }
}
