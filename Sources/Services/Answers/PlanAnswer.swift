import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// What a journey plan is asked (`plan FROM TO`): the two ends (or the trip the rider is on),
/// when, and the limits of the search.
public struct PlanRequest: Sendable {
  /// Where a journey starts: a stop, station, complex or place, or on board a running trip.
  public enum Start: Sendable {
    case at(JourneyEndpoint)
    /// The trip the rider is on (`--from-trip`, `--on`), placed once the realtime is read.
    case onBoard(FollowTracker.Target)
  }

  public var from: Start
  public var to: JourneyEndpoint
  /// Leave at or after this (or, with `isArriveBy`, arrive by it).
  public var time: UnixTime
  public var isArriveBy: Bool
  /// Only these modes (empty: all).
  public var modes: Set<TransitMode> = []
  /// The walking speed in metres per second; nil: the session's (the walking-speed setting).
  public var walkSpeed: Double?
  /// Metres walked at most to the first stop and from the last (transfers: at most 400 m).
  public var maxWalkMeters: Double = 800
  public var maxTransfers = 3
  /// Journeys wanted.
  public var limit = 3
  /// Only wheelchair-accessible trips and stops (`JourneyRequest.isAccessibleOnly`).
  public var isAccessibleOnly = false
  /// Only the `pick`th journey found (1-based); nil: all of them.
  public var pick: Int?
  /// Whether the answer carries the journeys' geometry (`--geojson`).
  public var includesGeometry = false

  /// A request for journeys from `from` to `to` at `time`.
  public init(from: Start, to: JourneyEndpoint, time: UnixTime, isArriveBy: Bool) {
    self.from = from
    self.to = to
    self.time = time
    self.isArriveBy = isArriveBy
  }

  /// The search the router is asked, under the session's walking model: the speed asked for,
  /// transfers walked at most 400 m (and no further than the walk allowed at the ends).
  public func journeyRequest(walking: WalkingModel) -> JourneyRequest {
    let model = WalkingModel(
      metersPerSecond: walkSpeed ?? walking.metersPerSecond, detourFactor: walking.detourFactor,
      maxTransferMeters: min(400, max(maxWalkMeters, 0)))
    var request = JourneyRequest(
      time: time, isArriveBy: isArriveBy, modes: modes, walking: model, maxWalkMeters: maxWalkMeters, maxTransfers: maxTransfers,
      limit: limit)
    request.isAccessibleOnly = isAccessibleOnly
    return request
  }
}

/// The journeys of a plan: everything `plan`'s text, `--json`, `--geojson` and the start of
/// `--watch` show. Its `Encodable` form is `plan --json`.
public struct PlanAnswer: Sendable {
  /// One journey found, with what its rendering reads beside it.
  public struct Option: Sendable {
    public var journey: JourneyPlanner.Journey
    /// The journey under the realtime it was planned with: its changes' buffers and states.
    public var guarded: GuardedJourney
    /// Each ride's wheelchair access, by the index of its leg.
    public var access: [Int: RideAccess]
    /// Leave by the minute shown (the departure rounded down to it).
    public var shownDeparture: UnixTime
    /// Arrive by the minute shown (the arrival rounded up to it).
    public var shownArrival: UnixTime
    /// Whole minutes between the two shown.
    public var minutes: Int64 { (shownArrival - shownDeparture) / 60 }
  }

  /// Why a plan has no answer, with what the realtime read on the way said.
  public struct Failure: Error, Sendable {
    public enum Reason: Sendable {
      /// The trip the rider is on cannot start a journey (`--from-trip`, `--on`).
      case onBoard(FollowTracker.Target, OnBoardFailure)
      /// A place (FROM or TO) with no stop within the walking limit.
      case unreachable(role: String, point: Coordinate, maxWalkMeters: Double)
      /// A network stop the timetable no longer has.
      case stopVanished(Int32)
      /// `pick` is past the journeys found; `limitReached` when the limit may have hidden more.
      case pickBeyond(pick: Int, found: Int, limitReached: Bool)
    }

    public var reason: Reason
    public var report: RealtimeReport
    public var realtimeProblems: [RealtimeProblem]
  }

  public var from: JourneyEndpoint
  public var to: JourneyEndpoint
  /// The moment asked at.
  public var now: UnixTime
  /// The time asked for: leave after it, or arrive by it.
  public var requested: UnixTime
  public var isArriveBy: Bool
  public var isAccessibleOnly: Bool
  /// The clock every time of the answer is on (the start's feed's, else the destination's).
  public var zone: LocalZone
  /// Whether several feeds are held (a stop and a ride then name their feed).
  public var namesFeed: Bool
  /// The journeys, best first (only the one picked, with `pick`).
  public var options: [Option]
  /// The search asked of the router (a watch re-plans with it).
  public var journeyRequest: JourneyRequest
  /// Whether any realtime feed was read.
  public var hasRealtime: Bool
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem]
  /// The size of the network searched and the time spent (nanoseconds, with a `ticks` clock).
  public var routeCount: Int
  public var tripCount: Int
  public var loadNanoseconds: UInt64
  public var searchNanoseconds: UInt64
  /// The journeys' lines, when asked for (`PlanRequest.includesGeometry`).
  public var geometry: PlanGeometry?

  /// The journeys found.
  public var journeys: [JourneyPlanner.Journey] { options.map(\.journey) }
}

extension TransitSession {
  /// The clock a plan from `from` (nil: on board) to `to` is told on: the start's feed's, else
  /// the destination's, else the first feed held's (a time the rider gives is on it).
  public func planZone(from: JourneyEndpoint?, to: JourneyEndpoint) -> LocalZone {
    store.timeZone(of: from?.stops.first?.feed ?? to.stops.first?.feed ?? store.feedNames[0])
  }

  /// The journeys of `request` at `now`, with the session's realtime (every feed): predicted
  /// times used, cancelled trips and skipped stops avoided, each journey guarded.
  /// - Parameter ticks: a monotonic clock in nanoseconds, to measure the load and the search.
  /// - Throws: `PlanAnswer.Failure`; the store's errors, and what the realtime source cannot go
  ///   on without.
  public func plan(_ request: PlanRequest, now: UnixTime, ticks: () -> UInt64 = { 0 }) throws -> PlanAnswer {
    let read = try realtime.read(preferring: nil)
    let live = try LiveRealtime(store: store, feeds: read.feeds, now: now, options: options)
    func failure(_ reason: PlanAnswer.Failure.Reason) -> PlanAnswer.Failure {
      PlanAnswer.Failure(reason: reason, report: live.report, realtimeProblems: read.problems)
    }
    let from: JourneyEndpoint
    switch request.from {
    case .at(let endpoint): from = endpoint
    case .onBoard(let target):
      do {
        from = .onBoard(try onBoard(target, live: live))
      } catch let reason as OnBoardFailure {
        throw failure(.onBoard(target, reason))
      }
    }
    let journeyRequest = request.journeyRequest(walking: options.walking)
    let plan: JourneyPlanner.Plan
    do {
      plan = try JourneyPlanner.plan(from: from, to: request.to, request: journeyRequest, store: store, live: live, ticks: ticks)
    } catch JourneyPlanner.Failure.unreachable(let role, let point, let meters) {
      throw failure(.unreachable(role: role, point: point, maxWalkMeters: meters))
    } catch JourneyPlanner.Failure.stopVanished(let index) {
      throw failure(.stopVanished(index))
    }
    var journeys = plan.journeys
    if let pick = request.pick {
      guard pick <= journeys.count else {
        throw failure(.pickBeyond(pick: pick, found: journeys.count, limitReached: journeys.count >= request.limit))
      }
      journeys = [journeys[pick - 1]]
    }
    let options = try journeys.map { journey in
      var access: [Int: RideAccess] = [:]
      for (index, leg) in journey.legs.enumerated() {
        if case .ride(let ride, _, _) = leg { access[index] = try RideAccess(ride, store: store) }
      }
      return PlanAnswer.Option(
        journey: journey, guarded: try guardedJourney(journey, live: live), access: access,
        shownDeparture: UnixTime(journey.departure.seconds - ((journey.departure.seconds % 60) + 60) % 60),
        shownArrival: UnixTime(journey.arrival.seconds + (60 - ((journey.arrival.seconds % 60) + 60) % 60) % 60))
    }
    let isOnBoard = if case .onBoard = request.from { true } else { false }
    var answer = PlanAnswer(
      from: from, to: request.to, now: now, requested: request.time, isArriveBy: request.isArriveBy,
      isAccessibleOnly: request.isAccessibleOnly, zone: planZone(from: isOnBoard ? nil : from, to: request.to),
      namesFeed: store.feedNames.count > 1, options: options, journeyRequest: journeyRequest, hasRealtime: !read.feeds.isEmpty,
      report: live.report, realtimeProblems: read.problems, routeCount: plan.network.timetable.routes.count,
      tripCount: plan.network.trips.count, loadNanoseconds: plan.loadNanoseconds, searchNanoseconds: plan.searchNanoseconds)
    if request.includesGeometry { answer.geometry = try PlanGeometry(answer, store: store) }
    return answer
  }
}

extension JourneyEndpoint {
  /// The name both ends share when they are the same stop (`isComplex` false) or the same
  /// complex; nil when they differ (a journey needs two places).
  public func sameEnd(as other: JourneyEndpoint) -> (name: String, isComplex: Bool)? {
    if case .stop(let a) = self, case .stop(let b) = other, a == b { return (a.name, false) }
    if case .complex(let a) = self, case .complex(let b) = other, a == b { return (a.name, true) }
    return nil
  }
}

extension TransitSession {
  /// Whether a plan reads TO before FROM: when FROM's name fits several places and TO's does
  /// not, TO is read alone and FROM narrowed to the places from which it is reached; else FROM
  /// is read first and narrows TO.
  /// - Throws: the store's errors.
  public func readsDestinationFirst(from: String, to: String) throws -> Bool {
    guard case .ambiguous = try place(named: from).outcome else { return false }
    return try place(named: to).outcome != .ambiguous
  }

  /// How a rider types `stop` back so that it resolves: its name when that is the stop's
  /// alone, else its code or id.
  /// - Throws: the store's errors.
  public func typedName(of stop: TransitModel.Stop) throws -> String { try store.typedName(of: stop) }
}
