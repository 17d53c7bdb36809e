import Foundation
import TestSupport
import Testing

/// The thresholds from the settings reach every command (issue 16: after `config set late
/// 900`, departures said "on time" while vehicles said "3 min late").
@Suite struct SettingsReachEveryCommandTests {
  static let now = "2026-12-01T07:40:00Z"
  let home = TemporaryFolder()
  var tripUpdates: String { packageRoot + "/Data/realtime/demo-tripupdates.pb" }
  var vehiclePositions: String { packageRoot + "/Data/realtime/demo-vehiclepositions.pb" }

  init() throws {
    let result = transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", home.path])
    guard result.code == 0 else { throw FixtureError(result.stderr) }
  }

  func run(_ arguments: [String]) -> CLIResult {
    transit(arguments + ["--data-dir", home.path, "--now", Self.now, "--realtime", tripUpdates, "--realtime", vehiclePositions])
  }

  @Test func lateThresholdInVehiclesAndFollow() throws {
    // The demo's route 27 trip 27-WK-0-0720 runs 60 s late, 27-WK-1-0750 3 min late (by hand
    // from Data/realtime: the updates' delays).
    let before = try #require(run(["vehicles", "--json"]).json as? [[String: Any]])
    let lateBefore = before.filter { $0["delay_status"] as? String == "late" }.compactMap { $0["trip_id"] as? String }
    #expect(!lateBefore.isEmpty)
    #expect(transit(["config", "set", "late", "900", "--data-dir", home.path]).code == 0)
    let after = try #require(run(["vehicles", "--json"]).json as? [[String: Any]])
    for view in after where view["delay_seconds"] as? Int != nil {
      let delay = view["delay_seconds"] as! Int
      let expected = delay >= 900 ? "late" : delay <= -60 ? "early" : "on_time"
      #expect(view["delay_status"] as? String == expected, "\(view["trip_id"] ?? "?")")
    }
    let text = run(["vehicles"]).stdout
    for trip in lateBefore { #expect(!text.contains("min late"), "\(trip) still late in: \(text)") }
    let departures = run(["departures", "TINT", "--route", "27", "--json"])
    let rows = try #require((departures.json as? [String: Any])?["departures"] as? [[String: Any]])
    #expect(!rows.contains { $0["status"] as? String == "late" })
  }
}
