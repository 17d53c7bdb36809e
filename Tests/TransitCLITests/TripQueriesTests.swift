import Foundation
import GTFS
import TestSupport
import Testing
import TransitModel

/// `Store.tripCalls` / `tripRuns` / `serviceDayStart`, which feed Merge its trip stop lists.
@Suite struct TripQueriesTests {
  /// A copy of the demo timetable (ingested once per process, `DemoHome`).
  let home = DemoHome()
  let store: Store
  let demo = FeedName("demo")
  let tuesday = ServiceDate(year: 2026, month: 12, day: 1)!
  /// 2026-12-01T00:00:00Z: Dublin keeps GMT in December, so the service day starts then.
  let midnight = UnixTime(1_796_083_200)

  init() throws {
    let listed = home.run(["ingest", "--list"])
    guard listed.code == 0 else { throw FixtureError(listed.stderr) }
    store = try Store(directory: home.path)
  }

  @Test func afterMidnightTimesLandOnTheNextDay() throws {
    let calls = try store.tripCalls("27-WK-0-2415", feed: demo, serviceDate: tuesday)
    #expect(calls.count == 11)
    #expect(
      calls.first
        == ScheduledStop(stopID: "TD4521", stopSequence: 10, arrival: midnight + 87_300, departure: midnight + 87_300, shapeDistance: 0))
    #expect(store.serviceDayStart(tuesday, feed: demo) == midnight)
  }

  @Test func frequencyInstancesMoveTheTemplatesTimes() throws {
    let start = ServiceTime(seconds: 7 * 3600 + 50 * 60)
    let calls = try store.tripCalls("Red-WK-0-template", feed: demo, serviceDate: tuesday, startTime: start)
    #expect(
      calls.prefix(2) == [
        ScheduledStop(stopID: "TINT-C", stopSequence: 10, arrival: midnight + 28_200, departure: midnight + 28_200, shapeDistance: 0),
        ScheduledStop(stopID: "RED02", stopSequence: 20, arrival: midnight + 28_260, departure: midnight + 28_260, shapeDistance: 323.1),
      ])
  }

  @Test func tripsRunOnTheirServiceDaysOnly() throws {
    #expect(try store.tripRuns("27-WK-0-2415", feed: demo, on: tuesday))
    #expect(try !store.tripRuns("27-WK-0-2415", feed: demo, on: ServiceDate(year: 2026, month: 12, day: 6)!))  // Sunday
    #expect(try !store.tripRuns("27-WK-0-2415", feed: demo, on: ServiceDate(year: 2026, month: 12, day: 25)!))  // holiday
    #expect(try !store.tripRuns("no-such-trip", feed: demo, on: tuesday))
    #expect(try store.tripCalls("no-such-trip", feed: demo, serviceDate: tuesday).isEmpty)
  }
}
