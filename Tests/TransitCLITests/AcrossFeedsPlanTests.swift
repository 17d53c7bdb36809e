import Foundation
import TestSupport
import Testing

/// Two feeds held at once whose stations "Junction" stand 45 m apart (issue 32): one complex,
/// a board of both, and a journey changing between them on foot.
@Suite struct AcrossFeedsPlanTests {
  static let agency = "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Dublin\n"
  static let calendar =
    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20271231\n"
  static let metro = [
    "agency.txt": agency, "calendar.txt": calendar,
    "stops.txt": """
    stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
    ALPHA,Alpha,53.30000,-6.30000,0,
    J,Junction,53.35000,-6.30000,1,
    JM,Junction,53.35000,-6.30000,0,J

    """,
    "routes.txt": "route_id,agency_id,route_short_name,route_type\nM,A,M1,1\n",
    "trips.txt": "route_id,service_id,trip_id\nM,D,M-0800\n",
    "stop_times.txt": """
    trip_id,arrival_time,departure_time,stop_id,stop_sequence
    M-0800,08:00:00,08:00:00,ALPHA,1
    M-0800,08:20:00,08:20:00,JM,2

    """,
  ]
  static let rail = [
    "agency.txt": agency, "calendar.txt": calendar,
    "stops.txt": """
    stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
    JR-STN,Junction,53.35040,-6.30000,1,
    JR,Junction,53.35040,-6.30000,0,JR-STN
    OMEGA,Omega,53.45000,-6.30000,0,

    """,
    "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,R9,2\n",
    "trips.txt": "route_id,service_id,trip_id\nR,D,R-0810\nR,D,R-0830\n",
    "stop_times.txt": """
    trip_id,arrival_time,departure_time,stop_id,stop_sequence
    R-0810,08:10:00,08:10:00,JR,1
    R-0810,08:40:00,08:40:00,OMEGA,2
    R-0830,08:30:00,08:30:00,JR,1
    R-0830,09:00:00,09:00:00,OMEGA,2

    """,
  ]

  /// Both feeds ingested into one data folder, once per process.
  static let home: Result<TemporaryFolder, FixtureError> = {
    let data = TemporaryFolder()
    var sources: [TemporaryFolder] = []
    for (name, files) in [("metro", metro), ("rail", rail)] {
      let feed = TemporaryFolder()
      sources.append(feed)
      for (file, text) in files {
        do { try text.write(toFile: feed.path + "/" + file, atomically: true, encoding: .utf8) } catch {
          return .failure(FixtureError("\(error)"))
        }
      }
      let result = transit(["ingest", feed.path, "--feed", name, "--quiet", "--data-dir", data.path])
      guard result.code == 0 else { return .failure(FixtureError(result.stderr)) }
    }
    return .success(data)
  }()

  func run(_ arguments: [String]) throws -> CLIResult {
    transit(arguments + ["--now", "2026-12-01T07:50:00Z", "--data-dir", try Self.home.get().path])
  }

  @Test func theJourneyChangesFeedsOnFoot() throws {
    // 0.0004° of latitude is 44.5 m (mean Earth radius 6,371,008.8 m): within the 400 m.
    #expect(abs(0.0004 * Double.pi / 180 * 6_371_008.8 - 44.48) < 0.01)
    let result = try run(["plan", "Alpha", "Omega", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let journey = try #require((json["journeys"] as? [[String: Any]])?.first)
    let legs = try #require(journey["legs"] as? [[String: Any]])
    #expect(legs.map { $0["type"] as? String } == ["ride", "walk", "ride"])
    #expect(legs.compactMap { $0["feed"] as? String } == ["metro", "rail"])
    #expect((legs[1]["from"] as? [String: Any])?["stop_id"] as? String == "JM")
    #expect((legs[1]["to"] as? [String: Any])?["stop_id"] as? String == "JR")
    // The 08:10 leaves before the metro arrives at 08:20: the 08:30 is the one.
    #expect(journey["arrival"] as? String == "2026-12-01T09:00:00+00:00")
  }

  @Test func theNameIsOneBoardOfBothFeeds() throws {
    let result = try run(["departures", "Junction", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let rows = (json["departures"] as? [[String: Any]]) ?? []
    // The metro trip ends at Junction (no departure there); the rail trips start there.
    #expect(rows.map { "\($0["feed"] as? String ?? ""):\($0["trip_id"] as? String ?? "")" } == ["rail:R-0810", "rail:R-0830"])
    let parts = (((json["complex"] as? [String: Any])?["parts"] as? [[String: Any]]) ?? []).map {
      "\($0["feed"] as? String ?? ""):\($0["stop_id"] as? String ?? "")"
    }
    #expect(parts == ["metro:J", "rail:JR-STN"])
  }
}
