import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// One alert, one JSON shape (issue 33): the alert object is the same wherever an answer shows
/// it: `alerts --json` (every filter, `--all`, `--peek`) and the alerts behind a route's colour
/// in `status --json` (routes asked, or those with an alert). The golden object is worked out
/// by hand from `LiveShapeFeed`'s alert "a1" at 08:05:00; `seen` is whether an `alerts`
/// listing (not a peek) showed it before, in every view. No other answer carries alerts in its
/// JSON (the board, `follow` and `trip show` show them as text only).
@Suite struct AlertShapeTests {
  /// a1: DETOUR, CONSTRUCTION, its English texts and url, in force 08:00-09:00 (UTC), informing
  /// route R1 alone (no agency, route type, stop or trip in its selector).
  static func golden(seen: Bool) -> [String: Any?] {
    [
      "id": "a1", "effect": "DETOUR", "cause": "CONSTRUCTION", "header": "1 diverted at Birch",
      "description": "Birch is served from Elm Road.", "url": "https://example.org/a1",
      "active_periods": [["start": "2026-06-01T08:00:00Z", "end": "2026-06-01T09:00:00Z"] as [String: Any?]],
      "informed": [["agency_id": nil, "route_id": "R1", "route_type": nil, "stop_id": nil, "trip_id": nil] as [String: Any?]],
      "seen": seen,
    ]
  }

  /// DESIGN.md's `alerts --json` members, in its order.
  static let documented = ["id", "effect", "cause", "header", "description", "url", "active_periods", "informed", "seen"]

  @Test func alertsAndStatusShowOneObject() throws {
    let (home, realtime) = try LiveShapeFeed.home()
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path] + realtime
    func alert(_ arguments: [String], _ path: [Any], seen: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let view = arguments.joined(separator: " ")
      let result = transit(arguments + common)
      try #require(result.code == 0, "\(view): \(result.stderr)", sourceLocation: sourceLocation)
      let list = try ShapeGolden.node(result.stdout, Array(path.dropLast()), sourceLocation: sourceLocation)
      #expect(list.elements.count == 1, "\(view): \(list)", sourceLocation: sourceLocation)
      let object = try ShapeGolden.node(result.stdout, path, sourceLocation: sourceLocation)
      ShapeGolden.expect(object, Self.golden(seen: seen), view, sourceLocation: sourceLocation)
      ShapeGolden.expectOrder(object, documented: Self.documented, view, sourceLocation: sourceLocation)
    }

    // Nothing listed yet: not seen, and neither status nor a peek remembers it.
    try alert(["status", "1"], [0, "alerts", 0], seen: false)
    try alert(["status"], [0, "alerts", 0], seen: false)
    for filter in [[], ["--route", "1"], ["--stop", "B"], ["--trip", "T1"], ["--mode", "bus"], ["--all"]] {
      try alert(["alerts", "--peek"] + filter, [0], seen: false)
    }
    // The first listing shows it unseen and remembers it; every view then says seen.
    try alert(["alerts"], [0], seen: false)
    try alert(["alerts"], [0], seen: true)
    try alert(["alerts", "--route", "1", "--peek"], [0], seen: true)
    try alert(["status", "1"], [0, "alerts", 0], seen: true)
  }

  /// An effect the proto does not name (42) is the number in every view, as `alerts` has
  /// always written it (protobuf's JSON mapping of an unknown enum value), not the text "42".
  @Test func anUnknownEffectIsOneNumberEverywhere() throws {
    let (home, _) = try LiveShapeFeed.home()
    let alert = Alert(
      activePeriods: [TimeRange(start: 1_780_300_800, end: 1_780_304_400)], informedEntities: [EntitySelector(routeID: "R1")],
      effect: Alert.Effect(rawValue: 42), headerText: TranslatedString(translations: [.init(text: "Something on 1")]))
    let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: LiveShapeFeed.stamp)
    let path = home.path + "/unknown-effect.pb"
    try Data(FeedMessage(header: header, entities: [FeedEntity(id: "a42", alert: alert)]).encoded())
      .write(to: URL(fileURLWithPath: path))
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path, "--realtime", path]
    let listed = transit(["alerts", "--peek"] + common)
    try #require(listed.code == 0, "\(listed.stderr)")
    ShapeGolden.expect(try ShapeGolden.node(listed.stdout, [0, "effect"]), 42, "alerts: effect")
    ShapeGolden.expect(try ShapeGolden.node(listed.stdout, [0, "cause"]), "UNKNOWN_CAUSE", "alerts: cause")
    let status = transit(["status", "1"] + common)
    try #require(status.code == 0, "\(status.stderr)")
    ShapeGolden.expect(try ShapeGolden.node(status.stdout, [0, "alerts", 0, "effect"]), 42, "status: effect")
  }

  /// With no timetables held, the alert's times are on the TZ clock (else UTC) in `alerts`
  /// and `status` alike: a1's 08:00-09:00 UTC is 04:00-05:00 in New York (EDT, -04:00, in June).
  @Test func withoutTimetablesBothReadTheirTimesOnTheTZClock() throws {
    let (home, realtime) = try LiveShapeFeed.home()
    let empty = TemporaryFolder()
    try FileManager.default.copyItem(atPath: try #require(realtime.last), toPath: empty.path + "/alerts.pb")
    _ = home
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", empty.path, "--realtime", empty.path + "/alerts.pb"]
    let period: [String: Any?] = ["start": "2026-06-01T04:00:00-04:00", "end": "2026-06-01T05:00:00-04:00"]
    for (arguments, path) in [
      (["alerts", "--peek"], [0, "active_periods", 0] as [Any]), (["status"], [0, "alerts", 0, "active_periods", 0]),
    ] {
      let result = transit(arguments + common, environment: ["TZ": "America/New_York"])
      try #require(result.code == 0, "\(arguments): \(result.stderr)")
      ShapeGolden.expect(try ShapeGolden.node(result.stdout, path), period, "\(arguments)")
    }
  }
}
