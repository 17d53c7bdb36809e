/// One trip instance as the history names it: the timetable's feed, trip_id, service date
/// (`YYYYMMDD`) and, for a frequencies.txt trip, its start in seconds of the service day (-1
/// for a timetabled trip).
public struct HistoryTrip: Hashable, Sendable, Comparable {
  /// The timetable's feed name.
  public var feed: String
  /// `trips.trip_id`.
  public var tripID: String
  /// The service date, `YYYYMMDD` as a number.
  public var serviceDate: Int
  /// The instance's start (frequency trips), else -1.
  public var startTime: Int

  /// Creates a trip key.
  public init(feed: String, tripID: String, serviceDate: Int, startTime: Int = -1) {
    self.feed = feed
    self.tripID = tripID
    self.serviceDate = serviceDate
    self.startTime = startTime
  }

  public static func < (a: Self, b: Self) -> Bool {
    (a.feed, a.tripID, a.serviceDate, a.startTime) < (b.feed, b.tripID, b.serviceDate, b.startTime)
  }
}

/// One call of a trip instance: the trip and the call's stop_sequence.
public struct HistoryCallKey: Hashable, Sendable, Comparable {
  /// The trip instance.
  public var trip: HistoryTrip
  /// The call's `stop_sequence`.
  public var stopSequence: Int

  /// Creates a call key.
  public init(trip: HistoryTrip, stopSequence: Int) {
    self.trip = trip
    self.stopSequence = stopSequence
  }

  public static func < (a: Self, b: Self) -> Bool {
    a.trip != b.trip ? a.trip < b.trip : a.stopSequence < b.stopSequence
  }
}

/// What one recorded snapshot said, already matched against the timetable: every trip
/// instance a trip update named (with each of its scheduled calls) and every vehicle on one.
public struct SnapshotObservation: Sendable, Equatable {
  /// One call of a trip in the snapshot.
  public struct Call: Sendable, Equatable {
    /// `stop_sequence`.
    public var stopSequence: Int
    /// `stop_id`.
    public var stopID: String
    /// The scheduled departure (else arrival), Unix seconds.
    public var scheduled: Int64?
    /// Whether the update covers the call (the feed's own time, or one propagated or
    /// interpolated from it): false for the calls before its first stop time update.
    public var isListed: Bool
    /// The time the update gives for the call (departure, else arrival), when listed.
    public var predicted: Int64?
    /// Whether the feed says the vehicle will not stop here (SKIPPED).
    public var isSkipped: Bool

    /// Creates a call.
    public init(stopSequence: Int, stopID: String, scheduled: Int64?, isListed: Bool, predicted: Int64?, isSkipped: Bool = false) {
      self.stopSequence = stopSequence
      self.stopID = stopID
      self.scheduled = scheduled
      self.isListed = isListed
      self.predicted = predicted
      self.isSkipped = isSkipped
    }
  }

  /// One trip instance a trip update named.
  public struct Trip: Sendable, Equatable {
    /// The instance.
    public var trip: HistoryTrip
    /// Its route_id.
    public var routeID: String
    /// Its headsign.
    public var headsign: String
    /// Whether the update says CANCELED.
    public var isCanceled: Bool
    /// Every scheduled call, in stop_sequence order.
    public var calls: [Call]

    /// Creates a trip.
    public init(trip: HistoryTrip, routeID: String, headsign: String, isCanceled: Bool = false, calls: [Call]) {
      self.trip = trip
      self.routeID = routeID
      self.headsign = headsign
      self.isCanceled = isCanceled
      self.calls = calls
    }
  }

  /// Where a vehicle says it is.
  public struct Vehicle: Sendable, Equatable {
    /// The trip instance it serves.
    public var trip: HistoryTrip
    /// The call it is at or heading for.
    public var stopSequence: Int?
    /// Whether it says STOPPED_AT that call (else in transit to it, or incoming).
    public var isStopped: Bool
    /// When it said so (its own timestamp, else the snapshot's).
    public var time: Int64

    /// Creates a vehicle.
    public init(trip: HistoryTrip, stopSequence: Int?, isStopped: Bool, time: Int64) {
      self.trip = trip
      self.stopSequence = stopSequence
      self.isStopped = isStopped
      self.time = time
    }
  }

  /// The snapshot's time: its feed header's timestamp.
  public var time: Int64
  /// The trip instances its trip updates named.
  public var trips: [Trip]
  /// The vehicles on a trip instance of the timetable.
  public var vehicles: [Vehicle]

  /// Creates an observation.
  public init(time: Int64, trips: [Trip], vehicles: [Vehicle] = []) {
    self.time = time
    self.trips = trips
    self.vehicles = vehicles
  }
}

/// How an actual time is known.
public enum ActualKind: Int, Sendable, Codable {
  /// The vehicle reported STOPPED_AT the stop, then left: the time of its last report there.
  case observed = 1
  /// The stop dropped out of the trip's update: the last prediction before that, bounded by
  /// the snapshot times on either side.
  case inferred = 2
}

/// A call of a trip instance as the history keeps it: its schedule, the last prediction seen
/// and, once known, the actual time.
public struct StopEvent: Sendable, Equatable {
  /// The call.
  public var key: HistoryCallKey
  /// `stop_id`.
  public var stopID: String
  /// The trip's route_id.
  public var routeID: String
  /// The trip's headsign.
  public var headsign: String
  /// The scheduled departure (else arrival), Unix seconds.
  public var scheduled: Int64?
  /// The last prediction seen for it, and when it was made (its snapshot's time).
  public var lastPredicted: Int64?
  public var lastPredictedAt: Int64?
  /// The last snapshot that listed the call.
  public var lastSeen: Int64
  /// The actual time, once known; how; and the bounds it is known within.
  public var actual: Int64?
  public var kind: ActualKind?
  public var actualLow: Int64?
  public var actualHigh: Int64?
  /// Whether the feed said SKIPPED.
  public var isSkipped = false

  /// Creates an event.
  public init(
    key: HistoryCallKey, stopID: String, routeID: String, headsign: String, scheduled: Int64?, lastPredicted: Int64? = nil,
    lastPredictedAt: Int64? = nil, lastSeen: Int64, actual: Int64? = nil, kind: ActualKind? = nil, actualLow: Int64? = nil,
    actualHigh: Int64? = nil, isSkipped: Bool = false
  ) {
    self.key = key
    self.stopID = stopID
    self.routeID = routeID
    self.headsign = headsign
    self.scheduled = scheduled
    self.lastPredicted = lastPredicted
    self.lastPredictedAt = lastPredictedAt
    self.lastSeen = lastSeen
    self.actual = actual
    self.kind = kind
    self.actualLow = actualLow
    self.actualHigh = actualHigh
    self.isSkipped = isSkipped
  }

  /// Actual minus scheduled, in seconds, when both are known.
  public var delaySeconds: Int64? {
    guard let actual, let scheduled else { return nil }
    return actual - scheduled
  }
}

/// A prediction seen for a call: when it was made and what it said. The history keeps a
/// sample: the first prediction of each lead bucket of the ETA benchmark (0–3, 3–6, 6–10,
/// 10–15 min ahead), so at most four per call.
public struct PredictionSeen: Sendable, Equatable, Hashable {
  /// The call.
  public var key: HistoryCallKey
  /// The bucket (0…3) of `ETAAccuracy.buckets`.
  public var bucket: Int
  /// When it was made (the snapshot's time) and the time it said.
  public var madeAt: Int64
  public var predicted: Int64

  /// Creates a prediction.
  public init(key: HistoryCallKey, bucket: Int, madeAt: Int64, predicted: Int64) {
    self.key = key
    self.bucket = bucket
    self.madeAt = madeAt
    self.predicted = predicted
  }
}

/// Something the feed said of a whole trip instance, or did not say.
public struct TripEvent: Sendable, Equatable, Hashable {
  /// What it was.
  public enum Kind: Int, Sendable, Codable {
    /// The trip update said CANCELED.
    case cancelled = 1
    /// Scheduled to run while the feed was fresh, and named by no trip update or vehicle.
    case ghost = 2
  }

  /// The trip instance.
  public var trip: HistoryTrip
  /// Its route_id.
  public var routeID: String
  /// What happened.
  public var kind: Kind
  /// When it was first seen so (cancelled) or first due to be seen (ghost), Unix seconds.
  public var time: Int64

  /// Creates a trip event.
  public init(trip: HistoryTrip, routeID: String, kind: Kind, time: Int64) {
    self.trip = trip
    self.routeID = routeID
    self.kind = kind
    self.time = time
  }
}

/// What one snapshot adds to the history.
public struct HistoryBatch: Sendable, Equatable {
  /// Calls whose actual became known (or that were skipped) with this snapshot.
  public var events: [StopEvent] = []
  /// Predictions sampled from it.
  public var predictions: [PredictionSeen] = []
  /// Cancellations it said.
  public var tripEvents: [TripEvent] = []

  /// An empty batch.
  public init() {}
}

/// Infers actual times from a sequence of snapshots, one at a time (pure: values in, values
/// out, no clock and no I/O).
///
/// - A call's actual is *observed* when a vehicle of its trip reported STOPPED_AT the call and a
///   later report has it elsewhere: the time of its last report there (it left no earlier), up
///   to the later report.
/// - Else it is *inferred* when the call drops out of its trip's update (the update no longer
///   covers it, or the whole update is gone once the call's prediction has passed): the last
///   prediction seen, clamped to the last snapshot that listed the call and the first that did
///   not. A call whose vehicle still reports STOPPED_AT it is not inferred yet.
/// - A call the feed says SKIPPED is kept as skipped, never with an actual.
public struct ActualsInference: Sendable {
  /// The longest a call stays open after the last snapshot that listed it: a trip gone from
  /// the feed for longer is not inferred from (two hours).
  public var openSeconds: Int64 = 7_200

  // The state is held by trip instance: each gets a number when first seen (`tripNumbers`),
  // the index of its `TripState`, whose calls are arrays sorted by stop_sequence (a call is
  // found by a binary search of its trip's few dozen, not by hashing: an import does this for
  // every call of every train every minute, and hashing was a fifth of the inference).
  /// One trip instance: its open calls, what is known of each call seen, its vehicle.
  private struct TripState {
    /// The calls listed and not yet resolved, by stop_sequence.
    var open: [StopEvent] = []
    /// Every call seen, by stop_sequence, with what is known of it in one byte: the lead
    /// buckets a prediction was sampled from (`1 << bucket`), and `resolvedMark` once its
    /// actual is known, it was skipped or dropped (it is never opened again).
    var seen: [(sequence: Int, mark: UInt8)] = []
    /// Where its vehicle was last reported STOPPED_AT, and the last time it said so.
    var stopped: (sequence: Int, last: Int64)?
    var isCancelled = false
    /// Whether a vehicle of it was reported (its state is then worth carrying to a later run).
    var hadVehicle = false
    /// The last snapshot (by `ingest`'s count) whose trip updates named it, and the last in
    /// which its vehicle was STOPPED_AT (at `stoppedAt`).
    var namedIn = -1
    var stoppedIn = -1
    var stoppedAt = 0

    /// Where `sequence` is among `count` ascending stop_sequences (the `index`-th is
    /// `sequenceAt(index)`), or would be inserted.
    @inline(__always)
    static func search(_ sequence: Int, count: Int, sequenceAt: (Int) -> Int) -> (found: Bool, index: Int) {
      var low = 0
      var high = count
      while low < high {
        let middle = (low + high) / 2
        let here = sequenceAt(middle)
        if here == sequence { return (true, middle) }
        if here < sequence { low = middle + 1 } else { high = middle }
      }
      return (false, low)
    }

    /// Where the open call `sequence` is, or would be.
    func openIndex(_ sequence: Int) -> (found: Bool, index: Int) {
      Self.search(sequence, count: open.count) { open[$0].key.stopSequence }
    }

    /// Where call `sequence` is in `seen`, or would be.
    func seenIndex(_ sequence: Int) -> (found: Bool, index: Int) {
      Self.search(sequence, count: seen.count) { seen[$0].sequence }
    }

    /// The mark of call `sequence` (0: never seen).
    func mark(_ sequence: Int) -> UInt8 {
      let (found, index) = seenIndex(sequence)
      return found ? seen[index].mark : 0
    }

    /// The index in `seen` of call `sequence`, added (unmarked) if new.
    mutating func seenSlot(_ sequence: Int) -> Int {
      let (found, index) = seenIndex(sequence)
      if !found { seen.insert((sequence, 0), at: index) }
      return index
    }

    /// Whether its vehicle stood STOPPED_AT call `sequence` in snapshot `count`.
    func isStopped(at sequence: Int, in count: Int) -> Bool { stoppedIn == count && stoppedAt == sequence }
  }
  private var tripNumbers: [HistoryTrip: Int32] = [:]
  private var trips: [TripState] = []
  /// Each number's trip instance.
  private var tripKeys: [HistoryTrip] = []
  /// The trips with calls open.
  private var openTrips = Set<Int32>()
  /// Snapshots ingested.
  private var count = 0
  private static let resolvedMark: UInt8 = 0x80

  /// An inference with nothing open.
  public init() {}

  /// Calls listed in earlier snapshots whose actual is not yet known (from an earlier run).
  public mutating func resume(_ events: [StopEvent]) {
    for event in events where event.actual == nil && !event.isSkipped { add(event, to: number(of: event.key.trip)) }
  }

  /// The calls still open, in key order: what a later snapshot may resolve.
  public var pending: [StopEvent] { openTrips.flatMap { trips[Int($0)].open }.sorted { $0.key < $1.key } }

  /// The number of `trip`, given when first asked.
  private mutating func number(of trip: HistoryTrip) -> Int32 {
    if let known = tripNumbers[trip] { return known }
    let number = Int32(trips.count)
    tripNumbers[trip] = number
    trips.append(TripState())
    tripKeys.append(trip)
    return number
  }

  /// A trip's vehicle as last reported STOPPED_AT one of its calls, and the last time it said
  /// so: what observing the call's departure needs from the snapshots before.
  public struct StoppedVehicle: Sendable, Equatable {
    /// The trip instance the vehicle serves.
    public var trip: HistoryTrip
    /// The call it stands at.
    public var stopSequence: Int
    /// The last report of it standing there.
    public var last: Int64

    /// Creates a stopped vehicle.
    public init(trip: HistoryTrip, stopSequence: Int, last: Int64) {
      self.trip = trip
      self.stopSequence = stopSequence
      self.last = last
    }
  }

  /// Every trip instance a vehicle of was seen, with where it stands stopped now (nil: not
  /// stopped): what a later run needs (`resume(stopped:)`) so that a vehicle leaving a stop
  /// across the seam still gives an observed actual. In key order.
  public var vehicleStates: [(trip: HistoryTrip, stopped: StoppedVehicle?)] {
    trips.indices.compactMap { index -> (HistoryTrip, StoppedVehicle?)? in
      guard trips[index].hadVehicle else { return nil }
      let trip = tripKeys[index]
      return (trip, trips[index].stopped.map { StoppedVehicle(trip: trip, stopSequence: $0.sequence, last: $0.last) })
    }.sorted { $0.0 < $1.0 }
  }

  /// Vehicles standing STOPPED_AT a call when an earlier run ended (`vehicleStates`).
  public mutating func resume(stopped vehicles: [StoppedVehicle]) {
    for vehicle in vehicles {
      let trip = Int(number(of: vehicle.trip))
      trips[trip].stopped = (vehicle.stopSequence, vehicle.last)
    }
  }

  private mutating func add(_ event: StopEvent, to trip: Int32) {
    let (found, index) = trips[Int(trip)].openIndex(event.key.stopSequence)
    if found {
      trips[Int(trip)].open[index] = event
    } else {
      trips[Int(trip)].open.insert(event, at: index)
      if trips[Int(trip)].open.count == 1 { openTrips.insert(trip) }
    }
  }

  /// The open call `sequence` of `trip`, closed (marked resolved), if it is open.
  private mutating func close(_ trip: Int32, _ sequence: Int) -> StopEvent? {
    let (found, index) = trips[Int(trip)].openIndex(sequence)
    guard found else { return nil }
    let event = trips[Int(trip)].open.remove(at: index)
    if trips[Int(trip)].open.isEmpty { openTrips.remove(trip) }
    resolve(trip, sequence)
    return event
  }

  private mutating func resolve(_ trip: Int32, _ sequence: Int) {
    let slot = trips[Int(trip)].seenSlot(sequence)
    trips[Int(trip)].seen[slot].mark = Self.resolvedMark
  }

  /// Notes the lead bucket `bit` (0: none) in a call's `mark`, unless the call is resolved;
  /// says whether it is, and whether the bucket is new (its prediction is to be sampled).
  private static func note(_ bit: UInt8, in mark: inout UInt8) -> (isResolved: Bool, isNewBucket: Bool) {
    if mark & resolvedMark != 0 { return (true, false) }
    guard mark & bit != bit else { return (false, false) }
    mark |= bit
    return (false, true)
  }

  /// What `snapshot` adds, given every snapshot before it (in time order).
  /// - Complexity: O(calls in the snapshot × log calls of a trip + trips with calls open).
  public mutating func ingest(_ snapshot: SnapshotObservation) -> HistoryBatch {
    var batch = HistoryBatch()
    let now = snapshot.time
    count += 1
    let current = count
    // Vehicles first: an observed departure beats one inferred from the same snapshot.
    for vehicle in snapshot.vehicles {
      let trip = number(of: vehicle.trip)
      trips[Int(trip)].hadVehicle = true
      if let before = trips[Int(trip)].stopped, vehicle.stopSequence != before.sequence || !vehicle.isStopped {
        // It was stopped at `before.sequence` and is not now: it left between the two reports.
        if var event = close(trip, before.sequence) {
          event.actual = before.last
          event.kind = .observed
          event.actualLow = before.last
          event.actualHigh = max(before.last, vehicle.time)
          batch.events.append(event)
        }
        trips[Int(trip)].stopped = nil
      }
      if vehicle.isStopped, let sequence = vehicle.stopSequence {
        let last = max(vehicle.time, trips[Int(trip)].stopped?.last ?? vehicle.time)
        trips[Int(trip)].stopped = (sequence, last)
        trips[Int(trip)].stoppedIn = current
        trips[Int(trip)].stoppedAt = sequence
      }
    }
    for trip in snapshot.trips {
      let number = number(of: trip.trip)
      let index = Int(number)
      trips[index].namedIn = current
      if trip.isCanceled {
        if !trips[index].isCancelled {
          trips[index].isCancelled = true
          batch.tripEvents.append(TripEvent(trip: trip.trip, routeID: trip.routeID, kind: .cancelled, time: now))
        }
        // A cancelled trip's open calls did not happen: dropped, never inferred.
        while let last = trips[index].open.last { _ = close(number, last.key.stopSequence) }
        continue
      }
      let firstListed = trip.calls.first(where: \.isListed)?.stopSequence
      for call in trip.calls {
        if call.isSkipped {
          if trips[index].mark(call.stopSequence) & Self.resolvedMark == 0 {
            var event =
              close(number, call.stopSequence)
              ?? StopEvent(
                key: HistoryCallKey(trip: trip.trip, stopSequence: call.stopSequence), stopID: call.stopID, routeID: trip.routeID,
                headsign: trip.headsign, scheduled: call.scheduled, lastSeen: now)
            event.isSkipped = true
            event.lastSeen = now
            resolve(number, call.stopSequence)
            batch.events.append(event)
          }
          continue
        }
        guard call.isListed, let predicted = call.predicted else { continue }
        // The call's mark, found once: nothing more for a resolved call; else the lead
        // bucket of this prediction is noted (and sampled the first time).
        let bit = ETAAccuracy.bucket(leadSeconds: predicted - now).map { UInt8(1) << UInt8($0) } ?? 0
        let slot = trips[index].seenSlot(call.stopSequence)
        let (isResolved, sample) = Self.note(bit, in: &trips[index].seen[slot].mark)
        if !isResolved {
          // An open call is updated where it is held (no copy of the event out and back in).
          let (found, at) = trips[index].openIndex(call.stopSequence)
          if found {
            trips[index].open[at].lastPredicted = predicted
            trips[index].open[at].lastPredictedAt = now
            trips[index].open[at].lastSeen = now
          } else {
            var event = StopEvent(
              key: HistoryCallKey(trip: trip.trip, stopSequence: call.stopSequence), stopID: call.stopID, routeID: trip.routeID,
              headsign: trip.headsign, scheduled: call.scheduled, lastSeen: now)
            event.lastPredicted = predicted
            event.lastPredictedAt = now
            add(event, to: number)
          }
          if sample, let bucket = ETAAccuracy.bucket(leadSeconds: predicted - now) {
            batch.predictions.append(
              PredictionSeen(
                key: HistoryCallKey(trip: trip.trip, stopSequence: call.stopSequence), bucket: bucket, madeAt: now, predicted: predicted))
          }
        }
      }
      // Open calls the update no longer covers: before its first listed call (or all, when it
      // lists none), and not where the vehicle stands now. They are in stop_sequence order.
      var position = 0
      while position < trips[index].open.count {
        let sequence = trips[index].open[position].key.stopSequence
        if let firstListed, sequence >= firstListed { break }
        guard !trips[index].isStopped(at: sequence, in: current), let event = close(number, sequence) else {
          position += 1
          continue
        }
        batch.events.append(Self.inferred(event, at: now))
      }
    }
    // Trips gone from the feed: their calls whose prediction has passed are done; calls listed
    // too long ago are forgotten.
    for trip in openTrips where trips[Int(trip)].namedIn != current {
      for event in trips[Int(trip)].open {
        let sequence = event.key.stopSequence
        if now - event.lastSeen > openSeconds {
          _ = close(trip, sequence)
        } else if let predicted = event.lastPredicted, predicted <= now, !trips[Int(trip)].isStopped(at: sequence, in: current) {
          if let event = close(trip, sequence) { batch.events.append(Self.inferred(event, at: now)) }
        }
      }
    }
    batch.events.sort { $0.key < $1.key }
    return batch
  }

  /// `event`, its actual inferred at `now`: the last prediction within [last seen, now].
  static func inferred(_ event: StopEvent, at now: Int64) -> StopEvent {
    var event = event
    let low = event.lastSeen
    let high = max(low, now)
    event.actual = min(max(event.lastPredicted ?? high, low), high)
    event.kind = .inferred
    event.actualLow = low
    event.actualHigh = high
    return event
  }
}
