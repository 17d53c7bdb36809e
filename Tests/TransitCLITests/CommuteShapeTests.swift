import Testing

/// One commute, one JSON shape (issue 33): a saved commute is the same object in
/// `commute add --json` and `commute list --json`, and a commute's day the same in
/// `commute --json` (all commutes), `commute NAME --json` and with `--date`; each option's
/// departure is the board's object for that trip. The golden values are worked out by hand
/// from `LiveShapeFeed` at 08:05:00, for commute "c" from Birch arriving by 08:45 (default
/// days mon-fri; 2026-06-01 is a Monday; no walk). The home view's commute card is the same
/// day (its `commute` member, with and without favourites), and `commute NAME --line --json`
/// is a status-bar line (text, tooltip, class), not a commute.
@Suite struct CommuteShapeTests {
  /// The saved commute: its feed is the name ingest gives the agency "Main Lines".
  static var saved: [String: Any?] {
    [
      "name": "c", "feed": "main-lines", "stop_id": "B", "stop_name": "Birch", "route": nil, "to": nil, "arrive_by": "08:45",
      "days": "mon-fri", "walk_minutes": 0, "then_walk_minutes": 0, "missing": false,
    ]
  }

  /// A departure from Birch as the board gives it (no platform code, stop wheelchair_boarding
  /// or occupancy there).
  static func departure(
    _ trip: String, _ route: String, _ name: String, _ headsign: String, sequence: Int, _ scheduled: String,
    live: (expected: String, delay: Int)?, accessible: Int?
  ) -> [String: Any?] {
    [
      "trip_id": trip, "route_id": route, "route_short_name": name, "headsign": headsign, "stop_id": "B", "stop_sequence": sequence,
      "service_date": "20260601", "scheduled": scheduled, "expected": live?.expected, "delay_seconds": live?.delay,
      "status": live == nil ? "scheduled" : "late", "source": live == nil ? "schedule" : "realtime",
      "vehicle_id": live == nil ? nil : "V1", "reachable": nil, "prediction_ignored": false, "platform": nil,
      "wheelchair_accessible": accessible, "wheelchair_boarding": nil, "occupancy": nil,
    ]
  }

  /// The day: from the departures of the 2 h before 08:45, the recommended one (the latest
  /// leaving by 08:45 without --to: U1 at 08:45), the two before it (T1, 120 s late at 08:12,
  /// and T2 at 08:40) and none after. No destination, so no arrival; leave by the departure
  /// (no walk), so 7, 35 and 40 minutes from 08:05.
  static var day: [String: Any?] {
    func option(_ recommended: Bool, _ departure: [String: Any?], leaveBy: String, minutes: Int) -> [String: Any?] {
      [
        "recommended": recommended, "departure": departure, "arrives": nil, "reaches": nil, "leave_by": leaveBy,
        "minutes_until_leave": minutes,
      ]
    }
    return [
      "name": "c", "date": "20260601", "inactive_date": nil, "arrive_by": "2026-06-01T08:45:00Z",
      "options": [
        option(
          false,
          departure(
            "T1", "R1", "1", "Cedar", sequence: 2, "2026-06-01T08:10:00Z", live: ("2026-06-01T08:12:00Z", 120), accessible: 1),
          leaveBy: "2026-06-01T08:12:00Z", minutes: 7),
        option(
          false, departure("T2", "R1", "1", "Alder", sequence: 2, "2026-06-01T08:40:00Z", live: nil, accessible: 1),
          leaveBy: "2026-06-01T08:40:00Z", minutes: 35),
        option(
          true, departure("U1", "R2", "2", "Dogwood", sequence: 1, "2026-06-01T08:45:00Z", live: nil, accessible: nil),
          leaveBy: "2026-06-01T08:45:00Z", minutes: 40),
      ],
    ]
  }

  @Test func savedCommutesAndCommuteDaysShowOneObjectEach() throws {
    let (home, realtime) = try LiveShapeFeed.home()
    let data = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path]
    func document(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
      let result = transit(arguments + data)
      try #require(result.code == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
      return result.stdout
    }
    let added = try ShapeGolden.node(try document(["commute", "add", "c", "--stop", "B", "--arrive-by", "08:45"]))
    ShapeGolden.expect(added, Self.saved, "commute add")
    let listed = try ShapeGolden.node(try document(["commute", "list"]))
    #expect(listed.elements.count == 1)
    ShapeGolden.expect(listed[0], Self.saved, "commute list")
    #expect(added.keys == listed[0]?.keys, "\(added.keys) in commute add, \(listed[0]?.keys ?? []) in commute list")

    let board = try ShapeGolden.node(try document(["departures", "B"] + realtime), ["departures"])
    // The home view's card, with no favourite (the timetable alone: no delay) and with one.
    var noDelay = Self.day
    var options = noDelay["options"] as! [[String: Any?]]
    options[0]["departure"] = Self.departure(
      "T1", "R1", "1", "Cedar", sequence: 2, "2026-06-01T08:10:00Z", live: nil, accessible: 1)
    (options[0]["leave_by"], options[0]["minutes_until_leave"]) = ("2026-06-01T08:10:00Z", 5)
    noDelay["options"] = options
    ShapeGolden.expect(try ShapeGolden.node(try document([]), ["commute"]), noDelay, "home, no favourites")
    _ = try document(["fav", "add", "A"])
    ShapeGolden.expect(try ShapeGolden.node(try document(realtime), ["commute"]), Self.day, "home")
    for arguments in [["commute"], ["commute", "c"], ["commute", "c", "--date", "2026-06-01"]] {
      let view = arguments.joined(separator: " ")
      let days = try ShapeGolden.node(try document(arguments + realtime))
      #expect(days.elements.count == 1, "\(view): \(days)")
      ShapeGolden.expect(days[0], Self.day, view)
      #expect(days[0]?.keys == ["name", "date", "inactive_date", "arrive_by", "options"], "\(view)")
      // Each option's departure is the board's object for its trip, member for member.
      for option in days[0]?["options"]?.elements ?? [] {
        let trip = option["departure"]?["trip_id"]?.text
        let row = board.elements.first { $0["trip_id"]?.text == trip }
        #expect(row != nil && option["departure"]?.description == row?.description, "\(view): \(trip ?? "?")")
      }
    }
  }
}
