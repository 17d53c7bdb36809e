import Foundation
import GTFS
import SQLite
import TestSupport
import Testing
import UserData

@testable import TransitCLI

/// `departures` and `stops near/search/show`, run in-process against the demo network.
@Suite struct StopsAndDeparturesCommandTests {
  let home = DemoHome()
  /// A Tuesday in December (Dublin keeps GMT).
  let tuesday = "2026-12-01T07:40:00Z"

  func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    home.run(arguments, environment: environment)
  }

  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  // MARK: - departures

  @Test func departuresText() {
    let result = run(["departures", "TINT", "--now", tuesday, "--limit", "5"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Tallaght Interchange ♿ · station, departures from 07:40
        Red  Suir Road ♿                        platform C  07:40 · now
        27   Crumlin Hospital ♿                 platform A  07:50 · 10 min
        Red  Suir Road ♿                        platform C  07:50 · 10 min
        54A  Kingswood ♿                        platform B  07:55 · 15 min
        49   Templeogue Village via Old Bawn ♿  platform B  08:00 · 20 min

        """)
    #expect(result.stderr.isEmpty)
  }

  @Test func departuresTwelveHourClockAndAt() {
    let result = run(["departures", "4530", "--now", tuesday, "--at", "13:00", "-n", "2"], environment: ["TRANSIT_CLOCK": "12"])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "Tallaght (The Square) [4530] ♿ · departures from 1:00 PM")
    #expect(lines.count == 3)
    #expect(lines.dropFirst().allSatisfy { $0.contains(" PM · 5 h ") })
    let us = run(["departures", "4530", "--now", tuesday, "-n", "1"], environment: ["LANG": "en_US.UTF-8"])
    #expect(us.stdout.contains(" AM · "))
  }

  @Test func departuresOnAHolidayDate() {
    let result = run(["departures", "TD4521", "--now", tuesday, "--date", "2026-12-25", "--at", "07:30", "--window", "121", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let object = (try? json(result.stdout)) as? [String: Any]
    let departures = object?["departures"] as? [[String: Any]] ?? []
    #expect(departures.map { $0["trip_id"] as? String } == ["27-SU-0-0800", "27-SU-0-0930"])
    #expect(departures.first?["scheduled"] as? String == "2026-12-25T08:00:00+00:00")
  }

  @Test func departuresJSONShape() throws {
    let result = run(["departures", "TINT", "--now", "2026-07-01T07:40:00+01:00", "--json", "--limit", "3", "--from", "53.2876,-6.375"])
    #expect(result.code == 0, "\(result.stderr)")
    let object = try #require(try json(result.stdout) as? [String: Any])
    #expect(Set(object.keys) == ["stop", "now", "realtime", "departures"])
    let stop = try #require(object["stop"] as? [String: Any])
    #expect(stop["stop_id"] as? String == "TINT")
    #expect(stop["stop_code"] is NSNull)
    #expect(stop["name"] as? String == "Tallaght Interchange")
    #expect(object["now"] as? String == "2026-07-01T07:40:00+01:00")
    let realtime = try #require(object["realtime"] as? [String: Any])
    #expect(realtime["status"] as? String == "none")
    #expect(realtime["feed_timestamp"] is NSNull && realtime["age_seconds"] is NSNull)
    let departures = try #require(object["departures"] as? [[String: Any]])
    #expect(departures.count == 3)
    let first = try #require(departures.first)
    #expect(
      Set(first.keys) == [
        "trip_id", "route_id", "route_short_name", "headsign", "stop_id", "stop_sequence", "service_date", "scheduled",
        "expected", "delay_seconds", "status", "source", "vehicle_id", "reachable", "prediction_ignored", "platform",
        "wheelchair_accessible", "wheelchair_boarding", "occupancy",
      ])
    #expect(first["trip_id"] as? String == "Red-WK-0-template")
    #expect(first["route_id"] as? String == "RED")
    #expect(first["stop_id"] as? String == "TINT-C")
    #expect(first["stop_sequence"] as? Int == 10)
    #expect(first["service_date"] as? String == "20260701")
    #expect(first["scheduled"] as? String == "2026-07-01T07:40:00+01:00")  // summer: Irish Standard Time
    #expect(first["status"] as? String == "scheduled" && first["source"] as? String == "schedule")
    #expect(first["expected"] is NSNull && first["delay_seconds"] is NSNull && first["vehicle_id"] is NSNull)
    // 32 m from platform C: a departure leaving now cannot be reached, one in 10 minutes can.
    #expect(departures.map { $0["reachable"] as? Bool } == [false, true, true])
    let withoutFrom = run(["departures", "TINT", "--now", tuesday, "--json", "-n", "1"])
    let plain = try #require(try json(withoutFrom.stdout) as? [String: Any])
    #expect((plain["departures"] as? [[String: Any]])?.first?["reachable"] is NSNull)
  }

  @Test func departuresAfterMidnightAndFilters() {
    let late = run(["departures", "TD4521", "--now", "2026-12-02T00:00:00Z", "--json"])
    #expect(late.stdout.contains("\"trip_id\": \"27-WK-0-2415\""))
    #expect(late.stdout.contains("\"service_date\": \"20261201\""))
    let route = run(["departures", "TINT", "--now", tuesday, "--route", "54A", "--to", "kingswood"])
    let rows = route.stdout.split(separator: "\n").dropFirst()
    #expect(!rows.isEmpty && rows.allSatisfy { $0.hasPrefix("54A  Kingswood") })
    let none = run(["departures", "TINT", "--now", tuesday, "--route", "99"])
    #expect(none.code == 0)
    #expect(none.stdout.contains("no departures in the 120 min from 07:40 on route 99"))
  }

  @Test func unknownAndAmbiguousStopsExit3() {
    let unknown = run(["departures", "Nowhere Street", "--now", tuesday])
    #expect(unknown.code == 3)
    #expect(unknown.stdout.isEmpty)
    #expect(unknown.stderr.hasSuffix("transit: no stop with id, code or name 'Nowhere Street'\n"))
    // The first word of eight stops' names (the station TINT with its three platforms among
    // them), of five places.
    let ambiguous = run(["departures", "tallaght", "--now", tuesday])
    #expect(ambiguous.code == 3)
    #expect(
      ambiguous.stderr == """
        'tallaght' could be:
          TD4528  4528  Tallaght Village
          TD4563  4563  Tallaght Stadium
          TD4540  4540  Tallaght Hospital
          TINT          Tallaght Interchange   station     27 to Crumlin Hospital, 49 to Templeogue Village via Old Bawn, 54A to Killinarden / Kingswood
          TINT-A  4500  Tallaght Interchange   platform A
          TINT-B  4501  Tallaght Interchange   platform B
          TINT-C  4502  Tallaght Interchange   platform C
          TD4530  4530  Tallaght (The Square)
        transit: 'tallaght' matches 8 stops; give the stop id or code of the one you mean

        """)
    // The two "Belgard Road" stops stand 26 m apart (stops.txt): one complex (issue 32), whose
    // rows say which stop by its code.
    let belgard = run(["departures", "belgard road", "--now", tuesday, "--limit", "2"])
    #expect(belgard.code == 0, "\(belgard.stderr)")
    #expect(
      belgard.stdout == """
        Belgard Road · complex of 2 stops, departures from 07:40
        54A  Kingswood ♿    4564  08:00 · 20 min
        54A  Killinarden ♿  4565  08:00 · 20 min

        """)
    let typo = run(["stops", "show", "Tallaght Hospitl"])
    #expect(typo.code == 3)
    #expect(typo.stderr.contains("TD4540  4540  Tallaght Hospital"))
  }

  /// The station TINT and its platforms TINT-A, -B, -C are all "Tallaght Interchange": the
  /// name is the station's (issue 17: it said "matches 4 stops").
  @Test func aStationIsTypedByItsName() {
    let byName = run(["departures", "Tallaght Interchange", "--now", tuesday, "--limit", "3"])
    #expect(byName.code == 0, "\(byName.stderr)")
    #expect(byName.stdout == run(["departures", "TINT", "--now", tuesday, "--limit", "3"]).stdout)
    #expect(byName.stdout.hasPrefix("Tallaght Interchange ♿ · station, departures from 07:40"))
  }

  @Test func usageErrorsExit2() {
    #expect(run(["departures"]).code == 2)
    #expect(run(["departures", "TINT", "--from", "north"]).code == 2)
    #expect(run(["departures", "TINT", "--at", "25:00"]).code == 2)
    #expect(run(["departures", "TINT", "--date", "2026-13-01", "--at", "08:00"]).code == 2)
    #expect(run(["departures", "TINT", "--window", "0"]).code == 2)
    #expect(run(["stops", "near", "--mode", "hovercraft"]).code == 2)
    #expect(run(["stops", "near", "91,0"]).code == 2)
  }

  @Test func noTimetablesIsARuntimeError() {
    let empty = TemporaryFolder()
    let result = transit(["departures", "TINT", "--data-dir", empty.path])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: no timetables held yet; load one with 'transit ingest PATH'\n")
  }

  // MARK: - stops

  @Test func stopsNearJSONShapeAndOrder() throws {
    let result = run(["stops", "near", "53.2876,-6.375", "--limit", "4", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let stops = try #require(try json(result.stdout) as? [[String: Any]])
    #expect(stops.map { $0["stop_id"] as? String } == ["TINT-A", "TINT-B", "TINT-C", "TD4530"])
    #expect(
      Set(stops[0].keys) == [
        "stop_id", "stop_code", "name", "lat", "lon", "distance_m", "location_type", "parent_station", "routes",
        "wheelchair_boarding", "wheelchair_access",
      ])
    #expect(stops[0]["parent_station"] as? String == "TINT")
    #expect(stops[0]["routes"] as? [String] == ["27", "77X"])
    let distances = stops.compactMap { $0["distance_m"] as? Double }
    #expect(distances == distances.sorted() && distances.count == 4)
  }

  @Test func stopsNearTextStationsAndModes() {
    let result = run(["stops", "near", "53.2876,-6.375", "--stations", "-n", "2"])
    #expect(
      result.stdout == """
         24 m  1 min walk        Tallaght Interchange (station) ♿  TINT    27 49 54A 77X Red
                           4500    platform A ♿                    TINT-A  27 77X
                           4501    platform B ♿                    TINT-B  49 54A
                           4502    platform C ♿                    TINT-C  Red
        337 m  6 min walk  4530  Tallaght (The Square) ♿           TD4530  27 49

        """)
    let trams = run(["stops", "near", "53.2876,-6.375", "--mode", "tram", "--radius", "600", "--json"])
    #expect(trams.stdout.contains("\"RED02\"") && !trams.stdout.contains("TD4530"))
  }

  @Test func stopsNearSaysWhichLocationItUsed() throws {
    let fromEnvironment = run(["stops", "near", "-n", "1"], environment: ["TRANSIT_LOCATION": "53.3262,-6.3178"])
    #expect(fromEnvironment.stderr == "near 53.32620,-6.31780: TRANSIT_LOCATION\n")
    #expect(fromEnvironment.stdout.contains("Crumlin Hospital"))
    let centre = run(["stops", "near", "-n", "1"])
    #expect(centre.stderr.contains(": the middle of the network"))
    // A saved 'home' place wins over the environment.
    _ = try UserStore(directory: home.path)
    let db = try Connection(path: home.path + "/user.sqlite")
    try db.execute("INSERT INTO places (name, lat, lon, added_at) VALUES ('home', 53.2725, -6.388, 0)")
    let fromHome = run(["stops", "near", "-n", "1"], environment: ["TRANSIT_LOCATION": "53.3262,-6.3178"])
    #expect(fromHome.stderr == "near 53.27250,-6.38800: your saved place 'home'\n")
    #expect(fromHome.stdout.contains("Killinarden"))
  }

  @Test func stopsSearch() throws {
    let result = run(["stops", "search", "tallaght", "sq"])
    #expect(result.stdout == "TD4530  4530  Tallaght (The Square)\n")
    let typo = run(["stops", "search", "kingswod", "--json"])
    let matches = try #require(try json(typo.stdout) as? [[String: Any]])
    #expect(matches.map { $0["stop_id"] as? String } == ["RED05", "TD4567"])
    #expect(matches.map { $0["match"] as? String } == ["typo", "typo"])
    // The two Belgard Road stops are one complex (issue 32): one line, its stops on request,
    // the line at its nearest stop's distance.
    let near = run(["stops", "search", "belgard road", "--near", "53.2906,-6.379", "--parts"])
    #expect(
      near.stdout == """
        complex         Belgard Road (complex of 2 stops)  660 m
          TD4564  4564  Belgard Road
          TD4565  4565  Belgard Road

        """)
    let parts = try #require(try json(run(["stops", "search", "belgard road", "--json"]).stdout) as? [[String: Any]])
    #expect(parts.compactMap { (($0["complex"] as? [String: Any])?["name"]) as? String } == ["Belgard Road", "Belgard Road"])
    #expect(run(["stops", "search", "zzzz"]).stdout == "no stops match 'zzzz'\n")
  }

  @Test func stopsShow() throws {
    let result = run(["stops", "show", "TINT", "--now", tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        """
        Tallaght Interchange (station) ♿
          id TINT · 53.28760,-6.37500
        platforms:
          platform A ♿  TINT-A  4500  27 77X
          platform B ♿  TINT-B  4501  49 54A
          platform C ♿  TINT-C  4502  Red
        routes:
          27   bus   to Crumlin Hospital
        """))
    #expect(result.stdout.contains("  54A  bus   to Killinarden / Kingswood\n"))
    #expect(result.stdout.contains("next departures:\n  Red  Suir Road                        07:40 · now\n"))
    let platform = run(["stops", "show", "4501", "--json", "--now", tuesday])
    let object = try #require(try json(platform.stdout) as? [String: Any])
    #expect((object["parent_station"] as? [String: Any])?["stop_id"] as? String == "TINT")
    #expect((object["routes"] as? [[String: Any]])?.map { $0["route_short_name"] as? String } == ["49", "54A"])
    #expect((object["departures"] as? [Any])?.count == 5)
  }

  @Test func idsSharedByTwoFeedsNameTheFeed() throws {
    #expect(run(["ingest", packageRoot + "/Data/gtfs", "--feed", "copy", "--quiet"]).code == 0)
    let ambiguous = run(["departures", "TD4530", "--now", tuesday])
    #expect(ambiguous.code == 3)
    #expect(ambiguous.stderr.contains("  copy:TD4530  4530  Tallaght (The Square)\n"))
    #expect(ambiguous.stderr.contains("  demo:TD4530  4530  Tallaght (The Square)\n"))
    let chosen = run(["departures", "copy:TD4530", "--now", tuesday, "--json", "-n", "1"])
    #expect(chosen.code == 0, "\(chosen.stderr)")
    let object = try #require(try json(chosen.stdout) as? [String: Any])
    #expect((object["stop"] as? [String: Any])?["feed"] as? String == "copy")
    #expect((object["departures"] as? [Any])?.count == 1)
    let near = run(["stops", "near", "53.2862,-6.3705", "-n", "2", "--json"])
    let stops = try #require(try json(near.stdout) as? [[String: Any]])
    #expect(Set(stops.compactMap { $0["feed"] as? String }) == ["copy", "demo"])
  }
}

/// Caltrain (shared/data): the evening of the realtime captures, 2023-11-07 17:05 PST.
@Suite(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil, "needs ../shared/data"))
struct CaltrainDeparturesTests {
  let home: RealHome
  let now = "2023-11-07T17:05:00-08:00"

  init() throws {
    home = try RealHome("caltrain-2023.zip")
  }

  @Test func stationDepartures() {
    let result = transit(["departures", "palo_alto", "--now", now, "-n", "3", "--data-dir", home.path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Palo Alto [palo_alto] · station, departures from 17:05
        L4  San Francisco  towards San Francisco     17:09 · 4 min
        L3  Gilroy         towards San Jose Diridon  17:14 · 9 min
        B7  San Francisco  towards San Francisco     17:19 · 14 min

        """)
    let json = transit(["departures", "70171", "--now", now, "-n", "1", "--json", "--data-dir", home.path])
    #expect(json.stdout.contains("\"scheduled\": \"2023-11-07T17:09:00-08:00\""))
  }

  /// Both platforms of the station "Mountain View" are named "Mountain View Caltrain
  /// Station": that name means the station, whose departures are all of theirs.
  @Test func platformNamesMeanTheirStation() {
    let result = transit(["departures", "Mountain View Caltrain Station", "--now", now, "-n", "2", "--data-dir", home.path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout == transit(["departures", "mountain_view", "--now", now, "-n", "2", "--data-dir", home.path]).stdout)
    #expect(result.stdout.hasPrefix("Mountain View [mountain_view] · station, departures from 17:05"), "\(result.stdout)")
  }

}
