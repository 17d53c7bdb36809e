import Foundation
import TestSupport
import Testing

/// One departure, one JSON shape (issue 33): the departure object of a trip is the same
/// wherever an answer shows it: the board (`departures --json`), the grouped board, the home
/// view's card, a commute's option and `stops show`. The golden object is worked out by hand
/// from the feed of `BoardAnswerTests.home()`: trip N1 of route R1 ("1", headsign Northtown, wheelchair
/// accessible 1) leaves platform MSN (no wheelchair_boarding of its own) at 08:00:00 on its
/// first call, every day, on an agency clock of UTC; there is no realtime and no `--from`.
@Suite struct DepartureShapeTests {
  nonisolated(unsafe) static let golden: [String: Any?] = [
    "trip_id": "N1", "route_id": "R1", "route_short_name": "1", "headsign": "Northtown", "stop_id": "MSN", "stop_sequence": 1,
    "service_date": "20260601", "scheduled": "2026-06-01T08:00:00Z", "expected": nil, "delay_seconds": nil, "status": "scheduled",
    "source": "schedule", "vehicle_id": nil, "reachable": nil, "prediction_ignored": false, "platform": nil,
    "wheelchair_accessible": 1, "wheelchair_boarding": nil, "occupancy": nil,
  ]

  /// DESIGN.md's `departures --json` members, in its order.
  static let documented = [
    "trip_id", "route_id", "route_short_name", "headsign", "stop_id", "stop_sequence", "service_date", "scheduled", "expected",
    "delay_seconds", "status", "source", "vehicle_id", "reachable",
  ]

  func object(_ text: String, _ path: [Any]) throws -> [String: Any] {
    var value: Any = try JSONSerialization.jsonObject(with: Data(text.utf8))
    for step in path {
      if let key = step as? String { value = try #require((value as? [String: Any])?[key], "no \(key)") }
      if let index = step as? Int { value = try #require((value as? [Any])?[index], "no [\(index)]") }
    }
    return try #require(value as? [String: Any])
  }

  func matches(_ object: [String: Any], _ view: String) {
    #expect(Set(object.keys) == Set(Self.golden.keys), "\(view): \(object.keys.sorted())")
    for (key, expected) in Self.golden {
      let actual = object[key]
      switch expected {
      case nil: #expect(actual is NSNull, "\(view).\(key): \(String(describing: actual))")
      case let text as String: #expect(actual as? String == text, "\(view).\(key)")
      case let number as Int: #expect(actual as? Int == number, "\(view).\(key)")
      case let flag as Bool: #expect(actual as? Bool == flag, "\(view).\(key)")
      default: Issue.record("\(key): unexpected golden value")
      }
    }
  }

  @Test func theBoardTheGroupsTheHomeCardAndACommuteShowOneObject() throws {
    let home = try BoardAnswerTests.home()
    let data = ["--data-dir", home.path]
    let now = ["--now", "2026-06-01T07:55:00Z"]
    try #require(transit(["fav", "add", "MSN"] + data).code == 0)
    try #require(transit(["commute", "add", "c", "--stop", "MSN", "--arrive-by", "08:30"] + data).code == 0)

    let board = transit(["departures", "MSN", "--json"] + now + data)
    try #require(board.code == 0, "\(board.stderr)")
    matches(try object(board.stdout, ["departures", 0]), "departures")
    // The documented members come first, in DESIGN.md's order.
    let list = try #require(board.stdout.range(of: "\"departures\"")).upperBound
    let order = Self.documented.map { board.stdout[list...].range(of: "\"\($0)\"")?.lowerBound }
    #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted(), "\(board.stdout)")

    let grouped = transit(["departures", "MSN", "--group", "--json"] + now + data)
    try #require(grouped.code == 0, "\(grouped.stderr)")
    matches(try object(grouped.stdout, ["groups", 0, "departures", 0]), "departures --group")

    let card = transit(["--json"] + now + data)
    try #require(card.code == 0, "\(card.stderr)")
    matches(try object(card.stdout, ["favourites", 0, "departures", 0]), "home")

    let commute = transit(["commute", "c", "--json"] + now + data)
    try #require(commute.code == 0, "\(commute.stderr)")
    let value = try JSONSerialization.jsonObject(with: Data(commute.stdout.utf8))
    let first = try #require((value as? [[String: Any]])?.first?["options"] as? [[String: Any]])
    matches(try #require(first.first?["departure"] as? [String: Any]), "commute")

    // `stops show` lists the stop's next departures on the timetable alone: the same objects.
    let shown = transit(["stops", "show", "MSN", "--json"] + now + data)
    try #require(shown.code == 0, "\(shown.stderr)")
    matches(try object(shown.stdout, ["departures", 0]), "stops show")
  }
}
