import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// `plan FROM TO --pick N --watch` on derived realtime sequences (issue 35): the feeder of a
/// journey with one change runs later snapshot by snapshot (its trip update from the shared
/// capture, every time shifted), the next ride as captured. The states the guard reports must
/// be the ones this test works out from the capture's own times, and the journey it offers
/// once the change is missed must be the timetable's next one from the change stop.
@Suite(
  .enabled(if: SharedData.root != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip"), "needs shared/data and unzip"))
struct JourneyGuardTests {
  /// One line of a GTFS file, by column name.
  typealias Row = [String: String]

  /// The rows of `file` in the GTFS ZIP `zip` (read with unzip, parsed here: RFC 4180 quotes).
  static func rows(_ zip: String, _ file: String) throws -> [Row] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
    process.arguments = ["-p", zip, file]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var text = String(decoding: data, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    var records: [[String]] = [], field = "", record: [String] = [], quoted = false
    var iterator = text.makeIterator()
    while let c = iterator.next() {
      if quoted {
        if c == "\"" { quoted = false } else { field.append(c) }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        record.append(field)
        field = ""
      } else if c == "\n" || c == "\r\n" {
        record.append(field)
        records.append(record)
        record = []
        field = ""
      } else if c != "\r" {
        field.append(c)
      }
    }
    if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
    guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
    return records.dropFirst().filter { $0.count > 1 }.map { values in
      Dictionary(Swift.zip(header, values), uniquingKeysWith: { a, _ in a })
    }
  }

  /// "25:10:00" as seconds.
  static func seconds(_ text: String) -> Int64 {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Int64($0) }
    return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1
  }

  /// The services running on `date` (YYYYMMDD, weekday 0 Monday … 6 Sunday) by calendar.txt
  /// and calendar_dates.txt.
  static func services(_ zip: String, date: String, weekday: Int) throws -> Set<String> {
    let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    var running = Set(
      try rows(zip, "calendar.txt").filter { row in
        row[days[weekday]] == "1" && (row["start_date"] ?? "") <= date && date <= (row["end_date"] ?? "")
      }.compactMap { $0["service_id"] })
    for row in try rows(zip, "calendar_dates.txt") where row["date"] == date {
      if row["exception_type"] == "1" { running.insert(row["service_id"] ?? "") }
      if row["exception_type"] == "2" { running.remove(row["service_id"] ?? "") }
    }
    return running
  }

  /// A guard scenario on one shared pair.
  struct Scenario {
    var zip: String
    var capture: String
    var from: String
    var to: String
    var planAt: String
    var pick: Int
    /// The service day's start (local midnight, as Unix time: noon minus 12 h on a day with no
    /// clock change) and its date and weekday, for the timetable's times.
    var dayStart: Int64
    var date: String
    var weekday: Int
    var settings: [(String, String)] = []
  }

  /// Plays the scenario; returns nothing, checking as it goes.
  func check(_ scenario: Scenario) throws {
    let home = TemporaryFolder()
    let ingest = transit(["ingest", scenario.zip, "--feed", "real", "--quiet", "--data-dir", home.path])
    try #require(ingest.code == 0, "\(ingest.stderr)")
    for (key, value) in scenario.settings {
      #expect(transit(["config", "set", key, value, "--data-dir", home.path]).code == 0)
    }
    let marginSeconds = Int64(scenario.settings.first { $0.0 == "transfer-margin" }.map { Int($0.1)! } ?? 3) * 60
    // The journey, as planned against the capture (its trips, stops and walk are the input).
    let planned = transit([
      "plan", scenario.from, scenario.to, "--now", scenario.planAt, "--pick", String(scenario.pick), "--json", "--realtime",
      scenario.capture, "--data-dir", home.path,
    ])
    try #require(planned.code == 0, "\(planned.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(planned.stdout.utf8)) as? [String: Any])
    let journey = try #require((document["journeys"] as? [[String: Any]])?.first)
    let legs = try #require(journey["legs"] as? [[String: Any]])
    let rides = legs.filter { $0["type"] as? String == "ride" }
    try #require(rides.count == 2, "a journey with one change: \(legs)")
    let feeder = rides[0], next = rides[1]
    let walk = Int64(legs.filter { $0["type"] as? String == "walk" }.compactMap { $0["duration_seconds"] as? Int }.reduce(0, +))
    let feederTrip = try #require(feeder["trip_id"] as? String), nextTrip = try #require(next["trip_id"] as? String)
    let alightSequence = try #require(feeder["to_stop_sequence"] as? Int)
    let boardSequence = try #require(next["from_stop_sequence"] as? Int)

    // The capture's own times: the feeder's arrival at the change, the next ride's departure.
    let capture = try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: scenario.capture))))
    let feederUpdate = try #require(capture.entities.first { $0.tripUpdate?.trip?.tripID == feederTrip }?.tripUpdate)
    let nextUpdate = try #require(capture.entities.first { $0.tripUpdate?.trip?.tripID == nextTrip }?.tripUpdate)
    let arrival = try #require(
      Array(feederUpdate.stopTimeUpdates).first { $0.stopSequence == UInt32(alightSequence) }.flatMap {
        $0.arrival?.time ?? $0.departure?.time
      })
    let departure = try #require(
      Array(nextUpdate.stopTimeUpdates).first { $0.stopSequence == UInt32(boardSequence) }.flatMap {
        $0.departure?.time ?? $0.arrival?.time
      })
    let base = departure - (arrival + walk)
    try #require(base >= marginSeconds, "the planned change must start safe: \(base) s")
    // Buffers to reach, and the state each must show: at least the margin safe, at least a
    // minute tight, at least nothing at risk, below missed.
    let targets: [Int64] = [base, 100, 70, 30, 10, -30]
    func state(_ buffer: Int64) -> String { buffer < 0 ? "missed" : buffer < 60 ? "at_risk" : buffer < marginSeconds ? "tight" : "safe" }
    let expectedStates = targets.map(state)
    #expect(expectedStates == ["safe", "tight", "tight", "at_risk", "at_risk", "missed"])
    let replay = TemporaryFolder()
    let stamp = Int64(capture.header?.timestamp ?? 0)
    for (index, target) in targets.enumerated() {
      let late = base - target
      var shifted = feederUpdate
      shifted.stopTimeUpdates = TripUpdate.StopTimeUpdates(
        Array(feederUpdate.stopTimeUpdates).map { update in
          var update = update
          if let time = update.arrival?.time { update.arrival?.time = time + late }
          if let time = update.departure?.time { update.departure?.time = time + late }
          if let delay = update.arrival?.delay { update.arrival?.delay = delay + Int32(late) }
          if let delay = update.departure?.delay { update.departure?.delay = delay + Int32(late) }
          return update
        })
      let time = stamp + Int64(index) * 30
      let message = FeedMessage(
        header: FeedHeader(gtfsRealtimeVersion: "1.0", incrementality: .fullDataset, timestamp: UInt64(time)),
        // The first snapshot is the capture itself (so --watch plans the journey above); the
        // later ones carry the two trips alone, so every other trip runs by the timetable.
        entities: index == 0
          ? capture.entities : [FeedEntity(id: feederTrip, tripUpdate: shifted), FeedEntity(id: nextTrip, tripUpdate: nextUpdate)])
      try Data(message.encoded()).write(to: URL(fileURLWithPath: replay.path + "/\(time)-trip-updates.pb"))
    }
    let watched = transit([
      "plan", scenario.from, scenario.to, "--now", scenario.planAt, "--pick", String(scenario.pick), "--watch", "--json", "--replay",
      replay.path, "--speed", "100000", "--data-dir", home.path,
    ])
    try #require(watched.code == 0, "\(watched.stderr)")
    let updates = try watched.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    try #require(updates.count == targets.count, "\(watched.stdout)")
    let watchedTrips = (updates[0]["rides"] as? [[String: Any]])?.compactMap { $0["trip_id"] as? String }
    try #require(watchedTrips == [feederTrip, nextTrip], "the journey watched is the one planned")
    let changes = updates.map { ($0["transfers"] as? [[String: Any]])?.first }
    #expect(changes.map { $0?["state"] as? String } == expectedStates)
    #expect(changes.map { ($0?["buffer_seconds"] as? Int).map(Int64.init) } == targets)
    // A change of state is reported (the bell) exactly where the state moved.
    let moved = expectedStates.indices.map { $0 > 0 && expectedStates[$0] != expectedStates[$0 - 1] }
    #expect(updates.map { !(($0["changed"] as? [Int]) ?? []).isEmpty } == moved)

    // Off JSON, each move rings the bell once and notify-send (faked on PATH, in a desktop
    // session) is told the change, its new state and buffer.
    let fake = TemporaryFolder()
    let log = fake.path + "/notified"
    try "#!/bin/sh\nprintf '%s|%s\\n' \"$1\" \"$2\" >> \(log)\n".write(
      toFile: fake.path + "/notify-send", atomically: true, encoding: .utf8)
    #expect(chmod(fake.path + "/notify-send", 0o755) == 0)
    let text = transit(
      [
        "plan", scenario.from, scenario.to, "--now", scenario.planAt, "--pick", String(scenario.pick), "--watch", "--replay", replay.path,
        "--speed", "100000", "--data-dir", home.path,
      ], environment: ["PATH": fake.path, "DISPLAY": ":99"])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stdout.filter { $0 == "\u{07}" }.count == moved.filter { $0 }.count)
    let change = try #require((feeder["to"] as? [String: Any])?["name"] as? String)
    func said(_ buffer: Int64) -> String {
      let amount = abs(buffer) < 60 ? "\(abs(buffer)) s" : "\(abs(buffer) / 60) min"
      return buffer < 0 ? "\(amount) short" : "buffer \(amount)"
    }
    let expectedNotes = targets.indices.filter { moved[$0] }.map {
      "transit|change at \(change): \(expectedStates[$0].replacingOccurrences(of: "_", with: " ")) (\(said(targets[$0])))"
    }
    #expect(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) == expectedNotes)

    // Offered at the missed change: the timetable's earliest arrival at TO from the change stop
    // (or the stop the walk leads to), leaving after the late arrival and the walk, by a trip
    // other than the missed one, worked out from stop_times.txt.
    let last = try #require(updates.last)
    let offered = try #require(last["alternative"] as? [String: Any], "\(last)")
    let offeredRide = try #require((offered["rides"] as? [[String: Any]])?.first)
    let lateArrival = arrival + (base - targets.last!)
    let running = try Self.services(scenario.zip, date: scenario.date, weekday: scenario.weekday)
    let tripsRunning = Set(
      try Self.rows(scenario.zip, "trips.txt").filter { running.contains($0["service_id"] ?? "") }.compactMap { $0["trip_id"] })
    let boardStop = try #require(next["from"] as? [String: Any])["stop_id"] as? String
    let toStop = try #require(rides[1]["to"] as? [String: Any])["stop_id"] as? String
    var calls: [String: [(sequence: Int, stop: String, arrival: Int64, departure: Int64)]] = [:]
    for row in try Self.rows(scenario.zip, "stop_times.txt") where tripsRunning.contains(row["trip_id"] ?? "") {
      calls[row["trip_id"]!, default: []].append(
        (
          Int(row["stop_sequence"] ?? "") ?? 0, row["stop_id"] ?? "", Self.seconds(row["arrival_time"] ?? ""),
          Self.seconds(row["departure_time"] ?? "")
        ))
    }
    var best: (trip: String, departure: Int64, arrival: Int64)?
    for (trip, stops) in calls where trip != nextTrip {
      let ordered = stops.sorted { $0.sequence < $1.sequence }
      guard let board = ordered.firstIndex(where: { $0.stop == boardStop && scenario.dayStart + $0.departure >= lateArrival + walk }),
        let alight = ordered[(board + 1)...].first(where: { $0.stop == toStop })
      else { continue }
      let candidate = (trip, scenario.dayStart + ordered[board].departure, scenario.dayStart + alight.arrival)
      if best == nil || candidate.2 < best!.arrival || candidate.2 == best!.arrival && candidate.1 < best!.departure { best = candidate }
    }
    let expected = try #require(best)
    #expect(offeredRide["trip_id"] as? String == expected.trip, "\(offered)")
    let formatter = ISO8601DateFormatter()
    #expect(
      (offered["arrival"] as? String).flatMap { formatter.date(from: $0) }.map { Int64($0.timeIntervalSince1970) } == expected.arrival,
      "\(offered)")
  }

  /// Caltrain, Tuesday 2023-11-07 (capture 01:05:34Z): the third journey from Lawrence to San
  /// Francisco changes at San Jose Diridon from L3 311 (southbound) to B7 711.
  @Test func caltrainFeederRunningLate() throws {
    try check(
      Scenario(
        zip: SharedData.path("static/caltrain-2023.zip")!, capture: SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb")!,
        from: "Lawrence Caltrain Station", to: "San Francisco Caltrain Station", planAt: "2023-11-08T01:05:34Z", pick: 3,
        dayStart: 1_699_344_000, date: "20231107", weekday: 1))
  }

  /// BART, Wednesday 2019-08-07 (capture 17:45:21Z): the second journey from Ashby to
  /// Rockridge changes at MacArthur from an Orange train to a Yellow one (a 6 min buffer); the
  /// margin is set to 2 min, so the states move at 120 s, 60 s and 0 s.
  @Test func bartFeederRunningLateUnderATwoMinuteMargin() throws {
    try check(
      Scenario(
        zip: SharedData.path("static/bart-2019.zip")!, capture: SharedData.path("rt/bart-tripupdates-20190807T174521Z.pb")!,
        from: "Ashby", to: "Rockridge", planAt: "2019-08-07T17:45:21Z", pick: 2, dayStart: 1_565_161_200, date: "20190807",
        weekday: 2, settings: [("transfer-margin", "2")]))
  }
}

/// `plan --from-trip TRIP TO` (issue 35, "route from the train I'm on"): the journey starts on
/// board, from the trip's next stop, at the capture's predicted times.
@Suite(.enabled(if: SharedData.root != nil, "needs shared/data"))
struct FromTripPlanTests {
  let home = TemporaryFolder()
  let capture = SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb") ?? ""

  init() throws {
    let ingest = transit(["ingest", SharedData.path("static/caltrain-2023.zip")!, "--feed", "real", "--quiet", "--data-dir", home.path])
    guard ingest.code == 0 else { throw FixtureError(ingest.stderr) }
  }

  /// Train 127's update in the capture: the next stop is the lowest one still listed (rule 8).
  func update() throws -> [TripUpdate.StopTimeUpdate] {
    let feed = try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: capture))))
    return Array(try #require(feed.entities.first { $0.tripUpdate?.trip?.tripID == "127" }?.tripUpdate).stopTimeUpdates)
  }

  func plan(_ to: String, _ extra: [String] = []) throws -> [[String: Any]] {
    let result = transit(
      ["plan", "--from-trip", "127", to, "--now", "2023-11-08T01:05:34Z", "--realtime", capture, "--json", "--data-dir", home.path] + extra)
    try #require(result.code == 0, "\(result.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return try #require(document["journeys"] as? [[String: Any]])
  }

  func time(_ value: Any?) -> Int64? {
    (value as? String).flatMap { ISO8601DateFormatter().date(from: $0) }.map { Int64($0.timeIntervalSince1970) }
  }

  @Test func stayingOnToAStopItCallsAt() throws {
    let calls = try update()
    let next = try #require(calls.first)
    let hillsdale = try #require(calls.first { $0.stopID == "70111" })
    let journeys = try plan("Hillsdale Caltrain Station")
    try #require(!journeys.isEmpty)
    for journey in journeys {
      let first = try #require((journey["legs"] as? [[String: Any]])?.first { $0["type"] as? String == "ride" })
      #expect(first["trip_id"] as? String == "127")
      #expect((first["from"] as? [String: Any])?["stop_id"] as? String == next.stopID)
    }
    let direct = try #require((journeys[0]["legs"] as? [[String: Any]])?.first)
    #expect((direct["to"] as? [String: Any])?["stop_id"] as? String == "70111")
    #expect(time(direct["arrival"]) == hillsdale.arrival?.time)
  }

  /// To Tamien (behind the train, southbound): off at a stop ahead, then back on another train.
  @Test func changingFromTheTrainToAnother() throws {
    let calls = try update()
    let journey = try #require(try plan("Tamien Caltrain Station").first)
    let rides = try #require(journey["legs"] as? [[String: Any]]).filter { $0["type"] as? String == "ride" }
    try #require(rides.count == 2, "\(rides)")
    #expect(rides[0]["trip_id"] as? String == "127")
    #expect((rides[0]["from"] as? [String: Any])?["stop_id"] as? String == calls.first?.stopID)
    let off = try #require((rides[0]["to"] as? [String: Any])?["stop_id"] as? String)
    // It gets off where the capture predicts it, at that time, and changes to a southbound train.
    #expect(time(rides[0]["arrival"]) == calls.first { $0.stopID == off }?.arrival?.time)
    #expect(rides[1]["headsign"] as? String != "San Francisco")
    let changes = try #require(journey["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    #expect((changes[0]["buffer_seconds"] as? Int).map { $0 >= 0 } ?? false)
  }

  @Test func unknownTripAndBadCombinations() throws {
    let unknown = transit([
      "plan", "--from-trip", "no-such-trip", "Tamien Caltrain Station", "--now", "2023-11-08T01:05:34Z", "--realtime", capture,
      "--data-dir", home.path,
    ])
    #expect(unknown.code == 3)
    #expect(unknown.stderr.contains("--from-trip: trip 'no-such-trip'"), "\(unknown.stderr)")
    let both = transit(["plan", "--from-trip", "127", "--on", "127", "Tamien", "--data-dir", home.path])
    #expect(both.code == 2)
    let two = transit(["plan", "--from-trip", "127", "Lawrence Caltrain Station", "Tamien Caltrain Station", "--data-dir", home.path])
    #expect(two.code == 2)
  }
}

/// `plan --watch`'s options on the demo: what goes with what, and a --pick beyond the journeys.
@Suite struct PlanWatchOptionTests {
  let home = DemoHome()

  @Test func watchOptionsNeedWatch() {
    for extra in [["--replay", "/tmp"], ["--count", "2"], ["--no-bell"], ["--speed", "2"]] {
      let result = home.run(["plan", "Red Cow", "Fettercairn", "--now", "2026-12-01T07:40:00Z"] + extra)
      #expect(result.code == 2, "\(extra)")
      #expect(result.stderr.contains(extra[0]), "\(result.stderr)")
    }
    let geojson = home.run(["plan", "Red Cow", "Fettercairn", "--watch", "--geojson", "--now", "2026-12-01T07:40:00Z"])
    #expect(geojson.code == 2)
  }

  @Test func pickBeyondTheJourneysFoundIsNotFound() {
    let result = home.run(["plan", "Red Cow", "Fettercairn", "--limit", "2", "--pick", "5", "--now", "2026-12-01T07:40:00Z"])
    #expect(result.code == 3)
    #expect(result.stderr.contains("--pick 5: only 2 journeys were found; raise --limit"), "\(result.stderr)")
  }

  @Test func pickAlonePrintsThatJourney() throws {
    let all = home.run(["plan", "Red Cow", "Fettercairn", "--limit", "2", "--json", "--now", "2026-12-01T07:40:00Z"])
    let second = home.run(["plan", "Red Cow", "Fettercairn", "--limit", "2", "--pick", "2", "--json", "--now", "2026-12-01T07:40:00Z"])
    let journeys = try #require((try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])?["journeys"] as? [Any])
    let picked = try #require((try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])?["journeys"] as? [Any])
    try #require(journeys.count == 2 && picked.count == 1)
    #expect(NSDictionary(dictionary: journeys[1] as! [String: Any]).isEqual(to: picked[0] as! [String: Any]))
  }
}
