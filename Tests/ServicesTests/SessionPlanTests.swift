import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The session's journey plan (issue 33), on the demo timetable, compared with the trips read
/// here from the feed's own files.
@Suite struct SessionPlanTests {
  /// Seconds after midnight of "HH:MM:SS".
  static func seconds(_ text: String) -> Int64 {
    let parts = text.split(separator: ":").map { Int64($0)! }
    return parts[0] * 3600 + parts[1] * 60 + parts[2]
  }

  /// The weekday (WK) trips of Data/gtfs that call at `from` and later at `to`, as (trip,
  /// departure from `from`, arrival at `to`) in seconds after midnight, soonest first.
  static func directTrips(from: String, to: String, after start: Int64) throws -> [(trip: String, departs: Int64, arrives: Int64)] {
    let weekday = Set(try demoRows("trips.txt").filter { $0["service_id"] == "WK" }.map { $0["trip_id"]! })
    var calls: [String: [(stop: String, sequence: Int, arrival: String, departure: String)]] = [:]
    for row in try demoRows("stop_times.txt") where weekday.contains(row["trip_id"]!) {
      calls[row["trip_id"]!, default: []].append(
        (row["stop_id"]!, Int(row["stop_sequence"]!)!, row["arrival_time"]!, row["departure_time"]!))
    }
    var trips: [(trip: String, departs: Int64, arrives: Int64)] = []
    for (trip, list) in calls {
      guard let board = list.first(where: { $0.stop == from }), !board.departure.isEmpty,
        let alight = list.first(where: { $0.stop == to && $0.sequence > board.sequence }), !alight.arrival.isEmpty
      else { continue }
      let departs = seconds(board.departure)
      if departs >= start { trips.append((trip, departs, seconds(alight.arrival))) }
    }
    return trips.sorted { $0.arrives < $1.arrives }
  }

  static func request(_ session: TransitSession, from: String, to: String) throws -> PlanRequest {
    let store = session.store
    let origin = try #require(try store.stop(StopID(from), feed: FeedName("demo")))
    let destination = try #require(try store.stop(StopID(to), feed: FeedName("demo")))
    var request = PlanRequest(from: .at(.stop(origin)), to: .stop(destination), time: DemoTimetable.now, isArriveBy: false)
    request.limit = 2
    return request
  }

  @Test func theFirstJourneyIsTheTripArrivingSoonest() throws {
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let answer = try session.plan(try Self.request(session, from: "TD4530", to: "TD4525"), now: DemoTimetable.now)
    // 07:40 on Tuesday 2026-12-01 (UTC in Dublin in December): the weekday trips from
    // Tallaght (The Square) to Greenhills Road leaving at or after then.
    let midnight = DemoTimetable.now.seconds - Self.seconds("07:40:00")
    let expected = try #require(try Self.directTrips(from: "TD4530", to: "TD4525", after: Self.seconds("07:40:00")).first)
    let first = try #require(answer.options.first)
    #expect(first.journey.departure.seconds == midnight + expected.departs)
    #expect(first.journey.arrival.seconds == midnight + expected.arrives)
    #expect(first.journey.transfers == 0 && first.journey.rides == 1)
    // Whole minutes in the feed: shown as they are, the duration their difference.
    #expect(first.shownDeparture == first.journey.departure && first.shownArrival == first.journey.arrival)
    #expect(first.minutes == (expected.arrives - expected.departs) / 60)
    #expect(!answer.hasRealtime)
    #expect(answer.options.count == 2)
    // The JSON: the ride's trip, its two stops and its times on the agency's clock.
    let object = try #require(try SessionVehiclesTests.json(answer) as? [String: Any])
    #expect(object["depart"] as? String == "2026-12-01T07:40:00+00:00")
    let journeys = try #require(object["journeys"] as? [[String: Any]])
    let legs = try #require(journeys.first?["legs"] as? [[String: Any]])
    #expect(legs.count == 1)
    #expect(legs.first?["type"] as? String == "ride")
    #expect(legs.first?["trip_id"] as? String == expected.trip)
    #expect((legs.first?["from"] as? [String: Any])?["stop_id"] as? String == "TD4530")
    #expect((legs.first?["to"] as? [String: Any])?["stop_id"] as? String == "TD4525")
    #expect(journeys.first?["leave_in_seconds"] as? Int == Int(expected.departs - Self.seconds("07:40:00")))
    #expect(journeys.first?["changes"] as? [Any] != nil)
  }

  @Test func aPickPastTheJourneysFoundFailsWithWhatTheRealtimeSaid() throws {
    let source = SessionBoardTests.RecordingSource(try DemoTimetable.realtime())
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions(), realtime: source)
    var request = try Self.request(session, from: "TD4530", to: "TD4525")
    request.pick = 2
    let picked = try session.plan(request, now: DemoTimetable.now)
    #expect(picked.options.count == 1)
    request.pick = 3
    let failure = #expect(throws: PlanAnswer.Failure.self) { try session.plan(request, now: DemoTimetable.now) }
    guard case .pickBeyond(let pick, let found, let limitReached) = failure?.reason else {
      Issue.record("\(String(describing: failure))")
      return
    }
    // Two asked for (the limit) and two found: more may be there.
    #expect(pick == 3 && found == 2 && limitReached)
    #expect(failure?.realtimeProblems == [.fallback(failure: "x: timed out", ageSeconds: 40)])
    #expect(source.asked == [nil, nil])
  }

  @Test func aTripNotRunningCannotStartAJourney() throws {
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let store = session.store
    let destination = try #require(try store.stop(StopID("TD4525"), feed: FeedName("demo")))
    let request = PlanRequest(
      from: .onBoard(.trip(TripID("no-such-trip"))), to: .stop(destination), time: DemoTimetable.now, isArriveBy: false)
    let failure = #expect(throws: PlanAnswer.Failure.self) { try session.plan(request, now: DemoTimetable.now) }
    guard case .onBoard(_, let reason) = failure?.reason else {
      Issue.record("\(String(describing: failure))")
      return
    }
    #expect(reason == .notRunning)
  }

  @Test func theSameStopAtBothEndsIsNoJourney() throws {
    let store = try DemoTimetable.store()
    let stop = try #require(try store.stop(StopID("TD4530"), feed: FeedName("demo")))
    let other = try #require(try store.stop(StopID("TD4525"), feed: FeedName("demo")))
    #expect(JourneyEndpoint.stop(stop).sameEnd(as: .stop(stop))?.name == "Tallaght (The Square)")
    #expect(JourneyEndpoint.stop(stop).sameEnd(as: .stop(other)) == nil)
  }

  /// A change's buffer as the watch words it, worked out by hand: under a minute in seconds,
  /// else whole minutes toward zero; negative is short.
  @Test(
    arguments: [
      (40, false, 40, false), (360, false, 6, true), (119, false, 1, true), (-30, true, 30, false), (-90, true, 1, true),
    ] as [(Int64, Bool, Int64, Bool)])
  func aBufferIsShownInSecondsOrMinutes(seconds: Int64, isShort: Bool, value: Int64, isMinutes: Bool) {
    let amount = BufferAmount(seconds: seconds)
    #expect(amount.isShort == isShort && amount.value == value && amount.isMinutes == isMinutes)
  }
}
