import Foundation
import GTFSRealtime
import Services
import TestSupport
import Testing

@testable import TransitCLI

/// `transit follow` and `transit record` on the demo network and its recorded sequence
/// (`Data/replay/`, see `DemoReplaySequence`).
@Suite struct FollowCommandTests {
  let home = DemoHome()
  let replay = packageRoot + "/" + DemoReplaySequence.directory

  func run(_ arguments: [String]) -> CLIResult {
    home.run(arguments)
  }

  /// Playing back waits through the command context's sleeper (no sleep of its own): the
  /// gaps between the recorded snapshots, at --speed.
  @Test func replayWaitsThroughTheContextsSleeper() throws {
    final class Slept: @unchecked Sendable { var seconds: [Double] = [] }
    let slept = Slept()
    let context = CommandContext.capturing()
    context.sleep = { slept.seconds.append($0) }
    let code = transit(["follow", "V27-1", "--replay", replay, "--speed", "2", "--data-dir", home.path], context: context).code
    #expect(code == 0, "\(context.stderr.text)")
    let times = Set(
      try FileManager.default.contentsOfDirectory(atPath: replay).compactMap { name in
        name.hasSuffix(".pb") ? Double(name.prefix { $0.isNumber }) : nil
      }
    ).sorted()
    #expect(slept.seconds == zip(times.dropFirst(), times).map { ($0 - $1) / 2 })
  }

  /// Alerts beside the followed vehicle come in the configured language, as in `departures`
  /// and `alerts` (issue 16: follow showed English whatever the setting).
  @Test func alertsInTheConfiguredLanguage() throws {
    var feed = DemoRealtimeSnapshot.alerts
    feed.entities[0].alert?.headerText = TranslatedString(translations: [
      .init(text: "77X diverted", language: "en"), .init(text: "77X dévié", language: "fr"),
    ])
    let path = home.path + "/multilingual.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    let follow = ["follow", "--trip", "77X-WK-0-0805", "--once", "--now", "2026-12-01T07:40:00Z", "--realtime", path]
    #expect(run(follow).stdout.contains("77X diverted"), "\(run(follow).stdout)")
    #expect(run(["config", "set", "language", "fr"]).code == 0)
    let french = run(follow)
    #expect(french.stdout.contains("77X dévié"), "\(french.stdout)")
    #expect(!french.stdout.contains("77X diverted"))
  }

  /// The committed .pb files are exactly what `DemoReplaySequence` encodes; with
  /// TRANSIT_WRITE_DEMO_REPLAY=1 this rewrites them instead.
  @Test func replayFilesMatchTheirGenerator() throws {
    for (name, bytes) in DemoReplaySequence.allFiles {
      let path = replay + "/" + name
      if ProcessInfo.processInfo.environment["TRANSIT_WRITE_DEMO_REPLAY"] == "1" {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
      }
      let committed = try #require(FileManager.default.contents(atPath: path), "\(path) is missing")
      #expect([UInt8](committed) == bytes, "\(path) differs from DemoReplaySequence; regenerate it")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: replay).filter { $0.hasSuffix(".pb") }
    #expect(Set(names) == Set(DemoReplaySequence.allFiles.map(\.name)))
  }

  @Test func jsonLinesOverTheReplay() throws {
    let result = run(["follow", "V27-1", "--replay", replay, "--speed", "100000", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let expected = try String(contentsOfFile: replay + "/follow-V27-1.jsonl", encoding: .utf8)
    #expect(result.stdout == expected)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == DemoReplaySequence.snapshots.count)
    // Live, live, live, dropped out (estimated) twice, then live on the next trip of the block.
    let estimated = try lines.map { line in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return object["estimated"] as? Bool
    }
    #expect(estimated == [false, false, false, true, true, false])
    #expect(lines.last?.contains("\"trip_id\":\"77X-WK-0-0805\"") == true)
    #expect(lines.last?.contains("\"route_short_name\":\"77X\"") == true)
  }

  @Test func onceFrameAtAStop() {
    let result = run(["follow", "V27-1", "--replay", replay, "--now", "2026-12-01T07:40:00Z", "--once"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        27 to Tallaght Interchange · vehicle 27 · 1 · 07:40
        live · reported 10 s ago · 0 km/h ↙ · on time
        at Kilnamanagh

          07:45          Tallaght Village             skipped
          07:48   8 min  Main Road, Tallaght Village  on time
          07:50  10 min  Tallaght (The Square)        on time
          07:51  11 min  Tallaght Interchange         on time

        ·───·───·───·───·───·───●───×───○───○───○

        """)
  }

  @Test func onceFrameAfterDroppingOutContinuesOnTheBlock() {
    let result = run(["follow", "V27-1", "--replay", replay, "--now", "2026-12-01T07:53:00Z", "--once"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        77X to Citywest Campus · vehicle 27 · 1 · 07:52
        estimated from the timetable
        continues as route 77X to Citywest Campus
        not in the feed since 07:44; timetable estimate
        at Tallaght Interchange

          08:05  13 min  Tallaght Interchange
          08:06  14 min  Tallaght Hospital
          08:09  17 min  Cookstown Way
          08:11  19 min  Fettercairn
          08:13  21 min  Brookfield
          08:16  24 min  Jobstown
          08:18  26 min  Citywest Road
          08:19  27 min  Fortunestown Lane
          08:21  29 min  Citywest Campus

        ●───○───○───○───○───○───○───○───○

        """)
  }

  @Test func textFramesOverTheWholeReplay() {
    let result = run(["follow", "V27-1", "--replay", replay, "--speed", "100000"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("next: Tymon Park (Páirc Thíomóin) · 07:39 · 3 min"))
    #expect(result.stdout.contains("back in the feed\nnext: Cookstown Way · 08:09 · 2 min"))
  }

  @Test func followsATripAndARouteToAStop() {
    let vehicles = replay + "/1796110800-vehicle-positions.pb", updates = replay + "/1796110800-trip-updates.pb"
    let trip = run([
      "follow", "--trip", "27-WK-0-0720", "--realtime", vehicles, "--realtime", updates, "--now", "2026-12-01T07:40:20Z", "--once",
    ])
    #expect(trip.code == 0, "\(trip.stderr)")
    #expect(trip.stdout.hasPrefix("27 to Tallaght Interchange · vehicle 27 · 1 · 07:40\nlive · reported 30 s ago"))
    let empty = replay + "/1796111280-vehicle-positions.pb"
    let untracked = run(["follow", "--trip", "27-WK-0-0720", "--now", "2026-12-01T07:30:00Z", "--once", "--realtime", empty])
    #expect(untracked.code == 0, "\(untracked.stderr)")
    #expect(untracked.stdout.contains("estimated from the timetable\nno vehicle in the feed; timetable estimate"))
    let atStop = run(["follow", "--route", "27", "--stop", "TINT", "--realtime", vehicles, "--now", "2026-12-01T07:40:20Z", "--once"])
    #expect(atStop.code == 0, "\(atStop.stderr)")
    #expect(atStop.stdout.hasPrefix("27 to Tallaght Interchange · vehicle 27 · 1"))
  }

  @Test func showsTheAlertsThatInformTheTrip() {
    let alerts = packageRoot + "/Data/realtime/demo-alerts.pb"
    let detour = run(["follow", "--trip", "77X-WK-0-0805", "--once", "--realtime", alerts, "--now", "2026-12-01T08:10:00Z"])
    #expect(detour.code == 0, "\(detour.stderr)")
    #expect(detour.stdout.contains("notice (detour): 77X diverted via Belgard Road"))
    // The 27 is not informed by the 77X detour or the Red line closure.
    let other = run(["follow", "--trip", "27-WK-0-0720", "--once", "--realtime", alerts, "--now", "2026-12-01T07:30:00Z"])
    #expect(other.code == 0, "\(other.stderr)")
    #expect(!other.stdout.contains("notice"))
  }

  @Test func unknownVehicleOrTripExits3() {
    let vehicles = replay + "/1796110800-vehicle-positions.pb"
    let vehicle = run(["follow", "V99", "--once", "--realtime", vehicles, "--now", "2026-12-01T07:40:20Z"])
    #expect(vehicle.code == 3)
    #expect(vehicle.stderr == "transit: unknown vehicle 'V99'\n")
    let trip = run(["follow", "--trip", "nope", "--once", "--realtime", vehicles])
    #expect(trip.code == 3)
    #expect(trip.stderr == "transit: unknown trip 'nope': not in the timetable, and no realtime feed adds it\n")
    #expect(run(["follow", "--route", "27", "--once"]).code == 2)
  }

  @Test func snapshotNamesAndDurations() throws {
    #expect(SnapshotNaming.kind(of: "/a/1796110560-vehicle-positions.pb") == "vehicle-positions")
    #expect(try ValueParser.duration("90", option: "--duration") == 90)
    #expect(try ValueParser.duration("15m", option: "--duration") == 900)
    #expect(try ValueParser.duration("2h", option: "--duration") == 7200)
    #expect(throws: UsageError.self) { try ValueParser.duration("soon", option: "--duration") }
    let snapshots = try SnapshotFolder(path: replay).snapshots()
    #expect(snapshots.map(\.time.seconds) == DemoReplaySequence.snapshots.map { Int64($0.0) })
    #expect(snapshots.allSatisfy { $0.paths.count == 2 })
  }

  @Test func recordSavesSnapshotsThatReplay() throws {
    let first = replay + "/" + DemoReplaySequence.allFiles[0].name
    let second = replay + "/" + DemoReplaySequence.allFiles[1].name
    let added = run([
      "feeds", "add", "demo", "--gtfs", "file://" + packageRoot + "/Data/gtfs.zip", "--trip-updates", "file://" + first,
      "--vehicle-positions", "file://" + second,
    ])
    try #require(added.code == 0, "\(added.stderr)")
    let out = TemporaryFolder()
    // On a clock that moves as the command sleeps: the second of recording waits for nothing real.
    let context = CommandContext.stepped()
    let recorded = transit(["record", out.path + "/ride", "--duration", "1s", "--data-dir", home.path], context: context)
    #expect(recorded.code == 0, "\(recorded.stderr)")
    // What the last snapshots matched in the demo timetable, by the one matching path.
    #expect(recorded.stdout.hasPrefix("saved 2 snapshots in \(out.path)/ride; the last snapshot: "), "\(recorded.stdout)")
    #expect(recorded.stdout.hasSuffix(" matched\n"))
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path + "/ride").sorted()
    #expect(names == [DemoReplaySequence.allFiles[0].name, DemoReplaySequence.allFiles[1].name])
    let followed = run(["follow", "V27-1", "--replay", out.path + "/ride", "--once"])
    #expect(followed.stdout.hasPrefix("27 to Tallaght Interchange · vehicle 27 · 1 · 07:36"), "\(followed.stderr)")
    #expect(run(["record", out.path + "/x", "--duration", "soon"]).code == 2)
  }

  @Test func vehiclesFromAReplaySnapshot() {
    let live = run(["vehicles", "--replay", replay, "--now", "2026-12-01T07:41:00Z", "--live-only"])
    #expect(live.code == 0, "\(live.stderr)")
    #expect(
      live.stdout == """
        1 live vehicle · 07:41
        realtime: fresh, feed 60 s old (07:40) · 1 of 1 trip update, 1 of 1 vehicle matched
        27  Tallaght Interchange  27 · 1  ↙  0 km/h  70 s  at Kilnamanagh  on time  live

        """)
    let last = run(["vehicles", "--replay", replay, "--live-only", "--json"])
    #expect(last.stdout.contains("\"trip_id\": \"77X-WK-0-0805\""), "\(last.stdout)")
  }
}
