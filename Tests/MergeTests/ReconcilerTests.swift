import GTFSRealtime
import Testing
import TransitModel

@testable import Merge

/// One test at least per Merge rule, on small hand-built trips, with a fixed `now` (08:00).
@Suite struct ReconcilerTests {
  typealias B = Build

  /// A five-stop trip A–E, five minutes apart, leaving A at 08:10.
  let line = B.trip("T1", [("A", "08:10"), ("B", "08:15"), ("C", "08:20"), ("D", "08:25"), ("E", "08:30")])

  // MARK: - Rule 4: matching

  @Test func tripAcrossMidnightMatchesYesterdaysStartDate() {
    // The 24:15 trip of Monday's timetable and of Tuesday's: start_date picks Monday's.
    let monday = B.date, tuesday = B.date.adding(days: 1)
    let late = B.trip("N1", [("A", "24:15"), ("B", "24:30")], date: monday)
    let next = B.trip("N1", [("A", "24:15"), ("B", "24:30")], date: tuesday, dayOffset: 1)
    let calls = [B.call(late, sequence: 10), B.call(next, sequence: 10)]
    let feed = B.feed([B.update("N1", startDate: "20261201", stops: [B.delay(240, sequence: 10)])])
    let result = B.departures(calls, trips: [late, next], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("24:19"), delaySeconds: 240, status: .late, source: .realtime),
        Departure(call: calls[1]),
      ])
    #expect(result.report.issues.isEmpty)
    #expect(result.report.matchShare == 1)
  }

  @Test func frequencyTripMatchesByStartTime() {
    let first = B.trip("Red", [("A", "07:40"), ("B", "07:50")], startTime: ServiceTime(seconds: 27_600))
    let second = B.trip("Red", [("A", "07:50"), ("B", "08:00")], startTime: ServiceTime(seconds: 28_200))
    let calls = [B.call(first, sequence: 10), B.call(second, sequence: 10)]
    let feed = B.feed([B.update("Red", startDate: "20261201", startTime: "07:50:00", stops: [B.delay(180, sequence: 10)])])
    let result = B.departures(calls, trips: [first, second], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0]),
        Departure(call: calls[1], expected: B.at("07:53"), delaySeconds: 180, status: .late, source: .realtime),
      ])
  }

  @Test func withoutStartDateTheInstanceNearestTheFeedTimeMatches() {
    let today = B.trip("T9", [("A", "08:10"), ("B", "08:20")])
    let yesterday = B.trip("T9", [("A", "08:10"), ("B", "08:20")], date: B.date.adding(days: -1), dayOffset: -1)
    let calls = [B.call(yesterday, sequence: 10), B.call(today, sequence: 10)]
    let feed = B.feed([B.update("T9", stops: [B.delay(60, sequence: 10)])])
    let result = B.departures(calls, trips: [today, yesterday], feeds: [feed])
    #expect(result.departures.map(\.source) == [.schedule, .realtime])
  }

  @Test func loopRouteMatchesTheStopSequenceThenTheNextOccurrenceOfTheStopID() {
    let loop = B.trip("L", [("A", "08:10"), ("B", "08:20"), ("A", "08:30"), ("C", "08:40")])
    let calls = [B.call(loop, sequence: 10), B.call(loop, sequence: 30)]
    // By sequence: only the second visit.
    let bySequence = B.departures(calls, trips: [loop], feeds: [B.feed([B.update("L", stops: [B.delay(120, sequence: 30)])])])
    #expect(
      bySequence.departures == [
        Departure(call: calls[0]),
        Departure(call: calls[1], expected: B.at("08:32"), delaySeconds: 120, status: .late, source: .realtime),
      ])
    // By stop_id: "A" after "B" is the second visit; the first is before any prediction.
    let byStop = B.departures(
      calls, trips: [loop], feeds: [B.feed([B.update("L", stops: [B.delay(60, stop: "B"), B.delay(180, stop: "A")])])])
    #expect(
      byStop.departures == [
        Departure(call: calls[0]),
        Departure(call: calls[1], expected: B.at("08:33"), delaySeconds: 180, status: .late, source: .realtime),
      ])
  }

  @Test func withoutStartDateARunFarFromTheUpdateIsNotMatched() {
    // Yesterday's run only: a fresh update without start_date is about another run.
    let yesterday = B.trip("T9", [("A", "08:10"), ("B", "08:20")], date: B.date.adding(days: -1), dayOffset: -1)
    let calls = [B.call(yesterday, sequence: 10)]
    let result = B.departures(calls, trips: [yesterday], feeds: [B.feed([B.update("T9", stops: [B.delay(60, sequence: 10)])])])
    #expect(result.departures == [Departure(call: calls[0])])
    #expect(result.report.issues == [.unmatchedTrip(tripID: "T9", startDate: nil, startTime: nil)])
  }

  @Test func aStopSequenceTheTripLacksFallsBackToTheStopID() {
    let calls = [B.call(line, sequence: 30)]
    let feed = B.feed([B.update("T1", stops: [B.delay(120, sequence: 3, stop: "C")])])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:22"), delaySeconds: 120, status: .late, source: .realtime)
      ])
  }

  @Test func unmatchedTripsAndStopsAreReported() {
    let calls = [B.call(line, sequence: 10)]
    let feed = B.feed([
      B.update("nope", startDate: "20261201", stops: [B.delay(60, sequence: 10)]),
      B.update("T1", stops: [B.delay(60, sequence: 99), B.delay(30, stop: "Z")]),
      TripUpdate(trip: TripDescriptor(routeID: "R1")),
    ])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(result.departures == [Departure(call: calls[0])])
    #expect(
      result.report.issues == [
        .unmatchedTrip(tripID: "nope", startDate: "20261201", startTime: nil),
        .unmatchedStop(tripID: "T1", stopSequence: 99, stopID: nil),
        .unmatchedStop(tripID: "T1", stopSequence: nil, stopID: "Z"),
        .tripUpdateWithoutTripID(entityID: "tu2"),
      ])
    // Every trip update is counted, the one without a trip_id too (rule 18: it was dropped
    // without a word, and a feed of such updates read "0 of 0 matched").
    // T1's update names no stop of T1: nothing of it can be placed, so it is not matched.
    #expect(result.report.tripUpdateCount == 3 && result.report.matchedTripUpdateCount == 0)
    #expect(result.report.unmatched == [.unknownTrip: 1, .ambiguous: 1, .noStopKnown: 1])
    #expect(result.report.matchShare == 0)
  }

  // MARK: - Rule 5: absolute time over delay

  @Test func absoluteTimeWinsOverDelay() {
    let calls = [B.call(line, sequence: 20)]
    let feed = B.feed([B.update("T1", stops: [B.time(B.at("08:16"), sequence: 20, delay: 600)])])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:16"), delaySeconds: 60, status: .onTime, source: .realtime)
      ])
  }

  // MARK: - Rule 6: interpolation, propagation, clamp

  @Test func recoveringBusCountsDownBetweenPredictedStops() {
    // 6 min late at A, 3 min late at D: B and C fall from 6 to 3 by scheduled time; E carries 3.
    let calls = [20, 30, 50].map { B.call(line, sequence: $0) }
    let feed = B.feed([B.update("T1", stops: [B.delay(360, sequence: 10), B.delay(180, sequence: 40)])])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:20"), delaySeconds: 300, status: .late, source: .interpolated),
        Departure(call: calls[1], expected: B.at("08:24"), delaySeconds: 240, status: .late, source: .interpolated),
        Departure(call: calls[2], expected: B.at("08:33"), delaySeconds: 180, status: .late, source: .propagated),
      ])
  }

  @Test func tripDelayAppliesWhenNoStopIsPredicted() {
    let calls = [B.call(line, sequence: 30)]
    let feed = B.feed([B.update("T1", delay: -90)])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:20") - 90, delaySeconds: -90, status: .early, source: .propagated)
      ])
  }

  @Test func predictedTimesNeverRunEarlierThanTheStopBefore() {
    // The feed has B leaving at 08:24 but C at 08:21: C is raised to 08:24 and reported; D
    // carries C's own delay (+1 min).
    let calls = [B.call(line, sequence: 30), B.call(line, sequence: 40)]
    let feed = B.feed([B.update("T1", stops: [B.time(B.at("08:24"), sequence: 20), B.time(B.at("08:21"), sequence: 30)])])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:24"), delaySeconds: 240, status: .late, source: .realtime),
        Departure(call: calls[1], expected: B.at("08:26"), delaySeconds: 60, status: .onTime, source: .propagated),
      ])
    #expect(result.report.issues == [.clamped(line.instance, stopSequence: 30, bySeconds: 180)])
  }

  // MARK: - Rule 7: stop and trip relationships

  @Test func skippedStopInTheMiddleIsShownAsSkippedAndPassedThrough() {
    let calls = [20, 30].map { B.call(line, sequence: $0) }
    let feed = B.feed([B.update("T1", stops: [B.delay(120, sequence: 10), B.mark(.skipped, sequence: 20)])])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(
      result.departures == [
        Departure(call: calls[0], status: .skipped, source: .realtime),
        Departure(call: calls[1], expected: B.at("08:22"), delaySeconds: 120, status: .late, source: .propagated),
      ])
  }

  @Test func noDataStopKeepsTheScheduleAndStopsPropagation() {
    let calls = [20, 30].map { B.call(line, sequence: $0) }
    let feed = B.feed([B.update("T1", stops: [B.delay(300, sequence: 10), B.mark(.noData, sequence: 20)])])
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(result.departures == [Departure(call: calls[0]), Departure(call: calls[1])])
  }

  @Test func cancelledTripIsShownAsCancelled() {
    let calls = [B.call(line, sequence: 10)]
    let result = B.departures(calls, trips: [line], feeds: [B.feed([B.update("T1", .canceled)])])
    #expect(result.departures == [Departure(call: calls[0], status: .cancelled, source: .realtime)])
  }

  @Test func deletedTripIsHidden() {
    let calls = [B.call(line, sequence: 10)]
    let result = B.departures(calls, trips: [line], feeds: [B.feed([B.update("T1", .deleted)])])
    #expect(result.departures.isEmpty)
  }

  @Test(arguments: [TripDescriptor.ScheduleRelationship.added, .new])
  func addedTripNotInTheTimetableAppears(_ relationship: TripDescriptor.ScheduleRelationship) {
    let calls = [B.call(line, sequence: 10)]
    let extra = B.update(
      "EXTRA-1", startDate: "20261201", relationship,
      stops: [B.time(B.at("08:12"), stop: "A"), B.time(B.at("08:20"), stop: "Q")],
      properties: TripUpdate.TripProperties(tripHeadsign: "Depot"), routeID: "R1")
    let result = B.departures(calls, trips: [line], feeds: [B.feed([extra])])
    let added = ScheduledCall(
      feed: "test", tripID: "EXTRA-1", routeID: "R1", routeShortName: "1", headsign: "Depot", stopID: "A", stopSequence: 1,
      serviceDate: B.date, scheduledArrival: B.at("08:12"), scheduledDeparture: B.at("08:12"))
    #expect(
      result.departures == [
        Departure(call: calls[0]),
        Departure(call: added, expected: B.at("08:12"), status: .added, source: .realtime),
      ])
    #expect(result.report.issues.isEmpty)
  }

  @Test func duplicatedTripCopiesTheScheduledTripAtANewStart() {
    let calls = [B.call(line, sequence: 20)]
    let duplicate = B.update(
      "T1", .duplicated, stops: [B.delay(60, sequence: 20)],
      properties: TripUpdate.TripProperties(tripID: "T1-dup", startDate: "20261201", startTime: "08:40:00"))
    let result = B.departures(calls, trips: [line], feeds: [B.feed([duplicate])], stops: ["B"])
    let copy = ScheduledCall(
      feed: "test", tripID: "T1-dup", routeID: "R1", routeShortName: "1", headsign: "Town", stopID: "B", stopSequence: 20,
      serviceDate: B.date, scheduledArrival: B.at("08:45"), scheduledDeparture: B.at("08:45"))
    #expect(
      result.departures == [
        Departure(call: calls[0]),
        Departure(call: copy, expected: B.at("08:46"), delaySeconds: 60, status: .added, source: .realtime),
      ])
  }

  @Test func duplicatedTripOnAnotherDayCountsFromThatDaysStart() {
    // The copy runs the next day, after a spring-forward night: that service day starts 23 h
    // after this one, not 24.
    let next = B.date.adding(days: 1)
    let duplicate = B.update(
      "T1", .duplicated, properties: TripUpdate.TripProperties(tripID: "T1-dup", startDate: "20261202", startTime: "08:40:00"))
    let copy = TripInstance(tripID: "T1-dup", serviceDate: next)
    let dayStart = B.base + 23 * 3600
    let moved = Reconciler.realtime(trips: [line], feeds: [B.feed([duplicate])], now: B.now, serviceDayStarts: [next: dayStart])
    #expect(moved.predictions[copy]?.stops.first?.stop.departure == dayStart + 8 * 3600 + 40 * 60)
    #expect(moved.predictions[copy]?.duplicateOf == "T1")
    // Without the day's start, whole days are assumed.
    let naive = Reconciler.realtime(trips: [line], feeds: [B.feed([duplicate])], now: B.now)
    #expect(naive.predictions[copy]?.stops.first?.stop.departure == B.base + 86_400 + 8 * 3600 + 40 * 60)
  }

  @Test func duplicatedTripWithoutACallInTheWindowTakesItsRouteFromTheTrip() {
    // Only the copy calls in the window: the original's calls are all before it.
    var original = line
    original.route = RouteSummary(feed: "test", id: "R1", shortName: "1", longName: nil, routeType: 0, color: nil)
    original.headsign = "Town"
    let duplicate = B.update(
      "T1", .duplicated, properties: TripUpdate.TripProperties(tripID: "T1-dup", startDate: "20261201", startTime: "09:40:00"))
    let result = Reconciler.departures(
      scheduled: [], trips: [original], feeds: [B.feed([duplicate])], now: B.now,
      request: DepartureRequest(stopIDs: ["B"], from: B.now, feed: "test", fallbackServiceDate: B.date))
    let call = result.departures.first?.call
    #expect(call?.tripID == "T1-dup" && call?.routeShortName == "1" && call?.headsign == "Town" && call?.routeType == 0)
    #expect(call?.scheduledDeparture == B.at("09:45"))
  }

  // MARK: - Outliers

  @Test func delaysBeyondAnHourAreFlaggedAndNotTrusted() {
    let calls = [B.call(line, sequence: 10)]
    let result = B.departures(calls, trips: [line], feeds: [B.feed([B.update("T1", stops: [B.delay(3_700, sequence: 10)])])])
    // The timetable's time, marked as a prediction ignored (not a silent "scheduled").
    #expect(result.departures == [Departure(call: calls[0], isPredictionIgnored: true)])
    #expect(result.report.issues == [.outlier(line.instance, stopSequence: 10, delaySeconds: 3_700)])
  }

  // MARK: - Rule 11: staleness

  @Test func staleFeedIsStillUsedAndSaysSo() {
    let calls = [B.call(line, sequence: 10)]
    let feed = B.feed([B.update("T1", stops: [B.delay(60, sequence: 10)])], age: 120)
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(result.realtime == RealtimeFreshness(status: .stale, feedTimestamp: B.now - 120, ageSeconds: 120))
    #expect(result.departures.map(\.source) == [.realtime])
  }

  @Test func feedOlderThanFifteenMinutesIsIgnored() {
    let calls = [B.call(line, sequence: 10)]
    let feed = B.feed([B.update("T1", .canceled)], age: 901)
    let result = B.departures(calls, trips: [line], feeds: [feed])
    #expect(result.realtime == RealtimeFreshness(status: .expired, feedTimestamp: B.now - 901, ageSeconds: 901))
    #expect(result.departures == [Departure(call: calls[0])])
    #expect(result.report.issues == [.expiredFeed(ageSeconds: 901)])
  }

  @Test func aTripUpdateOlderThanFifteenMinutesIsIgnoredInAFreshFeed() {
    let calls = [B.call(line, sequence: 10)]
    var update = B.update("T1", .canceled)
    update.timestamp = UInt64((B.now - 1_000).seconds)
    let result = B.departures(calls, trips: [line], feeds: [B.feed([update])])
    #expect(result.departures == [Departure(call: calls[0])])
    #expect(result.report.issues == [.expiredUpdate(tripID: "T1", ageSeconds: 1_000)])
  }

  @Test func freshnessWithoutRealtimeIsNone() {
    #expect(Reconciler.freshness(of: [], now: B.now) == RealtimeFreshness(status: .none))
    let fresh = Reconciler.freshness(of: [B.feed([], age: 90)], now: B.now)
    #expect(fresh == RealtimeFreshness(status: .fresh, feedTimestamp: B.now - 90, ageSeconds: 90))
  }

  // MARK: - Rule 12: thresholds

  @Test(arguments: zip([-61, -60, -59, 0, 119, 120] as [Int32], [DepartureStatus.early, .early, .onTime, .onTime, .onTime, .late]))
  func statusThresholds(delay: Int32, status: DepartureStatus) {
    let calls = [B.call(line, sequence: 10)]
    let result = B.departures(calls, trips: [line], feeds: [B.feed([B.update("T1", stops: [B.delay(delay, sequence: 10)])])])
    #expect(result.departures.map(\.status) == [status])
  }

  @Test func thresholdsAreConfigurable() {
    var options = ReconcilerOptions()
    options.lateThresholdSeconds = 60
    #expect(options.status(delay: 60) == .late)
    #expect(options.status(delay: 59) == .onTime)
  }

  // MARK: - Rule 14: predictions first, each instance once

  @Test func eachTripInstanceOnceAndDeparturesGoneAreLeftOut() {
    let other = B.trip("T2", [("A", "08:05"), ("B", "08:10")])
    let calls = [B.call(line, sequence: 10), B.call(line, sequence: 10), B.call(other, sequence: 10)]
    let feed = B.feed([
      B.update("T1", stops: [B.delay(-300, sequence: 10)]),
      B.update("T1", stops: [B.delay(600, sequence: 10)]),
      B.update("T2", stops: [B.time(B.at("08:01"), sequence: 10)]),
    ])
    let result = B.departures(calls, trips: [line, other], feeds: [feed], from: B.at("08:02"))
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:05"), delaySeconds: -300, status: .early, source: .realtime)
      ])
    #expect(result.report.issues == [.duplicateUpdate(line.instance)])
  }

  @Test func vehicleIDComesFromTheUpdateOrAVehiclePosition() {
    let calls = [B.call(line, sequence: 10)]
    let position = VehiclePosition(
      trip: TripDescriptor(tripID: "T1", startDate: "20261201"), vehicle: VehicleDescriptor(id: "bus-7"))
    let result = B.departures(
      calls, trips: [line], feeds: [B.feed([B.update("T1", stops: [B.delay(0, sequence: 10)])], vehicles: [position])])
    #expect(result.departures.map(\.vehicleID) == ["bus-7"])
  }

  @Test func withoutTripStopListsTheCallsAloneAreMatched() {
    let calls = [B.call(line, sequence: 30)]
    let result = B.departures(calls, trips: [], feeds: [B.feed([B.update("T1", stops: [B.delay(150, sequence: 30)])])])
    #expect(
      result.departures == [
        Departure(call: calls[0], expected: B.at("08:22") + 30, delaySeconds: 150, status: .late, source: .realtime)
      ])
  }
}
