import History
import Testing

/// The inference of actuals on hand-built snapshot sequences whose truth is known.
@Suite struct ActualsInferenceTests {
  static let trip = HistoryTrip(feed: "demo", tripID: "T1", serviceDate: 20_261_201)
  /// Stops 10, 20, 30, 40 scheduled at t0 + 0, 2, 4, 6 minutes.
  static let t0: Int64 = 1_796_112_000
  static let stops: [(sequence: Int, stopID: String, scheduled: Int64)] = [
    (10, "A", t0), (20, "B", t0 + 120), (30, "C", t0 + 240), (40, "D", t0 + 360),
  ]

  /// A snapshot at `time` whose update lists the stops from `firstListed` with `delay`.
  static func snapshot(
    _ time: Int64, firstListed: Int?, delay: Int64, skipped: Set<Int> = [], cancelled: Bool = false,
    vehicle: (sequence: Int, stopped: Bool)? = nil
  ) -> SnapshotObservation {
    let calls = stops.map { stop in
      let listed = firstListed.map { stop.sequence >= $0 } ?? false
      return SnapshotObservation.Call(
        stopSequence: stop.sequence, stopID: stop.stopID, scheduled: stop.scheduled, isListed: listed,
        predicted: listed ? stop.scheduled + delay : nil, isSkipped: skipped.contains(stop.sequence))
    }
    let vehicles =
      vehicle.map { [SnapshotObservation.Vehicle(trip: trip, stopSequence: $0.sequence, isStopped: $0.stopped, time: time)] } ?? []
    return SnapshotObservation(
      time: time, trips: [SnapshotObservation.Trip(trip: trip, routeID: "R1", headsign: "D", isCanceled: cancelled, calls: calls)],
      vehicles: vehicles)
  }

  func key(_ sequence: Int) -> HistoryCallKey { HistoryCallKey(trip: Self.trip, stopSequence: sequence) }

  @Test func vehicleAdvancingStopByStopIsObserved() {
    var inference = ActualsInference()
    let t0 = Self.t0
    // One minute late: stopped at A at t0+60, at B at t0+180, at C at t0+300, then towards D.
    let sequence = [
      Self.snapshot(t0 + 60, firstListed: 10, delay: 60, vehicle: (10, true)),
      Self.snapshot(t0 + 180, firstListed: 20, delay: 60, vehicle: (20, true)),
      Self.snapshot(t0 + 300, firstListed: 30, delay: 60, vehicle: (30, true)),
      Self.snapshot(t0 + 330, firstListed: 40, delay: 60, vehicle: (40, false)),
    ]
    var events: [StopEvent] = []
    for snapshot in sequence { events += inference.ingest(snapshot).events }
    #expect(events.map(\.key.stopSequence) == [10, 20, 30])
    #expect(events.allSatisfy { $0.kind == .observed })
    // The last report STOPPED_AT each, bounded by the next report.
    #expect(events.map(\.actual) == [t0 + 60, t0 + 180, t0 + 300])
    #expect(events.map(\.actualHigh) == [t0 + 180, t0 + 300, t0 + 330])
    #expect(events.map(\.delaySeconds) == [60, 60, 60])
    #expect(inference.pending.map(\.key.stopSequence) == [40])
  }

  /// The run ends while the vehicle stands at B (stopped there at t0+180 and t0+200); a later
  /// run, given the open calls and the stopped vehicle, sees it in transit to C at t0+260: B is
  /// observed at t0+200 (its last report at B), bounded by [t0+200, t0+260], as in one run.
  @Test func aVehicleStoppedWhenARunEndsIsObservedLeavingInTheNext() {
    let t0 = Self.t0
    let before = [
      Self.snapshot(t0 + 180, firstListed: 20, delay: 60, vehicle: (20, true)),
      Self.snapshot(t0 + 200, firstListed: 20, delay: 60, vehicle: (20, true)),
    ]
    let after = Self.snapshot(t0 + 260, firstListed: 30, delay: 60, vehicle: (30, false))
    var first = ActualsInference()
    for snapshot in before { _ = first.ingest(snapshot) }
    let states = first.vehicleStates
    #expect(states.count == 1)
    #expect(states.first?.stopped == ActualsInference.StoppedVehicle(trip: Self.trip, stopSequence: 20, last: t0 + 200))
    var next = ActualsInference()
    next.resume(first.pending)
    next.resume(stopped: states.compactMap(\.stopped))
    let events = next.ingest(after).events
    #expect(events.map(\.key.stopSequence) == [20])
    #expect(events.first?.kind == .observed)
    #expect(events.first?.actual == t0 + 200)
    #expect(events.first?.actualLow == t0 + 200)
    #expect(events.first?.actualHigh == t0 + 260)
    // Without the vehicle carried over, B would be inferred from its prediction (t0+180).
    var forgetful = ActualsInference()
    forgetful.resume(first.pending)
    let inferred = forgetful.ingest(after).events
    #expect(inferred.first?.kind == .inferred)
    // And in one run the same.
    var whole = ActualsInference()
    for snapshot in before { _ = whole.ingest(snapshot) }
    #expect(whole.ingest(after).events == events)
    // Once it has left, nothing stands stopped.
    #expect(next.vehicleStates.map(\.stopped) == [nil])
  }

  @Test func stopDroppingOutIsInferredWithinTheSnapshotBounds() {
    var inference = ActualsInference()
    let t0 = Self.t0
    // At t0+100 everything is listed, 30 s late (B predicted t0+150). At t0+200 the update
    // starts at C: A and B dropped out. A's prediction (t0+30) is before the snapshot that
    // still listed it, so it is clamped up to t0+100; B's (t0+150) lies within [t0+100, t0+200].
    _ = inference.ingest(Self.snapshot(t0 + 100, firstListed: 10, delay: 30))
    let batch = inference.ingest(Self.snapshot(t0 + 200, firstListed: 30, delay: 30))
    #expect(batch.events.map(\.key.stopSequence) == [10, 20])
    #expect(batch.events.allSatisfy { $0.kind == .inferred })
    #expect(batch.events.map(\.actual) == [t0 + 100, t0 + 150])
    #expect(batch.events.map(\.actualLow) == [t0 + 100, t0 + 100])
    #expect(batch.events.map(\.actualHigh) == [t0 + 200, t0 + 200])
    // The trip then leaves the feed: C (t0+270) and D (t0+390) are inferred once their
    // predictions have passed, and not before.
    let early = inference.ingest(SnapshotObservation(time: t0 + 300, trips: []))
    #expect(early.events.map(\.key.stopSequence) == [30])
    #expect(early.events.first?.actual == t0 + 270)
    #expect(early.events.first?.actualLow == t0 + 200)
    let late = inference.ingest(SnapshotObservation(time: t0 + 400, trips: []))
    #expect(late.events.map(\.key.stopSequence) == [40])
    #expect(late.events.first?.actual == t0 + 390)
    #expect(inference.pending.isEmpty)
  }

  @Test func aStopTheVehicleStillStandsAtIsNotInferred() {
    var inference = ActualsInference()
    let t0 = Self.t0
    _ = inference.ingest(Self.snapshot(t0, firstListed: 10, delay: 0))
    // The update has moved on to B, but the vehicle still says STOPPED_AT A.
    let standing = inference.ingest(Self.snapshot(t0 + 60, firstListed: 20, delay: 0, vehicle: (10, true)))
    #expect(standing.events.isEmpty)
    let left = inference.ingest(Self.snapshot(t0 + 90, firstListed: 20, delay: 0, vehicle: (20, false)))
    #expect(left.events.map(\.key.stopSequence) == [10])
    #expect(left.events.first?.kind == .observed)
    #expect(left.events.first?.actual == t0 + 60)
  }

  @Test func cancelledTripIsSaidOnceAndItsCallsGetNoActual() {
    var inference = ActualsInference()
    let t0 = Self.t0
    _ = inference.ingest(Self.snapshot(t0 - 300, firstListed: 10, delay: 0))
    let first = inference.ingest(Self.snapshot(t0 - 240, firstListed: 10, delay: 0, cancelled: true))
    #expect(first.tripEvents == [TripEvent(trip: Self.trip, routeID: "R1", kind: .cancelled, time: t0 - 240)])
    #expect(first.events.isEmpty)
    let again = inference.ingest(Self.snapshot(t0 - 180, firstListed: 10, delay: 0, cancelled: true))
    #expect(again.tripEvents.isEmpty)
    // Gone from the feed long after its times: nothing inferred from a cancelled trip.
    let gone = inference.ingest(SnapshotObservation(time: t0 + 1000, trips: []))
    #expect(gone.events.isEmpty)
    #expect(inference.pending.isEmpty)
  }

  @Test func skippedStopIsKeptAsSkipped() {
    var inference = ActualsInference()
    let t0 = Self.t0
    let batch = inference.ingest(Self.snapshot(t0, firstListed: 10, delay: 0, skipped: [30]))
    #expect(batch.events.count == 1)
    #expect(batch.events.first?.key == key(30))
    #expect(batch.events.first?.isSkipped == true)
    #expect(batch.events.first?.actual == nil)
    // Said again: not again.
    #expect(inference.ingest(Self.snapshot(t0 + 30, firstListed: 10, delay: 0, skipped: [30])).events.isEmpty)
  }

  @Test func tripThatNeverAppearsHasNoEvent() {
    var inference = ActualsInference()
    var all: [StopEvent] = []
    for minute in 0..<10 { all += inference.ingest(SnapshotObservation(time: Self.t0 + Int64(minute) * 60, trips: [])).events }
    #expect(all.isEmpty)
    #expect(inference.pending.isEmpty)
  }

  @Test func predictionsAreSampledOncePerBucket() {
    var inference = ActualsInference()
    let t0 = Self.t0
    // D is scheduled at t0+360, on time: made at t0-540 (15 min ahead: no bucket), t0-500
    // (860 s: 10-15), t0-400 (760 s: 10-15 again, not kept), t0 (360 s: 6-10), t0+200 (160 s: 0-3).
    var predictions: [PredictionSeen] = []
    for time in [t0 - 540, t0 - 500, t0 - 400, t0, t0 + 200] {
      predictions += inference.ingest(Self.snapshot(time, firstListed: 40, delay: 0)).predictions.filter { $0.key == key(40) }
    }
    #expect(predictions.map(\.bucket) == [3, 2, 0])
    #expect(predictions.map(\.madeAt) == [t0 - 500, t0, t0 + 200])
  }

  @Test func resumedCallsAreInferredByALaterRun() {
    var first = ActualsInference()
    let t0 = Self.t0
    _ = first.ingest(Self.snapshot(t0, firstListed: 30, delay: 0))
    var second = ActualsInference()
    second.resume(first.pending)
    let batch = second.ingest(Self.snapshot(t0 + 300, firstListed: 40, delay: 0))
    #expect(batch.events.map(\.key.stopSequence) == [30])
    #expect(batch.events.first?.actual == t0 + 240)
  }
}
