import Foundation
import GTFS
import GTFSRealtime
import TestSupport
import Testing
import UserData

@testable import TransitCLI

/// `transit alerts` and `transit status` in-process, on the demo network with its alerts
/// snapshot (a 77X detour in force, a Red line closure next week) and on real captures.
@Suite struct AlertsCommandTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"
  let alerts = packageRoot + "/" + DemoRealtimeSnapshot.alertsPath

  func run(_ arguments: [String], environment: [String: String] = [:], realtime: [String]? = nil) -> CLIResult {
    let files = (realtime ?? [alerts]).flatMap { ["--realtime", $0] }
    return transit(arguments + ["--now", now, "--data-dir", home.path] + files, environment: environment)
  }

  static func jsonArray(_ text: String) -> [[String: Any]]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
  }

  // MARK: - alerts

  @Test func listsAlertsInForceAsText() {
    let result = run(["alerts", "--peek"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout == """
        1 alert in force, new

        route 77X
          detour · cause: construction · until 10:00 · new
          77X diverted via Belgard Road until 10:00 (roadworks at Citywest)
            Stops at Cookstown Way are not served.

        """)
  }

  @Test func allIncludesUpcomingAlertsMostSevereFirst() {
    let result = run(["alerts", "--all", "--peek"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        2 alerts, all new

        route Red
          no service · cause: maintenance · from 2026-12-08 06:00 to 23:00 · new
          No Red line trams on 8 December

        route 77X
          detour · cause: construction · until 10:00 · new
          77X diverted via Belgard Road until 10:00 (roadworks at Citywest)
            Stops at Cookstown Way are not served.

        """)
  }

  @Test func filtersByRouteStopTripAndMode() {
    func ids(_ arguments: [String]) -> [String] {
      let result = run(["alerts", "--all", "--peek", "--json"] + arguments)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      return Self.jsonArray(result.stdout)?.compactMap { $0["id"] as? String } ?? []
    }
    #expect(ids(["--route", "77X"]) == ["detour-77x"])
    #expect(ids(["--route", "R77X"]) == ["detour-77x"])
    #expect(ids(["--route", "27"]) == [])
    #expect(ids(["--route", "red"]) == ["red-closure"])
    // A station: the routes at its platforms (77X at A, Red at C).
    #expect(ids(["--stop", "TINT"]) == ["red-closure", "detour-77x"])
    // A platform: only its own routes (27 and 77X at TINT-A, code 4500).
    #expect(ids(["--stop", "4500"]) == ["detour-77x"])
    #expect(ids(["--stop", "TD4530"]) == [])
    #expect(ids(["--trip", "77X-WK-0-0805"]) == ["detour-77x"])
    #expect(ids(["--trip", "27-WK-1-0750"]) == [])
    #expect(ids(["--mode", "tram"]) == ["red-closure"])
    #expect(ids(["--mode", "bus"]) == ["detour-77x"])
    #expect(ids(["--mode", "bus", "--route", "Red"]) == [])
  }

  @Test func jsonHasDesignShape() throws {
    let result = run(["alerts", "--json", "--all", "--peek"])
    #expect(result.code == 0, "\(result.stderr)")
    let array = try #require(Self.jsonArray(result.stdout))
    #expect(array.count == 2)
    let detour = try #require(array.first { $0["id"] as? String == "detour-77x" })
    #expect(Set(detour.keys) == ["id", "effect", "cause", "header", "description", "url", "active_periods", "informed", "seen"])
    #expect(detour["effect"] as? String == "DETOUR")
    #expect(detour["cause"] as? String == "CONSTRUCTION")
    #expect(detour["header"] as? String == "77X diverted via Belgard Road until 10:00 (roadworks at Citywest)")
    #expect(detour["description"] as? String == "Stops at Cookstown Way are not served.")
    #expect(detour["url"] is NSNull)
    #expect(detour["seen"] as? Bool == false)
    let periods = try #require(detour["active_periods"] as? [[String: Any]])
    #expect(periods.count == 1)
    #expect(periods[0]["start"] as? String == "2026-12-01T06:00:00+00:00")
    #expect(periods[0]["end"] as? String == "2026-12-01T10:00:00+00:00")
    let informed = try #require(detour["informed"] as? [[String: Any]])
    #expect(informed.count == 1)
    #expect(Set(informed[0].keys) == ["agency_id", "route_id", "route_type", "stop_id", "trip_id"])
    #expect(informed[0]["route_id"] as? String == "R77X")
    #expect(informed[0]["stop_id"] is NSNull)
  }

  @Test func countUnseenThenSeen() {
    #expect(run(["alerts", "--count"]).stdout == "1\n")
    // --peek and --count leave it unseen.
    #expect(run(["alerts", "--peek"]).code == 0)
    #expect(run(["alerts", "--count"]).stdout == "1\n")
    let unseen = run(["alerts", "--unseen"])
    #expect(unseen.code == 0)
    #expect(unseen.stdout.hasPrefix("1 new alert in force\n"))
    #expect(unseen.stdout.contains("77X diverted"))
    #expect(run(["alerts", "--count"]).stdout == "0\n")
    #expect(run(["alerts", "--unseen"]).stdout == "no new alerts\n")
    // Listed again: shown, no longer new; JSON says seen.
    let again = run(["alerts"])
    #expect(again.stdout.hasPrefix("1 alert in force\n"))
    #expect(!again.stdout.contains(" · new"))
    let json = Self.jsonArray(run(["alerts", "--json"]).stdout)
    #expect(json?.first?["seen"] as? Bool == true)
    // The upcoming closure was never listed: with --all it is the one new alert.
    #expect(run(["alerts", "--all", "--unseen", "--peek", "--json"]).stdout.contains("red-closure"))
  }

  @Test func anEditedAlertIsUnseenAgain() throws {
    #expect(run(["alerts"]).code == 0)
    #expect(run(["alerts", "--count"]).stdout == "0\n")
    var feed = DemoRealtimeSnapshot.alerts
    feed.entities[0].alert?.headerText = DemoRealtimeSnapshot.english("77X diverted via Belgard Road until 11:00 (roadworks at Citywest)")
    let edited = home.path + "/edited-alerts.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: edited))
    #expect(run(["alerts", "--count"], realtime: [edited]).stdout == "1\n")
    let unseen = run(["alerts", "--unseen"], realtime: [edited])
    #expect(unseen.stdout.contains("until 11:00 (roadworks"))
    #expect(run(["alerts", "--count"], realtime: [edited]).stdout == "0\n")
    // The old text counts as new again now that the edit is what was seen last.
    #expect(run(["alerts", "--count"]).stdout == "1\n")
  }

  @Test func languageFromOptionThenLocale() throws {
    var feed = DemoRealtimeSnapshot.alerts
    feed.entities[0].alert?.headerText = TranslatedString(translations: [
      .init(text: "77X diverted", language: "en"), .init(text: "77X dévié", language: "fr"), .init(text: "77X untranslated"),
    ])
    feed.entities[0].alert?.descriptionText = TranslatedString(translations: [
      .init(text: "<p>Stops at <b>Cookstown Way</b> &amp; Belgard</p>")
    ])
    let path = home.path + "/multilingual.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    func header(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
      Self.jsonArray(run(["alerts", "--json", "--peek"] + arguments, environment: environment, realtime: [path]).stdout)?.first?["header"]
        as? String
    }
    #expect(header(["--lang", "fr"]) == "77X dévié")
    #expect(header(["--lang", "en-IE"]) == "77X diverted")
    #expect(header([], ["LANG": "fr_CA.UTF-8"]) == "77X dévié")
    #expect(header(["--lang", "en"], ["LANG": "fr_CA.UTF-8"]) == "77X diverted")
    #expect(header([], ["LANG": "C"]) == "77X untranslated")
    #expect(header(["--lang", "de"]) == "77X untranslated")
    let description = Self.jsonArray(run(["alerts", "--json", "--peek"], realtime: [path]).stdout)?.first?["description"] as? String
    #expect(description == "Stops at Cookstown Way & Belgard")
  }

  @Test func exitCodes() {
    let unknownRoute = run(["alerts", "--route", "99"])
    #expect(unknownRoute.code == 3)
    #expect(unknownRoute.stderr == "transit: no route '99' in the timetables or the alerts\n")
    #expect(run(["alerts", "--stop", "Nowhere At All"]).code == 3)
    #expect(run(["alerts", "--trip", "no-such-trip"]).code == 3)
    #expect(run(["alerts", "--mode", "zeppelin"]).code == 2)
    #expect(run(["alerts", "--lang", "f r"]).code == 2)
    #expect(run(["alerts", "extra"]).code == 2)
    let none = transit(["alerts", "--data-dir", home.path])
    #expect(none.code == 1)
    #expect(
      none.stderr == "transit: no alerts to read: give an alerts feed with --realtime FILE, or configure one with 'transit feeds add'\n")
    #expect(run(["alerts"], realtime: ["/nonexistent/alerts.pb"]).code == 1)
  }

  // MARK: - status

  @Test func statusOfNamedRoutes() {
    let result = run(["status", "27", "77X", "Red"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        27   green   good service
        77X  yellow  detour: 77X diverted via Belgard Road until 10:00 (roadworks at Citywest)
        Red  green   good service

        """)
    #expect(run(["status", "99"]).code == 3)
    // Next week the Red line has no service.
    let later = transit(["status", "Red", "--now", "2026-12-08T12:00:00Z", "--data-dir", home.path, "--realtime", alerts])
    #expect(later.stdout == "Red  red     no service: No Red line trams on 8 December\n")
  }

  @Test func statusWithoutRoutesUsesFavouriteStopsElseAlertedRoutes() throws {
    let alerted = run(["status"])
    #expect(
      alerted.stdout
        == "routes with an alert in force:\n77X  yellow  detour: 77X diverted via Belgard Road until 10:00 (roadworks at Citywest)\n")
    try UserStore(directory: home.path).addFavourite(feed: "demo", stopID: "TINT-A", label: nil, now: 0)
    let favourites = run(["status"])
    #expect(
      favourites.stdout == """
        routes at your favourite stops:
        27   green   good service
        77X  yellow  detour: 77X diverted via Belgard Road until 10:00 (roadworks at Citywest)

        """)
  }

  @Test func statusColoursOnlyOnATerminal() throws {
    let context = CommandContext.capturing(environment: [:], currentDirectory: "/")
    context.stdoutIsTerminal = true
    let code = transit(["status", "27", "77X", "--now", now, "--data-dir", home.path, "--realtime", alerts], context: context).code
    #expect(code == 0)
    #expect(context.stdout.text.contains("\u{1B}[32mgreen \u{1B}[0m"))
    #expect(context.stdout.text.contains("\u{1B}[33myellow\u{1B}[0m"))
    let noColour = CommandContext.capturing(environment: ["NO_COLOR": "1"], currentDirectory: "/")
    noColour.stdoutIsTerminal = true
    _ = transit(["status", "77X", "--now", now, "--data-dir", home.path, "--realtime", alerts], context: noColour)
    #expect(noColour.stdout.text == "77X  yellow  detour: 77X diverted via Belgard Road until 10:00 (roadworks at Citywest)\n")
  }

  @Test func statusJSON() throws {
    let result = run(["status", "77X", "27", "--json"])
    let array = try #require(Self.jsonArray(result.stdout))
    #expect(array.map { $0["route_id"] as? String } == ["R77X", "R27"])
    #expect(array.map { $0["status"] as? String } == ["yellow", "green"])
    let reasons = try #require(array[0]["alerts"] as? [[String: Any]])
    #expect(reasons.map { $0["id"] as? String } == ["detour-77x"])
    #expect(reasons.first?["effect"] as? String == "DETOUR")
  }

  // MARK: - Real captures, without a timetable

  @Test(.enabled(if: SharedData.path("rt/bart-alerts-20190807T174542Z.pb") != nil))
  func bartCapture() {
    let bare = TemporaryFolder()
    let capture = SharedData.path("rt/bart-alerts-20190807T174542Z.pb")!
    let result = transit(["alerts", "--now", "2019-08-07T17:46:00Z", "--data-dir", bare.path, "--realtime", capture])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        1 alert in force, new

        all routes of BART
          significant delays · cause: medical emergency · until further notice · new
          There is a major delay at Montgomery St. on the San Francisco Line in the SFO, Millbrae, Daly City and East Bay directions due to a major medical emergency. Montgomery station is currently closed. Trains are not stopping at Montgomery station.
            http://www.bart.gov/schedules/advisories

        """)
    let status = transit(["status", "--now", "2019-08-07T17:46:00Z", "--data-dir", bare.path, "--realtime", capture])
    #expect(
      status.stdout.hasPrefix("routes with an alert in force:\nall routes of BART  red     significant delays: There is a major delay"))
  }

  @Test(.enabled(if: SharedData.path("rt/mbta-alerts-20171223T130019Z.pb") != nil))
  func mbtaCapture() throws {
    let bare = TemporaryFolder()
    let capture = SharedData.path("rt/mbta-alerts-20171223T130019Z.pb")!
    func json(_ arguments: [String]) -> [[String: Any]] {
      let result = transit(
        ["alerts", "--json", "--peek", "--now", "2017-12-23T13:00:19Z", "--data-dir", bare.path, "--realtime", capture] + arguments)
      #expect(result.code == 0, "\(result.stderr)")
      return Self.jsonArray(result.stdout) ?? []
    }
    #expect(json([]).count == 36)
    #expect(json(["--all"]).count == 51)
    // Without a timetable, ids are the feed's own.
    #expect(json(["--route", "CR-Haverhill", "--all"]).contains { $0["id"] as? String == "144368" })
    #expect(json(["--stop", "70026", "--all"]).contains { $0["id"] as? String == "105025" })
    #expect(!json(["--route", "Green-B", "--all"]).contains { $0["id"] as? String == "105025" })
    let count = transit(["alerts", "--count", "--now", "2017-12-23T13:00:19Z", "--data-dir", bare.path, "--realtime", capture])
    #expect(count.stdout == "36\n")
    let text = transit([
      "alerts", "--peek", "--route", "Red", "--now", "2017-12-23T13:00:19Z", "--data-dir", bare.path, "--realtime", capture,
    ])
    #expect(
      text.stdout.hasPrefix(
        """
        4 matching alerts in force, all new

        routes Red, CR-Kingston, CR-Middleborough, 210, 230, 236
          unknown effect · cause: construction · since 2017-02-21 09:30 UTC · new
          Change at Braintree
            For access to Braintree Station during this closure, travel down to the first floor and use the pedestrian crosswalk to enter the station at the street level.
            This closure is due to the South Shore Parking Garages Improvements and Renovations Project.
        """))
    // Alerts of one group are a blank line apart; CRLF texts come out as LF.
    #expect(
      text.stdout.contains(
        "    Red Line\n\n  unknown effect · cause: construction · since 2017-11-16 09:30 UTC · new\n  Change at Quincy Center\n"))
    #expect(!text.stdout.contains("\r"))
  }
}
