import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// `--line --format TEMPLATE` and `--line --json` (issue 39). Expected values are worked out by
/// hand from the demo timetable and its realtime snapshot (as in `StatusLineTests`): at 07:40
/// the 27 of 07:50 from Tallaght Interchange leaves 07:53, 180 s late; the 54A of 07:55 leaves
/// 07:59, 4 min late; the Red line's 07:50 leaves 07:51, 60 s late (on time: late is from +2 min).
@Suite struct StatusLineFormatTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"
  let tripUpdates = packageRoot + "/" + DemoRealtimeSnapshot.tripUpdatesPath
  static let everyField = "{route}|{headsign}|{clock}|{min}|{delay}|{status}|{leave}|{note}"

  func line(_ extra: [String], route: String = "27", at time: String? = nil, live: Bool = true) -> CLIResult {
    var arguments = ["departures", "TINT", "--line", "--route", route, "--now", time ?? now] + extra
    if live { arguments += ["--realtime", tripUpdates] }
    return home.run(arguments)
  }

  // MARK: - Fields

  @Test func everyFieldOfALateDeparture() {
    let result = line(["--format", Self.everyField])
    #expect(result.code == 0, "\(result.stderr)")
    // 07:53 is 13 min from 07:40; +3 and late (180 s); no --from: the countdown.
    #expect(result.stdout == "27|Crumlin Hospital|07:53|13|+3|late|in 13 min|\n")
  }

  @Test func everyFieldFromTheTimetableOnly() {
    let result = line(["--format", Self.everyField], live: false)
    #expect(result.stdout == "27|Crumlin Hospital|07:50|10|sched|scheduled|in 10 min|\n")
  }

  @Test func onTimeAndLateByTheThresholds() {
    // At 07:40:30 the Red line's next is the 07:50, expected 07:51: +1 but on time.
    let red = line(["--format", "{route} {clock} {delay} {status} {min}"], route: "Red", at: "2026-12-01T07:40:30Z")
    #expect(red.stdout == "Red 07:51 +1 on time 10\n")
    // The 54A's 07:55 expected 07:59 (interpolated): +4, late, 19 min from 07:40.
    #expect(line(["--format", "{route} {clock} {delay} {status} {min}"], route: "54A").stdout == "54A 07:59 +4 late 19\n")
  }

  @Test func leaveAndNoteFields() {
    // From 53.2891,-6.3735: leave in 8 min (StatusLineTests.withAWalk works it out).
    #expect(line(["--format", "{leave}", "--from", "53.2891,-6.3735"]).stdout == "leave in 8 min\n")
    // At 07:45 the feed of 07:39:30 is 330 s old: stale, "feed 5 min old".
    #expect(line(["--format", "{min} [{note}]"], at: "2026-12-01T07:45:00Z").stdout == "8 [feed 5 min old]\n")
  }

  @Test func bracesAndPlainText() {
    #expect(line(["--format", "{{route}} is {route}: {{ }}"]).stdout == "{route} is 27: { }\n")
    #expect(line(["--format", "no fields at all"]).stdout == "no fields at all\n")
  }

  @Test func theDefaultIsTodaysLine() {
    // Word for word what --line printed before --format (StatusLineTests has every state).
    #expect(line([]).stdout == "27 07:53 +3 · in 13 min\n")
    #expect(line([], live: false).stdout == "27 07:50 sched · in 10 min\n")
  }

  @Test func nothingLeavingKeepsItsMessage() {
    #expect(line(["--format", "{route} {clock}", "--window", "5"]).stdout == "no 27 before 07:45\n")
  }

  // MARK: - Bad templates

  @Test(arguments: [
    ("{rout} {clock}", "unknown field {rout}; did you mean {route}?"),
    ("{bogus}", "unknown field {bogus} (the fields: {route} {headsign} {clock} {min} {delay} {status} {leave} {note} {stop})"),
    ("{route", "'{' without a closing '}'"),
    ("route}", "'}' without an opening '{'"),
  ])
  func badTemplatesAreUsageErrors(template: String, message: String) {
    let result = line(["--format", template])
    #expect(result.code == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("--format: " + message), "\(result.stderr)")
    #expect(result.stderr.hasPrefix("transit: "), "\(result.stderr)")
  }

  @Test func formatGoesWithLine() {
    let departures = home.run(["departures", "TINT", "--format", "{route}"])
    #expect(departures.code == 2)
    #expect(departures.stderr.contains("--format goes with --line"), "\(departures.stderr)")
    #expect(home.run(["commute", "--format", "{route}"]).code == 2)
  }

  // MARK: - --line --json: waybar's protocol

  /// The one line printed, parsed: waybar reads a JSON object per line.
  func waybar(_ result: CLIResult) throws -> [String: Any] {
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("\n") && result.stdout.filter { $0 == "\n" }.count == 1, "\(result.stdout)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(object as? [String: Any])
  }

  @Test func jsonIsWaybarsShape() throws {
    let object = try waybar(line(["--json"]))
    #expect(Set(object.keys) == ["text", "tooltip", "class", "alt"])
    #expect(object["text"] as? String == "27 07:53 +3 · in 13 min")
    #expect(object["tooltip"] as? String == "27 to Crumlin Hospital · 07:53 · 3 min late · in 13 min")
    #expect(object["class"] as? String == "late")
    #expect(object["alt"] as? String == "late")
  }

  @Test func jsonTextFollowsTheTemplateAndClassTheState() throws {
    let red = try waybar(line(["--json", "--format", "{route} {min}"], route: "Red", at: "2026-12-01T07:40:30Z"))
    #expect(red["text"] as? String == "Red 10")
    #expect(red["class"] as? String == "on-time")
    #expect(red["tooltip"] as? String == "Red to Suir Road · 07:51 · on time · in 10 min")
    let scheduled = try waybar(line(["--json"], live: false))
    #expect(scheduled["class"] as? String == "scheduled")
    #expect(scheduled["tooltip"] as? String == "27 to Crumlin Hospital · 07:50 · timetable only · in 10 min")
    let nothing = try waybar(line(["--json", "--window", "5"]))
    #expect(nothing["text"] as? String == "no 27 before 07:45")
    #expect(nothing["class"] as? String == "none")
  }

  @Test func commuteLineTakesFormatAndJSON() throws {
    let add = home.run(["commute", "add", "work", "--stop", "4530", "--route", "27", "--arrive-by", "07:55", "--walk", "5"])
    #expect(add.code == 0, "\(add.stderr)")
    // StatusLineTests.commuteLineLive: the 07:51 from 4530, 3 min late: 07:54, leave in 7 min.
    let text = home.run(["commute", "work", "--line", "--format", "{clock} {leave}", "--now", now, "--realtime", tripUpdates])
    #expect(text.stdout == "07:54 leave in 7 min\n")
    let json = try waybar(home.run(["commute", "work", "--line", "--json", "--now", now, "--realtime", tripUpdates]))
    #expect(json["text"] as? String == "27 07:54 +3 · leave in 7 min")
    #expect(json["class"] as? String == "late")
    // --watch still refuses --json.
    #expect(home.run(["commute", "work", "--watch", "--json"]).code == 2)
  }
}
