import GTFSRealtime
import Testing
import TransitModel

@testable import Merge

/// Issue 17's realtime repairs, on values: after-midnight start dates, DUPLICATED without
/// trip_properties, and which departures an ignored outlier marks.
@Suite struct EdgeRepairTests {
  typealias B = Build
  static let friday = ServiceDate(year: 2026, month: 11, day: 30)!

  /// NIGHT of the day before, leaving A at 24:05 and B at 24:15 (00:05 and 00:15 of `B.date`).
  let night = B.trip("NIGHT", [("A", "24:05"), ("B", "24:15")], date: friday, dayOffset: -1)

  @Test func theCalendarDateOfAnAfterMidnightRunMatchesThatRun() {
    let update = B.update("NIGHT", startDate: "20261201", startTime: "00:05:00", stops: [B.delay(60, sequence: 20)])
    let result = Reconciler.realtime(trips: [night], feeds: [B.feed([update])], now: B.now)
    let prediction = result.predictions[night.instance]
    #expect(prediction?.stops.last?.expectedDeparture == B.base + 15 * 60 + 60)
    #expect(result.report.issues == [.repairedStartDate(night.instance, startDate: B.date)])
    #expect(result.report.matchedTripUpdateCount == 1)
  }

  @Test(arguments: ["00:10:00", "24:05:00", "bad"])
  func aStartTimeOtherThanTheFirstDepartureLess24HoursIsNoRepair(_ start: String) {
    let update = B.update("NIGHT", startDate: "20261201", startTime: start, stops: [B.delay(60, sequence: 20)])
    let result = Reconciler.realtime(trips: [night], feeds: [B.feed([update])], now: B.now)
    #expect(result.predictions.isEmpty)
  }

  /// A run before 24:00 the day before is not what the next date names.
  @Test func aRunBeforeMidnightIsNoRepair() {
    let evening = B.trip("EVE", [("A", "23:50"), ("B", "24:10")], date: Self.friday, dayOffset: -1)
    let update = B.update("EVE", startDate: "20261201", stops: [B.delay(60, sequence: 20)])
    let result = Reconciler.realtime(trips: [evening], feeds: [B.feed([update])], now: B.now)
    #expect(result.predictions.isEmpty)
    #expect(result.report.issues == [.unmatchedTrip(tripID: "EVE", startDate: "20261201", startTime: nil)])
  }

  /// When the trip runs on start_date too, that run is meant: nothing is repaired.
  @Test func aRunOnTheStartDateWins() {
    let today = B.trip("NIGHT", [("A", "24:05"), ("B", "24:15")])
    let update = B.update("NIGHT", startDate: "20261201", stops: [B.delay(60, sequence: 20)])
    let result = Reconciler.realtime(trips: [night, today], feeds: [B.feed([update])], now: B.now)
    #expect(result.predictions.keys.map(\.serviceDate) == [B.date])
    #expect(result.report.issues.isEmpty)
  }

  /// The general case: the trip runs on both days, and the update's absolute time at B (00:16
  /// of start_date) is a minute from the day before's 24:15 there but a day from start_date's
  /// own run: the day before's run is meant, and the repair is said.
  @Test func predictionsNearTheDayBeforesRunTakeItThoughTheTripRunsOnStartDate() {
    let today = B.trip("NIGHT", [("A", "24:05"), ("B", "24:15")])
    let update = B.update("NIGHT", startDate: "20261201", stops: [B.time(B.base + 16 * 60, sequence: 20)])
    let result = Reconciler.realtime(trips: [night, today], feeds: [B.feed([update])], now: B.now)
    #expect(result.predictions.keys.map(\.serviceDate) == [Self.friday])
    #expect(result.predictions[night.instance]?.stops.last?.expectedDeparture == B.base + 16 * 60)
    #expect(result.report.issues == [.repairedStartDate(night.instance, startDate: B.date)])
  }

  /// Times near start_date's own run (24:16 of start_date) keep it: nothing is repaired.
  @Test func predictionsNearTheStartDatesRunKeepIt() {
    let today = B.trip("NIGHT", [("A", "24:05"), ("B", "24:15")])
    let update = B.update("NIGHT", startDate: "20261201", stops: [B.time(B.base + 86_400 + 16 * 60, sequence: 20)])
    let result = Reconciler.realtime(trips: [night, today], feeds: [B.feed([update])], now: B.now)
    #expect(result.predictions.keys.map(\.serviceDate) == [B.date])
    #expect(result.report.issues.isEmpty)
  }

  /// DUPLICATED with no trip_properties: the copy starts at the descriptor's start_time, keeps
  /// the trip_id and date, and is told from the original by its start time.
  @Test func aDuplicateWithoutPropertiesStartsAtStartTime() {
    let line = B.trip("T1", [("A", "09:00"), ("B", "09:20")])
    let update = B.update("T1", startDate: "20261201", startTime: "11:30:00", .duplicated)
    let result = Reconciler.realtime(trips: [line], feeds: [B.feed([update])], now: B.now)
    let copy = TripInstance(tripID: "T1", serviceDate: B.date, startTime: ServiceTime(gtfs: "11:30:00"))
    let prediction = result.predictions[copy]
    #expect(prediction?.isAdded == true)
    #expect(prediction?.stops.map(\.stop.departure) == [B.at("11:30"), B.at("11:50")])
    #expect(result.report.issues == [.duplicatedFromStartTime(copy, startTime: "11:30:00")])
    #expect(result.predictions[line.instance] == nil)
  }

  /// An outlier at A marks A and B (its delay would have carried on); one at B leaves A alone.
  @Test func anOutlierMarksItsStopAndTheStopsAfter() {
    let line = B.trip("T1", [("A", "09:00"), ("B", "09:20")])
    let calls = [B.call(line, sequence: 10), B.call(line, sequence: 20)]
    let early = B.departures(
      calls, trips: [line], feeds: [B.feed([B.update("T1", stops: [B.delay(4_000, sequence: 10)])])], stops: ["A", "B"])
    #expect(early.departures.map(\.isPredictionIgnored) == [true, true])
    let late = B.departures(
      calls, trips: [line], feeds: [B.feed([B.update("T1", stops: [B.delay(4_000, sequence: 20)])])], stops: ["A", "B"])
    #expect(late.departures.map(\.isPredictionIgnored) == [false, true])
  }
}
