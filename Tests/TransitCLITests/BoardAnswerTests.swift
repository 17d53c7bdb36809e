import Foundation
import GTFS
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// The board is one answer (issue 33): the plain board, `--group` and `--watch` label a
/// station's platforms the same way, and the grouped board's JSON holds the same departure
/// objects as the plain one. The feed (UTC, every day): station Main Street (MS) whose two
/// platforms have no platform_code, only names that tell them apart ("Main Street Northbound",
/// "Main Street Southbound"); route 1 leaves MSN at 08:00 for Northtown and MSS at 08:05 for
/// Southtown.
@Suite struct BoardAnswerTests {
  static func home() throws -> TemporaryFolder {
    let home = TemporaryFolder()
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Main Lines,https://example.org,UTC\n",
      "stops.txt": """
      stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
      MS,Main Street,10.000,10.000,1,,1
      MSN,Main Street Northbound,10.0002,10.000,0,MS,
      MSS,Main Street Southbound,9.9998,10.000,0,MS,2
      NT,Northtown,10.050,10.000,0,,
      ST,Southtown,9.950,10.000,0,,

      """,
      "routes.txt": "route_id,route_short_name,route_type\nR1,1,3\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20271231\n",
      "trips.txt":
        "route_id,service_id,trip_id,trip_headsign,direction_id,wheelchair_accessible\nR1,S,N1,Northtown,0,1\nR1,S,S1,Southtown,1,\n",
      "stop_times.txt": """
      trip_id,arrival_time,departure_time,stop_id,stop_sequence
      N1,08:00:00,08:00:00,MSN,1
      N1,08:10:00,08:10:00,NT,2
      S1,08:05:00,08:05:00,MSS,1
      S1,08:15:00,08:15:00,ST,2

      """,
    ]
    try ingest(files, into: home)
    return home
  }

  let now = "2026-06-01T07:55:00Z"

  @Test func groupedAndWatchedBoardsLabelPlatformsAsThePlainBoardDoes() throws {
    let home = try Self.home()
    let plain = transit(["departures", "MS", "--now", now, "--data-dir", home.path])
    try #require(plain.code == 0, "\(plain.stderr)")
    #expect(plain.stdout.contains("  Northbound  08:00 · 5 min\n"), "\(plain.stdout)")
    #expect(plain.stdout.contains("  Southbound  08:05 · 10 min\n"), "\(plain.stdout)")
    // Widths: route 1, destination 9, platform 10, time 5, countdown 6 (right-aligned).
    let grouped = transit(["departures", "MS", "--group", "--now", now, "--data-dir", home.path])
    #expect(
      grouped.stdout == """
        Main Street · 07:55:00 · timetable only

        1 → Northtown
          1  Northtown  Northbound  08:00   5 min

        1 → Southtown
          1  Southtown  Southbound  08:05  10 min

        """, "\(grouped.stderr)")
    let context = CommandContext.stepped(from: UnixTime(1_780_300_500))  // 2026-06-01 07:55:00 UTC
    let watched = transit(["departures", "MS", "--watch", "--count", "1", "--data-dir", home.path], context: context).code
    #expect(watched == 0, "\(context.stderr.text)")
    #expect(
      context.stdout.text == """
        Main Street · 07:55:00 · timetable only

          1  Northtown  Northbound  08:00   5 min
          1  Southtown  Southbound  08:05  10 min

        """)
  }

  @Test func theGroupedBoardsDeparturesAreThePlainBoardsObjects() throws {
    let home = try Self.home()
    func document(_ extra: [String]) throws -> [String: Any] {
      let result = transit(["departures", "MS", "--json", "--now", now, "--data-dir", home.path] + extra)
      return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
    }
    let plain = try #require(try document([])["departures"] as? [[String: Any]])
    let groups = try #require(try document(["--group"])["groups"] as? [[String: Any]])
    let grouped = groups.flatMap { $0["departures"] as? [[String: Any]] ?? [] }
    #expect(plain.map { $0["trip_id"] as? String } == ["N1", "S1"])
    #expect(grouped.count == plain.count)
    func text(_ object: [String: Any]) throws -> String {
      String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
    for (one, other) in zip(plain, grouped) { #expect(try text(one) == text(other)) }
    // What only the plain board had before: the platform, wheelchair access and occupancy.
    #expect(grouped.first?["platform"] as? String == "Northbound")
    #expect(grouped.first?["wheelchair_accessible"] as? Int == 1)
    #expect(grouped.last?["wheelchair_boarding"] as? Int == 2)
    #expect(grouped.first.map { $0.keys.contains("occupancy") } == true)
  }
}
