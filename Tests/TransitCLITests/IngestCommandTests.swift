import Foundation
import GTFS
import SQLite
import TestSupport
import Testing

@testable import TransitCLI

@Suite struct IngestCommandTests {
  let demoFeed = packageRoot + "/Data/gtfs"

  @Test func ingestsTheDemoFeedAndListsIt() throws {
    let home = TemporaryFolder()
    let result = transit(["ingest", demoFeed, "--data-dir", home.path, "--now", "2026-11-29T12:00:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("ingested tallaght-demo-transit in "))
    #expect(result.stdout.contains(" stop_times"))
    let list = transit(["ingest", "--list", "--data-dir", home.path])
    #expect(list.code == 0)
    #expect(list.stdout.contains("tallaght-demo-transit"))
    #expect(list.stdout.contains("2026-01-01 to 2027-12-31"))
    #expect(list.stdout.contains("2026-11-29 12:00"))
  }

  @Test func ifChangedOnAFolderLoadsOnlyWhenAFileChanged() throws {
    let home = TemporaryFolder(), copy = TemporaryFolder()
    for name in try FileManager.default.contentsOfDirectory(atPath: demoFeed) {
      try FileManager.default.copyItem(atPath: demoFeed + "/" + name, toPath: copy.path + "/" + name)
    }
    func ingest() -> CLIResult { transit(["ingest", copy.path, "--feed", "demo", "--if-changed", "--data-dir", home.path]) }
    #expect(ingest().stdout.hasPrefix("changed: ingested demo in "))
    let same = ingest()
    #expect(same.code == 0 && same.stdout.hasPrefix("unchanged: demo"), "\(same.stdout)")
    // One more calendar exception: the folder's hash changes, so it loads.
    let calendar = copy.path + "/calendar_dates.txt"
    var text = try String(contentsOfFile: calendar, encoding: .utf8)
    text += text.hasSuffix("\n") ? "" : "\n"
    try (text + "WK,20270104,2\n").write(toFile: calendar, atomically: true, encoding: .utf8)
    #expect(ingest().stdout.hasPrefix("changed: ingested demo in "))
  }

  @Test func jsonSummary() throws {
    let home = TemporaryFolder()
    let result = transit(["ingest", demoFeed, "--feed", "demo", "--json", "--data-dir", home.path])
    #expect(result.code == 0, "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["feed"] as? String == "demo")
    let rows = try #require(object["rows"] as? [String: Int])
    #expect(rows["stops.txt"] ?? 0 >= 40)
  }

  @Test func badInputIsOneLineOnStderrAndExit1() throws {
    let home = TemporaryFolder()
    #expect(transit(["ingest", demoFeed, "--feed", "demo", "--data-dir", home.path]).code == 0)
    let missing = transit(["ingest", "/nonexistent/feed.zip", "--feed", "demo", "--data-dir", home.path])
    #expect(missing.code == 1)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr == "transit: /nonexistent/feed.zip: no such file or folder\n")
    // The demo timetable still answers.
    #expect(transit(["ingest", "--list", "--data-dir", home.path]).stdout.contains("demo"))
  }

  @Test func usageErrorsExit2AndUnknownFeedsExit3() {
    let home = TemporaryFolder()
    let noPath = transit(["ingest", "--data-dir", home.path])
    #expect(noPath.code == 2)
    // Without PATH, ingest loads the configured feeds; with none configured that is a usage error.
    #expect(
      noPath.stderr.hasPrefix(
        "transit: missing PATH|URL (or configure a feed with 'transit feeds add NAME --gtfs URL') (usage: transit ingest [PATH|URL] [options]; see 'transit ingest --help')\n"
      ))
    let typo = transit(["ingest", "--lsit"])
    #expect(typo.code == 2)
    #expect(typo.stderr.hasPrefix("transit: unknown option '--lsit'; did you mean '--list'?"))
    let unknown = transit(["ingest", "--remove", "nope", "--data-dir", home.path])
    #expect(unknown.code == 3)
    #expect(transit(["ingset"]).stderr.hasPrefix("transit: unknown command 'ingset'; did you mean 'ingest'?"))
  }

  @Test func dataDirFromEnvironment() {
    let home = TemporaryFolder()
    let result = transit(["ingest", demoFeed, "--feed", "demo"], environment: ["TRANSIT_HOME": home.path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: home.path + "/feeds/demo.sqlite"))
  }
}

/// Kills real ingests part-way and checks the timetable they were replacing still answers.
@Suite(
  .enabled(if: transitExecutable != nil && SharedData.path("static/hart-2020.zip") != nil, "needs the built executable and ../shared/data"))
struct InterruptedIngestTests {
  @Test func killedIngestLeavesTheTimetableUsable() throws {
    let home = TemporaryFolder()
    let feed = SharedData.path("static/hart-2020.zip")!
    let first = try runExecutable(["ingest", packageRoot + "/Data/gtfs", "--feed", "city", "--data-dir", home.path])
    #expect(first.code == 0, "\(first.stderr)")
    let timetable = home.path + "/feeds/city.sqlite"
    var expectedStops: Int64 = try Connection(path: timetable, mode: .readOnly).scalarInt("SELECT count(*) FROM stops")!
    // Kill at several moments through a ~1-2 s ingest; sometimes it finishes first, which is fine.
    for delay in [0.05, 0.2, 0.5, 0.9, 1.4, 2.5] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: transitExecutable!)
      // Another agency's feed replaces the demo: --force past the swap checks.
      process.arguments = ["ingest", feed, "--feed", "city", "--data-dir", home.path, "--quiet", "--force"]
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let db = try Connection(path: timetable, mode: .readOnly)
      let stops = try #require(try db.scalarInt("SELECT count(*) FROM stops"))
      #expect(stops == expectedStops || stops == 2_349, "after \(delay) s: \(stops) stops")
      #expect(try db.scalarText("PRAGMA quick_check") == "ok")
      expectedStops = stops
    }
    // And a clean ingest afterwards works (a stale .new or lock does not block it).
    let last = try runExecutable(["ingest", feed, "--feed", "city", "--force", "--data-dir", home.path])
    #expect(last.code == 0, "\(last.stderr)")
  }
}

/// `ingest --list` shows the dates with service, from calendar.txt and calendar_dates.txt, not
/// feed_info's dates (issue 17: KCM's feed_info says 2020 for a 2021 calendar).
@Suite struct ServiceRangeTests {
  @Test func theRangeIsTheFirstAndLastDateWithService() throws {
    let home = TemporaryFolder(), feed = TemporaryFolder()
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Range Transit,https://example.org,Europe/Dublin\n",
      "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.28,-6.36\nS2,Two,53.29,-6.37\n",
      "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
      "trips.txt": "route_id,service_id,trip_id\nR,MON,T1\nR,NEVER,T2\n",
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\n",
      // MON: Mondays from Thursday 2026-01-01 to Thursday 2026-12-31, so the first Monday is
      // the 5th, which is removed: the first date is Monday 2026-01-12; the last Monday is
      // 2026-12-28. NEVER runs on no weekday in a wider range. An added Sunday 2027-01-03
      // moves the end.
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nMON,1,0,0,0,0,0,0,20260101,20261231\nNEVER,0,0,0,0,0,0,0,20250101,20281231\n",
      "calendar_dates.txt": "service_id,date,exception_type\nMON,20260105,2\nMON,20270103,1\n",
      "feed_info.txt":
        "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nX,https://example.org,en,20200101,20201231\n",
    ]
    for (name, text) in files { try text.write(toFile: feed.path + "/" + name, atomically: true, encoding: .utf8) }
    #expect(transit(["ingest", feed.path, "--feed", "range", "--data-dir", home.path]).code == 0)
    let list = transit(["ingest", "--list", "--data-dir", home.path])
    #expect(list.stdout.contains("2026-01-12 to 2027-01-03"), "\(list.stdout)")
    let json = transit(["ingest", "--list", "--json", "--data-dir", home.path])
    #expect(
      json.stdout.contains("\"service_start\" : \"20260112\"") || json.stdout.contains("\"service_start\": \"20260112\""), "\(json.stdout)")
  }

  @Test(.enabled(if: SharedData.path("static/kcm-vp-subset-2021.zip") != nil, "needs ../shared/data"))
  func kingCountyShowsItsCalendarNotItsFeedInfo() throws {
    let home = TemporaryFolder()
    let source = try #require(SharedData.path("static/kcm-vp-subset-2021.zip"))
    #expect(transit(["ingest", source, "--feed", "kcm", "--data-dir", home.path]).code == 0)
    // Computed separately from the ZIP's calendar.txt and calendar_dates.txt (a short Python
    // walk over every date): service runs from 2021-07-26 to 2021-10-01; feed_info says
    // 20200323 to 20200612.
    let list = transit(["ingest", "--list", "--data-dir", home.path])
    #expect(list.stdout.contains("2021-07-26 to 2021-10-01"), "\(list.stdout)")
  }
}
