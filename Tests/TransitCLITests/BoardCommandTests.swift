import Foundation
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// The board's plain forms, `--group`, walk times and the commute card (issue 20), on the demo
/// network; expected text worked out by hand (widths: columns two spaces apart, after a
/// two-space gutter).
@Suite struct BoardCommandTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"
  let tripUpdates = packageRoot + "/" + DemoRealtimeSnapshot.tripUpdatesPath

  func run(_ arguments: [String], context: CommandContext? = nil, environment: [String: String] = [:]) -> CLIResult {
    guard let context else { return home.run(arguments, environment: environment) }
    return transit(arguments + ["--data-dir", home.path], context: context)
  }

  @Test func groupedByRouteAndDirection() {
    let result = run(["departures", "TINT", "--group", "--per-group", "1", "--route", "27", "--now", now, "--realtime", tripUpdates])
    #expect(result.code == 0, "\(result.stderr)")
    // Widths: route 2, destination 24, platform 10, time 5, countdown 6, delay 10, marker 11:
    // 2 + 68 + 12 = 82 columns, over 80, so the marker goes first.
    #expect(
      result.stdout == """
        Tallaght Interchange · 07:40:00 · live, feed 30 s old

        27 → Crumlin Hospital
          27  Crumlin Hospital          platform A  07:53  13 min  3 min late

        27 → Crumlin Hospital (extra)
          27  Crumlin Hospital (extra)  platform A  07:57  17 min

        """)
  }

  @Test func groupedAsJSON() throws {
    let result = run([
      "departures", "TINT", "--group", "--per-group", "2", "--route", "27", "--json", "--now", now, "--realtime", tripUpdates,
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let groups = try #require(object["groups"] as? [[String: Any]])
    #expect(groups.map { $0["headsign"] as? String } == ["Crumlin Hospital", "Crumlin Hospital (extra)"])
    // The 07:50 (live 07:53) and the 08:10; the added 07:57 alone.
    let trips = groups.map { ($0["departures"] as? [[String: Any]] ?? []).map { $0["trip_id"] as? String ?? "" } }
    #expect(trips == [["27-WK-1-0750", "27-WK-1-0810"], ["27-X-0757"]])
  }

  @Test func sixtyColumnsDropThePlatformToo() {
    let result = run(
      ["departures", "TINT", "--group", "--per-group", "1", "--route", "27", "--now", now, "--realtime", tripUpdates],
      environment: ["COLUMNS": "60"])
    // Without the marker: 2 + 57 + 10 = 69, over 60; without the platform as well:
    // 2 + (2 + 24 + 5 + 6 + 10) + 8 = 57, which fits.
    #expect(
      result.stdout == """
        Tallaght Interchange · 07:40:00 · live, feed 30 s old

        27 → Crumlin Hospital
          27  Crumlin Hospital          07:53  13 min  3 min late

        27 → Crumlin Hospital (extra)
          27  Crumlin Hospital (extra)  07:57  17 min

        """)
  }

  @Test func departuresFromAPlaceShowTheWalkAndWhenToLeave() {
    let result = run([
      "departures", "TINT", "--route", "27", "-n", "1", "--from", "53.2891,-6.3735", "--now", now, "--realtime", tripUpdates,
    ])
    // Platform A is 173 m away: 216.3 m walked at 1.3 m/s, 167 s, 3 min. The 07:53 is 780 s
    // ahead: margin 78 s; leave by 780 - 167 - 78 = 535 s, in 8 min.
    #expect(
      result.stdout.hasSuffix(
        "27  Crumlin Hospital ♿  platform A  07:53 · 13 min  3 min walk, leave in 8 min  sched 07:50  3 min late  live\n"),
      "\(result.stdout)")
  }

  @Test func theHomeViewOpensWithTodaysCommute() {
    #expect(run(["commute", "add", "work", "--stop", "4530", "--route", "27", "--arrive-by", "07:55", "--walk", "5"]).code == 0)
    // The 07:51 from 4530: 660 s ahead, margin 66 s; leave by 07:51:00 - 366 s = 07:44:54, 4 min.
    let card = "next commute 'work' (arrive by 07:55): 27 07:51 sched · leave in 4 min"
    let bare = run(["--now", now], environment: ["TRANSIT_LOCATION": "53.2891,-6.3735"])
    #expect(bare.stdout.hasPrefix(card + "\n\nno favourite stops yet"), "\(bare.stdout)")
    #expect(run(["fav", "add", "TINT"]).code == 0)
    let view = run(["--now", now], environment: ["TRANSIT_LOCATION": "53.2891,-6.3735"])
    #expect(
      view.stdout.hasPrefix("favourites, nearest first from 53.28910,-6.37350 (TRANSIT_LOCATION)\n" + card + "\n\n"), "\(view.stdout)")
    // After its departure, or on a day it does not run, no card.
    #expect(!run(["--now", "2026-12-01T07:52:00Z"]).stdout.contains("next commute"))
    #expect(!run(["--now", "2026-12-05T07:40:00Z"]).stdout.contains("next commute"))
  }

  /// A context whose clock starts at `start` and moves only when the command sleeps.
  func steppedContext(start: UnixTime, environment: [String: String] = [:]) -> CommandContext {
    CommandContext.stepped(from: start, environment: environment)
  }

  @Test func offATerminalTheWatchPrintsAFrameEachUpdate() {
    let context = steppedContext(start: UnixTime(1_796_110_800))  // 07:40:00
    let result = run(
      ["departures", "TINT", "--watch", "--count", "2", "--route", "27", "--limit", "1", "--realtime", tripUpdates], context: context)
    #expect(result.code == 0, "\(result.stderr)")
    let frames = result.stdout.components(separatedBy: "\n\nTallaght Interchange · ")
    #expect(frames.count == 2, "\(result.stdout)")
    // The feed is stamped 07:39:30 and publishes every 30 s (the default): next just after
    // 07:40:30, at 07:40:32. The 07:53 is then 12 min 28 s away: "12 min".
    #expect(frames[0].hasPrefix("Tallaght Interchange · 07:40:00 · live, feed 30 s old\n"), "\(result.stdout)")
    #expect(frames[0].contains("07:53  13 min  3 min late"), "\(result.stdout)")
    #expect(frames[1].hasPrefix("07:40:32 · live, feed 62 s old\n"), "\(result.stdout)")
    #expect(frames[1].contains("07:53  12 min  3 min late"), "\(result.stdout)")
    // Nothing changed between the two fetches: no row marked.
    #expect(!result.stdout.contains("\n* "))
  }

  @Test func vehiclesWatchPrintsTheListEachUpdate() {
    let context = steppedContext(start: UnixTime(1_796_110_800))
    let result = run(
      ["vehicles", "--watch", "--count", "2", "--now", now, "--realtime", packageRoot + "/" + DemoRealtimeSnapshot.vehiclePositionsPath],
      context: context)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.components(separatedBy: "live vehicle").count == 3, "\(result.stdout)")
    #expect(run(["vehicles", "--watch", "--json"]).code == 2)
    #expect(run(["vehicles", "--count", "2"]).code == 2)
  }

  @Test func watchOptionsAreChecked() {
    #expect(run(["departures", "TINT", "--watch", "--at", "08:00"]).code == 2)
    #expect(run(["departures", "TINT", "--watch", "--json"]).code == 2)
    #expect(run(["departures", "TINT", "--count", "2"]).code == 2)
    #expect(run(["departures", "TINT", "--per-group", "2"]).code == 2)
    #expect(run(["commute", "--watch"]).code == 2)
    #expect(run(["commute", "--line"]).code == 2)
    #expect(run(["commute", "add", "work", "--stop", "4530", "--arrive-by", "07:55"]).code == 0)
    #expect(run(["commute", "work", "--no-bell"]).code == 2)
    #expect(run(["commute", "work", "--line", "--watch"]).code == 2)
  }
}
