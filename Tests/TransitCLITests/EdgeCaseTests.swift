import Foundation
import GTFSRealtime
import TestSupport
import Testing

// Issue 17, "right at the edges": the realtime cases and the messages a rider reads. Expected
// answers come from the captures and timetables read here (or the PROVENANCE facts), never from
// the code under test.

// MARK: - Realtime: early predictions beyond the window (BART 2019)

@Suite(.enabled(if: SharedData.path("rt/bart-tripupdates-20190807T174521Z.pb") != nil, "needs ../shared/data"))
struct BARTEarlyPredictionTests {
  var home: String { get throws { try SharedHome.holding("bart-2019.zip").path } }
  let capturePath = SharedData.path("rt/bart-tripupdates-20190807T174521Z.pb") ?? ""

  /// The departures the capture itself predicts at DUBL with a departure time in [from, until):
  /// trip_id to that time.
  func predictedAtDublin(from: Int64, until: Int64) throws -> [String: Int64] {
    var result: [String: Int64] = [:]
    for update in try capture("bart-tripupdates-20190807T174521Z.pb").entities.compactMap(\.tripUpdate) {
      guard let trip = update.trip?.tripID, let stu = update.stopTimeUpdates.first(where: { $0.stopID == "DUBL" }),
        let time = stu.departure?.time, time >= from, time < until
      else { continue }
      result[trip] = time
    }
    return result
  }

  func board(window: Int) throws -> [[String: Any]] {
    let result = transit([
      "departures", "DUBL", "--now", "2019-08-07T10:45:21-07:00", "--window", "\(window)", "--realtime", capturePath, "--json",
      "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    return try #require((result.json as? [String: Any])?["departures"] as? [[String: Any]])
  }

  /// Trip 5091058WKDY, scheduled 10:58, is predicted at 10:56:59: inside a 12-minute window from
  /// 10:45:21 though its timetable time is not.
  @Test func aTripScheduledAfterTheWindowButExpectedInItIsListed() throws {
    let now = try #require(unixSeconds("2019-08-07T10:45:21-07:00"))
    let expected = try predictedAtDublin(from: now, until: now + 12 * 60)
    #expect(expected["5091058WKDY"] == unixSeconds("2019-08-07T10:56:59-07:00"))
    let departures = try board(window: 12)
    for (trip, time) in expected {
      let row = try #require(departures.first { $0["trip_id"] as? String == trip }, "\(trip) missing")
      #expect((row["expected"] as? String).flatMap(unixSeconds) == time)
    }
    let early = try #require(departures.first { $0["trip_id"] as? String == "5091058WKDY" })
    #expect(early["scheduled"] as? String == "2019-08-07T10:58:00-07:00")
    #expect(early["expected"] as? String == "2019-08-07T10:56:59-07:00")
    #expect(early["status"] as? String == "early")
  }

  /// The window is half-open on expected times too: 11 minutes end at 10:56:21, before 10:56:59.
  @Test func anExpectedTimeAfterTheWindowIsLeftOut() throws {
    let departures = try board(window: 11)
    #expect(!departures.contains { $0["trip_id"] as? String == "5091058WKDY" })
    let now = try #require(unixSeconds("2019-08-07T10:45:21-07:00"))
    for row in departures {
      let time = try #require((row["expected"] as? String ?? row["scheduled"] as? String).flatMap(unixSeconds))
      #expect(time >= now && time < now + 11 * 60)
    }
  }
}

// MARK: - An expired or not-yet-valid timetable (HART 2020)

@Suite(.enabled(if: SharedData.path("static/hart-2020.zip") != nil, "needs ../shared/data"))
struct ExpiredTimetableTests {
  // PROVENANCE.md, measured with python from calendar.txt and calendar_dates.txt: service dates
  // 20201115..20210424.
  var home: String { get throws { try SharedHome.holding("hart-2020.zip", as: "hart").path } }

  @Test func afterTheLastServiceDayTheMessageSaysTheTimetableEnded() throws {
    let result = transit(["departures", "8011", "--now", "2021-05-01T08:00:00-04:00", "--data-dir", try home])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("no departures: the timetable held for hart ended on 2021-04-24; refresh it with 'transit ingest'"))
    #expect(!result.stdout.contains("try a wider --window"))
    let show = transit(["stops", "show", "8011", "--now", "2021-05-01T08:00:00-04:00", "--data-dir", try home])
    #expect(show.stdout.contains("none: the timetable held for hart ended on 2021-04-24"), "\(show.stdout)")
    // The live board's frame too (80 columns: the advice on a line of its own).
    let board = transit(["departures", "8011", "--group", "--now", "2021-05-01T08:00:00-04:00", "--data-dir", try home])
    #expect(
      board.stdout.contains("no departures: the timetable held for hart ended on 2021-04-24;\nrefresh it with 'transit ingest'"),
      "\(board.stdout)")
  }

  @Test func beforeTheFirstServiceDayTheMessageSaysItHasNotBegun() throws {
    let result = transit(["departures", "8011", "--now", "2020-11-01T08:00:00-05:00", "--data-dir", try home])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("no departures: the timetable held for hart starts on 2020-11-15"), "\(result.stdout)")
  }

  /// The no-argument view and `commute` give the same reason (one test: both write user.sqlite).
  @Test func theHomeViewAndTheCommuteSaySoToo() throws {
    let now = "2021-05-03T07:00:00-04:00"  // a Monday after the last service day
    #expect(transit(["fav", "add", "8011", "--now", now, "--data-dir", try home]).code == 0)
    let view = transit(["--now", now, "--data-dir", try home])
    #expect(view.stdout.contains("  no departures: the timetable held for hart ended on 2021-04-24"), "\(view.stdout)")
    let added = transit([
      "commute", "add", "airport", "--stop", "8011", "--route", "SKY", "--to", "8013", "--arrive-by", "08:30", "--now", now,
      "--data-dir", try home,
    ])
    #expect(added.code == 0, "\(added.stderr)")
    let commute = transit(["commute", "airport", "--now", now, "--data-dir", try home])
    #expect(commute.stdout.contains("no departure: the timetable held for hart ended on 2021-04-24"), "\(commute.stdout)")
    // Inside the service range the same commute has departures.
    let running = transit(["commute", "airport", "--now", "2021-01-12T07:00:00-05:00", "--data-dir", try home])
    #expect(running.stdout.contains("dep 08:"), "\(running.stdout)")
  }

  /// The queried date counts, not the clock: `--date` inside the service range is an ordinary
  /// empty window (the minute from 03:01 has no tram), outside it the timetable is the reason.
  @Test func theQueriedDateDecides() throws {
    let inside = transit([
      "departures", "8011", "--at", "03:01", "--date", "2021-01-12", "--window", "1", "--now", "2021-05-01T08:00:00-04:00",
      "--data-dir", try home,
    ])
    #expect(inside.stdout.contains("try a wider --window"), "\(inside.stdout)")
    #expect(!inside.stdout.contains("ended on"))
    let outside = transit([
      "departures", "8011", "--at", "08:00", "--date", "2021-06-01", "--now", "2021-01-12T08:00:00-05:00", "--data-dir", try home,
    ])
    #expect(outside.stdout.contains("no departures: the timetable held for hart ended on 2021-04-24"), "\(outside.stdout)")
  }
}

// MARK: - plan's "did you mean" (KCM 2021: four stops named "3rd Ave & Pike St")

@Suite(.enabled(if: SharedData.path("static/kcm-vp-subset-2021.zip") != nil, "needs ../shared/data"))
struct PlanSuggestionTests {
  var home: String { get throws { try SharedHome.holding("kcm-vp-subset-2021.zip", as: "kcm").path } }

  /// Each typo's first suggestion was, before, the name "3rd Ave & Pike St" (four stops: typed
  /// back, "matches 4 stops"); now a code for those, a name where it is one stop's.
  @Test(arguments: ["3rd Av & Pike St", "3rd Av & Pine St", "Pike St & 3rd Av", "180th Av NE & NE 68th St"])
  func aSuggestionTypedBackResolves(_ typo: String) throws {
    let now = "2021-09-02T08:00:00-07:00"
    let miss = transit(["plan", typo, "1st Ave & Pike St", "--now", now, "--data-dir", try home])
    #expect(miss.code == 3)
    let range = try #require(miss.stderr.range(of: "did you mean '"), "\(miss.stderr)")
    let suggestion = String(miss.stderr[range.upperBound...].prefix { $0 != "'" })
    let typed = transit(["plan", suggestion, "1st Ave & Pike St", "--now", now, "--data-dir", try home])
    #expect(!typed.stderr.contains("FROM '\(suggestion)' is not a stop"), "\(typed.stderr)")
    #expect(!typed.stderr.contains("'\(suggestion)' matches"), "\(typed.stderr)")
  }
}

// MARK: - A small hand-built feed: after-midnight start dates, DUPLICATED without properties, outliers

/// Service FRI runs on Fridays only (2024-02-09 is one). NIGHT leaves A at 24:05, B 24:15, C
/// 24:25 of the Friday's service day; DAY leaves A at 10:00, reaches B at 10:08 and waits
/// there until 10:10, reaches C at 10:20. LATE (service FRISAT: Fridays and Saturdays) leaves
/// A at 24:35, B at 24:45 and reaches C at 24:55. Zone UTC, so a service day starts at 00:00 UTC of its
/// date.
final class EdgeFeedHome: @unchecked Sendable {
  let folder = TemporaryFolder()
  var data: String { folder.path + "/data" }

  init() throws {
    let feed = folder.path + "/feed"
    try? FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nE,Edge Transit,https://example.org,UTC\n",
      "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,53.30,-6.30\nB,Bravo,53.31,-6.31\nC,Charlie,53.32,-6.32\n",
      "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,E,1,One,3\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nFRI,0,0,0,0,1,0,0,20240101,20241231\n"
        + "FRISAT,0,0,0,0,1,1,0,20240101,20241231\n",
      "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,FRI,NIGHT,Charlie\nR1,FRI,DAY,Charlie\nR1,FRISAT,LATE,Charlie\n",
      "stop_times.txt": """
      trip_id,arrival_time,departure_time,stop_id,stop_sequence
      NIGHT,24:05:00,24:05:00,A,1
      NIGHT,24:15:00,24:15:00,B,2
      NIGHT,24:25:00,24:25:00,C,3
      DAY,10:00:00,10:00:00,A,1
      DAY,10:08:00,10:10:00,B,2
      DAY,10:20:00,10:20:00,C,3
      LATE,24:35:00,24:35:00,A,1
      LATE,24:45:00,24:45:00,B,2
      LATE,24:55:00,24:55:00,C,3

      """,
    ]
    for (name, text) in files { _ = FileManager.default.createFile(atPath: feed + "/" + name, contents: Data(text.utf8)) }
    let result = transit(["ingest", feed, "--feed", "edge", "--quiet", "--data-dir", data])
    guard result.code == 0 else { throw FixtureError(result.stderr) }
  }

  /// Writes `updates` as one trip-updates feed stamped `timestamp` and returns its path.
  func realtime(_ updates: [TripUpdate], timestamp: UInt64, name: String) throws -> String {
    let feed = FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", timestamp: timestamp),
      entities: updates.enumerated().map { FeedEntity(id: "e\($0.offset)", tripUpdate: $0.element) })
    let path = folder.path + "/" + name + ".pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// `departures STOP` at `now` with `realtime`, as JSON.
  func board(_ stop: String, now: String, realtime: String, window: Int = 30) throws -> (json: [String: Any], text: String) {
    let json = transit(["departures", stop, "--now", now, "--window", "\(window)", "--realtime", realtime, "--json", "--data-dir", data])
    #expect(json.code == 0, "\(json.stderr)")
    let text = transit(["departures", stop, "--now", now, "--window", "\(window)", "--realtime", realtime, "--data-dir", data])
    return (try #require(json.json as? [String: Any]), text.stdout)
  }
}

@Suite struct HandBuiltEdgeTests {
  let home: EdgeFeedHome

  init() throws { home = try EdgeFeedHome() }

  // 2024-02-10T00:00:00Z, the start of service day 20240210 (and 24:00 of 20240209), by hand:
  // 19763 days from 1970-01-01 to 2024-02-10.
  static let midnight: Int64 = 19_763 * 86_400

  /// start_date 20240210 (a Saturday: FRI does not run) for NIGHT, which runs 24:05 of Friday
  /// 20240209: the Friday run is meant, and the repair is said.
  @Test func anAfterMidnightRunNamedByItsCalendarDateIsMatched() throws {
    #expect(unixSeconds("2024-02-10T00:00:00Z") == Self.midnight)
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "NIGHT", startTime: "00:05:00", startDate: "20240210"),
          stopTimeUpdates: [.init(stopSequence: 2, departure: .init(delay: 120))])
      ], timestamp: UInt64(Self.midnight + 360), name: "night")
    let (json, text) = try home.board("B", now: "2024-02-10T00:06:00Z", realtime: path)
    let departures = try #require(json["departures"] as? [[String: Any]])
    let night = try #require(departures.first { $0["trip_id"] as? String == "NIGHT" }, "\(departures)")
    #expect(night["service_date"] as? String == "20240209")
    #expect(night["scheduled"] as? String == "2024-02-10T00:15:00Z")
    #expect(night["expected"] as? String == "2024-02-10T00:17:00Z")
    #expect(night["delay_seconds"] as? Int == 120)
    #expect(night["source"] as? String == "realtime")
    let realtime = try #require(json["realtime"] as? [String: Any])
    #expect((realtime["trip_updates"] as? [String: Any])?["matched"] as? Int == 1)
    let repairs = try #require(realtime["repairs"] as? [[String: Any]])
    #expect(repairs.count == 1)
    #expect(repairs.first?["kind"] as? String == "start_date_after_midnight")
    #expect(repairs.first?["trip_id"] as? String == "NIGHT")
    #expect(repairs.first?["start_date"] as? String == "20240210")
    #expect(repairs.first?["service_date"] as? String == "20240209")
    #expect(text.contains("note: trip NIGHT: start_date 20240210 read as service day 20240209"), "\(text)")
  }

  /// The general case: LATE runs on the Friday and on the Saturday, and start_date 20240210
  /// names the Saturday, yet the update's time at B (00:46 of the 10th) is a minute from the
  /// Friday's 24:45 and a day from the Saturday's: the Friday run is meant, and said.
  @Test func predictionsNearTheDayBeforesRunAreThatRunsThoughTheTripRunsOnStartDate() throws {
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "LATE", startDate: "20240210"),
          stopTimeUpdates: [.init(stopSequence: 2, departure: .init(time: Self.midnight + 46 * 60))])
      ], timestamp: UInt64(Self.midnight + 360), name: "late")
    let (json, _) = try home.board("B", now: "2024-02-10T00:06:00Z", realtime: path, window: 60)
    let departures = try #require(json["departures"] as? [[String: Any]])
    let late = try #require(departures.first { $0["trip_id"] as? String == "LATE" }, "\(departures)")
    #expect(late["service_date"] as? String == "20240209")
    #expect(late["scheduled"] as? String == "2024-02-10T00:45:00Z")
    #expect(late["expected"] as? String == "2024-02-10T00:46:00Z")
    let repairs = try #require((json["realtime"] as? [String: Any])?["repairs"] as? [[String: Any]])
    #expect(repairs.count == 1)
    #expect(repairs.first?["trip_id"] as? String == "LATE")
    #expect(repairs.first?["start_date"] as? String == "20240210")
    #expect(repairs.first?["service_date"] as? String == "20240209")
  }

  /// The same repair for every command: `vehicles` places the trip by its update.
  @Test func theRepairedRunIsAVehicleToo() throws {
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "NIGHT", startTime: "00:05:00", startDate: "20240210"),
          stopTimeUpdates: [.init(stopSequence: 2, departure: .init(delay: 120))])
      ], timestamp: UInt64(Self.midnight + 600), name: "night-vehicle")
    let result = transit(["vehicles", "--now", "2024-02-10T00:10:00Z", "--realtime", path, "--json", "--data-dir", home.data])
    #expect(result.code == 0, "\(result.stderr)")
    let vehicles = try #require(result.json as? [[String: Any]], "\(result.stdout)")
    let night = try #require(vehicles.first { $0["trip_id"] as? String == "NIGHT" }, "\(result.stdout)")
    let next = try #require((night["next_stops"] as? [[String: Any]])?.first)
    #expect(next["stop_id"] as? String == "B")
    #expect(next["expected"] as? String == "2024-02-10T00:17:00Z")
  }

  /// A start_time that is not the run's first departure minus 24 h names no run: no repair.
  @Test func aStartTimeThatDisagreesIsNotRepaired() throws {
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "NIGHT", startTime: "00:10:00", startDate: "20240210"),
          stopTimeUpdates: [.init(stopSequence: 2, departure: .init(delay: 120))])
      ], timestamp: UInt64(Self.midnight + 360), name: "night-wrong")
    let (json, _) = try home.board("B", now: "2024-02-10T00:06:00Z", realtime: path)
    let departures = try #require(json["departures"] as? [[String: Any]])
    let night = try #require(departures.first { $0["trip_id"] as? String == "NIGHT" })
    #expect(night["expected"] is NSNull)
    #expect(night["source"] as? String == "schedule")
    #expect(((json["realtime"] as? [String: Any])?["repairs"] as? [Any])?.isEmpty == true)
  }

  /// On the Friday itself start_date 20240209 is right and nothing is repaired.
  @Test func aRightStartDateNeedsNoRepair() throws {
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "NIGHT", startDate: "20240209"),
          stopTimeUpdates: [.init(stopSequence: 2, departure: .init(delay: 60))])
      ], timestamp: UInt64(Self.midnight + 360), name: "night-right")
    let (json, _) = try home.board("B", now: "2024-02-10T00:06:00Z", realtime: path)
    let night = try #require((json["departures"] as? [[String: Any]])?.first { $0["trip_id"] as? String == "NIGHT" })
    #expect(night["expected"] as? String == "2024-02-10T00:16:00Z")
    #expect(((json["realtime"] as? [String: Any])?["repairs"] as? [Any])?.isEmpty == true)
  }

  /// DUPLICATED with no trip_properties: a copy of DAY starting at 12:00 (the descriptor's
  /// start_time), so at B at 12:10, beside the original at 10:10.
  @Test func aDuplicateWithoutPropertiesIsACopyAtItsStartTime() throws {
    let friday = Self.midnight - 86_400  // 2024-02-09T00:00:00Z
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "DAY", startTime: "12:00:00", startDate: "20240209", scheduleRelationship: .duplicated))
      ], timestamp: UInt64(friday + 9 * 3600 + 55 * 60), name: "dup")
    let (json, text) = try home.board("B", now: "2024-02-09T09:55:00Z", realtime: path, window: 180)
    let departures = try #require(json["departures"] as? [[String: Any]])
    let days = departures.filter { $0["trip_id"] as? String == "DAY" }
    #expect(days.map { $0["scheduled"] as? String } == ["2024-02-09T10:10:00Z", "2024-02-09T12:10:00Z"])
    #expect(days.map { $0["status"] as? String } == ["scheduled", "added"])
    let repairs = try #require((json["realtime"] as? [String: Any])?["repairs"] as? [[String: Any]])
    #expect(repairs.count == 1)
    #expect(repairs.first?["kind"] as? String == "duplicated_from_start_time")
    #expect(repairs.first?["start_time"] as? String == "12:00:00")
    #expect(text.contains("note: trip DAY: DUPLICATED without trip_properties, copied to start 12:00:00"), "\(text)")
  }

  /// A prediction 4000 s off the timetable (beyond the 1 h bound) is ignored, and said so.
  @Test func anOutlierIsShownAsIgnored() throws {
    let friday = Self.midnight - 86_400
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "DAY", startDate: "20240209"),
          stopTimeUpdates: [.init(stopSequence: 1, departure: .init(delay: 4000))])
      ], timestamp: UInt64(friday + 9 * 3600 + 55 * 60), name: "outlier")
    let (json, text) = try home.board("B", now: "2024-02-09T09:55:00Z", realtime: path)
    let day = try #require((json["departures"] as? [[String: Any]])?.first { $0["trip_id"] as? String == "DAY" })
    #expect(day["scheduled"] as? String == "2024-02-09T10:10:00Z")
    #expect(day["expected"] is NSNull)
    #expect(day["prediction_ignored"] as? Bool == true)
    #expect(text.contains("prediction ignored (too far from the timetable)"), "\(text)")
    let repairs = try #require((json["realtime"] as? [String: Any])?["repairs"] as? [[String: Any]])
    #expect(repairs.map { $0["kind"] as? String } == ["prediction_ignored"])
  }

  /// A prediction of the arrival alone at B, where DAY waits 2 min: the departure keeps the
  /// dwell (10:13 predicted arrival + 2 min = 10:15).
  @Test func anArrivalOnlyPredictionKeepsTheDwell() throws {
    let friday = Self.midnight - 86_400
    let arrival = friday + 10 * 3600 + 13 * 60
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "DAY", startDate: "20240209"),
          stopTimeUpdates: [.init(stopSequence: 2, arrival: .init(time: arrival))])
      ], timestamp: UInt64(friday + 9 * 3600 + 55 * 60), name: "dwell")
    let (json, _) = try home.board("B", now: "2024-02-09T09:55:00Z", realtime: path)
    let day = try #require((json["departures"] as? [[String: Any]])?.first { $0["trip_id"] as? String == "DAY" })
    #expect(day["scheduled"] as? String == "2024-02-09T10:10:00Z")
    #expect(day["expected"] as? String == "2024-02-09T10:15:00Z")
    #expect(day["delay_seconds"] as? Int == 300)
  }

  /// Within the bound the same prediction is used and nothing is flagged.
  @Test func aPredictionWithinTheBoundIsUsed() throws {
    let friday = Self.midnight - 86_400
    let path = try home.realtime(
      [
        TripUpdate(
          trip: TripDescriptor(tripID: "DAY", startDate: "20240209"),
          stopTimeUpdates: [.init(stopSequence: 1, departure: .init(delay: 3000))])
      ], timestamp: UInt64(friday + 9 * 3600 + 55 * 60), name: "inside")
    let (json, _) = try home.board("B", now: "2024-02-09T09:55:00Z", realtime: path, window: 120)
    let day = try #require((json["departures"] as? [[String: Any]])?.first { $0["trip_id"] as? String == "DAY" })
    #expect(day["expected"] as? String == "2024-02-09T11:00:00Z")  // 10:10 + 3000 s
    #expect(day["prediction_ignored"] as? Bool == false)
  }
}
