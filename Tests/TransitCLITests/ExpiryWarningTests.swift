import Foundation
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// What a command says on stderr about the timetables held that have ended, end soon or have
/// not started: a line each while there are at most three, else a line per kind naming the
/// first three (a region of many agencies is not buried under thirty lines).
@Suite struct ExpiryWarningTests {
  static func day(_ text: String) -> ServiceDate { ServiceDate(gtfs: text)! }

  @Test func fewAreSaidOneByOne() {
    let lines = ServiceStatus.warnings([
      ("a", .ended(lastDay: Self.day("20260131"))), ("b", .running(lastDay: Self.day("20271231"))),
      ("c", .notStarted(firstDay: Self.day("20270601"))), ("d", .unknown),
      ("e", .endingSoon(lastDay: Self.day("20261203"), daysLeft: 2)),
    ])
    #expect(
      lines == [
        "the timetable held for a ended on 2026-01-31; refresh it with 'transit ingest'",
        "the timetable held for c starts on 2027-06-01; until then it has no service",
        "the timetable held for e ends on 2026-12-03 (in 2 days); refresh it with 'transit ingest'",
      ])
  }

  @Test func manyAreSaidALineAKind() {
    let ended = (1...5).map { ("old\($0)", ServiceStatus.ended(lastDay: Self.day("2025010\($0)"))) }
    let ending = [
      ("x", ServiceStatus.endingSoon(lastDay: Self.day("20261202"), daysLeft: 1)),
      ("y", ServiceStatus.endingSoon(lastDay: Self.day("20261205"), daysLeft: 4)),
    ]
    let later = [("z", ServiceStatus.notStarted(firstDay: Self.day("20270101")))]
    let lines = ServiceStatus.warnings(ended + [("ok", .running(lastDay: Self.day("20271231")))] + ending + later)
    #expect(
      lines == [
        "5 timetables held have ended (old1, old2, old3 and 2 more; 'transit ingest --check' lists them); refresh them with 'transit ingest'",
        "2 timetables held end soon (x on 2026-12-02 and y on 2026-12-05); refresh them with 'transit ingest'",
        "the timetable held for z starts on 2027-01-01; until then it has no service",
      ])
    // Exactly three names: all of them, no "more".
    let three = ServiceStatus.warnings(Array(ended.prefix(3)) + later)
    #expect(
      three.first == "3 timetables held have ended (old1, old2 and old3); refresh them with 'transit ingest'")
  }

  /// End to end: six feeds held, four ended and one not started, asked about the sixth.
  @Test func aCommandSaysThemInALineAKind() throws {
    let home = TemporaryFolder()
    func feed(_ name: String, from start: String, to end: String) throws {
      let folder = home.path + "/src-" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let files = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Dublin\n",
        "calendar.txt":
          "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,\(start),\(end)\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n\(name)-1,\(name) One,53.3,-6.3\n\(name)-2,\(name) Two,53.31,-6.3\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,9,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n",
        "stop_times.txt":
          "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,\(name)-1,1\nT1,08:10:00,08:10:00,\(name)-2,2\n",
      ]
      for (file, text) in files { try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8) }
      // Ingested on a day it runs (or before it starts), as the swap checks want.
      let result = transit(["ingest", folder, "--feed", name, "--quiet", "--now", "2025-06-01T12:00:00Z", "--data-dir", home.path])
      try #require(result.code == 0, "\(name): \(result.stderr)")
    }
    for name in ["e1", "e2", "e3", "e4"] { try feed(name, from: "20250101", to: "20260131") }
    try feed("later", from: "20270601", to: "20271231")
    try feed("now", from: "20250101", to: "20271231")
    let asked = ["departures", "now-1", "--now", "2026-12-01T07:55:00Z", "--data-dir", home.path]
    let result = transit(asked)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stderr.split(separator: "\n") == [
        "warning: 4 timetables held have ended (e1, e2, e3 and 1 more; 'transit ingest --check' lists them); refresh them with 'transit ingest'",
        "warning: the timetable held for later starts on 2027-06-01; until then it has no service",
      ])
    #expect(result.stdout.contains("08:00"), "\(result.stdout)")
    // Two ended and one not started: three lines, one a timetable.
    for name in ["e3", "e4"] { #expect(transit(["ingest", "--remove", name, "--data-dir", home.path]).code == 0) }
    #expect(
      transit(asked).stderr.split(separator: "\n") == [
        "warning: the timetable held for e1 ended on 2026-01-31; refresh it with 'transit ingest'",
        "warning: the timetable held for e2 ended on 2026-01-31; refresh it with 'transit ingest'",
        "warning: the timetable held for later starts on 2027-06-01; until then it has no service",
      ])
  }
}
