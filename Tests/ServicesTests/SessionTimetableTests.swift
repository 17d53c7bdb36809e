import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TestSupport
import Testing
import TransitModel

/// The session's printed timetable (issue 33), on the demo timetable and its realtime
/// snapshot, compared with values read here from the feed files themselves.
@Suite struct SessionTimetableTests {
  @Test func aStopsDayHoldsEachDepartureOfTheRouteAtItsHourAndMinute() throws {
    let store = try DemoTimetable.store()
    let session = TransitSession(store: store, options: ServiceOptions())
    let stop = try #require(try store.stop(StopID("TD4530"), feed: FeedName("demo")))
    let date = ServiceDate(year: 2026, month: 12, day: 1)
    let answer = try session.timetable(
      TimetableRequest(places: [.stop(stop)], date: date, route: "27", directionID: 0), now: DemoTimetable.now)
    // Data/gtfs: route R27's weekday trips of direction 0 (2026-12-01 is a Tuesday), their
    // departure_time at TD4530.
    let trips = try SessionVehiclesTests.rows("trips.txt").filter {
      $0["route_id"] == "R27" && $0["service_id"] == "WK" && $0["direction_id"] == "0"
    }
    let ids = Set(trips.compactMap { $0["trip_id"] })
    let expected = try SessionVehiclesTests.rows("stop_times.txt").filter { ids.contains($0["trip_id"] ?? "") && $0["stop_id"] == "TD4530" }
      .map { row -> String in
        let parts = row["departure_time"]!.split(separator: ":")
        return "\(Int(parts[0])!):\(Int(parts[1])!) \(row["trip_id"]!)"
      }
    try #require(!expected.isEmpty)
    let listed = answer.grid.blocks.flatMap { block in
      block.hours.flatMap { hour in hour.entries.map { "\(hour.hour):\($0.minute) \($0.tripID.rawValue)" } }
    }
    #expect(listed.sorted() == expected.sorted())
    #expect(answer.date == date)
    #expect(answer.report == nil)
    #expect(answer.grid.blocks.allSatisfy { $0.routeID == RouteID("R27") && $0.directionID == 0 })

    let object = try #require(try SessionVehiclesTests.json(answer) as? [String: Any])
    #expect(object["service_date"] as? String == "20261201")
    let head = try #require(object["stop"] as? [String: Any])
    #expect(head["stop_id"] as? String == "TD4530")
    #expect(head["stop_code"] as? String == "4530")
    #expect(head["feed"] == nil)
    let blocks = try #require(object["blocks"] as? [[String: Any]])
    let hours = blocks.flatMap { ($0["hours"] as? [[String: Any]]) ?? [] }
    #expect(hours.flatMap { ($0["departures"] as? [[String: Any]]) ?? [] }.count == expected.count)
  }

  @Test func aTripTheRealtimeSkipsHereIsFootnoted() throws {
    let store = try DemoTimetable.store()
    let feeds = try DemoTimetable.realtime()
    let session = TransitSession(store: store, options: ServiceOptions(), realtime: FixedRealtime(feeds))
    let station = try #require(try store.stop(StopID("TINT"), feed: FeedName("demo")))
    let answer = try session.timetable(TimetableRequest(places: [.stop(station)]), now: DemoTimetable.now)
    // Data/realtime/demo-tripupdates.pb: the trips it cancels, or whose every update at a TINT
    // platform is SKIPPED, among those Data/gtfs/stop_times.txt has calling at TINT (an update
    // names its stop by stop_id, else by stop_sequence in the trip's stop_times).
    var stopAt: [String: String] = [:]
    for row in try SessionVehiclesTests.rows("stop_times.txt") {
      stopAt[row["trip_id"]! + "#" + row["stop_sequence"]!] = row["stop_id"]!
    }
    var skipped = Set<String>()
    for update in feeds.flatMap(\.entities).compactMap(\.tripUpdate) {
      guard let id = update.trip?.tripID, stopAt.contains(where: { $0.key.hasPrefix(id + "#") && $0.value.hasPrefix("TINT") })
      else { continue }
      let here = update.stopTimeUpdates.filter { stop in
        let stopID = stop.stopID ?? stop.stopSequence.flatMap { stopAt[id + "#\($0)"] }
        return stopID?.hasPrefix("TINT") ?? false
      }
      if update.trip?.scheduleRelationship == .canceled
        || (!here.isEmpty && here.allSatisfy { $0.scheduleRelationship == .skipped })
      {
        skipped.insert(id)
      }
    }
    try #require(!skipped.isEmpty)
    #expect(answer.report != nil)
    #expect(answer.date == ServiceDate(year: 2026, month: 12, day: 1))
    for block in answer.grid.blocks {
      let skipMarks = Set(block.footnotes.filter { $0.text == "does not stop here today" }.map(\.mark))
      for entry in block.hours.flatMap(\.entries) {
        #expect(
          skipped.contains(entry.tripID.rawValue) == (entry.mark.map(skipMarks.contains) ?? false), "\(entry.tripID)")
      }
    }
    let marked = answer.grid.blocks.flatMap { block in
      block.hours.flatMap(\.entries).filter { entry in
        block.footnotes.contains { $0.mark == entry.mark && $0.text == "does not stop here today" }
      }
    }
    #expect(Set(marked.map(\.tripID.rawValue)) == skipped)
  }
}
