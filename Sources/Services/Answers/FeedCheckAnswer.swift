import GTFS
import GTFSRealtime
import TransitModel

/// Why `rt check --feed NAME` cannot check against that timetable.
public enum FeedCheckFailure: Error, Sendable, Equatable {
  /// No timetable of that name is held (the names held, in order).
  case unknownTimetable(name: String, held: [String])
}

extension TransitSession {
  /// `feeds` checked against the timetables held (only the one named `timetable`, when given)
  /// at `now`: what matched, how, and the consumer-side rules of the GTFS-Realtime validator.
  /// - Throws: `FeedCheckFailure`; the store's errors.
  public func check(_ feeds: [FeedMessage], against timetable: String?, now: UnixTime) throws -> FeedCheck {
    var store = self.store
    if let name = timetable {
      guard let directory = userData.directory,
        let file = try Timetables(directory: directory).files().first(where: { $0.name == name })
      else { throw FeedCheckFailure.unknownTimetable(name: name, held: store.feedNames.map(\.rawValue)) }
      store = try Store(files: [file])
    }
    return try FeedCheck.check(store: store, feeds: feeds, now: now, options: options)
  }
}

extension FeedCheck: Encodable {
  /// `rt check --json`: the trip updates' and vehicles' counts by rule and by reason, the
  /// examples, each validator rule with its count and examples, and whether an error fired.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    func counts(_ values: [String: Int], into object: inout KeyedEncodingContainer<JSONKey>, key: String) throws {
      var nested = object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(stringLiteral: key))
      for (name, count) in values.sorted(by: { $0.key < $1.key }) { try nested.encode(count, forKey: JSONKey(stringLiteral: name)) }
    }
    var trips = members.nestedContainer(keyedBy: JSONKey.self, forKey: "trip_updates")
    try trips.encode(report.tripUpdateCount, forKey: "total")
    try trips.encode(report.matchedTripUpdateCount, forKey: "matched")
    try counts(report.match.tripUpdates, into: &trips, key: "by_rule")
    try counts(report.match.unmatchedTripUpdates, into: &trips, key: "unmatched")
    var vehicles = members.nestedContainer(keyedBy: JSONKey.self, forKey: "vehicles")
    try vehicles.encode(report.vehicleCount, forKey: "total")
    try vehicles.encode(report.matchedVehicleCount, forKey: "matched")
    try counts(report.match.vehicles, into: &vehicles, key: "by_rule")
    var examples = members.nestedContainer(keyedBy: JSONKey.self, forKey: "examples")
    for (reason, list) in report.match.examples.sorted(by: { $0.key < $1.key }) {
      try examples.encode(list, forKey: JSONKey(stringLiteral: reason))
    }
    var list = members.nestedUnkeyedContainer(forKey: "rules")
    for rule in rules {
      var object = list.nestedContainer(keyedBy: JSONKey.self)
      try object.encode(rule.id, forKey: "id")
      try object.encode(rule.isError ? "error" : "warning", forKey: "severity")
      try object.encode(rule.title, forKey: "title")
      try object.encode(rule.count, forKey: "count")
      try object.encode(rule.examples, forKey: "examples")
    }
    try members.encode(hasErrors, forKey: "errors")
  }
}
