import GTFS
import Merge
import Routing
import TransitModel

/// How a change between two rides of a journey stands (issue 35).
public enum TransferState: String, Sendable, Hashable, CaseIterable, Comparable {
  /// The buffer is at least the transfer margin (a setting, 3 min by default).
  case safe
  /// Under the margin, but a minute or more.
  case tight
  /// Under a minute.
  case atRisk = "at_risk"
  /// The next ride leaves before the rider can reach it (or it is cancelled, or skips the stop).
  case missed

  /// The state of a buffer of `bufferSeconds` (the next ride's expected departure minus the
  /// arrival plus the walk) under a margin of `marginSeconds`.
  public static func of(bufferSeconds: Int64, marginSeconds: Int64) -> TransferState {
    if bufferSeconds < 0 { return .missed }
    if bufferSeconds < 60 { return .atRisk }
    if bufferSeconds < marginSeconds { return .tight }
    return .safe
  }

  /// "safe", "tight", "at risk", "missed".
  public var text: String { self == .atRisk ? "at risk" : rawValue }

  public static func < (a: TransferState, b: TransferState) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// A planned journey kept live (issue 35, `plan --watch`): each ride's expected departure and
/// arrival from the one realtime path, each change's buffer and state, and where the rider is.
public struct GuardedJourney: Sendable {
  /// One ride, live.
  public struct Ride: Sendable {
    public var ride: RoutingRide
    /// The timetable's departure from the boarding stop and arrival at the alighting stop.
    public var scheduledDeparture: UnixTime
    public var scheduledArrival: UnixTime
    /// Realtime's, else the timetable's.
    public var expectedDeparture: UnixTime
    public var expectedArrival: UnixTime
    /// Whether realtime predicts the trip.
    public var isLive: Bool
    /// Whether the trip is cancelled (or deleted).
    public var isCancelled: Bool
    /// Whether it will not stop where the rider boards or alights (SKIPPED).
    public var skipsBoarding: Bool
    public var skipsAlighting: Bool
  }

  /// One change, from ride `index` to ride `index + 1`.
  public struct Transfer: Sendable {
    public var index: Int
    /// Where the rider gets off and where the next ride leaves from.
    public var from: Stop?
    public var to: Stop?
    /// The walk between them (0 on the same platform).
    public var walkSeconds: Int64
    /// The next ride's expected departure minus (the arrival plus the walk).
    public var bufferSeconds: Int64
    public var state: TransferState
    /// Whether the rider is past it (on the next ride or later): the state no longer changes.
    public var isDone: Bool
  }

  /// Where the rider is, from the clock and the rides' expected times.
  public enum Progress: Sendable, Hashable {
    /// Not yet on the first ride.
    case beforeFirstRide
    /// On ride `index`.
    case riding(Int)
    /// Between ride `index` and the next.
    case changing(Int)
    /// Past the last ride.
    case arrived
  }

  public var journey: JourneyPlanner.Journey
  public var rides: [Ride]
  public var transfers: [Transfer]
  public var progress: Progress
  /// The last ride's expected arrival (plus the last walk).
  public var expectedArrival: UnixTime
  public var now: UnixTime
}

/// The transfer guard's rules (issue 35): rides' live times, buffers and states, progress, and
/// the next journey from a change stop when a change goes wrong.
public enum TransferGuard {
  /// The default transfer margin: a change with less buffer is tight.
  public static let defaultMarginSeconds: Int64 = 180

  /// `journey` as realtime `live` has it, the changes judged against `marginSeconds`.
  /// - Throws: the store's errors.
  public static func guarded(
    _ journey: JourneyPlanner.Journey, store: Store, live: LiveRealtime, marginSeconds: Int64
  ) throws
    -> GuardedJourney
  {
    var rides: [GuardedJourney.Ride] = []
    var walks: [Int64] = [0]  // the walking seconds after each ride, before the next
    var lastWalk: Int64 = 0
    for leg in journey.legs {
      switch leg {
      case .ride(let ride, let departure, let arrival):
        rides.append(try liveRide(ride, departure: departure, arrival: arrival, store: store, live: live))
        walks.append(0)
        lastWalk = 0
      case .walk(_, _, _, let seconds, _):
        walks[walks.count - 1] += seconds
        lastWalk += seconds
      }
    }
    let now = live.now
    var progress = GuardedJourney.Progress.arrived
    if let first = rides.first, now < first.expectedDeparture, !journey.startsOnBoard {
      progress = .beforeFirstRide
    } else {
      for (index, ride) in rides.enumerated() {
        if now < ride.expectedArrival {
          progress = .riding(index)
          break
        }
        if index + 1 < rides.count, now < rides[index + 1].expectedDeparture {
          progress = .changing(index)
          break
        }
      }
    }
    var transfers: [GuardedJourney.Transfer] = []
    for index in rides.indices.dropLast() {
      let a = rides[index], b = rides[index + 1]
      let walk = walks[index + 1]
      let buffer = b.expectedDeparture - (a.expectedArrival + walk)
      var state = TransferState.of(bufferSeconds: buffer, marginSeconds: marginSeconds)
      if b.isCancelled || b.skipsBoarding || a.skipsAlighting { state = .missed }
      let isDone: Bool
      switch progress {
      case .riding(let ride): isDone = ride > index
      case .changing(let change): isDone = change > index
      case .arrived: isDone = true
      case .beforeFirstRide: isDone = false
      }
      transfers.append(
        GuardedJourney.Transfer(
          index: index, from: a.ride.stops.last?.stop, to: b.ride.stops.first?.stop, walkSeconds: walk, bufferSeconds: buffer,
          state: state, isDone: isDone))
    }
    let arrival = (rides.last?.expectedArrival).map { $0 + lastWalk } ?? journey.arrival
    return GuardedJourney(journey: journey, rides: rides, transfers: transfers, progress: progress, expectedArrival: arrival, now: now)
  }

  /// One ride's timetable and expected times at its boarding and alighting stops.
  static func liveRide(
    _ ride: RoutingRide, departure: UnixTime, arrival: UnixTime, store: Store, live: LiveRealtime
  ) throws
    -> GuardedJourney.Ride
  {
    let board = ride.stops.first?.stopSequence, alight = ride.stops.last?.stopSequence
    var scheduledDeparture = departure, scheduledArrival = arrival
    if ride.startTime == nil {
      let calls = try store.tripCalls(ride.tripID, feed: ride.feed, serviceDate: ride.serviceDate)
      if let call = calls.first(where: { $0.stopSequence == board }), let time = call.departure ?? call.arrival {
        scheduledDeparture = time
      }
      if let call = calls.first(where: { $0.stopSequence == alight }), let time = call.arrival ?? call.departure {
        scheduledArrival = time
      }
    }
    let instance = TripInstance(tripID: ride.tripID, serviceDate: ride.serviceDate, startTime: ride.startTime)
    let prediction = live.prediction(for: instance)
    let boarding = prediction?.stops.first { $0.stop.stopSequence == board }
    let alighting = prediction?.stops.first { $0.stop.stopSequence == alight }
    func predicted(_ stop: PredictedStop?, arrival: Bool) -> UnixTime? {
      guard let stop, stop.source != .schedule, !stop.isSkipped else { return nil }
      return arrival ? stop.expectedArrival ?? stop.expected : stop.expected
    }
    let expectedDeparture = predicted(boarding, arrival: false) ?? scheduledDeparture
    // Never arriving before it leaves, whatever the feed says.
    let expectedArrival = max(predicted(alighting, arrival: true) ?? scheduledArrival, expectedDeparture)
    return GuardedJourney.Ride(
      ride: ride, scheduledDeparture: scheduledDeparture, scheduledArrival: scheduledArrival, expectedDeparture: expectedDeparture,
      expectedArrival: expectedArrival, isLive: prediction.map { !$0.isCanceled } ?? false,
      isCancelled: (prediction?.isCanceled ?? false) || live.realtime.deleted.contains(instance),
      skipsBoarding: boarding?.isSkipped ?? false, skipsAlighting: alighting?.isSkipped ?? false)
  }

  /// A commute's last leg judged as a change (`commute NAME --watch`): the buffer between
  /// reaching the destination (`reaches`: the ride's expected arrival plus the walk after it)
  /// and the deadline, and its state under the same margin.
  public static func deadline(
    reaches: UnixTime, deadline: UnixTime, marginSeconds: Int64
  ) -> (
    bufferSeconds: Int64, state: TransferState
  ) {
    let buffer = deadline - reaches
    return (buffer, TransferState.of(bufferSeconds: buffer, marginSeconds: marginSeconds))
  }

  /// The journey to offer when change `transfer` goes wrong: re-planned live from the stop the
  /// rider gets off at, leaving at the expected arrival there, to `destination`; the first
  /// journey found that does not take the next ride's trip (the one at risk). Nil when there
  /// is none.
  /// - Throws: `JourneyPlanner.Failure`; the store's errors.
  public static func alternative(
    for transfer: GuardedJourney.Transfer, in guarded: GuardedJourney, to destination: JourneyEndpoint, request: JourneyRequest,
    store: Store, live: LiveRealtime
  ) throws -> JourneyPlanner.Journey? {
    guard let stop = transfer.from, transfer.index + 1 < guarded.rides.count else { return nil }
    let avoided = guarded.rides[transfer.index + 1].ride.tripID
    var asked = request
    asked.time = guarded.rides[transfer.index].expectedArrival
    asked.isArriveBy = false
    asked.limit = max(request.limit, 4)
    let plan = try JourneyPlanner.plan(from: .stop(stop), to: destination, request: asked, store: store, live: live)
    return plan.journeys.first { journey in
      let first = journey.legs.lazy.compactMap { leg -> TripID? in
        if case .ride(let ride, _, _) = leg { return ride.tripID }
        return nil
      }.first
      return first != avoided
    }
  }
}

/// The live guard of one journey across snapshots (`plan --watch`): what changed state since
/// the last look, so the bell rings once per change; a change the rider is past keeps its
/// last state.
public struct JourneyWatch: Sendable {
  /// The journey watched.
  public let journey: JourneyPlanner.Journey
  /// The transfer margin.
  public let marginSeconds: Int64
  /// The states last seen, per change.
  public private(set) var states: [TransferState?] = []
  var frozen: [GuardedJourney.Transfer?] = []

  /// A watch of `journey`.
  public init(journey: JourneyPlanner.Journey, marginSeconds: Int64) {
    self.journey = journey
    self.marginSeconds = marginSeconds
  }

  /// The journey under `live`, and the changes whose state moved since the last call (none
  /// the first time).
  /// - Throws: the store's errors.
  public mutating func update(store: Store, live: LiveRealtime) throws -> (GuardedJourney, changed: [Int]) {
    var guarded = try TransferGuard.guarded(journey, store: store, live: live, marginSeconds: marginSeconds)
    if frozen.count != guarded.transfers.count { frozen = Array(repeating: nil, count: guarded.transfers.count) }
    var changed: [Int] = []
    for index in guarded.transfers.indices {
      if let kept = frozen[index] {
        guarded.transfers[index] = kept
        continue
      }
      let transfer = guarded.transfers[index]
      if transfer.isDone { frozen[index] = transfer }
      if states.count > index, let before = states[index], before != transfer.state { changed.append(index) }
    }
    states = guarded.transfers.map(\.state)
    return (guarded, changed)
  }
}
