import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// A station complex (and several stops) wherever a STOP is accepted (issue 32), on the demo
/// network: the two "Belgard Road" stops (TD4564, TD4565: stops.txt, 26 m apart) are one
/// complex; 4529 and 4530 are two stops named one by one. Every expected value is read here
/// from Data/gtfs.
@Suite struct ComplexEverywhereTests {
  let home = DemoHome()
  /// A Tuesday (service WK in calendar.txt), 07:40 in Dublin (UTC in winter).
  static let tuesday = "2026-12-01T07:40:00Z"
  static let belgard: Set<String> = ["TD4564", "TD4565"]

  // MARK: - The demo feed, read by hand

  /// The rows of a demo file, by column name (RFC 4180 quotes handled: stops.txt has commas
  /// inside quoted names).
  static func rows(_ file: String) throws -> [[String: String]] {
    let text = try String(contentsOfFile: packageRoot + "/Data/gtfs/" + file, encoding: .utf8)
    var lines: [[String]] = []
    for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty { lines.append(TestCSV.fields(of: line)) }
    let header = lines.removeFirst()
    return lines.map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
  }

  /// "HH:MM:SS" as seconds.
  static func seconds(_ text: String) -> Int {
    let parts = text.split(separator: ":").compactMap { Int($0) }
    return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1
  }

  /// The weekday (service WK) departures at `stops`: (trip_id, stop_id, route_id, seconds), a
  /// trip's last stop and pickup_type 1 left out. A stop without times (TD4565 has none) is
  /// timed between the timed stops around it in proportion to shape_dist_traveled, as GTFS
  /// suggests for untimed stops.
  static func weekdayDepartures(at stops: Set<String>) throws -> [(trip: String, stop: String, route: String, time: Double)] {
    var routeOf: [String: String] = [:]
    for trip in try rows("trips.txt") where trip["service_id"] == "WK" { routeOf[trip["trip_id"] ?? ""] = trip["route_id"] }
    var byTrip: [String: [[String: String]]] = [:]
    for row in try rows("stop_times.txt") { byTrip[row["trip_id"] ?? "", default: []].append(row) }
    var result: [(trip: String, stop: String, route: String, time: Double)] = []
    for (trip, unsorted) in byTrip {
      guard let route = routeOf[trip] else { continue }
      let calls = unsorted.sorted { Int($0["stop_sequence"] ?? "")! < Int($1["stop_sequence"] ?? "")! }
      func distance(_ index: Int) -> Double { Double(calls[index]["shape_dist_traveled"] ?? "") ?? 0 }
      func timed(_ index: Int) -> Double? {
        let text = calls[index]["departure_time"] ?? ""
        return text.isEmpty ? nil : Double(seconds(text))
      }
      for (index, call) in calls.enumerated() where index < calls.count - 1 {
        guard let stop = call["stop_id"], stops.contains(stop), call["pickup_type"] != "1" else { continue }
        var time = timed(index)
        if time == nil,
          let before = (0..<index).last(where: { timed($0) != nil }),
          let after = (index + 1..<calls.count).first(where: { timed($0) != nil })
        {
          let share = (distance(index) - distance(before)) / (distance(after) - distance(before))
          time = timed(before)! + (timed(after)! - timed(before)!) * share
        }
        if let time { result.append((trip, stop, route, time)) }
      }
    }
    return result
  }

  static func json(_ result: CLIResult) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
  }

  /// A `timetable --json` answer's entries as "trip_id stop_id", with each block's part.
  static func timetableEntries(_ json: [String: Any]) -> [(entry: String, part: String?)] {
    ((json["blocks"] as? [[String: Any]]) ?? []).flatMap { block in
      ((block["hours"] as? [[String: Any]]) ?? []).flatMap { hour in
        ((hour["departures"] as? [[String: Any]]) ?? []).map { entry in
          ("\(entry["trip_id"] as? String ?? "?") \(entry["stop_id"] as? String ?? "?")", block["part_stop_id"] as? String)
        }
      }
    }
  }

  // MARK: - timetable

  @Test func aComplexsTimetableIsThatOfBothStops() throws {
    let expected = Set(try Self.weekdayDepartures(at: Self.belgard).map { "\($0.trip) \($0.stop)" })
    try #require(expected.count > 10)
    let result = home.run(["timetable", "Belgard Road", "--date", "2026-12-01", "--json", "--now", Self.tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try Self.json(result)
    let entries = Self.timetableEntries(json)
    #expect(Set(entries.map(\.entry)) == expected)
    #expect(entries.count == expected.count)
    // Each block is one stop's: its part is the stop every entry calls at.
    #expect(entries.allSatisfy { $0.part == String($0.entry.split(separator: " ")[1]) })
    let complex = try #require(json["complex"] as? [String: Any])
    #expect(complex["name"] as? String == "Belgard Road")
    #expect(((complex["parts"] as? [[String: Any]]) ?? []).compactMap { $0["stop_id"] as? String } == ["TD4564", "TD4565"])

    let text = home.run(["timetable", "Belgard Road", "--date", "2026-12-01", "--now", Self.tuesday])
    #expect(text.code == 0)
    #expect(text.stdout.hasPrefix("Belgard Road · complex of 2 stops, timetable for 2026-12-01 (Tuesday)\n"))
    // The two stops share a name and a feed: each block says which by its code.
    let headings = text.stdout.split(separator: "\n").filter { $0.hasPrefix("54A to ") }
    #expect(headings.count == 2)
    #expect(headings.contains { $0.contains(" · from 4564 · ") } && headings.contains { $0.contains(" · from 4565 · ") })
  }

  @Test func severalStopsMakeOneTimetable() throws {
    let expected = Set(try Self.weekdayDepartures(at: ["TD4529", "TD4530"]).map { "\($0.trip) \($0.stop)" })
    try #require(!expected.isEmpty)
    let result = home.run(["timetable", "4529", "4530", "--date", "2026-12-01", "--json", "--now", Self.tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try Self.json(result)
    let entries = Self.timetableEntries(json)
    #expect(Set(entries.map(\.entry)) == expected)
    #expect(entries.count == expected.count)
    #expect(entries.allSatisfy { $0.part == String($0.entry.split(separator: " ")[1]) })
    #expect(((json["stops"] as? [[String: Any]]) ?? []).compactMap { $0["stop_id"] as? String } == ["TD4529", "TD4530"])
    let text = home.run(["timetable", "4529", "4530", "--date", "2026-12-01", "--now", Self.tuesday])
    #expect(text.stdout.hasPrefix("Main Road, Tallaght Village + Tallaght (The Square) · 2 stops, timetable for 2026-12-01"))
  }

  // MARK: - routes, trip show, alerts

  @Test func routesAtAComplexAreThoseOfEveryStop() throws {
    var routeOf: [String: String] = [:]
    for trip in try Self.rows("trips.txt") { routeOf[trip["trip_id"] ?? ""] = trip["route_id"] }
    let expected = Set(
      try Self.rows("stop_times.txt").filter { Self.belgard.contains($0["stop_id"] ?? "") }.compactMap { routeOf[$0["trip_id"] ?? ""] })
    try #require(!expected.isEmpty)
    let result = home.run(["routes", "--stop", "Belgard Road", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let routes = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(Set(routes.compactMap { $0["route_id"] as? String }) == expected)
    #expect(routes.count == expected.count)
  }

  @Test func tripShowTakesTheFirstDepartureAtAnyStopOfTheComplex() throws {
    // 07:20 on the agency's clock: the first 54A at either Belgard Road stop from then.
    let departures = try Self.weekdayDepartures(at: Self.belgard).filter { $0.route == "R54A" && $0.time >= Double(7 * 3600 + 20 * 60) }
    let first = try #require(departures.map(\.time).min())
    let expected = Set(departures.filter { $0.time == first }.map(\.trip))
    let result = home.run([
      "trip", "show", "--route", "54A", "--stop", "Belgard Road", "--at", "07:20", "--json", "--now", Self.tuesday,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(expected.contains((try Self.json(result)["trip"] as? [String: Any])?["trip_id"] as? String ?? ""))
  }

  @Test func alertsAtAComplexAreThoseOfItsStops() throws {
    let folder = TemporaryFolder()
    func alert(_ id: String, stop: String) -> FeedEntity {
      var alert = Alert()
      alert.effect = .stopMoved
      alert.informedEntities = [EntitySelector(stopID: stop)]
      return FeedEntity(id: id, alert: alert)
    }
    // One alert at a Belgard Road stop, one at a stop of no complex.
    let feed = FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", timestamp: 1_796_110_560),
      entities: [alert("at-belgard", stop: "TD4565"), alert("at-main-road", stop: "TD4529")])
    let path = folder.path + "/alerts.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    let result = home.run(["alerts", "--stop", "Belgard Road", "--peek", "--json", "--realtime", path, "--now", Self.tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    let alerts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(alerts.compactMap { $0["id"] as? String } == ["at-belgard"])
  }

  // MARK: - --line

  @Test func theLineOfSeveralStopsIsTheirFirstDeparture() throws {
    let from = Double(7 * 3600 + 40 * 60)
    let departures = try Self.weekdayDepartures(at: ["TD4529", "TD4530"]).filter { $0.time >= from }
    let first = try #require(departures.map(\.time).min())
    let names = ["TD4529": "Main Road, Tallaght Village", "TD4530": "Tallaght (The Square)"]
    var shortName: [String: String] = [:]
    for route in try Self.rows("routes.txt") { shortName[route["route_id"] ?? ""] = route["route_short_name"] }
    let clock = String(format: "%02d:%02d", Int(first) / 3600, Int(first) / 60 % 60)
    let expected = Set(
      departures.filter { $0.time == first }.map { departure in
        "\(shortName[departure.route] ?? "?") \(clock) sched · \(names[departure.stop] ?? "?") · in \(Int(first - from) / 60) min"
      })
    let result = home.run(["departures", "4529", "4530", "--line", "--now", Self.tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(expected.contains(result.stdout.trimmingCharacters(in: .newlines)), "\(result.stdout)")
  }

  /// With --from, each stop's departure is weighed by the walk to that stop: from where 4530
  /// stands, the 27 of 07:47 at 4529 is a walk of more than the 7 min left (the straight line
  /// from stops.txt, 1.25 times longer, at 1.3 m/s) but within them at a run (1.5 times faster).
  @Test func theLineOfSeveralStopsWeighsEachByItsOwnWalk() throws {
    let stops = try Self.rows("stops.txt")
    func point(_ id: String) throws -> (Double, Double) {
      let row = try #require(stops.first { $0["stop_id"] == id })
      return (Double(row["stop_lat"] ?? "") ?? 0, Double(row["stop_lon"] ?? "") ?? 0)
    }
    let a = try point("TD4530"), b = try point("TD4529")
    let radians = Double.pi / 180
    let h =
      pow(sin((b.0 - a.0) * radians / 2), 2) + cos(a.0 * radians) * cos(b.0 * radians) * pow(sin((b.1 - a.1) * radians / 2), 2)
    let walk = 2 * 6_371_008.8 * asin(sqrt(h)) * 1.25 / 1.3
    let start = Double(7 * 3600 + 40 * 60)
    let times: [Double] = try Self.weekdayDepartures(at: ["TD4529"]).map(\.time)
    let first = try #require(times.filter { $0 >= start }.min())
    let left = first - start
    try #require(walk > left)
    try #require(walk / 1.5 < left)
    let result = home.run([
      "departures", "4530", "4529", "--line", "--from", "\(a.0),\(a.1)", "--format", "{stop}: {leave}", "--now", Self.tuesday,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout == "Main Road, Tallaght Village: run\n")
  }

  @Test func theLineOfAComplexNamesTheStopByItsCode() throws {
    let from = Double(7 * 3600 + 40 * 60)
    let departures = try Self.weekdayDepartures(at: Self.belgard).filter { $0.time >= from }
    let first = try #require(departures.map(\.time).min())
    let codes = Set(departures.filter { $0.time == first }.map { String($0.stop.dropFirst(2)) })  // TD4564: 4564
    let result = home.run(["departures", "Belgard Road", "--line", "--format", "{route} {stop}", "--now", Self.tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(codes.map { "54A \($0)" }.contains(result.stdout.trimmingCharacters(in: .newlines)), "\(result.stdout)")
  }

  // MARK: - commute

  @Test func aCommuteFromAComplexWeighsEveryStop() throws {
    let add = home.run(["commute", "add", "school", "--stop", "Belgard Road", "--arrive-by", "08:10", "--json", "--now", Self.tuesday])
    #expect(add.code == 0, "\(add.stderr)")
    let saved = try Self.json(add)
    #expect(((saved["stops"] as? [[String: Any]]) ?? []).compactMap { $0["stop_id"] as? String } == ["TD4564", "TD4565"])
    #expect((saved["complex"] as? [String: Any])?["name"] as? String == "Belgard Road")
    // Without --to the deadline is the departure's: the latest from either stop by 08:10
    // (and within the 2 h before it).
    let deadline = Double(8 * 3600 + 10 * 60)
    let departures = try Self.weekdayDepartures(at: Self.belgard).filter { $0.time <= deadline && $0.time >= deadline - 7200 }
    let latest = try #require(departures.map(\.time).max())
    let expected = Set(departures.filter { $0.time == latest }.map { "\($0.trip) \($0.stop)" })
    let plan = home.run(["commute", "school", "--json", "--now", "2026-12-01T07:00:00Z"])
    #expect(plan.code == 0, "\(plan.stderr)")
    let document = try #require(
      (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [[String: Any]])?.first
        ?? (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]), "\(plan.stdout)")
    let options = (document["options"] as? [[String: Any]]) ?? []
    let recommended = try #require(options.first { $0["recommended"] as? Bool == true }?["departure"] as? [String: Any])
    #expect(expected.contains("\(recommended["trip_id"] as? String ?? "") \(recommended["stop_id"] as? String ?? "")"))
    // The options come from both stops (the 54A runs each way past them).
    let stops = Set(options.compactMap { ($0["departure"] as? [String: Any])?["stop_id"] as? String })
    #expect(stops == Self.belgard)

    // The text names the stop each option leaves from, by the code on its pole (both are
    // "Belgard Road"), in the JSON's order; the codes read from stops.txt.
    var codeOf: [String: String] = [:]
    for stop in try Self.rows("stops.txt") { codeOf[stop["stop_id"] ?? ""] = stop["stop_code"] }
    let text = home.run(["commute", "school", "--now", "2026-12-01T07:00:00Z"])
    #expect(text.code == 0, "\(text.stderr)")
    let rows = text.stdout.split(separator: "\n").filter { $0.contains("dep ") }
    let wanted = options.compactMap { ($0["departure"] as? [String: Any])?["stop_id"] as? String }.map { "from " + (codeOf[$0] ?? "?") }
    #expect(rows.count == wanted.count, "\(text.stdout)")
    for (row, label) in zip(rows, wanted) { #expect(row.contains(label), "\(row) lacks \(label)") }

    let list = home.run(["commute", "list"])
    #expect(list.stdout.contains("Belgard Road [4564] (and 1 more stop), arrive by 08:10"), "\(list.stdout)")
    // Removing it forgets its other stops too: saved again as one stop, it is one stop.
    #expect(home.run(["commute", "remove", "school"]).code == 0)
    let again = home.run(["commute", "add", "school", "--stop", "4564", "--arrive-by", "08:10", "--json"])
    #expect(try Self.json(again)["stops"] == nil)
  }
}
