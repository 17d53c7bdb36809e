import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// A JSON member name, written as a string literal where an answer encodes itself: the
/// documented shapes (DESIGN.md, "JSON shapes") name their members in snake case, in order.
struct JSONKey: CodingKey, ExpressibleByStringLiteral {
  var stringValue: String
  var intValue: Int? { nil }

  init(stringLiteral value: String) { stringValue = value }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension LocalZone {
  /// `time` as ISO 8601 on this zone's clock: `2023-11-07T17:05:34-08:00` (`Z` for UTC), the
  /// form every answer's JSON gives its times in.
  public func isoText(_ time: UnixTime) -> String {
    let offset = secondsFromGMT(at: time.seconds)
    let text = UnixTime.wallClockText(localSeconds: time.seconds + Int64(offset))
    if offset == 0 && identifier == "UTC" || identifier == "GMT" { return text + "Z" }
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return text + "\(offset < 0 ? "-" : "+")\(twoDigits(abs(offset) / 3600)):\(twoDigits(abs(offset) / 60 % 60))"
  }
}

/// One departure in DESIGN.md's `departures --json` shape, its times on `zone`'s clock: the
/// object the board, its groups, the home view, `stops show` and `commute` all write.
public struct DepartureAnswer: Encodable, Sendable {
  public var departure: Departure
  public var zone: LocalZone
  /// Whether the rider can walk there in time (`--from`), nil when not asked.
  public var isReachable: Bool?

  /// The answer for `departure`.
  public init(_ departure: Departure, zone: LocalZone, isReachable: Bool? = nil) {
    self.departure = departure
    self.zone = zone
    self.isReachable = isReachable
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try encodeMembers(into: &members)
  }

  /// The members, for an object that adds its own after them (a board's row).
  func encodeMembers(into members: inout KeyedEncodingContainer<JSONKey>) throws {
    let call = departure.call
    try members.encode(call.tripID.rawValue, forKey: "trip_id")
    try members.encode(call.routeID.rawValue, forKey: "route_id")
    try members.encode(call.routeShortName, forKey: "route_short_name")
    try members.encode(call.headsign, forKey: "headsign")
    try members.encode(call.stopID.rawValue, forKey: "stop_id")
    try members.encode(call.stopSequence, forKey: "stop_sequence")
    try members.encode(call.serviceDate.description, forKey: "service_date")
    try members.encode(call.scheduledTime.map(zone.isoText), forKey: "scheduled")
    try members.encode(departure.expected.map(zone.isoText), forKey: "expected")
    try members.encode(departure.delaySeconds, forKey: "delay_seconds")
    try members.encode(departure.status.rawValue, forKey: "status")
    try members.encode(departure.source.rawValue, forKey: "source")
    try members.encode(departure.vehicleID, forKey: "vehicle_id")
    // Only when the feed states one (rule 17): the shape is unchanged otherwise.
    if let change = departure.platformChange {
      var nested = members.nestedContainer(keyedBy: JSONKey.self, forKey: "platform_change")
      try nested.encode(change.assignedStopID?.rawValue, forKey: "assigned_stop_id")
      try nested.encode(change.actualTrack, forKey: "actual_track")
      try nested.encode(change.scheduledTrack, forKey: "scheduled_track")
    }
    try members.encode(isReachable, forKey: "reachable")
    try members.encode(departure.isPredictionIgnored, forKey: "prediction_ignored")
    // Only when the producer says no train serves it yet (NYCT: not assigned).
    if departure.isAwaitingTrain { try members.encode(false, forKey: "train_assigned") }
  }
}

extension Crowding: Encodable {
  /// `occupancy`: the feed's status and percentage, the 3-step level, and per carriage.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(status?.protoName, forKey: "occupancy_status")
    try members.encode(percentage, forKey: "occupancy_percentage")
    try members.encode(level, forKey: "level")
    var list = members.nestedUnkeyedContainer(forKey: "carriages")
    for carriage in carriages {
      var item = list.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(carriage.id, forKey: "id")
      try item.encode(carriage.label, forKey: "label")
      try item.encode(carriage.sequence, forKey: "carriage_sequence")
      try item.encode(carriage.status?.protoName, forKey: "occupancy_status")
      try item.encode(carriage.percentage, forKey: "occupancy_percentage")
    }
  }
}

/// DESIGN.md's `realtime` object for a report, its times on `zone`'s clock: status (a feed
/// too old to use counts as stale), feed time and age, what matched, the warnings and repairs.
public struct RealtimeAnswer: Encodable, Sendable {
  public var report: RealtimeReport
  public var zone: LocalZone

  /// The answer for `report`.
  public init(_ report: RealtimeReport, zone: LocalZone) {
    self.report = report
    self.zone = zone
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    let freshness = report.freshness
    try members.encode(freshness.status == .expired ? "stale" : freshness.status.rawValue, forKey: "status")
    try members.encode(freshness.feedTimestamp.map(zone.isoText), forKey: "feed_timestamp")
    try members.encode(freshness.ageSeconds, forKey: "age_seconds")
    var updates = members.nestedContainer(keyedBy: JSONKey.self, forKey: "trip_updates")
    try updates.encode(report.matchedTripUpdateCount, forKey: "matched")
    try updates.encode(report.tripUpdateCount, forKey: "total")
    var vehicles = members.nestedContainer(keyedBy: JSONKey.self, forKey: "vehicles")
    try vehicles.encode(report.matchedVehicleCount, forKey: "matched")
    try vehicles.encode(report.vehicleCount, forKey: "total")
    // `match`: trip updates and vehicles by the rule that matched them, and the unmatched trip
    // updates by reason (rule 18), each by name in order.
    var match = members.nestedContainer(keyedBy: JSONKey.self, forKey: "match")
    for (key, values) in [
      ("trip_updates", report.match.tripUpdates), ("unmatched_trip_updates", report.match.unmatchedTripUpdates),
      ("vehicles", report.match.vehicles),
    ] {
      var counts = match.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(stringLiteral: key))
      for (name, count) in values.sorted(by: { $0.key < $1.key }) { try counts.encode(count, forKey: JSONKey(stringLiteral: name)) }
    }
    try members.encode(report.warnings, forKey: "warnings")
    var repairs = members.nestedUnkeyedContainer(forKey: "repairs")
    for repair in report.repairs {
      var item = repairs.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(repair.kind, forKey: "kind")
      try item.encode(repair.instance.tripID.rawValue, forKey: "trip_id")
      try item.encode(repair.instance.serviceDate.description, forKey: "service_date")
      switch repair {
      case .startDateOfAfterMidnightRun(_, let given): try item.encode(given.description, forKey: "start_date")
      case .duplicateFromStartTime(_, let start): try item.encode(start, forKey: "start_time")
      case .predictionIgnored: break
      }
    }
  }
}
