import Foundation
import GTFS
import GTFSRealtime
import SQLite
import TestSupport
import Testing
import UserData

@testable import TransitCLI

/// `config`, `places`, `fav` and `transit` with no arguments, in-process on the demo network.
@Suite struct UserDataCommandTests {
  let home = DemoHome()
  /// A Tuesday in December (Dublin keeps GMT), the demo realtime's moment.
  let tuesday = "2026-12-01T07:40:00Z"
  let tripUpdates = packageRoot + "/Data/realtime/demo-tripupdates.pb"

  func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    home.run(arguments, environment: environment)
  }

  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  // MARK: - config

  @Test func configRoundTrip() throws {
    #expect(run(["config", "get", "late"]).stdout == "120\n")
    #expect(run(["config", "set", "late", "240"]).stdout == "late = 240\n")
    #expect(run(["config", "set", "walking-speed", "1.1"]).code == 0)
    #expect(run(["config", "set", "language", "fr"]).code == 0)
    #expect(run(["config", "get", "late"]).stdout == "240\n")
    #expect(run(["config", "get", "walking-speed"]).stdout == "1.1\n")
    #expect(
      run(["config", "list"]).stdout == """
        clock                      (unset)  default
        early                      -60      default
        late                       240      set
        walking-speed              1.1      set
        detour                     1.25     default
        window                     120      default
        limit                      10       default
        language                   fr       set
        swap-shrink                50       default
        swap-days-ahead            60       default
        swap-lookahead             7        default
        realtime-max-mb            64       default
        realtime-max-download-mb   32       default
        realtime-max-entities      100000   default
        realtime-max-stop-updates  500000   default
        realtime-budget            5        default
        fetch-deadline             60       default
        feed-max-unzipped-mb       1536     default
        leave-margin               10       default
        transfer-margin            3        default
        history-days               180      default

        """)
    let file = try String(contentsOfFile: home.path + "/config.toml", encoding: .utf8)
    #expect(file.contains("late = 240\n") && file.contains("language = \"fr\"\n"))
    let list = try #require(try json(run(["config", "list", "--json"]).stdout) as? [[String: Any]])
    #expect(list.first { $0["key"] as? String == "late" }?["value"] as? String == "240")
    // 'default' resets; the file keeps only what differs.
    #expect(run(["config", "set", "late", "default"]).stdout == "late = 120\n")
    #expect(try !String(contentsOfFile: home.path + "/config.toml", encoding: .utf8).contains("late"))
  }

  @Test func configRejectsBadValuesAndKeys() {
    let bad = run(["config", "set", "late", "soon"])
    #expect(bad.code == 2)
    #expect(bad.stderr.hasPrefix("transit: late 'soon' is not a whole number of seconds from 0 to 3600 (usage: "))
    let clock = run(["config", "set", "clock", "13"])
    #expect(clock.stderr.hasPrefix("transit: clock '13' is not 12 or 24 (usage: "))
    let unknown = run(["config", "get", "lates"])
    #expect(unknown.code == 2)
    #expect(unknown.stderr.hasPrefix("transit: unknown setting 'lates'; did you mean 'late'? (usage: "))
    #expect(!FileManager.default.fileExists(atPath: home.path + "/config.toml"))
  }

  @Test func brokenConfigFileIsAOneLineError() throws {
    try "late = never\n".write(toFile: home.path + "/config.toml", atomically: true, encoding: .utf8)
    let result = run(["departures", "TINT", "--now", tuesday])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: \(home.path)/config.toml:1: late 'never' is not a whole number of seconds from 0 to 3600\n")
  }

  @Test func settingsChangeDepartures() {
    let live = ["departures", "TINT", "--now", tuesday, "--realtime", tripUpdates]
    #expect(run(live).stdout.contains("07:53 · 13 min  sched 07:50  3 min late"))
    _ = run(["config", "set", "late", "240"])
    _ = run(["config", "set", "clock", "12"])
    _ = run(["config", "set", "limit", "3"])
    let tuned = run(live)
    #expect(
      tuned.stdout == """
        Tallaght Interchange ♿ · station, departures from 7:40 AM
        realtime: fresh, feed 30 s old (7:39 AM) · 8 of 8 trip updates matched (1 built from the update)
        Red  Suir Road ♿         platform C  7:40 AM · now                             scheduled
        Red  Suir Road ♿         platform C  7:51 AM · 11 min  sched 7:50 AM  on time  live
        27   Crumlin Hospital ♿  platform A  7:53 AM · 13 min  sched 7:50 AM  on time  live

        """)
    // The environment and the command line still win.
    let overridden = run(["departures", "TINT", "--now", tuesday, "-n", "1"], environment: ["TRANSIT_CLOCK": "24"])
    #expect(overridden.stdout == "Tallaght Interchange ♿ · station, departures from 07:40\nRed  Suir Road ♿  platform C  07:40 · now\n")
  }

  @Test func walkingSpeedDecidesReachable() throws {
    func reachable() throws -> [Bool?] {
      let result = run(["departures", "TINT", "--now", tuesday, "--from", "53.2941,-6.4010", "--json", "-n", "5"])
      let object = try #require(try json(result.stdout) as? [String: Any])
      return (object["departures"] as? [[String: Any]] ?? []).map { $0["reachable"] as? Bool }
    }
    // 1.9 km away: 30 min at 1.3 m/s with the detour, 11 min at 3 m/s without.
    #expect(try reachable() == [false, false, false, false, false])
    _ = run(["config", "set", "walking-speed", "3"])
    _ = run(["config", "set", "detour", "1"])
    #expect(try reachable() == [false, false, false, true, true])
  }

  @Test func languageSettingPicksAlertTexts() throws {
    var feed = DemoRealtimeSnapshot.alerts
    feed.entities[0].alert?.headerText = TranslatedString(translations: [
      .init(text: "77X diverted", language: "en"), .init(text: "77X dévié", language: "fr"),
    ])
    let path = home.path + "/multilingual.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    func header(_ arguments: [String] = [], _ environment: [String: String] = [:]) throws -> String? {
      let result = run(["alerts", "--json", "--peek", "--realtime", path, "--now", tuesday] + arguments, environment: environment)
      return (try json(result.stdout) as? [[String: Any]])?.first?["header"] as? String
    }
    #expect(try header([], ["LANG": "en_IE.UTF-8"]) == "77X diverted")
    _ = run(["config", "set", "language", "fr"])
    #expect(try header([], ["LANG": "en_IE.UTF-8"]) == "77X dévié")
    #expect(try header(["--lang", "en"]) == "77X diverted")
  }

  // MARK: - places

  @Test func placesAreLocations() throws {
    #expect(run(["places", "add", "Work", "53.2941,-6.4010"]).stdout == "saved place 'work' at 53.29410,-6.40100\n")
    #expect(run(["places", "add", "home", "53.2891,-6.3735"]).code == 0)
    #expect(run(["places", "add", "home", "53.2891,-6.3736"]).stdout == "moved place 'home' at 53.28910,-6.37360\n")
    #expect(run(["places", "list"]).stdout == "home  53.28910,-6.37360\nwork  53.29410,-6.40100\n")
    let near = run(["stops", "near", "work", "-n", "2"])
    #expect(near.stdout == "243 m  4 min walk   4542  Fettercairn ♿  TD4542  77X\n823 m  14 min walk  4543  Brookfield      TD4543  77X\n")
    #expect(run(["stops", "search", "main", "--near", "work"]).stdout.contains("2.5 km"))
    let from = run(["departures", "TINT", "--now", tuesday, "--from", "home", "--json", "-n", "1"])
    let object = try #require(try json(from.stdout) as? [String: Any])
    #expect((object["departures"] as? [[String: Any]])?.first?["reachable"] as? Bool == false)
    let unknown = run(["stops", "near", "gym"])
    #expect(unknown.code == 2)
    #expect(
      unknown.stderr.hasPrefix(
        "transit: LAT,LON 'gym' is neither a position LAT,LON nor a saved place (see 'transit places list') (usage: "))
    #expect(run(["places", "add", "5th", "53,-6"]).code == 2)
    #expect(run(["places", "remove", "work"]).stdout == "removed place 'work'\n")
    #expect(run(["places", "remove", "work"]).code == 3)
    let list = try #require(try json(run(["places", "list", "--json"]).stdout) as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == ["home"])
  }

  // MARK: - favourites

  @Test func favouritesAddListRemove() throws {
    #expect(run(["fav", "list"]).stdout == "no favourite stops yet; add one with 'transit fav add STOP'\n")
    #expect(run(["fav", "add", "TINT"]).stdout == "added favourite TINT: Tallaght Interchange\n")
    #expect(
      run(["fav", "add", "4530", "--route", "27", "--label", "to town"]).stdout == "added favourite TD4530: to town [4530], route 27\n")
    #expect(run(["fav", "add", "4530", "--route", "Red"]).code == 3)
    #expect(run(["fav", "add", "Nowhere Street"]).code == 3)
    #expect(
      run(["fav", "list"]).stdout == """
        TINT          Tallaght Interchange                       station
        TD4530  4530  to town (Tallaght (The Square)), route 27

        """)
    let list = try #require(try json(run(["fav", "list", "--json"]).stdout) as? [[String: Any]])
    #expect(list.map { $0["stop_id"] as? String } == ["TINT", "TD4530"])
    #expect(list.map { $0["missing"] as? Bool } == [false, false])
    #expect(run(["fav", "remove", "4530"]).stdout == "removed favourite TD4530\n")
    #expect(run(["fav", "remove", "4530"]).code == 3)
  }

  @Test func noArgumentsShowsFavouritesNearestFirst() {
    _ = run(["places", "add", "home", "53.2891,-6.3735"])
    _ = run(["fav", "add", "TINT"])
    _ = run(["fav", "add", "4530", "--route", "27", "--label", "to town"])
    _ = run(["fav", "add", "TD4540"])
    let result = run(["--now", tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        favourites, nearest first from 53.28910,-6.37350 (your saved place 'home')

        Tallaght Interchange · 194 m, 4 min walk
          Red  Suir Road         platform C  07:40 · now
          27   Crumlin Hospital  platform A  07:50 · 10 min
          Red  Suir Road         platform C  07:50 · 10 min

        to town · Tallaght (The Square) [4530] · route 27 · 379 m, 7 min walk
          27  Tallaght Interchange  07:49 · 9 min
          27  Crumlin Hospital      07:51 · 11 min
          27  Tallaght Interchange  08:09 · 29 min

        Tallaght Hospital [4540] · 402 m, 7 min walk
          54A  Kingswood             07:57 · 17 min
          77X  Tallaght Interchange  08:00 · 20 min
          54A  Killinarden           08:03 · 23 min

        """)
    // From elsewhere, with realtime: another order, live times.
    let live = run(["--now", tuesday, "--from", "53.2941,-6.4010", "--realtime", tripUpdates])
    #expect(
      live.stdout.hasPrefix(
        "favourites, nearest first from 53.29410,-6.40100 (--from)\nrealtime: fresh, feed 30 s old (07:39) · 8 of 8 trip updates matched (1 built from the update)\n\nTallaght Hospital [4540] · 1.5 km, 25 min walk\n"
      ))
    #expect(live.stdout.contains("27   Crumlin Hospital  platform A  07:53 · 13 min  sched 07:50  3 min late  live\n"))
  }

  @Test func noArgumentsJSON() throws {
    _ = run(["fav", "add", "TINT"])
    let result = run(["--now", tuesday, "--json"], environment: ["TRANSIT_LOCATION": "53.2891,-6.3735"])
    let object = try #require(try json(result.stdout) as? [String: Any])
    let favourites = try #require(object["favourites"] as? [[String: Any]])
    #expect(favourites.count == 1)
    #expect(favourites[0]["stop_id"] as? String == "TINT")
    #expect(
      (favourites[0]["departures"] as? [[String: Any]])?.map { $0["trip_id"] as? String } == [
        "Red-WK-0-template", "27-WK-1-0750", "Red-WK-0-template",
      ])
    #expect((object["location"] as? [String: Any])?["source"] as? String == "TRANSIT_LOCATION")
  }

  @Test func noArgumentsWithoutFavouritesShowsNearestStops() {
    let result = run(["--now", tuesday], environment: ["TRANSIT_LOCATION": "53.2891,-6.3735"])
    #expect(
      result.stdout == """
        no favourite stops yet; add one with 'transit fav add STOP'

        nearest stops to 53.28910,-6.37350 (TRANSIT_LOCATION):
          173 m  3 min walk         Tallaght Interchange (station)  TINT    27 49 54A 77X Red
          363 m  6 min walk   5002  Hospital                        RED02   Red
          379 m  7 min walk   4530  Tallaght (The Square)           TD4530  27 49
          402 m  7 min walk   4540  Tallaght Hospital               TD4540  54A 77X
          635 m  11 min walk  4529  Main Road, Tallaght Village     TD4529  27

        """)
  }

  @Test func noArgumentsWithoutATimetablePrintsTheOverview() {
    let empty = TemporaryFolder()
    let result = transit(["--data-dir", empty.path])
    #expect(result.code == 0)
    #expect(result.stdout.hasPrefix("transit: live departures from GTFS timetables and GTFS-Realtime feeds\n"))
    #expect(result.stdout.hasSuffix("No timetable yet: load one with 'transit ingest PATH|URL'.\n"))
  }

  // MARK: - re-ingest

  @Test func favouritesAndPlacesSurviveAnotherTimetable() throws {
    _ = run(["places", "add", "home", "53.2891,-6.3735"])
    _ = run(["fav", "add", "TINT"])
    _ = run(["fav", "add", "TD4540"])
    // Another timetable under the same name: TD4540 stays, TINT is gone.
    let other = TemporaryFolder()
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Other,https://example.org,Europe/Dublin\n",
      "stops.txt":
        "stop_id,stop_code,stop_name,stop_lat,stop_lon\nTD4540,4540,Tallaght Hospital,53.2905,-6.3790\nS2,102,Second Street,53.29,-6.37\n",
      "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,1,One,3\n",
      "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Second Street\n",
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,TD4540,1\nT1,08:10:00,08:10:00,S2,2\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20271231\n",
    ]
    for (name, text) in files { try text.write(toFile: other.path + "/" + name, atomically: true, encoding: .utf8) }
    // Another agency, with 2 stops where the demo has 47: the swap checks would refuse it.
    #expect(run(["ingest", other.path, "--feed", "demo", "--quiet"]).code == 4)
    #expect(run(["ingest", other.path, "--feed", "demo", "--quiet", "--force"]).code == 0)
    #expect(run(["places", "list"]).stdout == "home  53.28910,-6.37350\n")
    #expect(
      run(["fav", "list"]).stdout == """
        TINT                             (not in the timetable since the last ingest; kept in case it returns)
        TD4540  4540  Tallaght Hospital

        """)
    let view = run(["--now", tuesday])
    #expect(view.stdout.contains("Tallaght Hospital [4540] · 397 m, 7 min walk\n  1  Second Street  08:00 · 20 min\n"))
    #expect(view.stdout.hasSuffix("\nTINT [TINT]: not in the timetable since the last ingest; kept in case it returns\n"))
    // The stop comes back with the old timetable.
    #expect(run(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--force"]).code == 0)
    let list = try #require(try json(run(["fav", "list", "--json"]).stdout) as? [[String: Any]])
    #expect(list.map { $0["missing"] as? Bool } == [false, false])
  }

  @Test func version1UserDatabaseMigrates() throws {
    let folder = TemporaryFolder()
    let db = try Connection(path: folder.path + "/user.sqlite")
    try db.execute(
      """
      CREATE TABLE favourites (
        feed TEXT NOT NULL, stop_id TEXT NOT NULL, label TEXT, position INTEGER NOT NULL DEFAULT 0,
        added_at INTEGER NOT NULL, PRIMARY KEY (feed, stop_id));
      CREATE TABLE seen_alerts (
        feed TEXT NOT NULL, alert_id TEXT NOT NULL, content_hash TEXT NOT NULL, seen_at INTEGER NOT NULL,
        PRIMARY KEY (feed, alert_id));
      CREATE TABLE places (name TEXT PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL, added_at INTEGER NOT NULL);
      INSERT INTO favourites VALUES ('demo', 'TINT', 'station', 1, 0);
      INSERT INTO places VALUES ('home', 53.2891, -6.3735, 0);
      PRAGMA user_version = 1;
      """)
    let users = try UserStore(directory: folder.path)
    #expect(try users.favourites() == [.init(feed: "demo", stopID: "TINT", label: "station")])
    #expect(try users.places() == [.init(name: "home", latitude: 53.2891, longitude: -6.3735)])
    try users.addFavourite(feed: "demo", stopID: "TD4530", label: nil, route: "27", now: 1)
    #expect(try users.favourites().last == .init(feed: "demo", stopID: "TD4530", route: "27"))
    // Version 4: a favourite may be one stop of a group.
    try users.addFavourite(feed: "demo", stopID: "TD4529", label: "corner", group: "corner", now: 2)
    #expect(try users.favourites().last == .init(feed: "demo", stopID: "TD4529", label: "corner", group: "corner"))
    #expect(try db.scalarInt("PRAGMA user_version") == 5)
  }

  @Test func version2CommutesMigrateWithNoWalkAfter() throws {
    let folder = TemporaryFolder()
    let db = try Connection(path: folder.path + "/user.sqlite")
    try db.execute(
      """
      CREATE TABLE favourites (
        feed TEXT NOT NULL, stop_id TEXT NOT NULL, label TEXT, position INTEGER NOT NULL DEFAULT 0,
        added_at INTEGER NOT NULL, route TEXT, PRIMARY KEY (feed, stop_id));
      CREATE TABLE seen_alerts (
        feed TEXT NOT NULL, alert_id TEXT NOT NULL, content_hash TEXT NOT NULL, seen_at INTEGER NOT NULL,
        PRIMARY KEY (feed, alert_id));
      CREATE TABLE places (name TEXT PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL, added_at INTEGER NOT NULL);
      CREATE TABLE commutes (
        name TEXT PRIMARY KEY, feed TEXT NOT NULL, stop_id TEXT NOT NULL, route TEXT, destination TEXT,
        arrive_by INTEGER NOT NULL, days INTEGER NOT NULL, walk_minutes INTEGER NOT NULL DEFAULT 0,
        added_at INTEGER NOT NULL);
      INSERT INTO commutes VALUES ('work', 'demo', 'TD4530', '27', 'Crumlin Hospital', 510, 31, 5, 0);
      PRAGMA user_version = 2;
      """)
    let users = try UserStore(directory: folder.path)
    #expect(
      try users.commutes() == [
        .init(
          name: "work", feed: "demo", stopID: "TD4530", route: "27", destination: "Crumlin Hospital", arriveByMinutes: 510, days: 31,
          walkMinutes: 5, thenWalkMinutes: 0)
      ])
    #expect(try db.scalarInt("PRAGMA user_version") == 5)
    // Version 5: a commute may leave from several stops (a complex's), kept in order; saving
    // it again with fewer replaces them, removing it removes them.
    let others = [UserStore.StopKey(feed: "demo", stopID: "TD4565"), UserStore.StopKey(feed: "demo", stopID: "TD4530")]
    var school = UserStore.Commute(name: "school", feed: "demo", stopID: "TD4564", arriveByMinutes: 490, otherStops: others)
    try users.saveCommute(school, now: 1)
    #expect(try users.commutes().first { $0.name == "school" }?.otherStops == others)
    school.otherStops = [others[0]]
    try users.saveCommute(school, now: 2)
    #expect(try users.commutes().first { $0.name == "school" }?.stops.map(\.stopID) == ["TD4564", "TD4565"])
    #expect(try users.removeCommute("school"))
    #expect(try db.scalarInt("SELECT count(*) FROM commute_stops") == 0)
    #expect(try users.commutes().map(\.otherStops) == [[]])
  }
}

/// `commute`: choosing the departure to take on the demo network.
@Suite struct CommuteCommandTests {
  let home = DemoHome()
  let tuesday = "2026-12-01T07:20:00Z"

  func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    home.run(arguments, environment: environment)
  }

  func add(_ deadline: String, walk: String = "5", thenWalk: String? = nil, days: String = "mon-fri") throws {
    let result = run(
      [
        "commute", "add", "work", "--stop", "4530", "--route", "27", "--to", "Crumlin Hospital", "--arrive-by", deadline, "--walk", walk,
        "--days", days,
      ] + (thenWalk.map { ["--then-walk", $0] } ?? []))
    guard result.code == 0 else { throw FixtureError(result.stderr) }
  }

  /// The rows of the plan (after the two heading lines).
  func rows(_ arguments: [String] = []) -> [String] {
    Array(run(["commute", "work", "--now", tuesday] + arguments).stdout.split(separator: "\n").dropFirst(2).map(String.init))
  }

  @Test func deadlineBetweenDepartures() throws {
    try add("08:30")
    #expect(
      run(["commute", "work", "--now", tuesday]).stdout == """
        commute 'work': Tallaght (The Square) [4530], route 27, to Crumlin Hospital, arrive by 08:30, mon-fri, 5 min walk
        Tuesday 2026-12-01, arrive by 08:30
           27  Crumlin Hospital  dep 07:11  arr 07:40  leave 07:06  too late
           27  Crumlin Hospital  dep 07:31  arr 08:00  leave 07:26  in 6 min
        →  27  Crumlin Hospital  dep 07:51  arr 08:20  leave 07:46  in 26 min
           27  Crumlin Hospital  dep 08:11  arr 08:40  leave 08:06  in 46 min

        """)
  }

  @Test func deadlineExactlyOnAnArrival() throws {
    try add("08:20")
    #expect(rows().first { $0.hasPrefix("→") }?.contains("dep 07:51  arr 08:20") == true)
  }

  @Test func deadlineBeforeTheFirstDeparture() throws {
    try add("05:00")
    let lines = run(["commute", "work", "--now", tuesday]).stdout.split(separator: "\n")
    #expect(lines.contains("nothing arrives in time; the first after:"))
    #expect(!lines.contains { $0.hasPrefix("→") })
  }

  @Test func deadlineAfterTheLastDeparture() throws {
    try add("23:59")
    let plan = rows()
    #expect(plan.contains { $0.hasPrefix("→") })
    #expect(plan.last?.hasPrefix("→") == true || plan.count <= 4)
  }

  @Test func inactiveDayShowsTheNextActiveDay() throws {
    try add("08:30")
    let result = run(["commute", "work", "--now", tuesday, "--date", "2026-12-05"])
    #expect(result.stdout.hasPrefix("commute 'work' does not run on Saturday 2026-12-05; next: Monday 2026-12-07\n"))
    #expect(result.stdout.contains("→  27  Crumlin Hospital  dep 07:51  arr 08:20  leave 07:46\n"))
  }

  @Test func walkingMovesTheLeaveByTime() throws {
    try add("08:30", walk: "12")
    #expect(rows().first { $0.hasPrefix("→") }?.contains("dep 07:51  arr 08:20  leave 07:39  in 19 min") == true)
  }

  @Test func walkingAfterGettingOffMovesTheRecommendationEarlier() throws {
    // The 07:51 reaches Crumlin Hospital at 08:20; with 12 min on foot after it you are there
    // at 08:32, too late for 08:30, so the 07:31 (there 08:12) is the one to take.
    try add("08:30", thenWalk: "12")
    #expect(
      run(["commute", "work", "--now", tuesday]).stdout == """
        commute 'work': Tallaght (The Square) [4530], route 27, to Crumlin Hospital, arrive by 08:30, mon-fri, 5 min walk, then 12 min walk
        Tuesday 2026-12-01, arrive by 08:30
           27  Crumlin Hospital  dep 06:41  arr 07:10, there 07:22  leave 06:36  too late
           27  Crumlin Hospital  dep 07:11  arr 07:40, there 07:52  leave 07:06  too late
        →  27  Crumlin Hospital  dep 07:31  arr 08:00, there 08:12  leave 07:26  in 6 min
           27  Crumlin Hospital  dep 07:51  arr 08:20, there 08:32  leave 07:46  in 26 min

        """)
    let json = try JSONSerialization.jsonObject(with: Data(run(["commute", "work", "--now", tuesday, "--json"]).stdout.utf8))
    let options = try #require(((json as? [[String: Any]])?.first?["options"]) as? [[String: Any]])
    let chosen = try #require(options.first { $0["recommended"] as? Bool == true })
    #expect(chosen["arrives"] as? String == "2026-12-01T08:00:00+00:00")
    #expect(chosen["reaches"] as? String == "2026-12-01T08:12:00+00:00")
    // Without --to there is nowhere to walk from.
    #expect(run(["commute", "add", "x", "--stop", "4530", "--arrive-by", "08:00", "--then-walk", "5"]).code == 2)
  }

  @Test func lateTripMovesTheRecommendationEarlier() throws {
    try add("08:21")
    let live = packageRoot + "/Data/realtime/demo-tripupdates.pb"
    #expect(rows().first { $0.hasPrefix("→") }?.contains("dep 07:51") == true)
    // The 07:51 runs 3 min late: it would arrive 08:23, so the 07:31 is the one to take.
    let plan = run(["commute", "work", "--now", "2026-12-01T07:25:00Z", "--realtime", live]).stdout
    #expect(plan.contains("→  27  Crumlin Hospital  dep 07:31  arr 08:00  leave 07:26  in 1 min"))
    #expect(plan.contains("dep 07:54  arr 08:23  leave 07:49  in 24 min"))
  }

  @Test func addListRemoveAndErrors() throws {
    try add("08:30")
    #expect(
      run(["commute", "list"]).stdout
        == "work  Tallaght (The Square) [4530], route 27, to Crumlin Hospital, arrive by 08:30, mon-fri, 5 min walk\n")
    #expect(run(["commute", "add", "x", "--stop", "4530", "--arrive-by", "25:00"]).code == 2)
    #expect(run(["commute", "add", "x", "--stop", "4530", "--arrive-by", "08:00", "--days", "funday"]).code == 2)
    #expect(run(["commute", "add", "x", "--arrive-by", "08:00"]).code == 2)
    #expect(run(["commute", "nowhere"]).code == 3)
    let json = try JSONSerialization.jsonObject(with: Data(run(["commute", "work", "--now", tuesday, "--json"]).stdout.utf8))
    let plans = try #require(json as? [[String: Any]])
    let options = try #require(plans.first?["options"] as? [[String: Any]])
    #expect(options.map { $0["recommended"] as? Bool } == [false, false, true, false])
    #expect(options[2]["leave_by"] as? String == "2026-12-01T07:46:00+00:00")
    #expect(options[2]["minutes_until_leave"] as? Int == 26)
    #expect(run(["commute", "remove", "work"]).stdout == "removed commute 'work'\n")
    #expect(run(["commute", "list"]).stdout.hasPrefix("no commutes yet"))
  }

  @Test func icsIsFoldedCRLFWithAnEventPerDayAcrossDST() throws {
    let added = run([
      "commute", "add", "daily", "--stop", "4530", "--route", "27", "--to", "Crumlin Hospital", "--arrive-by", "08:30", "--walk", "5",
      "--days", "daily",
    ])
    #expect(added.code == 0)
    // Ireland moves to summer time on Sunday 2027-03-28.
    let result = run(["commute", "daily", "--ics", "--date", "2027-03-26", "--now", "2027-03-20T12:00:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    let text = result.stdout
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    let physical = text.components(separatedBy: "\r\n").dropLast()
    #expect(physical.allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") && !$0.contains("\r") })
    #expect(physical.contains { $0.hasPrefix(" ") })  // the description is folded
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    #expect(unfolded.filter { $0 == "BEGIN:VEVENT" }.count == unfolded.filter { $0 == "BEGIN:VALARM" }.count)
    let starts = unfolded.filter { $0.hasPrefix("DTSTART:") }
    // Sunday's timetable has no 27 arriving in time, so no event that day.
    #expect(
      starts == [
        "DTSTART:20270326T074600Z", "DTSTART:20270327T070600Z", "DTSTART:20270329T064600Z", "DTSTART:20270330T064600Z",
        "DTSTART:20270331T064600Z", "DTSTART:20270401T064600Z",
      ])
    #expect(unfolded.contains("SUMMARY:Leave for daily: 27 to Crumlin Hospital at 07:51"))
    #expect(
      unfolded.contains(
        "DESCRIPTION:Walk 5 min to Tallaght (The Square)\\; 27 Crumlin Hospital departs 07:51\\, arrives 08:20 (arrive by 08:30).\\nFrom the timetable: run 'transit commute daily' for live times."
      ))
    // Weekdays only: five events in the seven days from a Tuesday.
    try add("08:30")
    let week = run(["commute", "work", "--ics", "--now", tuesday]).stdout
    #expect(week.components(separatedBy: "BEGIN:VEVENT").count - 1 == 5)
    #expect(run(["commute", "--ics"]).code == 2)
  }

  @Test func icsFoldsLongLinesOnCharacterBoundaries() {
    let line = "SUMMARY:" + String(repeating: "é", count: 80)
    let folded = CommuteCalendar.fold(line)
    #expect(folded.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
  }

  @Test func commutesSurviveAnotherTimetable() throws {
    try add("08:30")
    #expect(run(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet"]).code == 0)
    #expect(run(["commute", "list"]).stdout.hasPrefix("work  Tallaght (The Square) [4530]"))
  }
}
