import Foundation
import Testing

/// One vehicle, one JSON shape (issue 33): the vehicle object is the same wherever an answer
/// shows it: `vehicles --json` (all, by route, from a recording), `follow --json` (by vehicle,
/// by trip, by route to a stop, with --alight, from a recording) and the `vehicle` member of
/// `trip show --json`, live or placed by the timetable. The golden object is worked out by
/// hand from `LiveShapeFeed` at 08:05:00 (`vehicles --watch` draws text only: it refuses
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

    // --alight adds its "alight" object after the vehicle's members, which stay as they are.
    let alighting = try ShapeGolden.node(try document(["follow", "V1", "--once", "--alight", "C"]))
    #expect(alighting.keys == (try ShapeGolden.node(try document(["follow", "V1", "--once"]))).keys + ["alight"])
    for (key, value) in Self.golden { ShapeGolden.expect(alighting[key], value, "follow --alight: \(key)") }

    // A recording (`transit record`'s names) of the same feeds: `vehicles --replay` reads the
    // snapshot at --now; `follow --replay` shows each snapshot at its own time, 08:04:30, when
    // the position is 0 s old.
    let recording = home.path + "/recording"
    try FileManager.default.createDirectory(atPath: recording, withIntermediateDirectories: true)
    for path in realtime where path.hasSuffix(".pb") {
      let name = "\(LiveShapeFeed.stamp)-" + (path.split(separator: "/").last.map(String.init) ?? "")
      try FileManager.default.copyItem(atPath: path, toPath: recording + "/" + name)
    }
    let withoutRealtime = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path]
    let replayed = transit(["vehicles", "--replay", recording] + withoutRealtime)
    try #require(replayed.code == 0, "\(replayed.stderr)")
    matches(try ShapeGolden.node(replayed.stdout, [0]), "vehicles --replay")
    let followed = transit(["follow", "V1", "--replay", recording] + withoutRealtime)
    try #require(followed.code == 0, "\(followed.stderr)")
    var atSnapshot = Self.golden
    atSnapshot["age_seconds"] = 0
    ShapeGolden.expect(try ShapeGolden.node(followed.stdout), atSnapshot, "follow --replay")

    // The trip's vehicle is the same object.
    for reference in ["T1", "V1"] {
      matches(try ShapeGolden.node(try document(["trip", "show", reference]), ["vehicle"]), "trip show \(reference): vehicle")
    }
  }

  /// A trip placed by the timetable alone is the same object: at 08:35, with no realtime, T2
  /// runs from Cedar (08:30) to Birch (08:40), half way there (its position interpolated
  /// between the two stops, an exact binary fraction), in transit to Birch; no vehicle, report,
  /// bearing, speed, delay or occupancy.
  @Test func anEstimatedTripIsTheSameObject() throws {
    let (home, _) = try LiveShapeFeed.home()
    let common = ["--json", "--now", "2026-06-01T08:35:00Z", "--data-dir", home.path]
    let golden: [String: Any?] = [
      "vehicle_id": nil, "label": nil, "trip_id": "T2", "route_id": "R1", "route_short_name": "1", "lat": 10.01171875, "lon": 10.0,
      "bearing": nil, "speed_mps": nil, "timestamp": nil, "age_seconds": nil, "current_stop_id": "B", "current_stop_sequence": 2,
      "status": "IN_TRANSIT_TO", "estimated": true, "added": false, "position_source": "timetable", "delay_seconds": nil,
      "delay_status": nil, "occupancy": nil,
    ]
    let listed = transit(["vehicles"] + common)
    try #require(listed.code == 0, "\(listed.stderr)")
    #expect(try ShapeGolden.node(listed.stdout).elements.count == 1)
    let followed = transit(["follow", "--trip", "T2", "--once"] + common)
    try #require(followed.code == 0, "\(followed.stderr)")
    for (object, view) in [(try ShapeGolden.node(listed.stdout, [0]), "vehicles"), (try ShapeGolden.node(followed.stdout), "follow")] {
      #expect(Set(object.keys) == Set(Self.golden.keys), "\(view): \(object.keys)")
      ShapeGolden.expectOrder(object, documented: Self.documented, view)
      for (key, value) in golden { ShapeGolden.expect(object[key], value, "\(view).\(key)") }
      // Birch, then Alder: the stops still ahead, each with the members of a live one.
      let stops = object["next_stops"]?.elements ?? []
      #expect(stops.map { $0["stop_id"]?.text } == ["B", "A"], "\(view): \(stops)")
      #expect(stops.allSatisfy { $0.keys == Self.documentedNextStop }, "\(view): \(stops)")
    }
  }
}
