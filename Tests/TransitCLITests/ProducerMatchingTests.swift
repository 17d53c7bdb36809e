import Foundation
import GTFSRealtime
import TestSupport
import Testing
import ZIP

/// Trip descriptors without trip_id (DESIGN.md rule 15): Caltrain's capture rewritten by the
/// test encoder to route_id + direction_id + start_time + start_date gives the same board.
@Suite(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil, "needs ../shared/data"))
struct DescriptorMatchingTests {
  static let now = "2023-11-08T01:06:05Z"
  var home: String { get throws { try SharedHome.holding("caltrain-2023.zip").path } }

  /// The capture with each trip_id replaced by what trips.txt and stop_times.txt say of the trip.
  func descriptorOnlyCapture(
    keepDirection: Bool = true, keepDate: Bool = true
  ) throws -> (
    path: String, folder: TemporaryFolder, count: Int
  ) {
    let trips = Dictionary(uniqueKeysWithValues: try sharedRows("caltrain-2023.zip", "trips.txt").map { ($0["trip_id"]!, $0) })
    var first: [String: (sequence: Int, time: String)] = [:]
    for row in try sharedRows("caltrain-2023.zip", "stop_times.txt") {
      guard let trip = row["trip_id"], let sequence = row["stop_sequence"].flatMap({ Int($0) }) else { continue }
      let time = row["departure_time"].flatMap { $0.isEmpty ? nil : $0 } ?? row["arrival_time"] ?? ""
      if first[trip].map({ sequence < $0.sequence }) ?? true { first[trip] = (sequence, time) }
    }
    var feed = try capture("caltrain-tripupdates-20231108T010534Z.pb")
    var count = 0
    for index in feed.entities.indices {
      guard var update = feed.entities[index].tripUpdate, var trip = update.trip, let id = trip.tripID,
        let row = trips[id], let start = first[id]?.time
      else { continue }
      trip.tripID = nil
      trip.routeID = row["route_id"]
      trip.directionID = keepDirection ? row["direction_id"].flatMap { UInt32($0) } : nil
      trip.startTime = start.count == 7 ? "0" + start : start
      if !keepDate { trip.startDate = nil }
      update.trip = trip
      feed.entities[index].tripUpdate = update
      count += 1
    }
    let folder = TemporaryFolder()
    let path = folder.path + "/descriptors.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    return (path, folder, count)
  }

  func board(_ realtime: String) throws -> [String: Any] {
    let result = transit([
      "departures", "70172", "--json", "--limit", "30", "--data-dir", try home, "--now", Self.now, "--realtime", realtime,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(result.json as? [String: Any])
  }

  @Test func theBoardIsTheSameRowForRow() throws {
    let original = try #require(SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb"))
    let rewritten = try descriptorOnlyCapture()
    #expect(rewritten.count == 19)
    let withIDs = try board(original)
    let withDescriptors = try board(rewritten.path)
    let rows = try #require(withIDs["departures"] as? [[String: Any]])
    let others = try #require(withDescriptors["departures"] as? [[String: Any]])
    #expect(rows.count == others.count)
    #expect(rows.contains { $0["source"] as? String == "realtime" })
    for (a, b) in zip(rows, others) {
      for key in ["trip_id", "expected", "scheduled", "delay_seconds", "status", "source", "stop_sequence"] {
        #expect(String(describing: a[key] ?? "nil") == String(describing: b[key] ?? "nil"), "\(key) of \(a["trip_id"] ?? "")")
      }
    }
    let realtime = try #require(withDescriptors["realtime"] as? [String: Any])
    let updates = try #require(realtime["trip_updates"] as? [String: Any])
    #expect(updates["matched"] as? Int == 19)
    #expect(updates["total"] as? Int == 19)
    let match = try #require(realtime["match"] as? [String: Any])
    #expect(match["trip_updates"] as? [String: Int] == ["descriptor": 19])
  }

  /// Without start_date the run is today's in the zone of the feed holding the route: with a
  /// Dublin feed held too (listed first; 2023-11-08 there at 01:06Z, while it is still the 7th
  /// in California) the board is still the trip_id board, row for row.
  @Test func withoutStartDateTodayIsTheRoutesFeedsDay() throws {
    let folder = TemporaryFolder()
    #expect(transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "aaa-dublin", "--quiet", "--data-dir", folder.path]).code == 0)
    let caltrain = try #require(SharedData.path("static/caltrain-2023.zip"))
    #expect(transit(["ingest", caltrain, "--feed", "caltrain", "--quiet", "--data-dir", folder.path]).code == 0)
    let rewritten = try descriptorOnlyCapture(keepDate: false)
    func board(_ realtime: String) throws -> [[String: Any]] {
      let result = transit([
        "departures", "70172", "--json", "--limit", "30", "--data-dir", folder.path, "--now", Self.now, "--realtime", realtime,
      ])
      #expect(result.code == 0, "\(result.stderr)")
      return try #require((result.json as? [String: Any])?["departures"] as? [[String: Any]])
    }
    let withIDs = try board(try #require(SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb")))
    let withDescriptors = try board(rewritten.path)
    #expect(withIDs.contains { $0["source"] as? String == "realtime" })
    #expect(withIDs.count == withDescriptors.count)
    for (a, b) in zip(withIDs, withDescriptors) {
      for key in ["trip_id", "service_date", "expected", "source"] {
        #expect(String(describing: a[key] ?? "nil") == String(describing: b[key] ?? "nil"), "\(key) of \(a["trip_id"] ?? "")")
      }
    }
  }

  /// The text board says how they matched; without trip_ids they are counted, never "0 of 0".
  @Test func theRealtimeLineCountsThem() throws {
    let rewritten = try descriptorOnlyCapture()
    let result = transit(["departures", "70172", "--data-dir", try home, "--now", Self.now, "--realtime", rewritten.path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("19 of 19 trip updates matched (19 by descriptor)"), "\(result.stdout)")
  }

  /// An unknown route is named as the reason, not dropped without a word.
  @Test func anUnknownRouteIsTheReason() throws {
    var feed = try capture("caltrain-tripupdates-20231108T010534Z.pb")
    for index in feed.entities.indices {
      guard var update = feed.entities[index].tripUpdate else { continue }
      update.trip = TripDescriptor(routeID: "no-such-route", startTime: "17:00:00", startDate: "20231107")
      feed.entities[index].tripUpdate = update
    }
    let folder = TemporaryFolder()
    let path = folder.path + "/unknown.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    let json = try board(path)
    let realtime = try #require(json["realtime"] as? [String: Any])
    let match = try #require(realtime["match"] as? [String: Any])
    #expect(match["unmatched_trip_updates"] as? [String: Int] == ["unknown_route": 19])
  }
}

/// NYCT's convention (DESIGN.md rule 16) on the 12 consecutive New York captures.
@Suite(.enabled(if: SharedData.path("static/nyct-subway-multi-2023.zip") != nil, "needs ../shared/data"))
struct NYCTMatchingTests {
  var home: String { get throws { try SharedHome.holding("nyct-subway-multi-2023.zip", as: "nyct").path } }
  static let captures = [
    "180306", "180406", "180506", "180606", "180706", "180806", "180906", "181006", "181106", "181206", "181306", "181421",
  ].map { "nyct-subway-20230529T\($0)Z.pb" }

  static func iso(_ seconds: UInt64) -> String {
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    let formatter = ISO8601DateFormatter()
    return formatter.string(from: date)
  }

  func board(_ stop: String, capture file: String, window: Int = 30, extra: [String] = []) throws -> [String: Any] {
    let feed = try capture(file)
    let now = Self.iso(try #require(feed.header?.timestamp) + 20)
    let result = transit(
      [
        "departures", stop, "--json", "--limit", "200", "--window", "\(window)", "--data-dir", try home, "--now", now, "--realtime",
        try #require(SharedData.path("rt/" + file)),
      ] + extra)
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(result.json as? [String: Any])
  }

  /// Every trip update of every capture matches a timetable trip by the convention, or is a
  /// live train built from the update: none is left unmatched.
  @Test(arguments: captures)
  func everyTripUpdateIsAccountedFor(file: String) throws {
    let total = try capture(file).entities.count { $0.tripUpdate != nil }
    let realtime = try #require(try board("127", capture: file)["realtime"] as? [String: Any])
    let updates = try #require(realtime["trip_updates"] as? [String: Any])
    #expect(updates["total"] as? Int == total)
    #expect(updates["matched"] as? Int == total)
    let match = try #require(realtime["match"] as? [String: Any])
    let rules = try #require(match["trip_updates"] as? [String: Int])
    #expect(rules.values.reduce(0, +) == total)
    #expect((rules["convention"] ?? 0) > total / 2)
    #expect(match["unmatched_trip_updates"] as? [String: Int] == [:])
  }

  /// On the 18:06 capture, 98 updates have a static trip of their route (as the RT id names
  /// it), direction and origin time running that day (PROVENANCE.md); the descriptor's own
  /// route_id names one more (a 5 train's id on route 2). Computed here from trips.txt and
  /// stop_times.txt: the convention count is at least PROVENANCE's 98.
  @Test func theConventionFindsTheTimetableTrips() throws {
    let match = try #require(
      (try board("127", capture: "nyct-subway-20230529T180606Z.pb")["realtime"] as? [String: Any])?["match"] as? [String: Any])
    let rules = try #require(match["trip_updates"] as? [String: Int])
    #expect((rules["convention"] ?? 0) >= 98)
    #expect((rules["convention"] ?? 0) + (rules["built_from_update"] ?? 0) == 171)
  }

  /// The board at Times Sq-42 St (127) and Grand Central-42 St (631) lists a live train for
  /// every route with a prediction there in the window, within a minute of the capture's own
  /// predicted time at that stop (read here from the decoded capture, stop by stop).
  @Test(arguments: ["127", "631"])
  func busyStationsShowEveryPredictedTrain(station: String) throws {
    let file = "nyct-subway-20230529T180606Z.pb"
    let feed = try capture(file)
    let now = Int64(try #require(feed.header?.timestamp)) + 20
    var predicted: [String: [Int64]] = [:]  // route -> times at the station's platforms
    for update in feed.entities.compactMap(\.tripUpdate) {
      guard let route = update.trip?.routeID else { continue }
      for (index, stu) in update.stopTimeUpdates.enumerated() where stu.stopID?.hasPrefix(station) == true {
        guard index < update.stopTimeUpdates.count - 1, let time = stu.departure?.time ?? stu.arrival?.time else { continue }
        if time >= now && time < now + 30 * 60 { predicted[route, default: []].append(time) }
      }
    }
    try #require(!predicted.isEmpty)
    let rows = try #require(try board(station, capture: file)["departures"] as? [[String: Any]])
    for (route, times) in predicted {
      let live = rows.filter { ($0["route_id"] as? String) == route && $0["source"] as? String == "realtime" }
      #expect(!live.isEmpty, "route \(route) at \(station)")
      let shown = live.compactMap { ($0["expected"] as? String).flatMap(unixSeconds) }
      for time in times {
        #expect(shown.contains { abs($0 - time) <= 60 }, "route \(route) at \(time)")
      }
    }
  }

  /// Inside the replacement period a scheduled trip of routes 1-7 the feed omits is not shown
  /// as a timetable time: every row of those routes in the period is live (or cancelled).
  @Test func scheduledTripsTheFeedOmitsAreNotShown() throws {
    let file = "nyct-subway-20230529T180606Z.pb"
    let feed = try capture(file)
    let periods = try #require(feed.header?.nyctFeedHeader).tripReplacementPeriods
    let routes = Set(periods.compactMap(\.routeID))
    let end = Int64(try #require(periods.first?.replacementPeriod?.end))
    let rows = try #require(try board("127", capture: file)["departures"] as? [[String: Any]])
    let inPeriod = rows.filter { row in
      guard let route = row["route_id"] as? String, routes.contains(route),
        let time = ((row["expected"] as? String) ?? (row["scheduled"] as? String)).flatMap(unixSeconds)
      else { return false }
      return time <= end
    }
    #expect(!inPeriod.isEmpty)
    #expect(inPeriod.allSatisfy { $0["source"] as? String == "realtime" })
  }

  /// The period holds every trip that starts in it, so also every trip already under way: a
  /// timetable row of a replaced route is shown only for a trip that starts after the period
  /// ends. Each such row's trip start is computed here from stop_times.txt (its first
  /// departure on the service day, noon minus 12 h being midnight on this DST-free date).
  @Test func onlyTripsStartingAfterThePeriodKeepTheirTimetableTimes() throws {
    let file = "nyct-subway-20230529T180606Z.pb"
    let feed = try capture(file)
    let periods = try #require(feed.header?.nyctFeedHeader).tripReplacementPeriods
    let routes = Set(periods.compactMap(\.routeID))
    let end = Int64(try #require(periods.first?.replacementPeriod?.end))
    var firstDeparture: [String: Int] = [:]
    for row in try sharedRows("nyct-subway-multi-2023.zip", "stop_times.txt") {
      guard let trip = row["trip_id"], let seconds = (row["departure_time"]).flatMap(gtfsSeconds) else { continue }
      firstDeparture[trip] = min(firstDeparture[trip] ?? .max, seconds)
    }
    // 2023-05-29 00:00 in New York (EDT, UTC-4).
    let midnight: Int64 = 1_685_332_800
    let rows = try #require(try board("127", capture: file, window: 90)["departures"] as? [[String: Any]])
    let timetableRows = rows.filter { routes.contains($0["route_id"] as? String ?? "") && $0["source"] as? String == "schedule" }
    #expect(!timetableRows.isEmpty)
    for row in timetableRows {
      let trip = try #require(row["trip_id"] as? String)
      let start = midnight + Int64(try #require(firstDeparture[trip], "\(trip)"))
      #expect(start > end, "\(trip) starts at \(start), in the period ending \(end)")
    }
  }

  /// A train NYCT has not assigned is the plan, not a running train: its rows carry
  /// `train_assigned: false` and no vehicle, and the text says "no train yet". The unassigned
  /// trips are read here from the capture's extension.
  @Test func unassignedTrainsAreNotShownAsRunning() throws {
    let file = "nyct-subway-20230529T180606Z.pb"
    let feed = try capture(file)
    var unassigned = Set<String>()
    var assigned = Set<String>()
    for update in feed.entities.compactMap(\.tripUpdate) {
      guard let trip = update.trip, let nyct = trip.nyctTripDescriptor, let id = trip.tripID else { continue }
      if nyct.isAssigned == true { assigned.insert(id) } else { unassigned.insert(id) }
    }
    try #require(!unassigned.isEmpty)
    let rows = try #require(try board("127", capture: file)["departures"] as? [[String: Any]])
    let live = rows.filter { $0["source"] as? String == "realtime" }
    let waiting = live.filter { $0["train_assigned"] as? Bool == false }
    #expect(!waiting.isEmpty)
    for row in waiting { #expect(row["vehicle_id"] is NSNull || row["vehicle_id"] == nil) }
    // A row carries the mark exactly when its update (by the timetable trip it matched, or its
    // own id when built from it) is unassigned; the built rows are checked here by their id.
    let builtRows = live.filter { $0["status"] as? String == "added" }
    for row in builtRows {
      let id = try #require(row["trip_id"] as? String)
      #expect((row["train_assigned"] as? Bool == false) == unassigned.contains(id), "\(id)")
    }
    let feedTime = Int64(try #require(feed.header?.timestamp)) + 20
    let text = transit([
      "departures", "127", "--limit", "200", "--window", "30", "--data-dir", try home, "--now", Self.iso(UInt64(feedTime)),
      "--realtime", try #require(SharedData.path("rt/" + file)),
    ])
    #expect(text.stdout.contains("no train yet"))
  }

  /// A train the timetable lacks is shown by `trip show` (by its RT trip id and by its train
  /// id) with the update's stops and times, said to be not in the timetable; the stops are
  /// the capture's own, in order.
  @Test func tripShowKnowsATrainBuiltFromTheUpdate() throws {
    let file = "nyct-subway-20230529T180606Z.pb"
    let feed = try capture(file)
    let now = Self.iso(try #require(feed.header?.timestamp) + 20)
    let path = try #require(SharedData.path("rt/" + file))
    let json = try #require(try board("127", capture: file)["departures"] as? [[String: Any]])
    let built = try #require(json.first { $0["status"] as? String == "added" && $0["vehicle_id"] is String })
    let tripID = try #require(built["trip_id"] as? String)
    let update = try #require(feed.entities.compactMap(\.tripUpdate).first { $0.trip?.tripID == tripID })
    let stops = update.stopTimeUpdates.compactMap { stu in
      (stu.departure?.time ?? stu.arrival?.time) == nil || stu.scheduleRelationship == .skipped ? nil : stu.stopID
    }
    for name in [tripID, try #require(built["vehicle_id"] as? String)] {
      let result = transit(["trip", "show", name, "--json", "--data-dir", try home, "--now", now, "--realtime", path])
      #expect(result.code == 0, "\(result.stderr)")
      let report = try #require(result.json as? [String: Any])
      #expect((report["trip"] as? [String: Any])?["added"] as? Bool == true)
      let calls = try #require(report["calls"] as? [[String: Any]])
      #expect(calls.compactMap { $0["stop_id"] as? String } == stops)
    }
    let text = transit(["trip", "show", tripID, "--data-dir", try home, "--now", now, "--realtime", path])
    #expect(text.stdout.contains("not in the timetable"))
  }

  /// `vehicles` and `departures` agree train by train: every train a board row names is a
  /// vehicle the vehicle list shows on the same trip, named by NYCT's train id.
  @Test func vehiclesAndTheBoardAgree() throws {
    let file = "nyct-subway-20230529T180606Z.pb"
    let feed = try capture(file)
    let now = Self.iso(try #require(feed.header?.timestamp) + 20)
    let path = try #require(SharedData.path("rt/" + file))
    let vehicles = transit(["vehicles", "--json", "--data-dir", try home, "--now", now, "--realtime", path])
    #expect(vehicles.code == 0, "\(vehicles.stderr)")
    let list = try #require(vehicles.json as? [[String: Any]])
    // Every train the vehicle positions report, by its train id; the assigned trains that only
    // a trip update names are live too once on the road (placed by their predictions; one still
    // at its terminal is not listed). Routes 1-7 and S are
    // replaced by the feed: no train of theirs is estimated from the timetable.
    let reported = Set(feed.entities.compactMap { $0.vehicle?.trip?.nyctTripDescriptor?.trainID })
    let assigned = Set(
      feed.entities.compactMap { entity -> String? in
        guard let nyct = entity.tripUpdate?.trip?.nyctTripDescriptor, nyct.isAssigned == true else { return nil }
        return nyct.trainID
      })
    let ids = Set(list.compactMap { $0["vehicle_id"] as? String })
    #expect(reported.isSubset(of: ids))
    #expect(ids.isSubset(of: reported.union(assigned)))
    let replaced = Set(try #require(feed.header?.nyctFeedHeader).tripReplacementPeriods.compactMap(\.routeID))
    #expect(!list.contains { $0["estimated"] as? Bool == true && replaced.contains($0["route_id"] as? String ?? "") })
    let byVehicle = Dictionary(list.compactMap { v in (v["vehicle_id"] as? String).map { ($0, v) } }, uniquingKeysWith: { a, _ in a })
    let rows = try #require(try board("127", capture: file)["departures"] as? [[String: Any]])
    let named = rows.filter { $0["vehicle_id"] is String }
    #expect(!named.isEmpty)
    for row in named {
      let vehicle = try #require(byVehicle[row["vehicle_id"] as! String], "\(row["vehicle_id"]!)")
      #expect(vehicle["trip_id"] as? String == row["trip_id"] as? String)
    }
  }
}
