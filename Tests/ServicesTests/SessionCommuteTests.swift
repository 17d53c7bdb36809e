import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel
import UserData

/// The session's commute (issue 33), on the demo timetable, compared with the trips read here
/// from the feed's own files.
@Suite struct SessionCommuteTests {
  /// Route 27 from Tallaght (The Square) to Greenhills Road by 08:30, 5 minutes' walk to the stop.
  static let work = UserStore.Commute(
    name: "work", feed: "demo", stopID: "TD4530", route: "27", destination: "TD4525", arriveByMinutes: 8 * 60 + 30, walkMinutes: 5)

  /// Midnight of Tuesday 2026-12-01 on the demo agency's clock (Dublin: UTC in December).
  static let midnight = DemoTimetable.now.seconds - 7 * 3600 - 40 * 60

  @Test func theRecommendedDepartureIsTheLatestThatArrivesInTime() throws {
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let answer = try session.commute([Self.work], date: nil, now: DemoTimetable.now)
    guard case .day(let day) = try #require(answer.items.first) else {
      Issue.record("\(answer.items)")
      return
    }
    // Data/gtfs: the weekday trips of route R27 (short name 27) from TD4530 to TD4525.
    let route27 = Set(
      try demoRows("trips.txt").filter { $0["route_id"] == "R27" && $0["service_id"] == "WK" }.map { $0["trip_id"]! })
    let trips = try SessionPlanTests.directTrips(from: "TD4530", to: "TD4525", after: 0).filter { route27.contains($0.trip) }
    let deadline = Int64(8 * 3600 + 30 * 60)
    let best = try #require(trips.filter { $0.arrives <= deadline }.max { $0.arrives < $1.arrives })
    let recommended = try #require(day.recommended)
    #expect(day.plan.date == ServiceDate(year: 2026, month: 12, day: 1) && day.isToday && day.inactive == nil)
    #expect(day.plan.deadline.seconds == Self.midnight + deadline)
    #expect(recommended.departure.call.tripID.rawValue == best.trip)
    #expect(recommended.departs.seconds == Self.midnight + best.departs)
    #expect(recommended.arrives?.seconds == Self.midnight + best.arrives)
    #expect(recommended.leaveBy.seconds == Self.midnight + best.departs - 5 * 60)
    #expect(day.minutesUntilLeave(recommended) == (best.departs - 5 * 60 - (7 * 3600 + 40 * 60)) / 60)
    // The row is the departures board's own row of that trip: the same value.
    let stop = try #require(try session.store.stop(StopID("TD4530"), feed: FeedName("demo")))
    let board = try session.board(
      BoardRequest(
        stop: stop, query: BoardQuery(start: day.plan.deadline - 2 * 3600, windowMinutes: 4 * 60, limit: 10_000, route: "27")),
      feeds: [], now: DemoTimetable.now)
    #expect(board.rows.contains(recommended.row))
    // The JSON: each option's departure is the board's departure object (platform, access, occupancy).
    let documents = try #require(try SessionVehiclesTests.json(answer) as? [[String: Any]])
    let options = try #require(documents.first?["options"] as? [[String: Any]])
    let chosen = try #require(options.first { $0["recommended"] as? Bool == true })
    let departure = try #require(chosen["departure"] as? [String: Any])
    #expect(departure["trip_id"] as? String == best.trip)
    let tripRow = try #require(try demoRows("trips.txt").first { $0["trip_id"] == best.trip })
    #expect(departure["wheelchair_accessible"] as? Int == Int(tripRow["wheelchair_accessible"]!))
    #expect(departure.keys.contains("platform") && departure.keys.contains("occupancy"))
    #expect(chosen["minutes_until_leave"] as? Int == Int((best.departs - 5 * 60 - (7 * 3600 + 40 * 60)) / 60))
  }

  /// A weekday mask of 0 (a hand-edited or older user.sqlite): the commute runs on no day, and
  /// the others are still answered. Run on a thread of its own and bounded: the loop this
  /// guards against never returned.
  @Test func aCommuteOfNoWeekdayRunsOnNoDayAndTheOthersStillAnswer() throws {
    var never = Self.work
    never.name = "never"
    never.days = 0
    nonisolated(unsafe) let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let commutes = [never, Self.work]
    nonisolated(unsafe) var answer: CommuteAnswer?
    nonisolated(unsafe) var failure: (any Error)?
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do { answer = try session.commute(commutes, date: nil, now: DemoTimetable.now) } catch { failure = error }
      done.signal()
    }
    thread.start()
    try #require(done.wait(timeout: .now() + 30) == .success, "commute() did not return within 30 s")
    if let failure { throw failure }
    let items = try #require(answer?.items)
    #expect(items.count == 2)
    guard case .runsOnNoDay(let commute) = items[0] else {
      Issue.record("\(items[0])")
      return
    }
    #expect(commute.name == "never")
    guard case .day(let day) = items[1] else {
      Issue.record("\(items[1])")
      return
    }
    #expect(day.commute.name == "work")
    let finished = try #require(answer)
    let documents = try #require(try SessionVehiclesTests.json(finished) as? [[String: Any]])
    #expect(documents[0]["runs_on_no_day"] as? Bool == true)
    // The live view and the calendar of such a commute end too: today, and no day.
    let frame = try session.commuteWatchFrame(never, feeds: [], now: DemoTimetable.now)
    #expect(frame.day.plan.date == ServiceDate(year: 2026, month: 12, day: 1))
    #expect(try session.commuteCalendar(never, from: nil, days: 7, now: DemoTimetable.now).days.isEmpty)
  }

  @Test func aCommuteWhoseStopIsGoneSaysSo() throws {
    var gone = Self.work
    gone.stopID = "no-such-stop"
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let answer = try session.commute([gone], date: nil, now: DemoTimetable.now)
    guard case .missingStop = try #require(answer.items.first) else {
      Issue.record("\(answer.items)")
      return
    }
    #expect(throws: CommuteFailure.missingStop(name: "work", stopID: "no-such-stop")) {
      try session.commuteCalendar(gone, from: nil, days: 7, now: DemoTimetable.now)
    }
  }
}
