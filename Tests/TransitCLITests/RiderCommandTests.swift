import Foundation
import GTFSRealtime
import TestSupport
import Testing

@testable import TransitCLI

/// Issue 21 through the command line: trip show, timetable, accessibility, crowding, platform
/// labels and the vehicles table's width. Expected answers are worked out by hand from the
/// feeds' text files (quoted beside each check) or by a separate small decoder, never by the
/// code under test.
@Suite struct RiderDemoTests {
  static let demo = packageRoot + "/Data/gtfs"
  static let realtime = [
    "--realtime", packageRoot + "/Data/realtime/demo-tripupdates.pb", "--realtime", packageRoot + "/Data/realtime/demo-vehiclepositions.pb",
  ]

  /// A copy of the demo ingested under the name ingest derives (once per process, `RealHome`).
  static func home() throws -> RealHome { try RealHome(source: demo) }

  static func json(_ result: CLIResult) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  /// Data/gtfs/stop_times.txt, trip 27-WK-1-0750: TINT-A 07:50, TD4530 07:51, TD4529 07:53,
  /// TD4528 07:55, TD4527 07:59, TD4526 08:02, … 11 calls. Europe/Dublin is UTC in December.
  @Test func tripShowByTheTimetable() throws {
    let home = try Self.home()
    let result = transit(["trip", "show", "27-WK-1-0750", "--json", "--now", "2026-12-01T07:56:00Z", "--data-dir", home.path])
    try #require(result.code == 0, "\(result.stderr)")
    let json = try Self.json(result)
    let calls = try #require(json["calls"] as? [[String: Any]])
    #expect(calls.count == 11)
    #expect(
      calls.map { $0["status"] as? String } == ["passed", "passed", "passed", "passed", "next"] + Array(repeating: "ahead", count: 6))
    #expect(calls[4]["stop_id"] as? String == "TD4527")
    #expect(calls[4]["scheduled_departure"] as? String == "2026-12-01T07:59:00+00:00")
    #expect(calls.allSatisfy { $0["expected_departure"] is NSNull })
    let trip = try #require(json["trip"] as? [String: Any])
    #expect(trip["route_short_name"] as? String == "27")
    #expect(trip["headsign"] as? String == "Crumlin Hospital")
    #expect(trip["service_date"] as? String == "20261201")
    #expect(trip["wheelchair_accessible"] as? Int == 1)  // trips.txt: wheelchair_accessible 1
    #expect(json["vehicle"] is NSNull)
    #expect(json["next_trip"] is NSNull)
  }

  /// The demo snapshot: V27-3 STOPPED_AT TINT-A on 27-WK-1-0750, the trip update 3 min late.
  @Test func tripShowWithTheVehicle() throws {
    let home = try Self.home()
    let result = transit(["trip", "show", "V27-3", "--json", "--now", "2026-12-01T07:40:00Z", "--data-dir", home.path] + Self.realtime)
    try #require(result.code == 0, "\(result.stderr)")
    let json = try Self.json(result)
    let trip = try #require(json["trip"] as? [String: Any])
    #expect(trip["trip_id"] as? String == "27-WK-1-0750")
    let vehicle = try #require(json["vehicle"] as? [String: Any])
    #expect(vehicle["vehicle_id"] as? String == "V27-3")
    let calls = try #require(json["calls"] as? [[String: Any]])
    #expect(calls.first?["status"] as? String == "next")
    #expect(calls.first?["vehicle_here"] as? Bool == true)
    #expect(calls.dropFirst().allSatisfy { $0["status"] as? String == "ahead" })
    #expect(calls.first?["delay_seconds"] as? Int == 180)
    #expect(calls.first?["expected_departure"] as? String == "2026-12-01T07:53:00+00:00")

    let text = transit(["trip", "show", "V27-3", "--now", "2026-12-01T07:40:00Z", "--data-dir", home.path] + Self.realtime)
    #expect(text.code == 0)
    #expect(text.stdout.hasPrefix("27 to Crumlin Hospital  ♿\n"))
    #expect(text.stdout.contains("vehicle 27 · 3 at Tallaght Interchange · 3 min late"))
    #expect(text.stdout.contains("→ here  07:50  07:53     3 min late   Tallaght Interchange · platform A ♿"))
  }

  @Test func tripShowByRouteStopAndTime() throws {
    let home = try Self.home()
    let result = transit([
      "trip", "show", "--route", "27", "--stop", "TINT", "--at", "07:45", "--json", "--now", "2026-12-01T07:40:00Z", "--data-dir",
      home.path,
    ])
    try #require(result.code == 0, "\(result.stderr)")
    // stop_times.txt: the first 27 leaving Tallaght Interchange at or after 07:45 is 27-WK-1-0750 at 07:50.
    #expect((try Self.json(result)["trip"] as? [String: Any])?["trip_id"] as? String == "27-WK-1-0750")
  }

  @Test func tripShowErrors() throws {
    let home = try Self.home()
    #expect(transit(["trip", "show", "no-such-trip", "--data-dir", home.path]).code == 3)
    #expect(transit(["trip", "show", "--data-dir", home.path]).code == 2)
    #expect(transit(["trip", "show", "27-WK-1-0750", "--stop", "TINT", "--data-dir", home.path]).code == 2)
    // WK runs on weekdays only (calendar.txt): 2026-12-05 is a Saturday.
    #expect(transit(["trip", "show", "27-WK-1-0750", "--date", "2026-12-05", "--data-dir", home.path]).code == 3)
  }

  /// A vehicle position encoded here on 27-WK-1-0750 with a percentage and three carriages.
  @Test func encodedCrowdingEverywhere() throws {
    let home = try Self.home()
    var message = FeedMessage()
    var header = FeedHeader()
    header.gtfsRealtimeVersion = "2.0"
    header.timestamp = 1_796_110_770  // 2026-12-01T07:39:30Z
    message.header = header
    var vehicle = VehiclePosition()
    var trip = TripDescriptor()
    trip.tripID = "27-WK-1-0750"
    trip.startDate = "20261201"
    vehicle.trip = trip
    var descriptor = VehicleDescriptor()
    descriptor.id = "TRAM-9"
    vehicle.vehicle = descriptor
    vehicle.stopID = "TINT-A"
    vehicle.currentStatus = .stoppedAt
    vehicle.timestamp = 1_796_110_770
    vehicle.occupancyPercentage = 62
    var cars: [VehiclePosition.CarriageDetails] = []
    for (sequence, status, percentage) in [
      (2, VehiclePosition.OccupancyStatus.full, Int32(-1)), (1, .manySeatsAvailable, 20), (3, .standingRoomOnly, 70),
    ] {
      var car = VehiclePosition.CarriageDetails()
      car.carriageSequence = UInt32(sequence)
      car.occupancyStatus = status
      car.occupancyPercentage = percentage
      cars.append(car)
    }
    vehicle.multiCarriageDetails = cars
    var entity = FeedEntity()
    entity.id = "v1"
    entity.vehicle = vehicle
    message.entities = [entity]
    let path = home.path + "/crowded.pb"
    try Data(message.encoded()).write(to: URL(fileURLWithPath: path))
    let common = ["--now", "2026-12-01T07:40:00Z", "--data-dir", home.path, "--realtime", path]

    let vehicles = transit(["vehicles", "--live-only", "--json"] + common)
    try #require(vehicles.code == 0, "\(vehicles.stderr)")
    let list = try #require(try JSONSerialization.jsonObject(with: Data(vehicles.stdout.utf8)) as? [[String: Any]])
    let occupancy = try #require(list.first?["occupancy"] as? [String: Any])
    #expect(occupancy["occupancy_status"] is NSNull)
    #expect(occupancy["occupancy_percentage"] as? Int == 62)
    #expect(occupancy["level"] as? Int == 2)  // 50 % to 84 %: the middle step
    let carriages = try #require(occupancy["carriages"] as? [[String: Any]])
    #expect(carriages.map { $0["carriage_sequence"] as? Int } == [1, 2, 3])
    #expect(carriages.map { $0["occupancy_status"] as? String } == ["MANY_SEATS_AVAILABLE", "FULL", "STANDING_ROOM_ONLY"])
    #expect(carriages.map { $0["occupancy_percentage"] as? Int } == [20, nil, 70])

    let departures = transit(["departures", "TINT", "--json", "--limit", "20"] + common)
    try #require(departures.code == 0, "\(departures.stderr)")
    let board = try #require(try Self.json(departures)["departures"] as? [[String: Any]])
    let crowded = try #require(board.first { $0["trip_id"] as? String == "27-WK-1-0750" })
    #expect((crowded["occupancy"] as? [String: Any])?["occupancy_percentage"] as? Int == 62)
    #expect(board.filter { $0["trip_id"] as? String != "27-WK-1-0750" }.allSatisfy { $0["occupancy"] is NSNull })
    let boardText = transit(["departures", "TINT", "--limit", "20"] + common)
    #expect(boardText.stdout.contains("●●○ 62 % · cars ●○○ ●●● ●●○"))

    let show = transit(["trip", "show", "TRAM-9"] + common)
    try #require(show.code == 0, "\(show.stderr)")
    #expect(show.stdout.contains("vehicle TRAM-9 at Tallaght Interchange"))
    #expect(show.stdout.contains("●●○ 62 % · cars ●○○ ●●● ●●○"))
    let plain = transit(["trip", "show", "TRAM-9"] + common, environment: ["LC_ALL": "C"])
    #expect(plain.stdout.contains("**o 62 % - cars *oo *** **o"))
    #expect(plain.stdout.contains("27 to Crumlin Hospital  W\n"))
  }

  /// trips.txt: the 77X's trips say wheelchair_accessible 2, the Red line's 1; stops.txt: Red
  /// Cow (RED06), Cookstown (RED03) and Fettercairn (TD4542) say wheelchair_boarding 1.
  @Test func planAccessible() throws {
    let home = try Self.home()
    let common = ["--depart", "08:00", "--now", "2026-12-01T07:40:00Z", "--json", "--data-dir", home.path]
    let red = transit(["plan", "Red Cow", "Cookstown", "--accessible"] + common)
    try #require(red.code == 0, "\(red.stderr)")
    let journeys = try #require(try Self.json(red)["journeys"] as? [[String: Any]])
    #expect(!journeys.isEmpty)
    for journey in journeys {
      let rides = (journey["legs"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "ride" }
      #expect(rides.allSatisfy { $0["route_short_name"] as? String == "Red" })
    }
    // Every way to Fettercairn rides a 77X: none is accessible.
    let anyWay = try #require(try Self.json(transit(["plan", "Red Cow", "Fettercairn"] + common))["journeys"] as? [[String: Any]])
    #expect(!anyWay.isEmpty)
    let accessible = try #require(
      try Self.json(transit(["plan", "Red Cow", "Fettercairn", "--accessible"] + common))["journeys"] as? [[String: Any]])
    #expect(accessible.isEmpty)
  }

  @Test func timetableText() throws {
    let home = try Self.home()
    let result = transit(
      ["timetable", "TINT", "--route", "27", "--date", "2026-12-01", "--data-dir", home.path], environment: ["COLUMNS": "20"])
    try #require(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "Tallaght Interchange · timetable for 2026-12-01 (Tuesday)")
    // The grid's rows wrap to the width (titles and footnotes are left whole).
    let rows = lines.filter { $0.contains("│") }
    #expect(rows.count >= 20)
    #expect(rows.allSatisfy { $0.count <= 20 })
    #expect(lines.contains("06 │ 10 40"))
  }

  /// The demo trip updates skip the 49 of 08:00 at Tallaght Interchange and cancel the 77X of
  /// 08:05 (Data/README.md; DemoRealtimeTests): both get the footnote, nothing else does.
  @Test func timetableFootnotesFromRealtime() throws {
    let home = try Self.home()
    let result = transit([
      "timetable", "TINT", "--date", "2026-12-01", "--json", "--now", "2026-12-01T07:40:00Z", "--data-dir", home.path,
      "--realtime", packageRoot + "/Data/realtime/demo-tripupdates.pb",
    ])
    try #require(result.code == 0, "\(result.stderr)")
    let blocks = try #require(try Self.json(result)["blocks"] as? [[String: Any]])
    var marked: [String] = []
    for block in blocks {
      let notes = Dictionary(
        uniqueKeysWithValues: (block["footnotes"] as? [[String: Any]] ?? []).map { ($0["mark"] as! String, $0["text"] as! String) })
      for hour in block["hours"] as? [[String: Any]] ?? [] {
        for departure in hour["departures"] as? [[String: Any]] ?? [] {
          if let mark = departure["footnote"] as? String, notes[mark] == "does not stop here today" {
            marked.append(
              "\(block["route_short_name"] as? String ?? "?") \(hour["hour"] as? Int ?? -1):\(departure["minute"] as? Int ?? -1)")
          }
        }
      }
    }
    #expect(marked.sorted() == ["49 8:0", "77X 8:5"])
  }

  @Test func newCommandsInHelpAndCompletions() {
    // The help screens are compared whole in HelpScreenTests.
    for shell in ["bash", "zsh", "fish"] {
      let script = transit(["completions", shell]).stdout
      #expect(script.contains("timetable"), "\(shell)")
      #expect(script.contains("accessible"), "\(shell)")
    }
  }
}

/// A small hand-built feed for accessibility: station ST (wheelchair_boarding 1) with
/// platform P1 (0: inherits the station's 1) and P2 (2), a lone stop X (empty), and trips
/// T1 (wheelchair_accessible 1, from P1), T2 (2, from P1), T3 (1, from P2), T4 (empty, from P1).
@Suite struct AccessibilityFeedTests {
  static func home() throws -> TemporaryFolder {
    let home = TemporaryFolder()
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Access Transit,https://example.org,UTC\n",
      "stops.txt": """
      stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding,platform_code
      ST,Central,10.0,10.0,1,,1,
      P1,Central,10.0001,10.0,0,ST,0,1
      P2,Central,10.0002,10.0,0,ST,2,2
      X,Far Away,10.01,10.0,0,,,

      """,
      "routes.txt": "route_id,route_short_name,route_type\nR,5,3\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20271231\n",
      "trips.txt":
        "route_id,service_id,trip_id,trip_headsign,wheelchair_accessible\nR,S,T1,Far Away,1\nR,S,T2,Far Away,2\nR,S,T3,Far Away,1\nR,S,T4,Far Away,\n",
      "stop_times.txt": """
      trip_id,arrival_time,departure_time,stop_id,stop_sequence
      T1,08:00:00,08:00:00,P1,1
      T1,08:10:00,08:10:00,X,2
      T2,08:05:00,08:05:00,P1,1
      T2,08:15:00,08:15:00,X,2
      T3,08:07:00,08:07:00,P2,1
      T3,08:17:00,08:17:00,X,2
      T4,08:09:00,08:09:00,P1,1
      T4,08:19:00,08:19:00,X,2

      """,
    ]
    try ingest(files, into: home)
    return home
  }

  @Test func departuresFilterAndMarks() throws {
    let home = try Self.home()
    let now = ["--now", "2026-06-01T07:55:00Z", "--data-dir", home.path]
    let all = transit(["departures", "ST", "--json"] + now)
    try #require(all.code == 0, "\(all.stderr)")
    let every = try #require(
      (try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])?["departures"] as? [[String: Any]])
    #expect(every.map { $0["trip_id"] as? String } == ["T1", "T2", "T3", "T4"])
    #expect(every.map { $0["wheelchair_accessible"] as? Int } == [1, 2, 1, nil])
    #expect(every.map { $0["wheelchair_boarding"] as? Int } == [0, 0, 2, 0])
    #expect(every.map { $0["platform"] as? String } == ["platform 1", "platform 1", "platform 2", "platform 1"])
    // Only T1: accessible trip at P1, which inherits the station's 1; T3's platform says 2, T4 says nothing.
    let accessible = transit(["departures", "ST", "--json", "--accessible"] + now)
    let kept = try #require(
      (try JSONSerialization.jsonObject(with: Data(accessible.stdout.utf8)) as? [String: Any])?["departures"] as? [[String: Any]])
    #expect(kept.map { $0["trip_id"] as? String } == ["T1"])
    let text = transit(["departures", "ST"] + now).stdout
    #expect(text.hasPrefix("Central ♿ · station, departures from 07:55"))
    #expect(text.split(separator: "\n").filter { $0.contains("Far Away ♿") }.count == 2)  // T1 and T3
  }

  @Test func stopsNearFilter() throws {
    let home = try Self.home()
    let result = transit(["stops", "near", "10.0,10.0", "--json", "--data-dir", home.path])
    let stops = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    let access = Dictionary(
      uniqueKeysWithValues: stops.compactMap { stop in (stop["stop_id"] as? String).map { ($0, stop["wheelchair_access"] as? String) } })
    #expect(access["P1"] == "accessible")
    #expect(access["P2"] == "not_accessible")
    #expect(access["X"] == "unknown")
    let filtered = transit(["stops", "near", "10.0,10.0", "--json", "--accessible", "--data-dir", home.path])
    let kept = try #require(try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [[String: Any]])
    #expect(Set(kept.compactMap { $0["stop_id"] as? String }).isSubset(of: ["P1", "ST"]))
    #expect(kept.contains { $0["stop_id"] as? String == "P1" })
  }
}

@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct RiderSharedFeedTests {
  /// A copy of shared/data/static/`zip` ingested under the name ingest derives (once per
  /// process, `RealHome`).
  static func home(_ zip: String) throws -> RealHome { try RealHome(zip) }

  /// bart-2019.zip, counted by a separate script over stop_times.txt: Montgomery St. (MONT) on
  /// a WKDY day has 536 departures (every call but a trip's last): route 11 direction 0: 70,
  /// direction 1: 69; route 5: 52 and 52; route 7: 60 and 60; route 1: 84 and 89. By hour of
  /// the GTFS clock: 5:13 6:31 7:37 8:38 9:34 10:32 11:32 12:32 13:32 14:32 15:33 16:36 17:41
  /// 18:34 19:24 20:16 21:14 22:8 23:12 24:4 25:1.
  @Test func timetableAtMontgomery() throws {
    let home = try Self.home("bart-2019.zip")
    let result = transit(["timetable", "MONT", "--date", "2019-05-28", "--json", "--data-dir", home.path])
    try #require(result.code == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let blocks = try #require(json["blocks"] as? [[String: Any]])
    var counts: [String: Int] = [:]
    var hours: [Int: Int] = [:]
    for block in blocks {
      let key = "\(block["route_id"] as? String ?? "?")/\(block["direction_id"] as? Int ?? -1)"
      for hour in block["hours"] as? [[String: Any]] ?? [] {
        let n = (hour["departures"] as? [Any])?.count ?? 0
        counts[key, default: 0] += n
        hours[hour["hour"] as? Int ?? -1, default: 0] += n
      }
    }
    #expect(counts == ["11/0": 70, "11/1": 69, "5/0": 52, "5/1": 52, "7/0": 60, "7/1": 60, "1/0": 84, "1/1": 89])
    #expect(counts.values.reduce(0, +) == 536)
    #expect(
      hours == [
        5: 13, 6: 31, 7: 37, 8: 38, 9: 34, 10: 32, 11: 32, 12: 32, 13: 32, 14: 32, 15: 33, 16: 36, 17: 41, 18: 34, 19: 24, 20: 16,
        21: 14, 22: 8, 23: 12, 24: 4, 25: 1,
      ])
    // Text fits the width asked for.
    let text = transit(["timetable", "MONT", "--date", "2019-05-28", "--data-dir", home.path], environment: ["COLUMNS": "50"])
    let rows = text.stdout.split(separator: "\n").filter { $0.contains("│") }
    #expect(rows.allSatisfy { $0.count <= 50 })
  }

  /// google-sample-feed-1.zip: block 1 is AB1 (08:00 to Bullfrog 08:15) then BFC1 (route 20,
  /// "to Furnace Creek Resort", from Bullfrog at 8:20); America/Los_Angeles, -07:00 in June.
  @Test func tripShowBlockContinuation() throws {
    let home = try Self.home("google-sample-feed-1.zip")
    let result = transit([
      "trip", "show", "AB1", "--date", "2008-06-02", "--json", "--now", "2008-06-02T07:00:00-07:00", "--data-dir", home.path,
    ])
    try #require(result.code == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let next = try #require(json["next_trip"] as? [String: Any])
    #expect(next["trip_id"] as? String == "BFC1")
    #expect(next["route_short_name"] as? String == "20")
    #expect(next["headsign"] as? String == "to Furnace Creek Resort")
    #expect(next["departure"] as? String == "2008-06-02T08:20:00-07:00")
    let text = transit(["trip", "show", "AB1", "--date", "2008-06-02", "--now", "2008-06-02T07:00:00-07:00", "--data-dir", home.path])
    #expect(text.stdout.contains("then, same vehicle: 20 to Furnace Creek Resort at 08:20 (trip BFC1)"))
  }

  /// caltrain-2023.zip stops.txt: 70021 wheelchair_boarding 2, 70031 1, 70111 0 under
  /// hillsdale 0 (nothing said); trips.txt's wheelchair_accessible is empty on all 176 trips.
  @Test func caltrainAccessibilityAndPlatforms() throws {
    let home = try Self.home("caltrain-2023.zip")
    let near = transit(["stops", "near", "37.55,-122.3", "--radius", "100000", "--limit", "200", "--json", "--data-dir", home.path])
    let stops = try #require(try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [[String: Any]])
    func access(_ id: String) -> (Int?, String?) {
      let stop = stops.first { $0["stop_id"] as? String == id }
      return (stop?["wheelchair_boarding"] as? Int, stop?["wheelchair_access"] as? String)
    }
    #expect(access("70021") == (2, "not_accessible"))
    #expect(access("70031") == (1, "accessible"))
    #expect(access("70111") == (0, "unknown"))
    let now = ["--now", "2023-11-07T17:00:00-08:00", "--data-dir", home.path]
    let filtered = transit(["departures", "hillsdale", "--accessible", "--json"] + now)
    try #require(filtered.code == 0, "\(filtered.stderr)")
    let kept = (try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [String: Any])?["departures"] as? [Any]
    #expect(kept?.isEmpty == true, "no trip says it is accessible")
    // Platforms 70011/70012 share one name and have no code: never the bare id, the direction instead.
    let board = transit(["departures", "san_francisco", "--limit", "20"] + now)
    try #require(board.code == 0, "\(board.stderr)")
    #expect(!board.stdout.contains("70011") && !board.stdout.contains("70012"))
    #expect(board.stdout.contains("towards "))
  }

  /// bullrunner-vehiclepositions-20170913T145255Z.pb, decoded by a separate 20-line varint
  /// reader: occupancy_status (field 9) per vehicle id.
  @Test func bullRunnerOccupancy() throws {
    let home = try Self.home("usf-bullrunner.zip")
    let capture = try #require(SharedData.path("rt/bullrunner-vehiclepositions-20170913T145255Z.pb"))
    let result = transit([
      "vehicles", "--live-only", "--json", "--realtime", capture, "--now", "2017-09-13T14:53:00Z", "--data-dir", home.path,
    ])
    try #require(result.code == 0, "\(result.stderr)")
    let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    var found: [String: String] = [:]
    for vehicle in list {
      found[vehicle["vehicle_id"] as? String ?? "?"] = (vehicle["occupancy"] as? [String: Any])?["occupancy_status"] as? String
    }
    let empty = "EMPTY", many = "MANY_SEATS_AVAILABLE"
    #expect(
      found == [
        "1536": empty, "1537": empty, "1331": many, "2252": many, "3004": empty, "1538": many, "3001": many, "3002": empty,
        "1124": empty, "9012": many,
      ])
    let text = transit(["vehicles", "--live-only", "--realtime", capture, "--now", "2017-09-13T14:53:00Z", "--data-dir", home.path])
    #expect(text.stdout.split(separator: "\n").filter { $0.contains("●○○ many seats") }.count == 5)
    #expect(text.stdout.split(separator: "\n").filter { $0.contains("●○○ empty") }.count == 5)
  }

  @Test func vehiclesFitTheWidth() throws {
    let home = try Self.home("caltrain-2023.zip")
    let capture = try #require(SharedData.path("rt/caltrain-vehiclepositions-20231108T010559Z.pb"))
    let common = ["vehicles", "--realtime", capture, "--now", "2023-11-07T17:06:30-08:00", "--data-dir", home.path]
    let wide = transit(common + ["--wide"], environment: ["COLUMNS": "60"])
    let wideRows = wide.stdout.split(separator: "\n").dropFirst(2)
    #expect(wideRows.contains { $0.count > 60 })
    for width in [60, 45] {
      let fitted = transit(common, environment: ["COLUMNS": "\(width)"])
      try #require(fitted.code == 0, "\(fitted.stderr)")
      let rows = fitted.stdout.split(separator: "\n").dropFirst(2)
      #expect(rows.allSatisfy { $0.count <= width }, "\(width): \(rows.filter { $0.count > width })")
      #expect(rows.count == 17)
    }
  }
}
