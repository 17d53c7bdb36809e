import Foundation
import GTFSRealtime
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// `--line` of `departures` and `commute` in each state, and the commute watch's bell (issue
/// 20). Expected lines are worked out by hand from the demo timetable (`Data/gtfs`) and its
/// realtime snapshot (`DemoRealtimeSnapshot`): the 27 of 07:50 from Tallaght Interchange
/// platform A leaves at 07:53 (3 min late); at Tallaght (The Square) [4530] the 27 towards
/// Crumlin Hospital is timetabled at 07:51 and, with that delay carried forward, leaves 07:54.
@Suite struct StatusLineTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"
  let tripUpdates = packageRoot + "/" + DemoRealtimeSnapshot.tripUpdatesPath

  func run(_ arguments: [String], context: CommandContext? = nil) -> CLIResult {
    guard let context else { return home.run(arguments) }
    return transit(arguments + ["--data-dir", home.path], context: context)
  }

  // MARK: - departures --line

  @Test func live() {
    let result = run(["departures", "TINT", "--line", "--route", "27", "--now", now, "--realtime", tripUpdates])
    #expect(result.code == 0)
    // 07:53 expected, 180 s late: +3; 13 min from 07:40.
    #expect(result.stdout == "27 07:53 +3 · in 13 min\n")
  }

  @Test func scheduledOnly() {
    let result = run(["departures", "TINT", "--line", "--route", "27", "--now", now])
    #expect(result.code == 0)
    #expect(result.stdout == "27 07:50 sched · in 10 min\n")
  }

  @Test func noDeparture() {
    // Nothing of route 27 in the 5 minutes from 07:40: the window ends 07:45.
    let result = run(["departures", "TINT", "--line", "--route", "27", "--window", "5", "--now", now])
    #expect(result.code == 0)
    #expect(result.stdout == "no 27 before 07:45\n")
  }

  @Test func staleFeed() {
    // At 07:45 the feed of 07:39:30 is 330 s old (stale beyond 90 s, still used below 15 min).
    let result = run(["departures", "TINT", "--line", "--route", "27", "--now", "2026-12-01T07:45:00Z", "--realtime", tripUpdates])
    #expect(result.code == 0)
    #expect(result.stdout == "27 07:53 +3 · in 8 min · feed 5 min old\n")
  }

  @Test func withAWalk() {
    // From 53.2891,-6.3735 to Tallaght Interchange: 173 m, 216.3 m of walk, 167 s at 1.3 m/s.
    // 13 min ahead: a margin of 78 s; leave by 780 - 167 - 78 = 535 s: in 8 min.
    let result = run([
      "departures", "TINT", "--line", "--route", "27", "--from", "53.2891,-6.3735", "--now", now, "--realtime", tripUpdates,
    ])
    #expect(result.stdout == "27 07:53 +3 · leave in 8 min\n")
  }

  /// A configured feed whose server answers after 5 s: the line waits --timeout and answers.
  func slowServer(firstAnswersAtOnce: Bool) throws -> TestHTTPServer {
    let body = DemoRealtimeSnapshot.tripUpdates.encoded()
    let server = try TestHTTPServer(lifetimeSeconds: 30) { _, count in
      TestHTTPServer.Response(body: body, delaySeconds: firstAnswersAtOnce && count == 1 ? 0 : 5)
    }
    #expect(run(["feeds", "add", "demo", "--trip-updates", server.baseURL + "/tu"]).code == 0)
    return server
  }

  @Test func fetchTimeoutWithNothingCached() throws {
    let server = try slowServer(firstAnswersAtOnce: false)
    let started = Date()
    let result = run(["departures", "TINT", "--line", "--route", "27", "--timeout", "0.5", "--now", now])
    #expect(Date().timeIntervalSince(started) < 3)
    #expect(result.code == 0)
    #expect(result.stdout == "27 07:50 sched · in 10 min · offline\n")
    #expect(result.stderr == "")
    server.stop()
  }

  @Test func fetchTimeoutFallsBackToTheCache() throws {
    let server = try slowServer(firstAnswersAtOnce: true)
    let clock = UnixTime(1_796_110_800)
    let first = CommandContext.capturing()
    first.clock = .fixed(clock)
    #expect(run(["departures", "TINT", "--line", "--route", "27", "--now", now], context: first).stdout == "27 07:53 +3 · in 13 min\n")
    // A minute later the cached snapshot is older than the 30 s period: fetched again, too slow.
    let later = CommandContext.capturing()
    later.clock = .fixed(clock + 60)
    let started = Date()
    let result = run(["departures", "TINT", "--line", "--route", "27", "--timeout", "0.5", "--now", now], context: later)
    #expect(Date().timeIntervalSince(started) < 3)
    #expect(result.stdout == "27 07:53 +3 · in 13 min · offline\n")
    server.stop()
  }

  @Test func lineRefusesWatchAndGroup() {
    #expect(run(["departures", "TINT", "--line", "--watch"]).code == 2)
    #expect(run(["departures", "TINT", "--line", "--group"]).code == 2)  // --line --json is waybar's (StatusLineFormatTests)
    #expect(run(["departures", "TINT", "--timeout", "1"]).code == 2)
  }

  // MARK: - commute --line

  func addCommute(route: String = "27") {
    let add = run(["commute", "add", "work", "--stop", "4530", "--route", route, "--arrive-by", "07:55", "--walk", "5"])
    #expect(add.code == 0, "\(add.stderr)")
  }

  @Test func commuteLineLive() {
    addCommute()
    // The latest 27 leaving 4530 by 07:55 is the 07:51, 3 min late: 07:54. Walk 300 s; 840 s
    // ahead: margin 84 s; leave by 07:54:00 - 384 s = 07:47:36: 456 s from 07:40, 7 min.
    let result = run(["commute", "work", "--line", "--now", now, "--realtime", tripUpdates])
    #expect(result.code == 0)
    #expect(result.stdout == "27 07:54 +3 · leave in 7 min\n")
  }

  @Test func commuteLineScheduledOnly() {
    addCommute()
    // 07:51: 660 s ahead, margin 66 s; leave by 07:51:00 - 366 s = 07:44:54: 294 s, 4 min.
    #expect(run(["commute", "work", "--line", "--now", now]).stdout == "27 07:51 sched · leave in 4 min\n")
  }

  @Test func commuteLineWithNothingToTake() {
    addCommute(route: "77X")  // the 77X does not call at 4530
    let result = run(["commute", "work", "--line", "--now", now])
    #expect(result.code == 0)
    #expect(result.stdout == "no 77X before 07:55\n")
    // Saturday 2026-12-05: a mon-fri commute.
    #expect(run(["commute", "work", "--line", "--now", "2026-12-05T07:40:00Z"]).stdout == "no work commute today\n")
  }

  // MARK: - commute --watch

  /// A context whose clock starts at `start` and moves only when the command sleeps.
  func steppedContext(start: UnixTime, environment: [String: String] = [:]) -> CommandContext {
    CommandContext.stepped(from: start, environment: environment)
  }

  @Test func commuteWatchRingsTheBellOnceAtLeaveTime() {
    addCommute()
    // The 07:51, 5 min of walk. At 07:45:27 it is 333 s ahead: margin 33 s, leave by
    // 07:51:00 - 333 s = 07:45:27, now. At 07:45:26 (334 s ahead, margin 33 s) not yet.
    let context = steppedContext(start: UnixTime(1_796_111_100))  // 07:45:00
    let result = run(["commute", "work", "--watch", "--count", "2"], context: context)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.filter { $0 == "\u{07}" }.count == 1, "\(result.stdout)")
    #expect(result.stdout.contains("\u{07}07:45:27 time to leave for the 07:51 27 to Crumlin Hospital\n"), "\(result.stdout)")
    #expect(result.stdout.hasPrefix("commute 'work' · 07:45:00 · timetable only\n"), "\(result.stdout)")
    // Two updates, 30 s apart (no feed: the default period).
    #expect(result.stdout.contains("commute 'work' · 07:45:30 · timetable only\n"), "\(result.stdout)")
  }

  @Test func commuteWatchWithoutTheBell() {
    addCommute()
    #expect(run(["config", "set", "leave-margin", "0"]).code == 0)
    // No margin: leave at 07:51:00 - 300 s = 07:46:00.
    let context = steppedContext(start: UnixTime(1_796_111_130))  // 07:45:30
    let result = run(["commute", "work", "--watch", "--count", "2", "--no-bell"], context: context)
    #expect(!result.stdout.contains("\u{07}"), "\(result.stdout)")
    #expect(result.stdout.contains("\n07:46:00 time to leave for the 07:51 27 to Crumlin Hospital\n"), "\(result.stdout)")
  }

  @Test func commuteWatchNotifiesTheDesktop() throws {
    addCommute()
    let folder = TemporaryFolder()
    let log = folder.path + "/notified"
    let script = folder.path + "/notify-send"
    try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(log)\n".write(toFile: script, atomically: true, encoding: .utf8)
    #expect(chmod(script, 0o755) == 0)
    let context = steppedContext(start: UnixTime(1_796_111_100), environment: ["PATH": folder.path, "DISPLAY": ":0"])
    #expect(run(["commute", "work", "--watch", "--count", "2"], context: context).code == 0)
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "transit\ntime to leave for the 07:51 27 to Crumlin Hospital\n")
    // Without a desktop session, no notification.
    try FileManager.default.removeItem(atPath: log)
    let headless = steppedContext(start: UnixTime(1_796_111_100), environment: ["PATH": folder.path])
    #expect(run(["commute", "work", "--watch", "--count", "2"], context: headless).code == 0)
    #expect(!FileManager.default.fileExists(atPath: log))
  }
}
