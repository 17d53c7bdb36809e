import Testing

/// One vehicle, one JSON shape (issue 33): the vehicle object is the same wherever an answer
/// shows it: `vehicles --json` (all, by route), `follow --once --json` (by vehicle, by trip, by
/// route to a stop) and the `vehicle` member of `trip show --json`. The golden object is worked
/// out by hand from `LiveShapeFeed` at 08:05:00 (`vehicles --watch` draws text only: it refuses
/// `--json`).
@Suite struct VehicleShapeTests {
  /// V1's object. Its own position (exact binary fractions, so the floats print as written),
  /// bearing and speed; reported at 08:04:30, so 30 s old at 08:05:00; its own
  /// current_stop_sequence 2 (Birch) and IN_TRANSIT_TO (rule 8); the delay at that stop is the
  /// update's 120 s, late at the default threshold of +120 s (rule 12); no occupancy in the
  /// position. Next stops: Birch at 08:10 + 120 s, Cedar at 08:20 with the delay carried on
  /// (rule 6).
  static var golden: [String: Any?] {
    [
      "vehicle_id": "V1", "label": "Bus 1", "trip_id": "T1", "route_id": "R1", "route_short_name": "1", "lat": 10.00390625,
      "lon": 10.0, "bearing": 8.0, "speed_mps": 4.5, "timestamp": "2026-06-01T08:04:30Z", "age_seconds": 30,
      "current_stop_id": "B", "current_stop_sequence": 2, "status": "IN_TRANSIT_TO", "estimated": false, "added": false,
      "position_source": "vehicle", "delay_seconds": 120, "delay_status": "late", "occupancy": nil,
      "next_stops": [
        ["stop_id": "B", "name": "Birch", "expected": "2026-06-01T08:12:00Z", "delay_seconds": 120] as [String: Any?],
        ["stop_id": "C", "name": "Cedar", "expected": "2026-06-01T08:22:00Z", "delay_seconds": 120],
      ],
    ]
  }

  /// DESIGN.md's `vehicles --json` / `follow --json` members, in its order.
  static let documented = [
    "vehicle_id", "label", "trip_id", "route_id", "route_short_name", "lat", "lon", "bearing", "speed_mps", "timestamp",
    "age_seconds", "current_stop_id", "current_stop_sequence", "status", "estimated", "next_stops",
  ]

  /// DESIGN.md's members of a next stop, in its order.
  static let documentedNextStop = ["stop_id", "name", "expected", "delay_seconds"]

  func matches(_ object: ShapeGolden.Node, _ view: String, sourceLocation: SourceLocation = #_sourceLocation) {
    ShapeGolden.expect(object, Self.golden, view, sourceLocation: sourceLocation)
    ShapeGolden.expectOrder(object, documented: Self.documented, view, sourceLocation: sourceLocation)
    for stop in object["next_stops"]?.elements ?? [] {
      ShapeGolden.expectOrder(stop, documented: Self.documentedNextStop, view + ".next_stops", sourceLocation: sourceLocation)
    }
  }

  @Test func vehiclesFollowAndTripShowShowOneObject() throws {
    let (home, realtime) = try LiveShapeFeed.home()
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path] + realtime
    func document(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
      let result = transit(arguments + common)
      try #require(result.code == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
      return result.stdout
    }

    // The list holds V1 alone: T2 and U1 do not run yet at 08:05, so nothing is estimated.
    let all = try ShapeGolden.node(try document(["vehicles"]))
    #expect(all.elements.count == 1, "\(all)")
    matches(try #require(all[0]), "vehicles")
    matches(try ShapeGolden.node(try document(["vehicles", "--route", "1", "--live-only"]), [0]), "vehicles --route")

    // follow --json writes JSON Lines: one object per update, one update with --once.
    for target in [["V1"], ["--trip", "T1"], ["--route", "1", "--stop", "C"]] {
      let lines = try document(["follow"] + target + ["--once"]).split(separator: "\n")
      #expect(lines.count == 1)
      matches(try ShapeGolden.node(String(lines.first ?? "")), "follow \(target.joined(separator: " "))")
    }

    // The trip's vehicle is the same object.
    for reference in ["T1", "V1"] {
      matches(try ShapeGolden.node(try document(["trip", "show", reference]), ["vehicle"]), "trip show \(reference): vehicle")
    }
  }
}
