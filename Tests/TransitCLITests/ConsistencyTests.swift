import Foundation
import TestSupport
import Testing

/// One answer everywhere (issue 16, "Done when"): for the same stop, `now` and realtime, the
/// expected time and delay class of each trip agree between `departures`, the no-argument
/// favourites view, `commute`, the first ride leg of `plan`, `vehicles` and `follow --once`,
/// compared on their JSON outputs over the real matched pairs and the demo snapshot.
@Suite struct ConsistencyTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    /// A shared/data static feed, or nil for the demo network (Data/gtfs).
    var feed: String?
    /// Realtime files: shared/data/rt names, or paths under the package for the demo.
    var realtime: [String]
    var stop: String
    var now: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "caltrain 20231108 (start_time set)", feed: "caltrain-2023.zip",
      realtime: ["caltrain-tripupdates-20231108T010534Z.pb", "caltrain-vehiclepositions-20231108T010559Z.pb"], stop: "palo_alto",
      now: "2023-11-08T01:06:05Z"),
    Case(
      name: "bart 20190807", feed: "bart-2019.zip", realtime: ["bart-tripupdates-20190807T174521Z.pb"], stop: "MONT",
      now: "2019-08-07T17:45:21Z"),
    Case(
      name: "demo snapshot", feed: nil, realtime: ["Data/realtime/demo-tripupdates.pb", "Data/realtime/demo-vehiclepositions.pb"],
      stop: "TINT", now: "2026-12-01T07:40:00Z"),
  ]

  /// One trip's answer at the stop: when it is expected and its delay's class.
  struct Answer: Equatable, CustomStringConvertible {
    var expected: Int64
    var status: String
    var description: String { "\(expected) \(status)" }
  }

  /// Rule 12 with the default thresholds, computed here: early at -60 s or less, late from 120 s.
  static func delayClass(_ seconds: Int) -> String { seconds <= -60 ? "early" : seconds >= 120 ? "late" : "on_time" }

  @Test(arguments: cases)
  func sameAnswerEverywhere(_ item: Case) throws {
    let realtime: [String]
    // A data folder of its own: the checks below add a favourite and a commute to it.
    let home = TemporaryFolder()
    if let feed = item.feed {
      guard SharedData.path("static/" + feed) != nil else { return }  // no shared data here
      realtime = try item.realtime.map { try #require(SharedData.path("rt/" + $0)) }
      // The timetable ingested once per process (SharedHome, as the merge-property tests
      // read it), copied in.
      let shared = try SharedHome.holding(feed)
      for name in try FileManager.default.contentsOfDirectory(atPath: shared.path) {
        try FileManager.default.copyItem(atPath: shared.path + "/" + name, toPath: home.path + "/" + name)
      }
    } else {
      realtime = item.realtime.map { packageRoot + "/" + $0 }
      #expect(transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "real", "--quiet", "--data-dir", home.path]).code == 0)
    }
    func run(_ arguments: [String]) throws -> Any {
      let result = transit(arguments + ["--data-dir", home.path, "--now", item.now] + realtime.flatMap { ["--realtime", $0] })
      try #require(result.code == 0, "\(arguments): \(result.stderr) \(result.stdout)")
      return try #require(result.json, "\(arguments): \(result.stdout)")
    }
    func answer(_ departure: [String: Any]) -> Answer? {
      guard let expected = (departure["expected"] as? String).flatMap(unixSeconds), let status = departure["status"] as? String
      else { return nil }
      return Answer(expected: expected, status: status)
    }

    // departures: the reference, each live trip's answer at its platform.
    let board = try #require(
      (try run(["departures", item.stop, "--json", "-n", "40"]) as? [String: Any])?["departures"] as? [[String: Any]])
    // Keyed by trip and scheduled time: a frequency trip's instances share a trip_id. Trips
    // with one instance here are followed by trip_id.
    var reference: [String: (stopID: String, answer: Answer)] = [:]
    var instances: [String: Int] = [:]
    func key(_ departure: [String: Any]) -> String {
      "\(departure["trip_id"] as? String ?? "")@\(departure["scheduled"] as? String ?? "")"
    }
    for departure in board where departure["source"] as? String != "schedule" {
      guard let trip = departure["trip_id"] as? String, let stopID = departure["stop_id"] as? String, let answer = answer(departure)
      else { continue }
      // Added trips are not in the timetable: only the board and the home view know them.
      instances[trip, default: 0] += departure["status"] as? String == "added" ? 2 : 1
      reference[key(departure)] = (stopID, answer)
    }
    let single = Dictionary(
      reference.compactMap { key, value -> (String, (stopID: String, answer: Answer))? in
        let trip = String(key.prefix { $0 != "@" })
        return instances[trip] == 1 ? (trip, value) : nil
      }, uniquingKeysWith: { first, _ in first })
    try #require(!reference.isEmpty, "no live departure at \(item.stop)")
    var compared: [String: Int] = [:]

    // The no-argument view with the stop as a favourite.
    #expect(transit(["fav", "add", item.stop, "--data-dir", home.path]).code == 0)
    let favourites = try #require((try run(["--json"]) as? [String: Any])?["favourites"] as? [[String: Any]])
    for departure in (favourites.first?["departures"] as? [[String: Any]]) ?? [] {
      guard let known = reference[key(departure)] else { continue }
      #expect(answer(departure) == known.answer, "home view, \(key(departure))")
      compared["home", default: 0] += 1
    }

    // commute: a deadline a minute after the first live departure leaves.
    let first = try #require(board.first { reference[key($0)] != nil })
    let iso = try #require(first["expected"] as? String)
    let hour = Int(iso.dropFirst(11).prefix(2))!, minute = Int(iso.dropFirst(14).prefix(2))! + 2
    if hour * 60 + minute < 24 * 60 {
      let deadline = String(format: "%02d:%02d", (hour * 60 + minute) / 60, (hour * 60 + minute) % 60)
      let add = transit([
        "commute", "add", "check", "--stop", item.stop, "--arrive-by", deadline, "--days", "daily", "--data-dir", home.path,
      ])
      #expect(add.code == 0, "\(add.stderr)")
      let plans = try #require(try run(["commute", "check", "--date", String(iso.prefix(10)), "--json"]) as? [[String: Any]])
      for option in (plans.first?["options"] as? [[String: Any]]) ?? [] {
        guard let departure = option["departure"] as? [String: Any], let known = reference[key(departure)] else { continue }
        #expect(answer(departure) == known.answer, "commute, \(key(departure))")
        compared["commute", default: 0] += 1
      }
    }

    // vehicles and follow --once: the trip's call at the platform, if still ahead.
    let vehicles = try #require(try run(["vehicles", "--json"]) as? [[String: Any]])
    func check(_ view: [String: Any], _ what: String) {
      guard let trip = view["trip_id"] as? String, let known = single[trip],
        let call = (view["next_stops"] as? [[String: Any]])?.first(where: { $0["stop_id"] as? String == known.stopID }),
        let expected = (call["expected"] as? String).flatMap(unixSeconds)
      else { return }
      let status = (call["delay_seconds"] as? Int).map(Self.delayClass) ?? "on_time"
      #expect(Answer(expected: expected, status: status) == known.answer, "\(what), trip \(trip): \(view)")
      compared[what, default: 0] += 1
    }
    for view in vehicles { check(view, "vehicles") }
    for trip in single.keys.sorted() {
      let view = try #require(try run(["follow", "--trip", trip, "--once", "--json"]) as? [String: Any])
      check(view, "follow")
    }

    // plan: from the stop to a later stop of each live trip; when the first ride leg is that
    // trip from this platform, it leaves at the same expected time.
    for (trip, known) in single.sorted(by: { $0.key < $1.key }).prefix(6) {
      let follow = try #require(try run(["follow", "--trip", trip, "--once", "--json"]) as? [String: Any])
      guard let stops = follow["next_stops"] as? [[String: Any]],
        let index = stops.firstIndex(where: { $0["stop_id"] as? String == known.stopID }), index + 1 < stops.count,
        let destination = stops.last?["stop_id"] as? String
      else { continue }
      let plan = try #require(try run(["plan", known.stopID, destination, "--json"]) as? [String: Any])
      let journeys = (plan["journeys"] as? [[String: Any]]) ?? []
      guard let leg = (journeys.first?["legs"] as? [[String: Any]])?.first(where: { $0["type"] as? String == "ride" }),
        leg["trip_id"] as? String == trip
      else { continue }
      #expect((leg["departure"] as? String).flatMap(unixSeconds) == known.answer.expected, "plan, trip \(trip)")
      #expect(leg["live"] as? Bool == true, "plan, trip \(trip)")
      compared["plan", default: 0] += 1
    }
    print("\(item): \(reference.count) live trips; compared \(compared.sorted { $0.key < $1.key })")
    for what in ["home", "follow"] { #expect(compared[what, default: 0] > 0, "\(item): nothing compared in \(what)") }
    #expect(compared["commute", default: 0] + compared["plan", default: 0] + compared["vehicles", default: 0] > 0)
  }
}
