import Fetch
import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// What a vehicle list is asked: the route, the place and radius it is narrowed to, and
/// whether the trips placed by the timetable alone are listed too.
public struct VehiclesRequest: Sendable, Hashable {
  /// Only this route (short name or route_id); nil: every route.
  public var route: String?
  /// Only vehicles within `radiusMeters` of here; nil: everywhere.
  public var near: Coordinate?
  /// The radius around `near`, in metres.
  public var radiusMeters: Int
  /// Whether trips the timetable has running without realtime are listed (as estimated).
  public var includeEstimated: Bool

  /// A request for the vehicles of `route` (nil: all) within `radiusMeters` of `near` (nil:
  /// anywhere).
  public init(route: String? = nil, near: Coordinate? = nil, radiusMeters: Int = 500, includeEstimated: Bool = true) {
    self.route = route
    self.near = near
    self.radiusMeters = radiusMeters
    self.includeEstimated = includeEstimated
  }
}

/// One vehicle list: everything `vehicles`, its `--watch` frames and its map show. Its
/// `Encodable` form is DESIGN.md's `vehicles --json` (an array of vehicle objects).
public struct VehiclesAnswer: Sendable {
  /// What was asked.
  public var request: VehiclesRequest
  /// The vehicles, in the list's order (live before estimated, then route, destination,
  /// vehicle).
  public var views: [VehicleView]
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// The clock every time of the list is on (the first feed held's).
  public var zone: LocalZone
  /// The moment asked at (report ages run from it).
  public var now: UnixTime
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem]

  /// How many vehicles are live (from the feed, not the timetable).
  public var liveCount: Int { views.count(where: { !$0.isEstimated }) }
  /// How many trips are placed by the timetable alone.
  public var estimatedCount: Int { views.count - liveCount }
}

extension TransitSession {
  /// The vehicles of `request` at `now`, with the session's realtime (every feed) matched
  /// against the timetables (DESIGN.md rules 8–10).
  /// - Throws: the store's errors, and what the realtime source cannot go on without.
  public func vehicles(_ request: VehiclesRequest, now: UnixTime) throws -> VehiclesAnswer {
    let read = try realtime.read(preferring: nil)
    let live = try LiveRealtime(store: store, feeds: read.feeds, now: now, options: options)
    var fleet = Fleet(store: store, live: live)
    let views = try fleet.vehicles(
      includeEstimated: request.includeEstimated, route: request.route, near: request.near,
      radiusMeters: Double(request.radiusMeters))
    return VehiclesAnswer(
      request: request, views: views, report: live.report, zone: store.timeZone(of: store.feedNames.first ?? FeedName("")),
      now: now, realtimeProblems: read.problems)
  }

  /// When a live view of the vehicles fetches again, in real Unix seconds from `now`: just
  /// after the next publish of the feeds it polls (their shortest period, else the default).
  public func nextVehiclesFetch(now: Int64) -> Int64 {
    PollSchedule.nextFetch(now: now, lastHeaderTimestamp: nil, period: realtime.periodSeconds(preferring: nil))
  }
}

// MARK: - JSON

extension VehiclesAnswer: Encodable {
  /// DESIGN.md's `vehicles --json`: the vehicle objects in the list's order.
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for view in views { try list.encode(VehicleAnswer(view, now: now, zone: zone)) }
  }
}

/// One vehicle in DESIGN.md's `vehicles --json` / `follow --json` shape, its times on
/// `zone`'s clock and its report's age from `now`.
public struct VehicleAnswer: Encodable, Sendable {
  public var view: VehicleView
  public var now: UnixTime
  public var zone: LocalZone

  /// The answer for `view`.
  public init(_ view: VehicleView, now: UnixTime, zone: LocalZone) {
    self.view = view
    self.now = now
    self.zone = zone
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(view.vehicleID, forKey: "vehicle_id")
    try members.encode(view.label, forKey: "label")
    try members.encode(view.tripID?.rawValue, forKey: "trip_id")
    try members.encode(view.routeID?.rawValue, forKey: "route_id")
    try members.encode(view.routeShortName, forKey: "route_short_name")
    try members.encode(view.coordinate?.latitude, forKey: "lat")
    try members.encode(view.coordinate?.longitude, forKey: "lon")
    try members.encode(view.bearing, forKey: "bearing")
    try members.encode(view.speedMetersPerSecond, forKey: "speed_mps")
    try members.encode(view.timestamp.map(zone.isoText), forKey: "timestamp")
    try members.encode(view.timestamp.map { now - $0 }, forKey: "age_seconds")
    try members.encode(view.currentStopID?.rawValue, forKey: "current_stop_id")
    try members.encode(view.currentStopSequence, forKey: "current_stop_sequence")
    try members.encode(view.status, forKey: "status")
    try members.encode(view.isEstimated, forKey: "estimated")
    try members.encode(view.isAdded, forKey: "added")
    try members.encode(view.positionSource.rawValue, forKey: "position_source")
    try members.encode(view.delaySeconds, forKey: "delay_seconds")
    try members.encode(view.delayStatus?.rawValue, forKey: "delay_status")
    try members.encode(view.crowding, forKey: "occupancy")
    var stops = members.nestedUnkeyedContainer(forKey: "next_stops")
    for stop in view.nextStops where !stop.isSkipped {
      var item = stops.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(stop.stopID.rawValue, forKey: "stop_id")
      try item.encode(stop.name, forKey: "name")
      try item.encode(stop.expected.map(zone.isoText), forKey: "expected")
      try item.encode(stop.delaySeconds, forKey: "delay_seconds")
    }
  }
}
