import Foundation
import GTFS
import TestSupport
import Testing

@testable import TransitCLI

/// A cron refresh must never swap in a wrong feed (issue 19): the swap gate, --force,
/// --rollback, --check, expiry warnings and waiting for the lock.
@Suite struct SwapGateTests {
  /// 2026-12-01, a Tuesday, 12:00 UTC.
  static let now = "2026-12-01T12:00:00Z"

  /// A small feed: `stops` stops on one route with one trip per stop pair, running every day
  /// from `start` to `end` (yyyymmdd), for `agency`.
  static func feed(
    in folder: String, name: String, agency: String = "Gate Transit", agencyID: String = "G", stops: Int = 10, start: Int = 20260101,
    end: Int = 20271231
  ) -> String {
    let path = folder + "/" + name
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    var stopRows = "stop_id,stop_name,stop_lat,stop_lon\n"
    for index in 0..<stops { stopRows += "S\(index),Stop \(index),53.\(2800 + index),-6.3600\n" }
    var trips = "route_id,service_id,trip_id\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    var routes = "route_id,agency_id,route_short_name,route_type\n"
    for index in 0..<(stops - 1) {
      routes += "R\(index),\(agencyID),\(index + 1),3\n"
      trips += "R\(index),ALL,T\(index)\n"
      times += "T\(index),08:00:00,08:00:00,S\(index),1\nT\(index),08:10:00,08:10:00,S\(index + 1),2\n"
    }
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n\(agencyID),\(agency),https://example.org,Europe/Dublin\n",
      "stops.txt": stopRows, "routes.txt": routes, "trips.txt": trips, "stop_times.txt": times,
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,\(start),\(end)\n",
    ]
    for (file, text) in files { _ = FileManager.default.createFile(atPath: path + "/" + file, contents: Data(text.utf8)) }
    return path
  }

  let home = TemporaryFolder()
  let sources = TemporaryFolder()

  func ingest(_ path: String, _ extra: [String] = []) -> CLIResult {
    transit(["ingest", path, "--feed", "gate", "--now", Self.now, "--data-dir", home.path] + extra)
  }

  func stopsNamed(_ text: String) -> String {
    transit(["stops", "search", text, "--now", Self.now, "--data-dir", home.path]).stdout
  }

  init() throws {
    let first = transit(["ingest", Self.feed(in: sources.path, name: "good"), "--feed", "gate", "--now", Self.now, "--data-dir", home.path])
    guard first.code == 0 else { throw FixtureError(first.stderr) }
  }

  static let refusals: [(String, [String: String], String)] = [
    // name, how the new feed differs, the failed check's line
    ("expired", ["end": "20261130"], "service-ended: its service ended on 2026-11-30 (today is 2026-12-01)"),
    ("far ahead", ["start": "20270301"], "service-not-started: its service starts on 2027-03-01, 90 days ahead (at most 60)"),
    (
      "another agency", ["agency": "Other Lines", "agencyID": "O"],
      "same-agency: its agencies (other lines) share no agency_id or name with the held one's (gate transit)"
    ),
    ("40 % of the stops", ["stops": "4"], "stops: stops 10 -> 4 (-60 %, at most -50 %)"),
    (
      "nothing this week", ["start": "20261215"],
      "departures-ahead: no departure in the 7 days from 2026-12-01, where the held timetable has some"
    ),
  ]

  @Test(arguments: refusals)
  func aBadFeedIsRefusedAndTheHeldOneKept(name: String, change: [String: String], line: String) throws {
    let before = stopsNamed("stop 7")
    #expect(before.contains("Stop 7"))
    let bad = Self.feed(
      in: sources.path, name: "bad", agency: change["agency"] ?? "Gate Transit", agencyID: change["agencyID"] ?? "G",
      stops: Int(change["stops"] ?? "10")!, start: Int(change["start"] ?? "20260101")!, end: Int(change["end"] ?? "20271231")!)
    let result = ingest(bad)
    #expect(result.code == 4, "\(name): \(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("transit: refused to replace the timetable of gate: "), "\(name)")
    #expect(result.stderr.contains(line), "\(name): \(result.stderr)")
    #expect(result.stderr.hasSuffix("; the current one is kept (--force swaps anyway)\n"))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(stopsNamed("stop 7") == before, "\(name): the held timetable answers as before")
    // JSON: the checks' results, on stdout, and the same exit code.
    let json = ingest(bad, ["--json"])
    #expect(json.code == 4)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["swapped"] as? Bool == false)
    let checks = try #require(object["checks"] as? [[String: Any]])
    #expect(
      checks.map { $0["name"] as? String } == [
        "service-ended", "service-not-started", "same-agency", "stops", "routes", "trips", "departures-ahead",
      ])
    #expect(checks.contains { $0["passed"] as? Bool == false && line.hasPrefix(($0["name"] as? String ?? "?") + ":") })
  }

  @Test func aGoodFeedSwapsAndTheChecksAreInTheJSON() throws {
    let next = Self.feed(in: sources.path, name: "next", stops: 12)
    let result = ingest(next, ["--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["swapped"] as? Bool == true)
    #expect((object["checks"] as? [[String: Any]])?.allSatisfy { $0["passed"] as? Bool == true } == true)
    #expect(stopsNamed("stop 11").contains("Stop 11"))
  }

  @Test func forceSwapsAndRollbackRestoresTheSameAnswers() throws {
    let departures = ["departures", "S3", "--now", "2026-12-02T07:30:00Z", "--json", "--data-dir", home.path]
    let before = transit(departures).stdout
    let list = transit(["ingest", "--list", "--now", Self.now, "--data-dir", home.path]).stdout
    #expect(list.contains("PREVIOUS"))
    // Another agency's feed, forced in.
    let other = Self.feed(in: sources.path, name: "other", agency: "Other Lines", agencyID: "O", stops: 3)
    let forced = ingest(other, ["--force"])
    #expect(forced.code == 0, "\(forced.stderr)")
    #expect(forced.stderr.contains("warning: swapped with --force although same-agency failed"))
    #expect(transit(departures).stdout != before)
    // Rolled back: byte-identical answers; the forced one is now the previous.
    let rolled = transit(["ingest", "--rollback", "gate", "--now", Self.now, "--data-dir", home.path])
    #expect(rolled.code == 0, "\(rolled.stderr)")
    #expect(rolled.stdout.hasPrefix("rolled back gate to the timetable loaded "))
    #expect(transit(departures).stdout == before)
    let meta = try #require(try Timetables(directory: home.path).previousMeta(of: "gate"))
    #expect(meta["rows.stops.txt"] == "3")
    // And back again.
    #expect(transit(["ingest", "--rollback", "gate", "--quiet", "--data-dir", home.path]).code == 0)
    #expect(transit(departures).stdout != before)
  }

  @Test func rollbackWithoutAPreviousTimetableSaysSo() {
    let fresh = TemporaryFolder()
    #expect(
      transit(["ingest", Self.feed(in: sources.path, name: "once"), "--feed", "once", "--now", Self.now, "--data-dir", fresh.path]).code
        == 0)
    let result = transit(["ingest", "--rollback", "once", "--data-dir", fresh.path])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: no previous timetable of once is kept; nothing to roll back to\n")
    #expect(transit(["ingest", "--rollback", "nope", "--data-dir", fresh.path]).code == 3)
    #expect(transit(["ingest", "--rollback", "../user", "--data-dir", fresh.path]).code == 2)
  }

  @Test func checkAndWarningsForAnEndingTimetable() {
    // The held timetable runs to 2027-12-31.
    let fine = transit(["ingest", "--check", "--now", Self.now, "--data-dir", home.path])
    #expect(fine.code == 0)
    #expect(fine.stdout == "gate: ok, service to 2027-12-31\n")
    #expect(transit(["ingest", "--check", "--quiet", "--now", Self.now, "--data-dir", home.path]).stdout.isEmpty)
    // 2027-12-28: four days left (28, 29, 30 and 31 run; 31 - 28 = 3 days after today).
    let soon = transit(["ingest", "--check", "--now", "2027-12-28T12:00:00Z", "--data-dir", home.path])
    #expect(soon.code == 5)
    #expect(soon.stdout == "the timetable held for gate ends on 2027-12-31 (in 3 days); refresh it with 'transit ingest'\n")
    let ended = transit(["ingest", "--check", "--quiet", "--now", "2028-01-01T12:00:00Z", "--data-dir", home.path])
    #expect(ended.code == 5)
    #expect(ended.stdout == "the timetable held for gate ended on 2027-12-31; refresh it with 'transit ingest'\n")
    #expect(transit(["ingest", "--list", "--now", "2028-01-01T12:00:00Z", "--data-dir", home.path]).stdout.contains(" ended "))
    // Every query says it once on stderr, never in its JSON.
    let query = transit(["stops", "search", "stop 3", "--json", "--now", "2028-01-01T12:00:00Z", "--data-dir", home.path])
    #expect(query.code == 0)
    #expect(query.stderr == "warning: the timetable held for gate ended on 2027-12-31; refresh it with 'transit ingest'\n")
    #expect((try? JSONSerialization.jsonObject(with: Data(query.stdout.utf8))) != nil)
    #expect(transit(["stops", "search", "stop 3", "--now", Self.now, "--data-dir", home.path]).stderr.isEmpty)
    // The no-argument view and status say it too.
    for words in [[String](), ["status", "--realtime", packageRoot + "/Data/realtime/demo-alerts.pb"]] {
      let other = transit(words + ["--now", "2028-01-01T12:00:00Z", "--data-dir", home.path])
      #expect(other.stderr.contains("warning: the timetable held for gate ended on 2027-12-31"), "\(words): \(other.stderr)")
    }
  }

  @Test func aSecondIngestWaitsForTheLock() throws {
    // Hold the lock as another ingest would (flock on its own open file description).
    let fd = open(home.path + "/ingest.lock", O_RDWR | O_CREAT, 0o600)
    #expect(fd >= 0)
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    let next = Self.feed(in: sources.path, name: "waiting", stops: 11)
    // Refused after its four quarter-second tries, on a clock that moves as it sleeps (the
    // tries are counted, not timed: a second of real waiting proves nothing more).
    let context = CommandContext.stepped()
    let refused = transit(
      ["ingest", next, "--feed", "gate", "--now", Self.now, "--data-dir", home.path, "--wait", "1"], context: context)
    #expect(refused.code == 1)
    #expect(refused.stderr.hasPrefix("transit: another ingest is running"))
    // Released after half a second: the waiting ingest goes on and swaps.
    let release = Thread {
      Thread.sleep(forTimeInterval: 0.5)
      flock(fd, LOCK_UN)
      close(fd)
    }
    release.start()
    let waited = ingest(next, ["--wait", "30"])
    #expect(waited.code == 0, "\(waited.stderr)")
    #expect(stopsNamed("stop 10").contains("Stop 10"))
  }

  @Test func systemdUnitsAndTheCronRecipeAreDocumented() {
    let units = transit(["ingest", "--print-systemd-units"])
    #expect(units.code == 0)
    #expect(units.stdout.contains("ExecStart=/bin/sh -c 'transit ingest --if-changed --quiet; transit ingest --check --quiet'"))
    #expect(units.stdout.contains("OnCalendar=*-*-* 04:17"))
    // The cron recipe in 'ingest --help' is in HelpScreenTests' whole screen.
  }
}

/// After a swap, what changed at the user's own stops is said (issue 19, "what changed for
/// you"); under --quiet only then, so cron mails only then.
@Suite struct ChangesForYouTests {
  /// The demo network with route 77X's trips gone and Tallaght Hospital (TD4540) moved
  /// 0.001° north: 6,371 km × π / 180 × 0.001 = 111.19 m.
  static func changedDemo(in folder: String) throws -> String {
    let source = packageRoot + "/Data/gtfs", target = folder + "/changed"
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: source) {
      var lines = try String(contentsOfFile: source + "/" + name, encoding: .utf8).components(separatedBy: "\n")
      switch name {
      case "trips.txt": lines.removeAll { $0.hasPrefix("R77X,") }
      case "stop_times.txt": lines.removeAll { $0.hasPrefix("77X-") }
      case "stops.txt": lines = lines.map { $0.hasPrefix("TD4540,") ? $0.replacingOccurrences(of: "53.290600", with: "53.291600") : $0 }
      default: break
      }
      try lines.joined(separator: "\n").write(toFile: target + "/" + name, atomically: true, encoding: .utf8)
    }
    return target
  }

  @Test func favouriteStopsMovedOrLosingARouteAreSaid() throws {
    let home = DemoHome(), sources = TemporaryFolder()
    #expect(home.run(["fav", "add", "TD4540", "--label", "hospital"]).code == 0)
    #expect(home.run(["fav", "add", "TD4530"]).code == 0)
    // The 77X leaves Tallaght Hospital (TD4540) at 07:06 and reaches Citywest Campus (TD4547)
    // at 07:21, in time for 07:40; the 07:36 arrives 07:51 (stop_times.txt). With the 77X gone
    // nothing arrives in time.
    let added = home.run(["commute", "add", "school", "--stop", "TD4540", "--route", "77X", "--to", "TD4547", "--arrive-by", "07:40"])
    #expect(added.code == 0, "\(added.stderr)")
    let now = "2026-12-01T12:00:00Z"
    // The same timetable again: nothing for you, and --quiet prints nothing at all.
    #expect(home.run(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--now", now]).stdout.isEmpty)
    let changed = try Self.changedDemo(in: sources.path)
    let quiet = home.run(["ingest", changed, "--feed", "demo", "--quiet", "--now", now])
    #expect(quiet.code == 0, "\(quiet.stderr)")
    #expect(
      quiet.stdout == """
        your stop TD4540 (hospital) moved 111 m
        route 77X no longer calls at your stop TD4540 (hospital)
        commute school: the 07:06 77X is gone, and nothing else arrives in time

        """)
    // JSON always carries them (here: none left to report going back to the changed feed).
    let json = home.run(["ingest", changed, "--feed", "demo", "--json", "--now", now])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((object["your_changes"] as? [Any])?.isEmpty == true)
    let back = home.run(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--json", "--now", now])
    let again = try #require(try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [String: Any])
    let changes = try #require(again["your_changes"] as? [[String: Any]])
    #expect(changes.map { $0["change"] as? String } == ["moved", "commute"])
    #expect(changes.first?["meters"] as? Int == 111)
    // Going back, the 07:06 arrives in time again.
    #expect((changes.last?["after"] as? [String: Any])?["departs"] as? String == "2026-12-01T07:06:00+00:00")
  }
}
