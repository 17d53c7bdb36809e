import Foundation
import TestSupport
import Testing

/// The scheduled departures of a shared feed at `stops` (stop_ids) on `date` (YYYYMMDD) whose
/// time of day is in [`from`, `until`) seconds, worked out here from calendar.txt,
/// calendar_dates.txt, trips.txt and stop_times.txt, as "trip_id stop_id HH:MM:SS": a trip's
/// last stop and pickup_type 1 are not departures; the day before's trips past 24:00:00 count.
/// `weekday` is the date's column in calendar.txt ("wednesday"), `previous` the day before.
func expectedDepartures(
  _ feed: String, stops: Set<String>, date: String, weekday: String, previous: String, previousWeekday: String, from: Int, until: Int,
  hasCalendar: Bool = true
) throws -> Set<String> {
  let calendar = hasCalendar ? try cachedRows(feed, "calendar.txt") : []
  let exceptions = try cachedRows(feed, "calendar_dates.txt")
  func services(on day: String, _ column: String) -> Set<String> {
    var running = Set(
      calendar.filter { $0[column] == "1" && ($0["start_date"] ?? "") <= day && day <= ($0["end_date"] ?? "") }.compactMap {
        $0["service_id"]
      })
    for row in exceptions where row["date"] == day {
      guard let service = row["service_id"] else { continue }
      if row["exception_type"] == "1" { running.insert(service) } else { running.remove(service) }
    }
    return running
  }
  let today = services(on: date, weekday), yesterday = services(on: previous, previousWeekday)
  var serviceOf: [String: String] = [:]
  for trip in try cachedRows(feed, "trips.txt") { serviceOf[trip["trip_id"] ?? ""] = trip["service_id"] }
  let rows = try cachedRows(feed, "stop_times.txt")
  var lastSequence: [String: Int] = [:]
  for row in rows {
    guard let trip = row["trip_id"], let sequence = row["stop_sequence"].flatMap({ Int($0) }) else { continue }
    lastSequence[trip] = max(lastSequence[trip] ?? sequence, sequence)
  }
  func clock(_ seconds: Int) -> String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
  }
  var result: Set<String> = []
  for row in rows {
    guard let trip = row["trip_id"], let stop = row["stop_id"], stops.contains(stop), let service = serviceOf[trip],
      let sequence = row["stop_sequence"].flatMap({ Int($0) }), sequence != lastSequence[trip], row["pickup_type"] != "1",
      let time = row["departure_time"].flatMap(gtfsSeconds)
    else { continue }
    if today.contains(service), time >= from, time < until { result.insert("\(trip) \(stop) \(clock(time))") }
    if yesterday.contains(service), time - 86_400 >= from, time - 86_400 < until {
      result.insert("\(trip) \(stop) \(clock(time - 86_400))")
    }
  }
  return result
}

/// A `departures --json` answer's rows as "trip_id stop_id HH:MM:SS" (the scheduled time on
/// the agency's clock, as the ISO text gives it).
func boardRows(_ json: Any?) -> [String] {
  let departures = ((json as? [String: Any])?["departures"] as? [[String: Any]]) ?? []
  return departures.map { row in
    let scheduled = (row["scheduled"] as? String) ?? ""
    let time = scheduled.count >= 19 ? String(Array(scheduled)[11..<19]) : "?"
    return "\(row["trip_id"] as? String ?? "?") \(row["stop_id"] as? String ?? "?") \(time)"
  }
}

/// The platforms (stop_ids whose parent_station is one of `stations`) of a shared feed.
func platforms(_ feed: String, of stations: Set<String>) throws -> Set<String> {
  Set(try cachedRows(feed, "stops.txt").filter { stations.contains($0["parent_station"] ?? "") }.compactMap { $0["stop_id"] })
}

/// Times Sq-42 St (issue 32): four stations of one name in the New York subway's feed, one board.
@Suite(.enabled(if: SharedData.path("static/nyct-subway-multi-2023.zip") != nil, "needs ../shared/data"))
struct TimesSquareComplexTests {
  static let feed = "nyct-subway-multi-2023.zip"
  var home: String { get throws { try SharedHome.holding(Self.feed, as: "nyct").path } }

  /// The stations named `name` in stops.txt (location_type 1), read here.
  func stations(named name: String) throws -> Set<String> {
    Set(
      try cachedRows(Self.feed, "stops.txt").filter { $0["stop_name"] == name && $0["location_type"] == "1" }.compactMap { $0["stop_id"] })
  }

  @Test func theComplexIsOneBoardOfAllItsStations() throws {
    let stations = try stations(named: "Times Sq-42 St")
    #expect(stations == ["127", "725", "902", "R16"])
    // The four within 160 m of each other (their stops.txt positions, haversine here).
    let rows = try cachedRows(Self.feed, "stops.txt").filter { stations.contains($0["stop_id"] ?? "") }
    var points: [(Double, Double)] = []
    for row in rows {
      if let lat = Double(row["stop_lat"] ?? ""), let lon = Double(row["stop_lon"] ?? "") { points.append((lat, lon)) }
    }
    #expect(points.count == 4)
    for a in points {
      for b in points { #expect(haversineMeters(a, b) < 160) }
    }
    // Memorial Day 2023 (a Monday), 08:00 to 08:30 local.
    let expected = try expectedDepartures(
      Self.feed, stops: try platforms(Self.feed, of: stations), date: "20230529", weekday: "monday", previous: "20230528",
      previousWeekday: "sunday", from: 8 * 3600, until: 8 * 3600 + 1800, hasCalendar: false)
    try #require(!expected.isEmpty)
    let result = transit([
      "departures", "Times Sq-42 St", "--json", "--window", "30", "--limit", "1000", "--now", "2023-05-29T08:00:00-04:00",
      "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let rowsGot = boardRows(result.json)
    #expect(Set(rowsGot) == expected)
    #expect(rowsGot.count == expected.count)
    // In time order, each naming its line and its platform.
    let times = rowsGot.map { $0.split(separator: " ")[2] }
    #expect(times == times.sorted())
    let departures = try #require((result.json as? [String: Any])?["departures"] as? [[String: Any]])
    let routes = Set(departures.compactMap { $0["route_short_name"] as? String })
    let routesByHand = Set(
      try cachedRows(Self.feed, "trips.txt").filter { trip in expected.contains { $0.hasPrefix((trip["trip_id"] ?? "") + " ") } }
        .compactMap { $0["route_id"] })
    #expect(routes.count == routesByHand.count)
    #expect(routes.isSuperset(of: ["1", "2", "3", "7", "N", "Q", "R", "S"]))
    #expect(departures.allSatisfy { ($0["platform"] as? String)?.isEmpty == false })
    // Each row's station: the parent_station of its platform in stops.txt.
    var parentOf: [String: String] = [:]
    for row in try cachedRows(Self.feed, "stops.txt") { parentOf[row["stop_id"] ?? ""] = row["parent_station"] }
    #expect(departures.allSatisfy { ($0["part_stop_id"] as? String) == parentOf[$0["stop_id"] as? String ?? ""] })
    let complex = try #require((result.json as? [String: Any])?["complex"] as? [String: Any])
    #expect(complex["name"] as? String == "Times Sq-42 St")
    #expect(Set(((complex["parts"] as? [[String: Any]]) ?? []).compactMap { $0["stop_id"] as? String }) == stations)

    let text = transit(["departures", "Times Sq-42 St", "--now", "2023-05-29T08:00:00-04:00", "--data-dir", try home])
    #expect(text.code == 0)
    #expect(text.stdout.hasPrefix("Times Sq-42 St · complex of 4 stations, departures from 08:00\n"))
  }

  @Test func planGoesFromComplexToComplexByName() throws {
    let from = try stations(named: "Times Sq-42 St"), to = try stations(named: "14 St-Union Sq")
    #expect(to.count == 3)
    let result = transit([
      "plan", "Times Sq-42 St", "14 St-Union Sq", "--json", "--now", "2023-05-29T08:00:00-04:00", "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let journeys = try #require((result.json as? [String: Any])?["journeys"] as? [[String: Any]])
    try #require(!journeys.isEmpty)
    let fromPlatforms = try platforms(Self.feed, of: from), toPlatforms = try platforms(Self.feed, of: to)
    for journey in journeys {
      let rides = ((journey["legs"] as? [[String: Any]]) ?? []).filter { $0["type"] as? String == "ride" }
      let board = (rides.first?["from"] as? [String: Any])?["stop_id"] as? String ?? ""
      let alight = (rides.last?["to"] as? [String: Any])?["stop_id"] as? String ?? ""
      #expect(fromPlatforms.contains(board), "boards at \(board)")
      #expect(toPlatforms.contains(alight), "alights at \(alight)")
    }
  }

  /// `stops show` of the complex: its four stations, each with the routes calling at its
  /// platforms (read here from trips.txt and stop_times.txt).
  @Test func stopsShowListsTheStationsAndTheirRoutes() throws {
    let result = transit(["stops", "show", "Times Sq-42 St", "--json", "--now", "2023-05-29T08:00:00-04:00", "--data-dir", try home])
    #expect(result.code == 0, "\(result.stderr)")
    let parts = try #require((result.json as? [String: Any])?["parts"] as? [[String: Any]])
    var routeOf: [String: String] = [:]
    for trip in try cachedRows(Self.feed, "trips.txt") { routeOf[trip["trip_id"] ?? ""] = trip["route_id"] }
    var routesAt: [String: Set<String>] = [:]  // platform: route_ids
    for row in try cachedRows(Self.feed, "stop_times.txt") {
      if let stop = row["stop_id"], let route = routeOf[row["trip_id"] ?? ""] { routesAt[stop, default: []].insert(route) }
    }
    var shortNames: [String: String] = [:]
    for route in try cachedRows(Self.feed, "routes.txt") { shortNames[route["route_id"] ?? ""] = route["route_short_name"] }
    #expect(parts.compactMap { $0["stop_id"] as? String } == ["127", "725", "902", "R16"])
    for part in parts {
      let id = part["stop_id"] as? String ?? ""
      let expected = Set(routesAt[id + "N", default: []].union(routesAt[id + "S", default: []]).compactMap { shortNames[$0] })
      #expect(Set((part["routes"] as? [String]) ?? []) == expected, "\(id)")
    }
    #expect(((result.json as? [String: Any])?["departures"] as? [Any])?.count == 5)
  }

  /// `commute add --stop COMPLEX --to COMPLEX`: the part a trip to the destination leaves
  /// from (only R16's N Q R W call at a 14 St-Union Sq station later, by stop_times), and the
  /// destination's part that trip reaches.
  @Test func aCommuteBetweenComplexesLeavesFromThePartThatGoesThere() throws {
    let from = try stations(named: "Times Sq-42 St"), to = try stations(named: "14 St-Union Sq")
    let toPlatforms = try platforms(Self.feed, of: to)
    var calls: [String: [(Int, String)]] = [:]
    for row in try cachedRows(Self.feed, "stop_times.txt") {
      if let trip = row["trip_id"], let stop = row["stop_id"], let sequence = row["stop_sequence"].flatMap({ Int($0) }) {
        calls[trip, default: []].append((sequence, stop))
      }
    }
    var leaving: Set<String> = [], arriving: Set<String> = []
    for stops in calls.values {
      for (sequence, stop) in stops where from.contains(String(stop.dropLast())) {
        for (later, there) in stops where later > sequence && toPlatforms.contains(there) {
          leaving.insert(String(stop.dropLast()))
          arriving.insert(String(there.dropLast()))
        }
      }
    }
    #expect(leaving == ["R16"])
    let folder = TemporaryFolder()
    for name in try FileManager.default.contentsOfDirectory(atPath: try home) {
      try FileManager.default.copyItem(atPath: try home + "/" + name, toPath: folder.path + "/" + name)
    }
    let result = transit([
      "commute", "add", "work", "--stop", "Times Sq-42 St", "--to", "14 St-Union Sq", "--arrive-by", "09:30", "--json", "--now",
      "2023-05-29T08:00:00-04:00", "--data-dir", folder.path,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let saved = try #require(result.json as? [String: Any])
    #expect(saved["stop_id"] as? String == "R16")
    #expect(arriving.contains(saved["to"] as? String ?? ""))
  }

  /// A station's id is that station alone, not its complex: 127 is the 1, 2 and 3.
  @Test func aPartsIDIsThePartAlone() throws {
    let result = transit([
      "departures", "127", "--json", "--window", "30", "--limit", "1000", "--now", "2023-05-29T08:00:00-04:00", "--data-dir",
      try home,
    ])
    #expect(result.code == 0)
    let departures = try #require((result.json as? [String: Any])?["departures"] as? [[String: Any]])
    #expect(Set(departures.compactMap { $0["route_short_name"] as? String }).isSubset(of: ["1", "2", "3"]))
    #expect((result.json as? [String: Any])?["complex"] == nil)
  }
}

/// Great-circle metres between two (lat, lon) pairs (mean Earth radius), worked out here.
func haversineMeters(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
  let radians = Double.pi / 180
  let dLat = (b.0 - a.0) * radians, dLon = (b.1 - a.1) * radians
  let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
  return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
}

/// Millbrae (issue 32): BART's and Caltrain's stations, both `place_MLBR`, one place with both
/// feeds held.
@Suite(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil, "needs ../shared/data"))
struct AcrossFeedsComplexTests {
  /// BART and Caltrain ingested into one data folder, once per process.
  /// BART's and Caltrain's timetables in one data folder, ingested once per process.
  static func home() throws -> String {
    try IngestedFeeds.folder(key: "transit ingest bart-2023.zip as bart, caltrain-2023.zip as caltrain") { folder in
      for (file, name) in [("bart-2023.zip", "bart"), ("caltrain-2023.zip", "caltrain")] {
        guard let zip = SharedData.path("static/" + file) else { throw FixtureError("no \(file)") }
        let result = transit(["ingest", zip, "--feed", name, "--quiet", "--data-dir", folder])
        guard result.code == 0 else { throw FixtureError("\(file): \(result.stderr)") }
      }
    }
  }

  func board(_ now: String) throws -> (code: Int32, rows: [String], feeds: Set<String>, json: Any?) {
    let result = transit([
      "departures", "Millbrae", "--json", "--window", "60", "--limit", "1000", "--now", now, "--data-dir", try Self.home(),
    ])
    let departures = ((result.json as? [String: Any])?["departures"] as? [[String: Any]]) ?? []
    return (result.code, boardRows(result.json), Set(departures.compactMap { $0["feed"] as? String }), result.json)
  }

  @Test func inBARTsServiceTheBoardIsBARTs() throws {
    // 2023-08-09, a Wednesday: BART runs (to 2023-09-10), Caltrain's timetable starts 2023-09-23.
    let answer = try board("2023-08-09T08:00:00-07:00")
    #expect(answer.code == 0)
    let expected = try expectedDepartures(
      "bart-2023.zip", stops: try platforms("bart-2023.zip", of: ["place_MLBR"]), date: "20230809", weekday: "wednesday",
      previous: "20230808", previousWeekday: "tuesday", from: 8 * 3600, until: 9 * 3600)
    try #require(!expected.isEmpty)
    #expect(Set(answer.rows) == expected)
    #expect(answer.feeds == ["bart"])
    let complex = try #require((answer.json as? [String: Any])?["complex"] as? [String: Any])
    let parts = ((complex["parts"] as? [[String: Any]]) ?? []).map { "\($0["feed"] as? String ?? ""):\($0["stop_id"] as? String ?? "")" }
    #expect(parts == ["bart:place_MLBR", "caltrain:place_MLBR"])
  }

  /// `stops near` lists Millbrae as one line, at the walk to its nearest entrance (BART's
  /// location_type 2 stops of place_MLBR, from stops.txt, the distance worked out here).
  @Test func stopsNearListsTheComplexOnceAtItsNearestEntrance() throws {
    let point = (37.6010, -122.3860)
    let entrances = try cachedRows("bart-2023.zip", "stops.txt").filter {
      $0["parent_station"] == "place_MLBR" && $0["location_type"] == "2"
    }
    try #require(!entrances.isEmpty)
    let nearest = entrances.compactMap { row in
      Double(row["stop_lat"] ?? "").flatMap { lat in Double(row["stop_lon"] ?? "").map { haversineMeters(point, (lat, $0)) } }
    }.min()!
    let result = transit(["stops", "near", "37.6010,-122.3860", "-n", "3", "--data-dir", try Self.home()])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").filter { $0.contains("Millbrae") }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("\(Int(nearest.rounded())) m") == true, "\(result.stdout)")
    #expect(lines.first?.contains("Millbrae (complex of 2 stations in 2 feeds)") == true)
  }

  @Test func inCaltrainsServiceTheBoardIsCaltrains() throws {
    let answer = try board("2023-11-08T08:00:00-08:00")
    #expect(answer.code == 0)
    let expected = try expectedDepartures(
      "caltrain-2023.zip", stops: try platforms("caltrain-2023.zip", of: ["place_MLBR"]), date: "20231108", weekday: "wednesday",
      previous: "20231107", previousWeekday: "tuesday", from: 8 * 3600, until: 9 * 3600)
    try #require(!expected.isEmpty)
    #expect(Set(answer.rows) == expected)
    #expect(answer.feeds == ["caltrain"])
  }
}

/// `--via` and names read in context, on Caltrain (issue 32).
@Suite(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil, "needs ../shared/data"))
struct CaltrainContextTests {
  var home: String { get throws { try SharedHome.holding("caltrain-2023.zip").path } }

  /// Trips leaving 70012 (San Francisco, southbound) that call later at Hayward Park: the
  /// limited trains that pass it by are left out.
  @Test func viaKeepsOnlyTripsCallingThere() throws {
    let all = try expectedDepartures(
      "caltrain-2023.zip", stops: ["70012"], date: "20231108", weekday: "wednesday", previous: "20231107",
      previousWeekday: "tuesday", from: 7 * 3600, until: 10 * 3600)
    let hayward = try platforms("caltrain-2023.zip", of: ["hayward_park"])
    var sequenceAt: [String: [String: Int]] = [:]  // trip: stop: sequence
    for row in try cachedRows("caltrain-2023.zip", "stop_times.txt") {
      guard let trip = row["trip_id"], let stop = row["stop_id"], let sequence = row["stop_sequence"].flatMap({ Int($0) }),
        row["drop_off_type"] != "1"
      else { continue }
      sequenceAt[trip, default: [:]][stop] = sequence
    }
    let expected = all.filter { row in
      let trip = String(row.split(separator: " ")[0])
      let here = sequenceAt[trip]?["70012"] ?? .max
      return hayward.contains { (sequenceAt[trip]?[$0] ?? -1) > here }
    }
    try #require(!expected.isEmpty && expected.count < all.count)  // some trains skip it
    let result = transit([
      "departures", "70012", "--via", "Hayward Park", "--json", "--window", "180", "--limit", "1000", "--now",
      "2023-11-08T07:00:00-08:00", "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(Set(boardRows(result.json)) == expected)
  }

  /// `timetable --via`: the day's trips from 70012 that call at Hayward Park later.
  @Test func timetableViaKeepsOnlyTripsCallingThere() throws {
    let hayward = try platforms("caltrain-2023.zip", of: ["hayward_park"])
    var later: [String: Set<String>] = [:]  // trip: the stops after 70012 where riders may alight
    var sequences: [String: [(Int, String, Bool)]] = [:]
    for row in try cachedRows("caltrain-2023.zip", "stop_times.txt") {
      guard let trip = row["trip_id"], let stop = row["stop_id"], let sequence = row["stop_sequence"].flatMap({ Int($0) }) else {
        continue
      }
      sequences[trip, default: []].append((sequence, stop, row["drop_off_type"] != "1"))
    }
    for (trip, calls) in sequences {
      guard let here = calls.first(where: { $0.1 == "70012" })?.0 else { continue }
      later[trip] = Set(calls.filter { $0.0 > here && $0.2 }.map(\.1))
    }
    // The whole service day of 2023-11-08, times to 30:00:00: its own trips only (a day before
    // no timetable runs stands in for the day before, whose trips past 24:00 are not its).
    let day = try expectedDepartures(
      "caltrain-2023.zip", stops: ["70012"], date: "20231108", weekday: "wednesday", previous: "19000101",
      previousWeekday: "tuesday", from: 0, until: 30 * 3600)
    let today = Set(day.map { String($0.split(separator: " ")[0]) })
    let expected = today.filter { !(later[$0] ?? []).isDisjoint(with: hayward) }
    try #require(!expected.isEmpty && expected.count < today.count)
    let result = transit([
      "timetable", "70012", "--via", "Hayward Park", "--date", "2023-11-08", "--json", "--now", "2023-11-08T07:00:00-08:00",
      "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let blocks = ((result.json as? [String: Any])?["blocks"] as? [[String: Any]]) ?? []
    let trips = blocks.flatMap { block in
      ((block["hours"] as? [[String: Any]]) ?? []).flatMap { hour in
        ((hour["departures"] as? [[String: Any]]) ?? []).compactMap { $0["trip_id"] as? String }
      }
    }
    #expect(Set(trips) == expected)
    #expect(trips.count == expected.count)
  }

  /// "San Jose" fits the shuttle stop 777402 and the Diridon station (and its two platforms);
  /// only the station is on a train from 70012.
  @Test func commuteDestinationIsTheOneReachable() throws {
    let folder = TemporaryFolder()
    for name in try FileManager.default.contentsOfDirectory(atPath: try home) {
      try FileManager.default.copyItem(atPath: try home + "/" + name, toPath: folder.path + "/" + name)
    }
    let plain = transit(["departures", "San Jose", "--now", "2023-11-08T07:00:00-08:00", "--data-dir", folder.path])
    #expect(plain.code == 3)
    #expect(plain.stderr.contains("777402") && plain.stderr.contains("sj_diridon"))
    let result = transit([
      "commute", "add", "work", "--stop", "70012", "--to", "San Jose", "--arrive-by", "09:30", "--json", "--now",
      "2023-11-08T07:00:00-08:00", "--data-dir", folder.path,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect((result.json as? [String: Any])?["to"] as? String == "sj_diridon")
    #expect(result.stderr.contains("taking San Jose Diridon (sj_diridon), the one reachable from"))
  }

  /// Several places of a name that a train from 70012 all reach: still a list and exit 3,
  /// each saying why it is there.
  @Test func ambiguityContextCannotSettleStillAsks() throws {
    let result = transit([
      "departures", "70012", "--via", "San", "--now", "2023-11-08T07:00:00-08:00", "--data-dir", try home,
    ])
    #expect(result.code == 3)
    #expect(result.stderr.contains("reachable from"))
    #expect(result.stderr.contains("san_jose_diridon") || result.stderr.contains("sj_diridon"))
    #expect(result.stderr.contains("runs between them"))
  }
}
