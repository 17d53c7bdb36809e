import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// A journey kept live (`plan --watch`, issue 35): the journey, where it goes and how it was
/// searched, and what the updates so far have seen (each change's state, the journey offered).
public struct WatchedJourney: Sendable {
  var watch: JourneyWatch
  let destination: JourneyEndpoint
  let request: JourneyRequest
  /// The zone every time of a frame is on (the plan's).
  public let zone: LocalZone
  var alternative: JourneyPlanner.Journey?
  /// The updates made so far.
  public internal(set) var updates = 0

  /// A watch of the first journey of `answer` (the one picked).
  public init(_ answer: PlanAnswer, marginSeconds: Int64) {
    precondition(!answer.options.isEmpty, "a watch needs a journey")
    watch = JourneyWatch(journey: answer.options[0].journey, marginSeconds: marginSeconds)
    destination = answer.to
    request = answer.journeyRequest
    zone = answer.zone
  }
}

/// One update of a watched journey: the journey under the realtime of the moment, the changes
/// whose state moved, and the next journey from a change stop when a change went wrong. Its
/// `Encodable` form is one line of `plan --watch --json`.
public struct PlanWatchFrame: Sendable {
  public var guarded: GuardedJourney
  /// The changes whose state moved since the last update.
  public var changed: [Int]
  /// The journey offered from a change stop.
  public var alternative: JourneyPlanner.Journey?
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// Whether any realtime feed was read.
  public var hasRealtime: Bool
  public var zone: LocalZone
}

extension TransitSession {
  /// A watch of `answer`'s journey under the session's transfer margin.
  public func watch(_ answer: PlanAnswer) -> WatchedJourney { WatchedJourney(answer, marginSeconds: options.transferMarginSeconds) }

  /// The next update of `watch` with `feeds` at `now`. The next journey from a change stop is
  /// offered when a change's state moves, and at the first look when a change is already not
  /// safe (the worst such change's; none once it is safe again).
  /// - Throws: the store's errors.
  public func update(_ watch: inout WatchedJourney, feeds: [FeedMessage], now: UnixTime) throws -> PlanWatchFrame {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    let (guarded, changed) = try watch.watch.update(store: store, live: live)
    watch.updates += 1
    let offerFor = watch.updates == 1 ? guarded.transfers.indices.filter { guarded.transfers[$0].state != .safe } : changed
    if let worst = offerFor.map({ guarded.transfers[$0] }).max(by: { $0.state < $1.state }) {
      watch.alternative =
        worst.state == .safe
        ? nil
        : try? TransferGuard.alternative(
          for: worst, in: guarded, to: watch.destination, request: watch.request, store: store, live: live)
    }
    return PlanWatchFrame(
      guarded: guarded, changed: changed, alternative: watch.alternative, report: live.report, hasRealtime: !feeds.isEmpty,
      zone: watch.zone)
  }
}

extension PlanWatchFrame: Encodable {
  /// `GuardedJourneyAnswer`: the journey's progress, rides, changes and the offer.
  public func encode(to encoder: any Encoder) throws {
    try GuardedJourneyAnswer(guarded, zone: zone, changed: changed, alternative: alternative).encode(to: encoder)
  }
}

// MARK: - Minutes as shown

extension GuardedJourney.Ride {
  /// Whole minutes the expected departure is off the timetable (toward zero: "+3", "-1").
  public var departureShiftMinutes: Int64 { (expectedDeparture - scheduledDeparture) / 60 }
  /// Whole minutes the expected arrival is off the timetable (toward zero).
  public var arrivalShiftMinutes: Int64 { (expectedArrival - scheduledArrival) / 60 }
}

extension GuardedJourney.Transfer {
  /// The walk of the change in whole minutes, rounded up.
  public var walkMinutes: Int64 { (walkSeconds + 59) / 60 }
}

/// A change's buffer as a rider reads it: seconds under a minute, else whole minutes (toward
/// zero); `isShort` when it is negative (the arrival plus the walk is later than the
/// departure).
public struct BufferAmount: Sendable, Hashable {
  public var isShort: Bool
  public var value: Int64
  public var isMinutes: Bool

  /// The amount of `seconds` of buffer.
  public init(seconds: Int64) {
    isShort = seconds < 0
    let magnitude = isShort ? -seconds : seconds
    isMinutes = magnitude >= 60
    value = isMinutes ? magnitude / 60 : magnitude
  }
}

extension JourneyPlanner.Leg {
  /// A walk's duration in whole minutes, rounded up; nil for a ride.
  public var walkMinutes: Int64? {
    guard case .walk(_, _, _, let seconds, _) = self else { return nil }
    return (seconds + 59) / 60
  }
}
