import Testing

/// One trip, one JSON shape (issue 33): `trip show --json` gives the same document whichever
/// way the trip is named: its trip_id, its vehicle, its route at a stop and time, or its
/// trip_id on a date. The golden trip, calls and next trip are worked out by hand from
/// `LiveShapeFeed` at 08:05:00 (the `vehicle` member is `VehicleShapeTests`' object; the calls
/// appear nowhere else: `follow --json` gives the vehicle's `next_stops`).
@Suite struct TripShapeTests {
  /// T1 of 2026-06-01: route R1 "1", headsign Cedar, direction 0, block B1, wheelchair
  /// accessible 1, no trip_short_name, not a frequency trip (no start_time), scheduled.
  static var trip: [String: Any?] {
    [
      "trip_id": "T1", "trip_short_name": nil, "route_id": "R1", "route_short_name": "1", "headsign": "Cedar",
      "direction_id": 0, "block_id": "B1", "service_date": "20260601", "start_time": nil, "wheelchair_accessible": 1,
      "cancelled": false, "added": false,
    ]
  }

  /// T1's calls. V1 is in transit to Birch (sequence 2), so Alder is passed, Birch next and
  /// Cedar ahead, and the vehicle is at none of them. Alder has no prediction (the update
  /// starts at Birch and nothing propagates backwards); Birch has the update's 120 s;
  /// Cedar carries it on (rule 6: propagated). Alder's wheelchair_boarding 1 on an accessible
  /// trip is accessible; Birch and Cedar say nothing, so unknown. No platform codes.
  static var calls: [Any?] {
    func call(
      _ id: String, _ name: String, _ sequence: Int, _ scheduled: String, _ expected: String?, _ delay: Int?, _ source: String,
      _ status: String, _ boarding: Int?, _ access: String
    ) -> [String: Any?] {
      [
        "stop_id": id, "name": name, "platform": nil, "stop_sequence": sequence, "scheduled_arrival": scheduled,
        "scheduled_departure": scheduled, "expected_arrival": expected, "expected_departure": expected, "delay_seconds": delay,
        "source": source, "status": status, "vehicle_here": false, "wheelchair_boarding": boarding, "wheelchair_access": access,
      ]
    }
    return [
      call("A", "Alder", 1, "2026-06-01T08:00:00Z", nil, nil, "schedule", "passed", 1, "accessible"),
      call("B", "Birch", 2, "2026-06-01T08:10:00Z", "2026-06-01T08:12:00Z", 120, "realtime", "next", nil, "unknown"),
      call("C", "Cedar", 3, "2026-06-01T08:20:00Z", "2026-06-01T08:22:00Z", 120, "propagated", "ahead", nil, "unknown"),
    ]
  }

  /// The block's next trip: T2 of route 1 to Alder, leaving Cedar at 08:30.
  static var nextTrip: [String: Any?] {
    ["trip_id": "T2", "route_short_name": "1", "headsign": "Alder", "departure": "2026-06-01T08:30:00Z"]
  }

  @Test func everyWayOfNamingTheTripGivesOneDocument() throws {
    let (home, realtime) = try LiveShapeFeed.home()
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path] + realtime
    var first: String?
    for reference in [["T1"], ["V1"], ["Bus 1"], ["--route", "1", "--stop", "A", "--at", "08:00"], ["T1", "--date", "2026-06-01"]] {
      let view = "trip show \(reference.joined(separator: " "))"
      let result = transit(["trip", "show"] + reference + common)
      try #require(result.code == 0, "\(view): \(result.stderr)")
      let document = try ShapeGolden.node(result.stdout)
      #expect(
        document.keys == ["trip", "now", "realtime", "vehicle", "occupancy", "calls", "next_trip"], "\(view): \(document.keys)")
      ShapeGolden.expect(document["trip"], Self.trip, view + ": trip")
      ShapeGolden.expect(document["now"], "2026-06-01T08:05:00Z", view + ": now")
      ShapeGolden.expect(document["vehicle"], VehicleShapeTests.golden, view + ": vehicle")
      ShapeGolden.expect(document["occupancy"], nil, view + ": occupancy")
      ShapeGolden.expect(document["calls"], Self.calls, view + ": calls")
      ShapeGolden.expect(document["next_trip"], Self.nextTrip, view + ": next_trip")
      // Each way of naming it gives the same document, byte for byte.
      if let first { #expect(result.stdout == first, "\(view) differs from trip show T1") }
      first = first ?? result.stdout
    }
  }
}
