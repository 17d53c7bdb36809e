import Testing

/// One journey, one JSON shape (issue 33): `plan --json` gives the same journey object however
/// the time is asked (now, `--depart`, `--arrive-by`) and the ends named (ids, codes), and a
/// change is the same object in `plan --json` (`changes`) and in `plan --watch --json`'s frames
/// (`transfers`). The golden values are worked out by hand from `LiveShapeFeed` at 08:05:00:
/// from Cedar to Dogwood, T2 (route 1) leaves Cedar at 08:30 for Birch (08:40), where U1
/// (route 2) leaves at 08:45 for Dogwood (08:55). Neither trip has realtime (the update is
/// T1's).
@Suite struct PlanShapeTests {
  static func stop(_ id: String, _ code: String, _ name: String, _ lat: Double) -> [String: Any?] {
    ["type": "stop", "stop_id": id, "stop_code": code, "name": name, "lat": lat, "lon": 10.0]
  }

  /// A ride of one stop (from its first call to its second), ten minutes, not live. T2 is
  /// wheelchair accessible (1), U1 says nothing; no stop here has wheelchair_boarding, so each
  /// end is unknown and the ride is not known to be accessible.
  static func ride(
    _ trip: String, _ route: String, _ name: String, _ headsign: String, from: [String: Any?], to: [String: Any?],
    _ departure: String, _ arrival: String, accessible: Int?
  ) -> [String: Any?] {
    [
      "type": "ride", "trip_id": trip, "route_id": route, "route_short_name": name, "mode": "bus", "headsign": headsign,
      "service_date": "20260601", "start_time": nil, "from": from, "to": to, "from_stop_sequence": 1, "to_stop_sequence": 2,
      "departure": departure, "arrival": arrival, "duration_seconds": 600, "stops": 1, "live": false,
      "wheelchair_accessible": accessible, "from_wheelchair_boarding": nil, "from_wheelchair_access": "unknown",
      "to_wheelchair_boarding": nil, "to_wheelchair_access": "unknown", "accessible": false,
    ]
  }

  /// The change at Birch: the same stop (no walk), 08:40 to 08:45, so 300 s of buffer: safe
  /// (the default margin is under that), not yet done.
  static var change: [String: Any?] {
    [
      "from_stop_id": "B", "from_stop_name": "Birch", "to_stop_id": "B", "to_stop_name": "Birch", "walk_seconds": 0,
      "buffer_seconds": 300, "state": "safe", "done": false,
    ]
  }

  /// 08:30 to 08:55: 1500 s, one change, leaving in 1500 s from 08:05.
  static var journey: [String: Any?] {
    let cedar = stop("C", "1003", "Cedar", 10.015625), birch = stop("B", "1002", "Birch", 10.0078125)
    let dogwood = stop("D", "1004", "Dogwood", 10.0234375)
    return [
      "departure": "2026-06-01T08:30:00Z", "arrival": "2026-06-01T08:55:00Z", "duration_seconds": 1500, "transfers": 1,
      "leave_in_seconds": 1500,
      "legs": [
        ride("T2", "R1", "1", "Alder", from: cedar, to: birch, "2026-06-01T08:30:00Z", "2026-06-01T08:40:00Z", accessible: 1),
        ride("U1", "R2", "2", "Dogwood", from: birch, to: dogwood, "2026-06-01T08:45:00Z", "2026-06-01T08:55:00Z", accessible: nil),
      ],
      "changes": [change],
    ]
  }

  /// The first frame of the watch at 08:05: before the first ride, arriving 08:55 as planned;
  /// each ride's times as the timetable has them (nothing live, nothing cancelled); no change
  /// has moved, so nothing is offered.
  static var frame: [String: Any?] {
    func ride(_ trip: String, _ name: String, _ headsign: String, _ from: String, _ to: String, _ times: [String]) -> [String: Any?] {
      [
        "trip_id": trip, "route_short_name": name, "headsign": headsign, "from_stop_id": from, "to_stop_id": to,
        "scheduled_departure": times[0], "expected_departure": times[0], "scheduled_arrival": times[1],
        "expected_arrival": times[1], "live": false, "cancelled": false,
      ]
    }
    return [
      "now": "2026-06-01T08:05:00Z", "progress": "before_first_ride", "expected_arrival": "2026-06-01T08:55:00Z",
      "rides": [
        ride("T2", "1", "Alder", "C", "B", ["2026-06-01T08:30:00Z", "2026-06-01T08:40:00Z"]),
        ride("U1", "2", "Dogwood", "B", "D", ["2026-06-01T08:45:00Z", "2026-06-01T08:55:00Z"]),
      ],
      "transfers": [change], "changed": [] as [Any?], "alternative": nil,
    ]
  }

  @Test func everyPlanGivesOneJourneyObjectAndOneChangeObject() throws {
    let (home, realtime) = try LiveShapeFeed.home()
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path] + realtime
    for extra in [["C", "D"], ["1003", "1004"], ["C", "D", "--depart", "08:05"], ["C", "D", "--arrive-by", "08:55"]] {
      let view = "plan " + extra.joined(separator: " ")
      let result = transit(["plan"] + extra + common)
      try #require(result.code == 0, "\(view): \(result.stderr)")
      let journeys = try ShapeGolden.node(result.stdout, ["journeys"])
      #expect(journeys.elements.count == 1, "\(view): \(journeys)")
      ShapeGolden.expect(journeys[0], Self.journey, view)
      #expect(journeys[0]?.keys == ["departure", "arrival", "duration_seconds", "transfers", "leave_in_seconds", "legs", "changes"])
    }

    let watch = transit(["plan", "C", "D", "--watch", "--count", "1"] + common)
    try #require(watch.code == 0, "\(watch.stderr)")
    let lines = watch.stdout.split(separator: "\n")
    #expect(lines.count == 1, "one JSON line per update: \(watch.stdout)")
    ShapeGolden.expect(try ShapeGolden.node(String(lines.first ?? "")), Self.frame, "plan --watch")

    // A frame's ride is a live ride, an answer of its own (`GuardedJourneyAnswer`'s rides: the trip, its
    // two stops, the scheduled and expected departure and arrival, live, cancelled), not the
    // ride leg of `plan --json` (the planned leg in full: its stops' objects, sequences and
    // access): its golden is `frame`'s, above. Its members, exactly:
    let ride = try ShapeGolden.node(String(lines.first ?? ""), ["rides", 0])
    #expect(
      ride.keys == [
        "trip_id", "route_short_name", "headsign", "from_stop_id", "to_stop_id", "scheduled_departure", "expected_departure",
        "scheduled_arrival", "expected_arrival", "live", "cancelled",
      ])
  }
}
