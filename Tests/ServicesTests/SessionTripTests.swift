import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TestSupport
import Testing
import TransitModel

/// The session's trip (issue 33), on the demo timetable and its realtime snapshot, compared
/// with values read here from the feed files themselves.
@Suite struct SessionTripTests {
  @Test func aTripsCallsCarryTheTimetableAndTheRealtime() throws {
    let session = TransitSession(
      store: try DemoTimetable.store(), options: ServiceOptions(), realtime: FixedRealtime(try DemoTimetable.realtime()))
    let answer = try session.trip(.text("27-WK-1-0750"), date: nil, now: DemoTimetable.now)
    // Data/gtfs/stop_times.txt: the trip's calls in stop_sequence order.
    let calls = try SessionVehiclesTests.rows("stop_times.txt").filter { $0["trip_id"] == "27-WK-1-0750" }
      .sorted { Int($0["stop_sequence"]!)! < Int($1["stop_sequence"]!)! }
    #expect(answer.trip.calls.map(\.stopID.rawValue) == calls.map { $0["stop_id"]! })
    #expect(answer.trip.serviceDate == ServiceDate(year: 2026, month: 12, day: 1))
    #expect(answer.hasRealtime)
    #expect(answer.now == DemoTimetable.now)
    // The JSON: the first call leaves 07:50 on the Tuesday's clock (Europe/Dublin, agency.txt:
    // offset +00:00 in December, written as an offset since the zone is not UTC itself), 3 min
    // late by the trip update (Data/realtime/demo-tripupdates.pb).
    let object = try #require(try SessionVehiclesTests.json(answer) as? [String: Any])
    let trip = try #require(object["trip"] as? [String: Any])
    #expect(trip["trip_id"] as? String == "27-WK-1-0750")
    #expect(trip["feed"] == nil)
    #expect(object["now"] as? String == "2026-12-01T07:40:00+00:00")
    let listed = try #require(object["calls"] as? [[String: Any]])
    #expect(listed.count == calls.count)
    #expect(listed.first?["scheduled_departure"] as? String == "2026-12-01T" + calls[0]["departure_time"]! + "+00:00")
    #expect(listed.first?["delay_seconds"] as? Int == 180)
    #expect(listed.first?["expected_departure"] as? String == "2026-12-01T07:53:00+00:00")
    #expect(listed.map { $0["stop_sequence"] as? Int } == calls.map { Int($0["stop_sequence"]!) })
  }

  @Test func anUnknownTripFailsWithWhatTheRealtimeSaid() throws {
    let source = SessionBoardTests.RecordingSource(try DemoTimetable.realtime())
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions(), realtime: source)
    let failure = #expect(throws: TripAnswer.Failure.self) {
      try session.trip(.text("no-such-trip"), date: nil, now: DemoTimetable.now)
    }
    #expect(failure?.reason == .notFound("no-such-trip"))
    #expect(failure?.realtimeProblems == [.fallback(failure: "x: timed out", ageSeconds: 40)])
    #expect(source.asked == [nil])
  }
}
