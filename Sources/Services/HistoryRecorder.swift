import GTFS
import GTFSRealtime
import History
import Merge
import TransitModel

/// Fills the history from realtime snapshots, one at a time and in time order: each is matched
/// against the timetables the one way every command matches (`LiveRealtime`), turned into a
/// `SnapshotObservation`, and given to the pure `ActualsInference`; what that infers, the
/// predictions it samples and the cancellations are written as they come. Ghost trips are
/// found here, where the timetable is: instances the timetable had running at a snapshot,
/// on a route the feed speaks of, that no trip update or vehicle named while the recording
/// went on, without a break, for `ghostGraceSeconds` more.
public final class HistoryRecorder {
  let store: Store
  let history: HistoryStore
  let options: ServiceOptions
  var inference = ActualsInference()
  /// Instances named by any snapshot so far.
  var named = Set<HistoryTrip>()
  /// Routes the feed spoke of (any trip of theirs named).
  var routesNamed = Set<String>()
  /// Instances the timetable had running at a check, with the first check's time and route.
  var expected: [HistoryTrip: (time: Int64, routeID: String)] = [:]
  /// Instances already called ghosts (once each).
  var ghosted = Set<HistoryTrip>()
  var lastCheck: Int64?
  var lastTime: Int64?
  /// Seconds between two looks at what the timetable has running (five minutes).
  public var checkSeconds: Int64 = 300
  /// How long after the timetable had an instance running the recording must go on without
  /// it for it to count as a ghost (ten minutes).
  public var ghostGraceSeconds: Int64 = 600
  /// What matching a snapshot read of the timetables, carried to the next (nil: every snapshot
  /// is matched afresh, as one command matches its feeds; the history written is the same).
  public var matchCache: MatchCache? = MatchCache()

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
    self.store = store
    self.history = history
    self.options = options
    if let resumeFrom {
      let open = try history.openEvents(since: resumeFrom - inference.openSeconds)
      inference.resume(open)
      // Trains the timetable lacks keep the numbers their calls had.
      for event in open where event.scheduled == nil {
        addedSequences[event.key.trip, default: [:]][event.stopID] = event.key.stopSequence
      }
    }
  }

  /// Takes in the snapshot made of `feeds` (one moment's files: trip updates and vehicle
  /// positions) at `time`, its header timestamp; `source` names it for idempotency (a snapshot
  /// of a source already taken in is skipped; so is one older than the newest taken in, since
  /// inference needs time order). Returns whether it was taken in.
  @discardableResult
  public func record(_ feeds: [FeedMessage], at time: Int64, source: String, importedAt: Int64) throws -> Bool {
    if let lastTime, time < lastTime {
      counts.skippedSnapshots += 1
      return false
    }
    let live = try LiveRealtime(store: store, feeds: feeds, now: UnixTime(time), options: options, cache: matchCache)
    let observation = observation(live, time: time)
    let batch = inference.ingest(observation)
    for trip in observation.trips {
      named.insert(trip.trip)
      routesNamed.insert(trip.routeID)
    }
    for vehicle in observation.vehicles { named.insert(vehicle.trip) }
    for trip in observation.trips where addedSequences[trip.trip] != nil { addedLastSeen[trip.trip] = time }
    // Numbers of trains gone for longer than a call stays open are forgotten.
    for (trip, seen) in addedLastSeen where time - seen > inference.openSeconds {
      addedSequences[trip] = nil
      addedLastSeen[trip] = nil
    }
    var ghosts: [TripEvent] = []
    // A break in the recording (longer than realtime is used for, 15 min): what was due before
    // it was not watched long enough to be called a ghost.
    if let lastTime, time - lastTime > options.reconciler.ignoreAfterSeconds { expected.removeAll() }
    if lastCheck.map({ time - $0 >= checkSeconds }) ?? true {
      lastCheck = time
      for running in try store.runningTrips(at: UnixTime(time)) {
        let trip = HistoryTrip(feed: running.feed.rawValue, tripID: running.tripID.rawValue, serviceDate: running.serviceDate.yyyymmdd)
        guard expected[trip] == nil, !named.contains(trip), !ghosted.contains(trip) else { continue }
        guard let details = try store.tripDetails(running.tripID, feed: running.feed) else { continue }
        expected[trip] = (time, details.route.id.rawValue)
      }
    }
    ghosts = try dueGhosts(before: time - ghostGraceSeconds)
    try history.transaction {
      try history.write(batch.events)
      try history.write(batch.predictions)
      try history.write(batch.tripEvents + ghosts)
      try history.markImported(source: source, time: time, now: importedAt)
    }
    lastTime = time
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
    return true
  }

  /// The expected instances first due before `cutoff` that nothing named: ghosts (on routes
  /// the feed speaks of, and not named by an earlier recording either).
  func dueGhosts(before cutoff: Int64) throws -> [TripEvent] {
    var result: [TripEvent] = []
    for (trip, due) in expected where due.time <= cutoff {
      expected[trip] = nil
      guard !named.contains(trip), routesNamed.contains(due.routeID), try !history.names(trip) else { continue }
      ghosted.insert(trip)
      result.append(TripEvent(trip: trip, routeID: due.routeID, kind: .ghost, time: due.time))
    }
    return result.sorted { $0.trip < $1.trip }
  }

  /// Writes the calls still open (so a later run resumes them). Call once at the end.
  public func finish() throws {
    try history.transaction { try history.write(inference.pending) }
  }

  // MARK: - From the match to an observation

  /// The calls of trains the timetable lacks, numbered by stop in the order first seen: such a
  /// feed (NYCT's) gives no stop_sequence, and the position in the update moves as stops drop
  /// out, so it cannot name a call from one snapshot to the next.
  var addedSequences: [HistoryTrip: [String: Int]] = [:]
  var addedLastSeen: [HistoryTrip: Int64] = [:]

  /// What `live` (one snapshot matched at its own time) says, as the inference reads it.
  func observation(_ live: LiveRealtime, time: Int64) -> SnapshotObservation {
    var trips: [SnapshotObservation.Trip] = []
    var keys: [TripInstance: HistoryTrip] = [:]
    for (instance, prediction) in live.realtime.predictions {
      guard let details = live.details[instance.tripID] else { continue }
      let trip = HistoryTrip(
        feed: details.feed.rawValue, tripID: instance.tripID.rawValue, serviceDate: instance.serviceDate.yyyymmdd,
        startTime: instance.startTime.map { Int($0.seconds) } ?? -1)
      keys[instance] = trip
      let calls = prediction.stops.map { stop in
        SnapshotObservation.Call(
          stopSequence: stop.stop.stopSequence, stopID: stop.stop.stopID.rawValue, scheduled: stop.stop.reference?.seconds,
          isListed: stop.source != .schedule, predicted: stop.source == .schedule ? nil : stop.expected?.seconds,
          isSkipped: stop.isSkipped)
      }
      trips.append(
        SnapshotObservation.Trip(
          trip: trip, routeID: details.route.id.rawValue, headsign: details.headsign, isCanceled: prediction.isCanceled,
          calls: calls))
    }
    // Trains the timetable lacks (ADDED, NYCT's own): their calls have no schedule, but their
    // predictions and actuals count for prediction accuracy.
    let feed = store.feedNames.first?.rawValue ?? ""
    var addedKeys: [String: HistoryTrip] = [:]
    for added in live.realtime.added {
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
    // The candidates of each trip, once (`LiveRealtime.instance(for:)` filters every trip each
    // time: quadratic over a feed of hundreds of vehicles).
    var candidates: [TripID: [ScheduledTrip]] = [:]
    for trip in live.trips { candidates[trip.instance.tripID, default: []].append(trip) }
    for message in live.feeds {
      for entity in message.entities where !entity.isDeletedOrDefault {
        guard let vehicle = entity.vehicle, let descriptor = vehicle.trip else { continue }
        let trip: HistoryTrip
        var sequence = vehicle.currentStopSequence.map(Int.init)
        if let id = descriptor.tripID, !id.isEmpty,
          let scheduled = LiveRealtime.pick(descriptor, among: candidates[TripID(id)] ?? [], realtime: live.realtime, now: live.now),
          let key = keys[scheduled.instance]
        {
          trip = key
          if sequence == nil, let stopID = vehicle.stopID {
            sequence = scheduled.stops.first(where: { $0.stopID.rawValue == stopID })?.stopSequence
          }
        } else if let id = descriptor.tripID, let key = addedKeys[id] {
          // A train the timetable lacks: its calls are numbered by stop.
          trip = key
          sequence = vehicle.stopID.flatMap { addedSequences[key]?[$0] }
        } else {
          continue
        }
        vehicles.append(
          SnapshotObservation.Vehicle(
            trip: trip, stopSequence: sequence, isStopped: vehicle.currentStatusOrDefault == .stoppedAt,
            time: vehicle.timestamp.map { Int64(clamping: $0) } ?? time))
      }
    }
    return SnapshotObservation(time: time, trips: trips, vehicles: vehicles)
  }
}
