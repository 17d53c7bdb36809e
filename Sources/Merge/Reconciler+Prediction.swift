import GTFSRealtime
import TransitModel

extension Reconciler {
  /// What the update says about one stop, before filling the gaps.
  enum StopState {
    case unknown
    case predicted(arrival: UnixTime, departure: UnixTime, arrivalDelay: Int64, departureDelay: Int64)
    case skipped
    case noData
  }

  /// The expected times along `trip` from its update (rules 5 and 6).
  ///
  /// Stop updates match by stop_sequence, else by stop_id (the first occurrence after the
  /// previous match, so a loop visiting a stop twice needs the sequence). An absolute `time`
  /// wins over `delay`. Stops without their own prediction take the delay interpolated by
  /// scheduled time between the predicted stops around them; after the last prediction the
  /// delay carries forward. A NO_DATA stop keeps its schedule and stops the propagation;
  /// a SKIPPED stop is passed through. No expected time runs earlier than the stop before.
  static func predict(
    _ trip: ScheduledTrip, update: TripUpdate, options: ReconcilerOptions, report: inout MergeReport
  )
    -> TripPrediction
  {
    let stops = trip.stops
    var states = [StopState](repeating: .unknown, count: stops.count)
    var ignored: [Int] = []
    var changes: [(Int, PlatformChange)] = []
    var cursor = 0
    for stu in update.stopTimeUpdates {
      let index: Int?
      if let sequence = stu.stopSequence, cursor < stops.count, stops[cursor].stopSequence == Int(sequence) {
        // The usual case: the updates in the trip's order, each the stop after the last.
        index = cursor
      } else if let sequence = stu.stopSequence, let found = stops.firstIndex(where: { $0.stopSequence == Int(sequence) }) {
        index = found
      } else if let stopID = stu.stopID {
        // No stop_sequence, or one the trip lacks: the stop_id's next occurrence.
        index = stops[min(cursor, stops.count)...].firstIndex { $0.stopID.rawValue == stopID }
      } else {
        index = nil
      }
      guard let index else {
        report.issues.append(
          .unmatchedStop(tripID: trip.instance.tripID.rawValue, stopSequence: stu.stopSequence.map(Int.init), stopID: stu.stopID))
        continue
      }
      cursor = index + 1
      if let change = PlatformChange(stu, scheduled: stops[index].stopID) { changes.append((index, change)) }
      switch stu.scheduleRelationshipOrDefault {
      case .skipped: states[index] = .skipped
      case .noData: states[index] = .noData
      default:
        guard let state = predicted(stops[index], stu) else { continue }
        // The delay further from zero (the arrival's on a tie).
        if case .predicted(_, _, let arrivalDelay, let departureDelay) = state,
          case let worst = abs(departureDelay) > abs(arrivalDelay) ? departureDelay : arrivalDelay, abs(worst) > options.outlierSeconds
        {
          report.issues.append(.outlier(trip.instance, stopSequence: stops[index].stopSequence, delaySeconds: worst))
          ignored.append(index)
          continue
        }
        states[index] = state
      }
    }

    var result = stops.map { PredictedStop(stop: $0) }
    let anyPrediction = states.contains { if case .predicted = $0 { true } else { false } }
    // A trip-wide delay with no stop predictions applies to every stop.
    if !anyPrediction, let delay = update.delay {
      for index in stops.indices {
        if case .skipped = states[index] { result[index].isSkipped = true; continue }
        if case .noData = states[index] { continue }
        result[index] = shifted(stops[index], by: Int64(delay), source: .propagated)
      }
      clamp(&result, instance: trip.instance, report: &report)
      for index in ignored { result[index].isOutlier = true }
      for (index, change) in changes { result[index].platformChange = change }
      return TripPrediction(instance: trip.instance, stops: result)
    }

    // Walk forward: the last predicted stop since the last NO_DATA, and the next one.
    var previous: Int?
    for index in stops.indices {
      switch states[index] {
      case .noData:
        previous = nil
        continue
      case .predicted(let arrival, let departure, _, _):
        result[index].expectedArrival = arrival
        result[index].expectedDeparture = departure
        result[index].source = .realtime
        previous = index
        continue
      case .skipped:
        result[index].isSkipped = true
      case .unknown:
        break
      }
      guard let from = previous, case .predicted(_, _, _, let fromDelay) = states[from] else { continue }
      if case .skipped = states[index] { continue }
      // The next predicted stop before any NO_DATA.
      var next: Int?
      var probe = index + 1
      while probe < stops.count {
        if case .noData = states[probe] { break }
        if case .predicted = states[probe] { next = probe; break }
        probe += 1
      }
      if let next, case .predicted(_, _, let toDelay, _) = states[next],
        let t0 = stops[from].departure ?? stops[from].arrival, let t1 = stops[next].arrival ?? stops[next].departure,
        let t = stops[index].arrival ?? stops[index].departure, t1 > t0
      {
        let fraction = Double(t - t0) / Double(t1 - t0)
        let delay = fromDelay + Int64((Double(toDelay - fromDelay) * fraction).rounded())
        result[index] = shifted(stops[index], by: delay, source: .interpolated)
      } else {
        result[index] = shifted(stops[index], by: fromDelay, source: .propagated)
      }
    }
    clamp(&result, instance: trip.instance, report: &report)
    for index in ignored { result[index].isOutlier = true }
    for (index, change) in changes { result[index].platformChange = change }
    return TripPrediction(instance: trip.instance, stops: result)
  }

  /// The stop's own prediction: absolute time over delay; a missing event takes the other's delay.
  static func predicted(_ stop: ScheduledStop, _ stu: TripUpdate.StopTimeUpdate) -> StopState? {
    func expected(_ event: TripUpdate.StopTimeEvent?, scheduled: UnixTime?) -> UnixTime? {
      guard let event else { return nil }
      if let time = event.time { return UnixTime(time) }
      if let delay = event.delay, let scheduled { return scheduled + Int64(delay) }
      return nil
    }
    let scheduledArrival = stop.arrival ?? stop.departure
    let scheduledDeparture = stop.departure ?? stop.arrival
    var arrival = expected(stu.arrival, scheduled: scheduledArrival)
    var departure = expected(stu.departure, scheduled: scheduledDeparture)
    if arrival == nil, let departure, let scheduledDeparture, let scheduledArrival {
      arrival = min(departure, scheduledArrival + (departure - scheduledDeparture))
    }
    if departure == nil, let arrival, let scheduledArrival, let scheduledDeparture {
      departure = max(arrival, scheduledDeparture + (arrival - scheduledArrival))
    }
    guard let arrival, let departure else {
      // Untimed stop with absolute time only on one side.
      guard let only = arrival ?? departure else { return nil }
      return .predicted(arrival: only, departure: only, arrivalDelay: 0, departureDelay: 0)
    }
    return .predicted(
      arrival: arrival, departure: max(departure, arrival),
      arrivalDelay: scheduledArrival.map { arrival - $0 } ?? 0,
      departureDelay: scheduledDeparture.map { max(departure, arrival) - $0 } ?? 0)
  }

  /// The stop's schedule moved by `delay`.
  static func shifted(_ stop: ScheduledStop, by delay: Int64, source: PredictionSource) -> PredictedStop {
    PredictedStop(
      stop: stop, expectedArrival: stop.arrival.map { $0 + delay }, expectedDeparture: stop.departure.map { $0 + delay },
      source: source)
  }

  /// Raises any expected time earlier than the one before it on the trip (rule 6).
  static func clamp(_ stops: inout [PredictedStop], instance: TripInstance, report: inout MergeReport) {
    var floor: UnixTime?
    // Each stop is read and changed where it is held: a copy out and back in would retain and
    // release every reference it holds, and this runs for every stop of every trip matched.
    for index in stops.indices where !stops[index].isSkipped {
      if let arrival = stops[index].expectedArrival, let floor, arrival < floor {
        if stops[index].source == .realtime {
          report.issues.append(.clamped(instance, stopSequence: stops[index].stop.stopSequence, bySeconds: floor - arrival))
        }
        stops[index].expectedArrival = floor
      }
      let arrival = stops[index].expectedArrival
      if let departure = stops[index].expectedDeparture {
        // The later of the floor and the arrival (no array built: this runs for every stop).
        let low: UnixTime? =
          switch (floor, arrival) {
          case (let a?, let b?): max(a, b)
          case (let a?, nil): a
          case (nil, let b): b
          }
        if let low, departure < low {
          if stops[index].source == .realtime && arrival == nil {
            report.issues.append(.clamped(instance, stopSequence: stops[index].stop.stopSequence, bySeconds: low - departure))
          }
          stops[index].expectedDeparture = low
        }
      }
      floor = stops[index].expectedDeparture ?? arrival ?? floor
    }
  }
}
