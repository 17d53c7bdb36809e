import GTFS
import GTFSRealtime
import History
import HostSystem
import Merge
import TransitModel

/// Fills the history from realtime snapshots, one at a time and in time order: each is matched
/// against the timetables the one way every command matches (`LiveRealtime`), turned into a
/// `SnapshotObservation`, and given to the pure `ActualsInference`; what that infers, the
/// predictions it samples and the cancellations are written as they come. Ghost trips are
/// found here, where the timetable is: instances the timetable had running at a snapshot,
/// on a route the feed speaks of, that no trip update or vehicle named while the recording
/// went on, without a break, for `ghostGraceSeconds` more.
///
/// The work has three parts. Matching a snapshot (`LiveRealtime`) and reading what it says of
/// each trip (`SnapshotMatcher.reading`) depend on that snapshot alone; observing it
/// (`SnapshotMatcher.observe`: the calls of trains the timetable lacks numbered as before, what
/// was named and what fell due) and taking it in (the inference, the history's writes) depend
/// on every snapshot before it. `record` does all three for one snapshot; `take` matches a
/// sequence on threads of their own, a few snapshots ahead of the rest.
public final class HistoryRecorder {
  let history: HistoryStore
  let matcher: SnapshotMatcher
  var inference = ActualsInference()
  /// Seconds between two looks at what the timetable has running (five minutes).
  public var checkSeconds: Int64 {
    get { matcher.checkSeconds }
    set { matcher.checkSeconds = newValue }
  }
  /// How long after the timetable had an instance running the recording must go on without
  /// it for it to count as a ghost (ten minutes).
  public var ghostGraceSeconds: Int64 {
    get { matcher.ghostGraceSeconds }
    set { matcher.ghostGraceSeconds = newValue }
  }
  /// What matching a snapshot read of the timetables, carried to the next (nil: every snapshot
  /// is matched afresh, as one command matches its feeds; the history written is the same).
  /// `take`'s matching threads each carry a cache of their own, unless this is nil.
  public var matchCache: MatchCache? {
    get { matcher.matchCache }
    set { matcher.matchCache = newValue }
  }

  /// What the recorder has written so far.
  public struct Counts: Sendable, Equatable, Encodable {
    public var snapshots = 0
    public var actuals = 0
    public var observed = 0
    public var inferred = 0
    public var skips = 0
    public var predictions = 0
    public var cancellations = 0
    public var ghostTrips = 0
    public var skippedSnapshots = 0

    enum CodingKeys: String, CodingKey {
      case snapshots, actuals, observed, inferred, skips, predictions, cancellations, ghostTrips = "ghost_trips"
      case skippedSnapshots = "skipped_snapshots"
    }
  }

  /// What has been written.
  public private(set) var counts = Counts()

  /// A recorder writing into `history`, matching against `store`, resuming the calls an
  /// earlier run left open (listed at most two hours before `resumeFrom`).
  public init(store: Store, history: HistoryStore, options: ServiceOptions, resumeFrom: Int64?) throws {
    self.history = history
    matcher = SnapshotMatcher(store: store, options: options, openSeconds: inference.openSeconds)
    if let resumeFrom {
      let open = try history.openEvents(since: resumeFrom - inference.openSeconds)
      inference.resume(open)
      // Trains standing at a stop when the earlier run ended: their departure is observed.
      inference.resume(stopped: try history.stoppedVehicles(since: resumeFrom - inference.openSeconds))
      // Trains the timetable lacks keep the numbers their calls had.
      for event in open where event.scheduled == nil {
        matcher.addedSequences[event.key.trip, default: [:]][event.stopID] = event.key.stopSequence
      }
    }
  }

  /// Takes in the snapshot made of `feeds` (one moment's files: trip updates and vehicle
  /// positions) at `time`, its header timestamp; `source` names it for idempotency (a snapshot
  /// of a source already taken in is skipped; so is one older than the newest taken in, since
  /// inference needs time order). Returns whether it was taken in.
  @discardableResult
  public func record(_ feeds: [FeedMessage], at time: Int64, source: String, importedAt: Int64) throws -> Bool {
    guard let matched = try matcher.match(feeds, at: time) else {
      counts.skippedSnapshots += 1
      return false
    }
    try write(matched, source: source, importedAt: importedAt)
    return true
  }

  /// One moment of a recorded folder, to be read when its turn comes.
  public struct Snapshot: Sendable {
    /// Its time (the feeds' header timestamp).
    public var time: Int64
    /// The name it is remembered by (`HistoryStore.markImported`).
    public var source: String
    /// Reads its feeds (called on the matching thread, once, in time order).
    public var read: @Sendable () throws -> [FeedMessage]

    /// A snapshot at `time`, named `source`, read by `read`.
    public init(time: Int64, source: String, read: @escaping @Sendable () throws -> [FeedMessage]) {
      self.time = time
      self.source = source
      self.read = read
    }
  }

  /// Why `take(_:importedAt:perTransaction:matchers:)` stopped before the end: a snapshot that
  /// could not be read (or matched against the timetables). Everything before it is in the
  /// history, its open calls too, so taking in the rest later goes on where this stopped.
  public struct ReadFailure: Error {
    /// What reading the snapshot threw.
    public var error: any Error
    /// The snapshots taken in before it (this recorder's).
    public var takenIn: Int
  }

  /// Takes in `snapshots` (in time order), each as `record` would. Reading and matching run on
  /// `matchers` threads of their own (each with its own connections to the timetables and its
  /// own match cache, taking every `matchers`-th snapshot), at most a few snapshots ahead of the
  /// inference and the writes, so a folder is never held decoded at once; what is written is
  /// what `record` writes, row for row. `perTransaction` snapshots are written in one
  /// transaction (each still taken in whole or not at all). Writes the calls still open at the
  /// end (`finish`).
  /// - Throws: `ReadFailure` for a snapshot that could not be read or matched (the ones before
  ///   it are taken in and the open calls written); the timetables' and the history's errors
  ///   otherwise (what the transaction held is rolled back).
  public func take(_ snapshots: [Snapshot], importedAt: Int64, perTransaction: Int = 60, matchers: Int = 2) throws {
    let count = max(1, min(matchers, snapshots.count))
    let workers = try (0..<count).map { _ in
      LiveMatcher(store: try matcher.store.reopened(), options: matcher.options, cache: matchCache == nil ? nil : MatchCache())
    }
    // The snapshots at which the timetable's running trips are looked at, known from the times
    // alone: the matching threads read them.
    var checks = Set<Int>()
    var lastTime = matcher.lastTime
    var lastCheck = matcher.lastCheck
    for (position, snapshot) in snapshots.enumerated() {
      if let lastTime, snapshot.time < lastTime { continue }
      if SnapshotMatcher.isCheck(snapshot.time, lastCheck: lastCheck, every: matcher.checkSeconds) {
        checks.insert(position)
        lastCheck = snapshot.time
      }
      lastTime = snapshot.time
    }
    var failure: (any Error)?
    try handingOff(producers: count, capacity: 3) { [checks] (worker: Int, put: (Result<SnapshotMatcher.Reading, any Error>) -> Bool) in
      for position in stride(from: worker, to: snapshots.count, by: count) {
        let snapshot = snapshots[position]
        let reading = Result {
          try workers[worker].reading(try snapshot.read(), at: snapshot.time, isCheck: checks.contains(position))
        }
        guard put(reading), case .success = reading else { return }
      }
    } consume: { next in
      var position = 0
      var done = false
      while !done {
        try history.transaction {
          for _ in 0..<max(1, perTransaction) {
            guard let reading = next() else {
              done = true
              return
            }
            let snapshot = snapshots[position]
            position += 1
            switch reading {
            case .failure(let error):
              failure = error
              done = true
              return
            case .success(let reading):
              guard let matched = try matcher.observe(reading, at: snapshot.time) else {
                counts.skippedSnapshots += 1
                continue
              }
              try write(matched, source: snapshot.source, importedAt: importedAt)
            }
          }
        }
      }
    }
    try finish()
    if let failure { throw ReadFailure(error: failure, takenIn: counts.snapshots) }
  }

  /// Infers from, and writes, one matched snapshot.
  func write(_ matched: SnapshotMatcher.Matched, source: String, importedAt: Int64) throws {
    let batch = inference.ingest(matched.observation)
    var ghosts: [TripEvent] = []
    // Not named by an earlier recording either.
    for ghost in matched.ghostCandidates where try !history.names(ghost.trip) { ghosts.append(ghost) }
    try history.transaction {
      try history.write(batch.events)
      try history.write(batch.predictions)
      try history.write(batch.tripEvents + ghosts)
      try history.markImported(source: source, time: matched.observation.time, now: importedAt)
    }
    counts.snapshots += 1
    for event in batch.events {
      if event.isSkipped {
        counts.skips += 1
      } else if event.kind == .observed {
        counts.observed += 1
      } else if event.kind == .inferred {
        counts.inferred += 1
      }
    }
    counts.actuals = counts.observed + counts.inferred
    counts.predictions += batch.predictions.count
    counts.cancellations += batch.tripEvents.filter { $0.kind == .cancelled }.count
    counts.ghostTrips += ghosts.count
  }

  /// Writes the calls still open and where trains stand stopped (so a later run resumes them).
  /// Call once at the end.
  public func finish() throws {
    try history.transaction {
      try history.write(inference.pending)
      try history.write(vehicleStates: inference.vehicleStates)
    }
  }
}

/// What a snapshot is matched with: timetables and a cache, used by one thread (`take`'s
/// matching threads each have their own; `record` matches with the recorder's).
struct LiveMatcher: @unchecked Sendable {
  let store: Store
  let options: ServiceOptions
  let cache: MatchCache?

  /// `feeds` matched at `time` and read (`SnapshotMatcher.reading`), with what the timetable has
  /// running then when `isCheck`. The match is let go of here, on the thread that made it.
  func reading(_ feeds: [FeedMessage], at time: Int64, isCheck: Bool) throws -> SnapshotMatcher.Reading {
    let live = try LiveRealtime(store: store, feeds: feeds, now: UnixTime(time), options: options, cache: cache)
    var reading = SnapshotMatcher.reading(live)
    if isCheck { reading.running = try SnapshotMatcher.running(store, at: time) }
    return reading
  }
}

/// The observing part of `HistoryRecorder`: a snapshot's match read as an observation for the
/// inference, in order (the numbers of added trains' calls, what was named), with the ghost
/// trips it makes due. Not for sharing between threads: its `store` is the recorder's thread's
/// (`reading`, which needs no state, runs on any).
final class SnapshotMatcher {
  let store: Store
  let options: ServiceOptions
  /// How long the inference keeps a call open (numbers of added trains are kept as long).
  let openSeconds: Int64
  /// Instances named by any snapshot so far.
  var named = Set<HistoryTrip>()
  /// Routes the feed spoke of (any trip of theirs named).
  var routesNamed = Set<String>()
  /// Instances the timetable had running at a check, with the first check's time and route.
  var expected: [HistoryTrip: (time: Int64, routeID: String)] = [:]
  /// Instances already offered as ghosts (once each).
  var offered = Set<HistoryTrip>()
  var lastCheck: Int64?
  var lastTime: Int64?
  var checkSeconds: Int64 = 300
  var ghostGraceSeconds: Int64 = 600
  var matchCache: MatchCache? = MatchCache()

  init(store: Store, options: ServiceOptions, openSeconds: Int64) {
    self.store = store
    self.options = options
    self.openSeconds = openSeconds
  }

  /// One snapshot matched: what the inference reads, and the instances due that nothing named
  /// (ghosts, unless an earlier recording named them: the history decides).
  struct Matched: Sendable {
    var observation: SnapshotObservation
    var ghostCandidates: [TripEvent]
  }

  /// `feeds` at `time` matched (with `matchCache`) and observed; nil for a snapshot older than
  /// the last one.
  func match(_ feeds: [FeedMessage], at time: Int64) throws -> Matched? {
    if let lastTime, time < lastTime { return nil }
    let reading = try LiveMatcher(store: store, options: options, cache: matchCache).reading(feeds, at: time, isCheck: false)
    return try observe(reading, at: time)
  }

  /// Whether the snapshot at `time` is one at which what the timetable has running is looked
  /// at (the first, then one at least `checkSeconds` after the last look), given `lastCheck`.
  static func isCheck(_ time: Int64, lastCheck: Int64?, every checkSeconds: Int64) -> Bool {
    lastCheck.map { time - $0 >= checkSeconds } ?? true
  }

  /// What `store` has running at `time`, each instance with its route.
  static func running(_ store: Store, at time: Int64) throws -> [(trip: HistoryTrip, routeID: String)] {
    var result: [(trip: HistoryTrip, routeID: String)] = []
    for running in try store.runningTrips(at: UnixTime(time)) {
      guard let details = try store.tripDetails(running.tripID, feed: running.feed) else { continue }
      let trip = HistoryTrip(feed: running.feed.rawValue, tripID: running.tripID.rawValue, serviceDate: running.serviceDate.yyyymmdd)
      result.append((trip, details.route.id.rawValue))
    }
    return result
  }

  /// What `reading`, one snapshot's at its own `time`, says, with what it makes due; nil for a
  /// snapshot older than the last one. Snapshots are observed one after another, in order.
  func observe(_ reading: Reading, at time: Int64) throws -> Matched? {
    if let lastTime, time < lastTime { return nil }
    let observation = observation(reading, time: time)
    for trip in observation.trips {
      named.insert(trip.trip)
      routesNamed.insert(trip.routeID)
    }
    for vehicle in observation.vehicles { named.insert(vehicle.trip) }
    for trip in observation.trips where addedSequences[trip.trip] != nil { addedLastSeen[trip.trip] = time }
    // Numbers of trains gone for longer than a call stays open are forgotten.
    for (trip, seen) in addedLastSeen where time - seen > openSeconds {
      addedSequences[trip] = nil
      addedLastSeen[trip] = nil
    }
    // A break in the recording (longer than realtime is used for, 15 min): what was due before
    // it was not watched long enough to be called a ghost.
    if let lastTime, time - lastTime > options.reconciler.ignoreAfterSeconds { expected.removeAll() }
    if Self.isCheck(time, lastCheck: lastCheck, every: checkSeconds) {
      lastCheck = time
      // (Read by the matching thread, when it knew this was a check.)
      for (trip, routeID) in try reading.running ?? Self.running(store, at: time) {
        guard expected[trip] == nil, !named.contains(trip), !offered.contains(trip) else { continue }
        expected[trip] = (time, routeID)
      }
    }
    lastTime = time
    return Matched(observation: observation, ghostCandidates: dueGhosts(before: time - ghostGraceSeconds))
  }

  /// The expected instances first due before `cutoff` that nothing named, on routes the feed
  /// speaks of: each offered once (an instance an earlier recording named stays no ghost, so
  /// it is not offered again).
  func dueGhosts(before cutoff: Int64) -> [TripEvent] {
    var result: [TripEvent] = []
    for (trip, due) in expected where due.time <= cutoff {
      expected[trip] = nil
      guard !named.contains(trip), routesNamed.contains(due.routeID) else { continue }
      offered.insert(trip)
      result.append(TripEvent(trip: trip, routeID: due.routeID, kind: .ghost, time: due.time))
    }
    return result.sorted { $0.trip < $1.trip }
  }

  // MARK: - From the match to an observation

  /// The calls of trains the timetable lacks, numbered by stop in the order first seen: such a
  /// feed (NYCT's) gives no stop_sequence, and the position in the update moves as stops drop
  /// out, so it cannot name a call from one snapshot to the next.
  var addedSequences: [HistoryTrip: [String: Int]] = [:]
  var addedLastSeen: [HistoryTrip: Int64] = [:]

  /// What one snapshot's match says, read apart from every other snapshot (so a matching thread
  /// reads it): the trips the timetable has, as the inference reads them, and in feed order every
  /// vehicle on one of them or on a train the timetable lacks.
  struct Reading: Sendable {
    /// Each trip instance an update named, with every call of its schedule.
    var trips: [SnapshotObservation.Trip] = []
    /// Trains the timetable lacks (ADDED, NYCT's own): numbered call by call in sequence.
    var added: [AddedTrip] = []
    /// The snapshot's vehicles, in feed order.
    var vehicles: [Vehicle] = []
    /// What the timetable had running at the snapshot's time, when it was asked (a check).
    var running: [(trip: HistoryTrip, routeID: String)]?

    enum Vehicle: Sendable {
      /// On a trip the timetable has.
      case scheduled(SnapshotObservation.Vehicle)
      /// On a train the timetable lacks: its trip_id, the stop it is at, whether stopped there.
      case added(tripID: String, stopID: String?, isStopped: Bool, time: Int64)
    }
  }

  /// `live` read as `Reading` says.
  static func reading(_ live: LiveRealtime) -> Reading {
    var reading = Reading()
    let time = live.now.seconds
    var keys: [TripInstance: HistoryTrip] = [:]
    for (instance, prediction) in live.realtime.predictions {
      guard let details = live.details[instance.tripID] else { continue }
      let trip = HistoryTrip(
        feed: details.feed.rawValue, tripID: instance.tripID.rawValue, serviceDate: instance.serviceDate.yyyymmdd,
        startTime: instance.startTime.map { Int($0.seconds) } ?? -1)
      keys[instance] = trip
      // Each stop read where it is held (`map` copied every one, with its references).
      let calls = prediction.stops.withUnsafeBufferPointer { stops in
        stops.indices.map { index in
          SnapshotObservation.Call(
            stopSequence: stops[index].stop.stopSequence, stopID: stops[index].stop.stopID.rawValue,
            scheduled: stops[index].stop.reference?.seconds, isListed: stops[index].source != .schedule,
            predicted: stops[index].source == .schedule ? nil : stops[index].expected?.seconds, isSkipped: stops[index].isSkipped)
        }
      }
      reading.trips.append(
        SnapshotObservation.Trip(
          trip: trip, routeID: details.route.id.rawValue, headsign: details.headsign, isCanceled: prediction.isCanceled,
          calls: calls))
    }
    reading.added = live.realtime.added
    let addedIDs = Set(live.realtime.added.map(\.tripID.rawValue))
    // The candidates of each trip, once (`LiveRealtime.instance(for:)` filters every trip each
    // time: quadratic over a feed of hundreds of vehicles).
    var candidates: [TripID: [ScheduledTrip]] = [:]
    for trip in live.trips { candidates[trip.instance.tripID, default: []].append(trip) }
    for message in live.feeds {
      for entity in message.entities where !entity.isDeletedOrDefault {
        guard let vehicle = entity.vehicle, let descriptor = vehicle.trip else { continue }
        let isStopped = vehicle.currentStatusOrDefault == .stoppedAt
        let reported = vehicle.timestamp.map { Int64(clamping: $0) } ?? time
        var sequence = vehicle.currentStopSequence.map(Int.init)
        if let id = descriptor.tripID, !id.isEmpty,
          let scheduled = LiveRealtime.pick(descriptor, among: candidates[TripID(id)] ?? [], realtime: live.realtime, now: live.now),
          let key = keys[scheduled.instance]
        {
          if sequence == nil, let stopID = vehicle.stopID {
            sequence = scheduled.stops.first(where: { $0.stopID.rawValue == stopID })?.stopSequence
          }
          reading.vehicles.append(
            .scheduled(SnapshotObservation.Vehicle(trip: key, stopSequence: sequence, isStopped: isStopped, time: reported)))
        } else if let id = descriptor.tripID, addedIDs.contains(id) {
          reading.vehicles.append(.added(tripID: id, stopID: vehicle.stopID, isStopped: isStopped, time: reported))
        }
      }
    }
    return reading
  }

  /// The observation of `reading`, one snapshot's at `time`: the calls of trains the timetable
  /// lacks numbered as they were in the snapshots before.
  func observation(_ reading: Reading, time: Int64) -> SnapshotObservation {
    var trips = reading.trips
    // Trains the timetable lacks (ADDED, NYCT's own): their calls have no schedule, but their
    // predictions and actuals count for prediction accuracy.
    let feed = store.feedNames.first?.rawValue ?? ""
    var addedKeys: [String: HistoryTrip] = [:]
    for added in reading.added {
      let date = added.serviceDate ?? store.localDate(of: UnixTime(time), feed: store.feedNames.first ?? FeedName(feed))
      let trip = HistoryTrip(feed: feed, tripID: added.tripID.rawValue, serviceDate: date.yyyymmdd)
      var numbers = addedSequences[trip] ?? [:]
      var calls: [SnapshotObservation.Call] = []
      for call in added.calls {
        let number: Int
        if let known = numbers[call.stopID.rawValue] {
          number = known
        } else {
          number = (numbers.values.max() ?? 0) + 1
          numbers[call.stopID.rawValue] = number
        }
        calls.append(
          SnapshotObservation.Call(
            stopSequence: number, stopID: call.stopID.rawValue, scheduled: call.scheduled?.seconds, isListed: true,
            predicted: (call.departure ?? call.arrival)?.seconds, isSkipped: call.isSkipped))
      }
      addedSequences[trip] = numbers
      addedKeys[added.tripID.rawValue] = trip
      calls.sort { $0.stopSequence < $1.stopSequence }
      trips.append(
        SnapshotObservation.Trip(
          trip: trip, routeID: added.routeID?.rawValue ?? "", headsign: added.headsign ?? "", calls: calls))
    }
    var vehicles: [SnapshotObservation.Vehicle] = []
    for vehicle in reading.vehicles {
      switch vehicle {
      case .scheduled(let vehicle):
        vehicles.append(vehicle)
      case .added(let tripID, let stopID, let isStopped, let reported):
        // A train the timetable lacks: its calls are numbered by stop.
        guard let key = addedKeys[tripID] else { continue }
        vehicles.append(
          SnapshotObservation.Vehicle(
            trip: key, stopSequence: stopID.flatMap { addedSequences[key]?[$0] }, isStopped: isStopped, time: reported))
      }
    }
    return SnapshotObservation(time: time, trips: trips, vehicles: vehicles)
  }
}
