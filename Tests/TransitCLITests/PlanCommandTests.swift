import Foundation
import TestSupport
import Testing

/// `transit plan` end to end on the demo network (Tuesday 2026-12-01; Dublin keeps GMT then).
@Suite struct PlanCommandTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"

  func plan(_ arguments: [String]) -> CLIResult {
    home.run(["plan"] + arguments + ["--now", now])
  }

  func json(_ result: CLIResult) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(object as? [String: Any])
  }

  @Test func directRide() {
    let result = plan(["TINT", "TD4521", "--limit", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout == """
        Tallaght Interchange -> Crumlin Hospital [4521] · leave after 07:40

        1. 07:50 -> 08:20 · 30 min · direct · leave in 10 min
          07:50  27 towards Crumlin Hospital ♿ from Tallaght Interchange [4500] platform A
          08:20  get off at Crumlin Hospital [4521] (10 stops)
          08:20  arrive at Crumlin Hospital [4521]

        """)
  }

  @Test func oneTransferAtTheSameStop() {
    let result = plan(["Crumlin Hospital", "Citywest Campus", "--depart", "08:00", "--limit", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Crumlin Hospital [4521] -> Citywest Campus [4547] · leave after 08:00

        1. 08:00 -> 08:51 · 51 min · 1 transfer · leave in 20 min
          08:00  27 towards Tallaght Interchange ♿ from Crumlin Hospital [4521]
          08:30  get off at Tallaght Interchange [4500] platform A (10 stops)
          08:35  77X towards Citywest Campus from Tallaght Interchange [4500] platform A
          08:51  get off at Citywest Campus [4547] (8 stops)
          08:51  arrive at Citywest Campus [4547]

        """)
  }

  @Test func transferByWalkingBetweenTwoStops() {
    // Tram to Cookstown, a 336 m walk to Cookstown Way, then the 77X.
    let result = plan(["RED06", "TD4542", "--depart", "08:00", "--limit", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Red Cow [5006] -> Fettercairn [4542] · leave after 08:00

        1. 08:24 -> 08:41 · 17 min · 1 transfer · leave in 44 min
          08:24  Red towards Tallaght ♿ from Red Cow [5006]
          08:34  get off at Cookstown [5003] (3 stops)
          08:34  walk 5 min (336 m) to Cookstown Way [4541]
          08:39  77X towards Citywest Campus from Cookstown Way [4541]
          08:41  get off at Fettercairn [4542] (1 stop)
          08:41  arrive at Fettercairn [4542]

        """)
  }

  @Test func severalOptionsParetoThenLater() throws {
    let result = plan(["RED06", "TD4542", "--depart", "08:00", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let journeys = try #require(try json(result)["journeys"] as? [[String: Any]])
    #expect(journeys.count == 3)
    let departures = journeys.compactMap { $0["departure"] as? String }
    #expect(departures == ["2026-12-01T08:24:00+00:00", "2026-12-01T08:54:00+00:00", "2026-12-01T09:04:00+00:00"])
  }

  @Test func pastMidnight() {
    let result = plan(["TD4521", "TD4530", "--depart", "23:35", "--limit", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Crumlin Hospital [4521] -> Tallaght (The Square) [4530] · leave after 23:35

        1. 23:40 -> 00:09 · 29 min · direct · leave in 16 h
          23:40  27 towards Tallaght Interchange ♿ from Crumlin Hospital [4521]
          00:09  get off at Tallaght (The Square) [4530] (9 stops)
          00:09  arrive at Tallaght (The Square) [4530]

        """)
  }

  @Test func pastMidnightFromTheDayBeforesService() throws {
    // 00:05 on Wednesday: the 00:15 bus is Tuesday's trip (24:15:00).
    let result = home.run(["plan", "TD4521", "TD4530", "--limit", "1", "--json", "--now", "2026-12-02T00:05:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    let journey = try #require((try json(result)["journeys"] as? [[String: Any]])?.first)
    let ride = try #require((journey["legs"] as? [[String: Any]])?.first)
    #expect(ride["departure"] as? String == "2026-12-02T00:15:00+00:00")
    #expect(ride["service_date"] as? String == "20261201")
  }

  @Test func arriveBy() {
    let result = plan(["TD4521", "RED11", "--arrive-by", "09:30", "--limit", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Crumlin Hospital [4521] -> Suir Road [5011] · arrive by 09:30

        1. 08:20 -> 09:27 · 1 h 7 min · 1 transfer · leave in 40 min
          08:20  27 towards Tallaght Interchange ♿ from Crumlin Hospital [4521]
          08:50  get off at Tallaght Interchange [4500] platform A (10 stops)
          08:50  walk 1 min (67 m) to Tallaght Interchange [4502] platform C
          09:00  Red towards Suir Road ♿ from Tallaght Interchange [4502] platform C
          09:27  get off at Suir Road [5011] (10 stops)
          09:27  arrive at Suir Road [5011]

        """)
  }

  @Test func jsonLegs() throws {
    let result = plan(["Crumlin Hospital", "Citywest Campus", "--depart", "08:00", "--limit", "1", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let document = try json(result)
    #expect((document["from"] as? [String: Any])?["stop_id"] as? String == "TD4521")
    #expect(document["depart"] as? String == "2026-12-01T08:00:00+00:00")
    #expect((document["realtime"] as? [String: Any])?["status"] as? String == "none")
    let journey = try #require((document["journeys"] as? [[String: Any]])?.first)
    #expect(journey["transfers"] as? Int == 1)
    #expect(journey["duration_seconds"] as? Int == 51 * 60)
    #expect(journey["leave_in_seconds"] as? Int == 20 * 60)
    let legs = try #require(journey["legs"] as? [[String: Any]])
    #expect(legs.map { $0["type"] as? String } == ["ride", "ride"])
    #expect(legs.map { $0["route_short_name"] as? String } == ["27", "77X"])
    #expect(legs[0]["trip_id"] as? String == "27-WK-0-0800")
    #expect((legs[0]["to"] as? [String: Any])?["stop_id"] as? String == "TINT-A")
    #expect(legs[0]["stops"] as? Int == 10)
    #expect(legs[1]["departure"] as? String == "2026-12-01T08:35:00+00:00")
    #expect(legs[1]["live"] as? Bool == false)
  }

  @Test func placesAndCoordinates() throws {
    #expect(home.run(["places", "add", "home", "53.2891,-6.3735"]).code == 0)
    #expect(home.run(["places", "add", "work", "53.2941,-6.4010"]).code == 0)
    let result = plan(["home", "work", "--depart", "08:00", "--limit", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        home -> work · leave after 08:00

        1. 08:02 -> 08:15 · 13 min · direct · leave in 22 min
          08:02  walk 3 min (216 m) to Tallaght Interchange [4500] platform A
          08:05  77X towards Citywest Campus from Tallaght Interchange [4500] platform A
          08:11  get off at Fettercairn [4542] (3 stops)
          08:11  walk 4 min (304 m) to work
          08:15  arrive at work

        """)
    let coordinates = plan(["53.2891,-6.3735", "53.2941,-6.4010", "--depart", "08:00", "--limit", "1", "--json"])
    let journey = try #require((try json(coordinates)["journeys"] as? [[String: Any]])?.first)
    #expect((journey["legs"] as? [[String: Any]])?.map { $0["type"] as? String } == ["walk", "ride", "walk"])
  }

  @Test func shortDistancesOfferTheWalk() throws {
    let result = plan(["TINT-A", "TD4540", "--depart", "08:00", "--json"])
    let journeys = try #require(try json(result)["journeys"] as? [[String: Any]])
    #expect(journeys.contains { ($0["legs"] as? [[String: Any]])?.map { $0["type"] as? String } == ["walk"] })
    let noWalk = plan(["TINT-A", "TD4540", "--depart", "08:00", "--json", "--max-walk", "100"])
    let rides = try #require(try json(noWalk)["journeys"] as? [[String: Any]])
    #expect(!rides.isEmpty && rides.allSatisfy { ($0["transfers"] as? Int) == 0 })
  }

  @Test func modesAndMaxTransfers() throws {
    let tramOnly = plan(["TD4521", "RED11", "--depart", "08:00", "--mode", "tram"])
    #expect(tramOnly.code == 0)
    #expect(tramOnly.stdout.contains("no journey leaving after 08:00"))
    let direct = plan(["TD4521", "RED11", "--depart", "08:00", "--max-transfers", "0"])
    #expect(direct.stdout.contains("no journey"))
  }

  @Test func realtimeDropsCancelledTripsAndMarksLiveLegs() throws {
    let updates = packageRoot + "/Data/realtime/demo-tripupdates.pb"
    let scheduled = plan(["TINT", "TD4547", "--limit", "1", "--json"])
    let live = plan(["TINT", "TD4547", "--limit", "1", "--json", "--realtime", updates])
    func firstRide(_ result: CLIResult) throws -> [String: Any] {
      let journey = try #require((try json(result)["journeys"] as? [[String: Any]])?.first)
      return try #require((journey["legs"] as? [[String: Any]])?.first { $0["type"] as? String == "ride" })
    }
    // The 08:05 77X is cancelled: the next one is offered.
    #expect(try firstRide(scheduled)["trip_id"] as? String == "77X-WK-0-0805")
    #expect(try firstRide(live)["trip_id"] as? String == "77X-WK-0-0835")
    #expect((try json(live)["realtime"] as? [String: Any])?["status"] as? String == "fresh")
    // The 07:50 27 leaves 3 min late, and says it is live.
    let late = plan(["TINT", "TD4521", "--limit", "1", "--realtime", updates])
    #expect(late.stdout.contains("07:53  27 towards Crumlin Hospital ♿ from Tallaght Interchange [4500] platform A · live"))
    #expect(late.stdout.contains("realtime: fresh"))
    // Frequency-based trams: the 07:50 instance runs a minute late, the 08:00 one on time.
    let trams = plan(["TINT", "RED11", "--depart", "07:45", "--limit", "2", "--realtime", updates])
    #expect(trams.stdout.contains("07:51  Red towards Suir Road ♿ from Tallaght Interchange [4502] platform C · live"))
    #expect(trams.stdout.contains("08:00  Red towards Suir Road ♿ from Tallaght Interchange [4502] platform C · live"))
  }

  @Test func geoJSON() throws {
    let result = plan(["RED06", "TD4542", "--depart", "08:00", "--limit", "1", "--geojson"])
    #expect(result.code == 0, "\(result.stderr)")
    let document = try json(result)
    #expect(document["type"] as? String == "FeatureCollection")
    let features = try #require(document["features"] as? [[String: Any]])
    #expect(features.count == 3)
    let kinds = features.map { ($0["properties"] as? [String: Any])?["type"] as? String }
    #expect(kinds == ["ride", "walk", "ride"])
    for feature in features {
      let geometry = try #require(feature["geometry"] as? [String: Any])
      #expect(geometry["type"] as? String == "LineString")
      let points = try #require(geometry["coordinates"] as? [[Double]])
      #expect(points.count >= 2)
      // RFC 7946: longitude first (Tallaght is at about -6.4, 53.3).
      #expect(points.allSatisfy { $0[0] > -7 && $0[0] < -6 && $0[1] > 53 && $0[1] < 54 })
    }
    // The tram's shape is cut at Red Cow and Cookstown.
    let tram = try #require((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
    #expect(abs(tram[0][1] - 53.3168) < 0.0005 && abs(tram[0][0] - -6.3697) < 0.0005)
    #expect(abs(tram[tram.count - 1][1] - 53.2934) < 0.0005 && abs(tram[tram.count - 1][0] - -6.3844) < 0.0005)
  }

  @Test func theFirstTripMoreThanEightHoursAwayIsFound() throws {
    // A line that runs once a day, at 07:00: asked at 21:00, the next trip is 10 h away,
    // past the 8 h window read first, so the day-long window finds it.
    let feed = TemporaryFolder(), data = TemporaryFolder()
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Rural,https://example.org,Europe/Dublin\n",
      "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nV,Village,53.10,-6.50\nT,Town,53.20,-6.40\n",
      "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,300,3\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20271231\n",
      "trips.txt": "route_id,service_id,trip_id\nR,D,R-0700\n",
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nR-0700,07:00:00,07:00:00,V,1\nR-0700,07:40:00,07:40:00,T,2\n",
    ]
    for (name, text) in files { try text.write(toFile: feed.path + "/" + name, atomically: true, encoding: .utf8) }
    #expect(transit(["ingest", feed.path, "--feed", "rural", "--quiet", "--data-dir", data.path]).code == 0)
    let result = transit(["plan", "V", "T", "--now", "2026-12-01T21:00:00Z", "--data-dir", data.path, "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let journeys = try #require(try json(result)["journeys"] as? [[String: Any]])
    #expect(journeys.first?["departure"] as? String == "2026-12-02T07:00:00+00:00", "\(result.stdout)")
    let text = transit(["plan", "V", "T", "--now", "2026-12-01T21:00:00Z", "--data-dir", data.path])
    #expect(text.stdout.contains("\n1. 2026-12-02 07:00 -> 07:40 · 40 min · direct · leave in 10 h\n"), "\(text.stdout)")
  }

  @Test func badFromIsOneLineAndExitsThree() {
    let result = plan(["Nowhere Street", "TD4542"])
    #expect(result.code == 3)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "transit: FROM 'Nowhere Street' is not a stop (id, code or name), a saved place or LAT,LON\n")
    let badTo = plan(["TD4521", "91,0"])
    #expect(badTo.code == 2)
    #expect(badTo.stderr.hasPrefix("transit: TO '91,0' is not a position LAT,LON"))
    let both = plan(["TD4521", "TD4542", "--depart", "08:00", "--arrive-by", "09:00"])
    #expect(both.code == 2)
    let far = plan(["53.5,-6.0", "TD4542"])
    #expect(far.code == 3)
    #expect(far.stderr.contains("no stop within 800 m of FROM"))
  }

  @Test func stopsOfTwoFeedsAreDistinct() throws {
    // The demo network held twice: a journey stays within the feed it starts in.
    #expect(home.run(["ingest", packageRoot + "/Data/gtfs", "--feed", "copy", "--quiet"]).code == 0)
    let ambiguous = plan(["TD4521", "TD4547"])
    #expect(ambiguous.code == 3)
    let result = plan(["copy:TD4521", "copy:TD4547", "--depart", "08:00", "--limit", "1", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let journey = try #require((try json(result)["journeys"] as? [[String: Any]])?.first)
    let legs = try #require(journey["legs"] as? [[String: Any]])
    #expect(legs.map { $0["feed"] as? String } == ["copy", "copy"])
    #expect(journey["arrival"] as? String == "2026-12-01T08:51:00+00:00")
  }
}
