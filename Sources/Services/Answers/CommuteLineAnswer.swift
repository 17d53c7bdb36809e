import TransitModel
import UserData

/// `commute NAME --line`: today's recommended departure of one commute and when to leave for
/// it, from the realtime of the commute's own feed when the source has some.
public struct CommuteLineAnswer: Sendable {
  /// What the line names.
  public enum Outcome: Sendable {
    /// The commute does not run today.
    case notToday
    /// Nothing gets there by the deadline today.
    case nothing
    /// The recommended departure, and when to leave for it.
    case departure(Departure, advice: LeaveAdvice)
  }

  public var commute: UserStore.Commute
  /// The clock of the commute's stop.
  public var zone: LocalZone
  public var outcome: Outcome
  /// The realtime's age, when any realtime was read.
  public var freshness: RealtimeFreshness?
  /// Whether a fetch failed or timed out (the cache or the timetable answered).
  public var isOffline: Bool
}

extension TransitSession {
  /// The line of `commute` at `now`: the margin is the board's (learned from the history with
  /// `leave-margin = learned`, else the fixed rule).
  /// - Throws: `CommuteFailure.missingStop` when its stop is no longer held; the store's, the
  ///   history's and the realtime source's errors.
  public func commuteLine(_ commute: UserStore.Commute, now: UnixTime) throws -> CommuteLineAnswer {
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard let stop = stops.first else { throw CommuteFailure.missingStop(name: commute.name, stopID: commute.stopID) }
    let zone = store.timeZone(of: stop.feed)
    let today = store.localDate(of: now, feed: stop.feed)
    var answer = CommuteLineAnswer(commute: commute, zone: zone, outcome: .notToday, freshness: nil, isOffline: false)
    guard CommutePlanner.runs(commute, on: today) else { return answer }
    let read = try realtime.read(preferring: stop.feed)
    answer.isOffline = read.isOffline
    let live = try LiveRealtime(store: store, feeds: read.feeds, now: now, options: options)
    answer.freshness = read.feeds.isEmpty ? nil : live.report.freshness
    let plan = try CommutePlanner.plan(commute, stops: stops, on: today, store: store, live: live)
    guard let index = plan.recommended else {
      answer.outcome = .nothing
      return answer
    }
    let option = plan.options[index]
    let (margin, _) = try leaveMargin(for: option.departure, zone: zone, now: now)
    answer.outcome = .departure(
      option.departure,
      advice: LeaveAdvice.classify(departs: option.departs, walkSeconds: Int64(commute.walkMinutes * 60), now: now, margin: margin))
    return answer
  }
}
