import Merge
import TransitModel

/// When to leave for a departure, on foot from where you are (issue 20): the rule behind the
/// board's "leave in 6 min", the status line and the commute watch's bell.
///
/// The time you need is the walk (the walking model's, or a commute's saved minutes) plus a
/// margin for prediction error. A prediction for a departure an hour away can move more than
/// one for a departure in three minutes, so the margin grows with how far ahead the departure
/// is: `marginPercent` of the time from now to the departure, at most `maxMarginSeconds`.
public enum LeaveAdvice: Sendable, Hashable {
  /// Leave this many whole minutes from now (1 or more).
  case leaveIn(minutes: Int64)
  /// Leave now: the time to leave has come (within the minute), or the margin is spent but a
  /// normal walk still makes it.
  case leaveNow
  /// Reachable only faster than the walking speed, up to `LeaveAdvice.runFactor` times it.
  case run
  /// Not reachable even at that pace.
  case tooLate

  /// The fastest pace counted as "run", as a multiple of the walking speed.
  public static let runFactor = 1.5

  /// How the margin grows with the prediction's distance in time.
  public struct Margin: Sendable, Hashable {
    /// Percent of the time from now to the departure.
    public var percent: Int
    /// The margin never exceeds this.
    public var maxSeconds: Int64
    /// A margin of this many seconds whatever the time ahead (`leave-margin = learned`: the
    /// 90th percentile lateness the history recorded), instead of the percent rule.
    public var learnedSeconds: Int64?

    /// A margin of `percent` % of the time ahead (default 10 %), at most `maxSeconds` (5 min).
    public init(percent: Int = 10, maxSeconds: Int64 = 300) {
      self.percent = percent
      self.maxSeconds = maxSeconds
    }

    /// A learned margin of `seconds`.
    public init(learnedSeconds seconds: Int64) {
      self.init()
      learnedSeconds = seconds
    }

    /// The margin for a departure `secondsAhead` from now (none for one already due).
    public func seconds(ahead secondsAhead: Int64) -> Int64 {
      guard secondsAhead > 0 else { return 0 }
      if let learnedSeconds { return learnedSeconds }
      return min(maxSeconds, secondsAhead * Int64(percent) / 100)
    }
  }

  /// The latest moment to leave for a departure at `departs` with a walk of `walkSeconds`:
  /// the departure less the walk and the margin.
  public static func leaveBy(departs: UnixTime, walkSeconds: Int64, now: UnixTime, margin: Margin) -> UnixTime {
    departs - walkSeconds - margin.seconds(ahead: departs - now)
  }

  /// The advice at `now` for a departure at `departs` that is `walkSeconds` away on foot.
  public static func classify(departs: UnixTime, walkSeconds: Int64, now: UnixTime, margin: Margin) -> LeaveAdvice {
    let leave = leaveBy(departs: departs, walkSeconds: walkSeconds, now: now, margin: margin)
    let untilDeparture = departs - now
    if now <= leave {
      let minutes = (leave - now) / 60
      return minutes >= 1 ? .leaveIn(minutes: minutes) : .leaveNow
    }
    if untilDeparture >= walkSeconds { return .leaveNow }
    // Running: the walk done at `runFactor` times the speed (rounded up to the second).
    let runSeconds = Int64((Double(walkSeconds) / runFactor).rounded(.up))
    return untilDeparture >= runSeconds ? .run : .tooLate
  }

  /// The advice for `departure` (none for one cancelled or skipped, or without a time).
  public static func classify(_ departure: Departure, walkSeconds: Int64, now: UnixTime, margin: Margin) -> LeaveAdvice? {
    guard departure.status != .cancelled, departure.status != .skipped, let time = departure.time else { return nil }
    return classify(departs: time, walkSeconds: walkSeconds, now: now, margin: margin)
  }

  /// "leave in 6 min", "leave now", "run", "too late".
  public var text: String {
    switch self {
    case .leaveIn(let minutes): return "leave in \(minutes) min"
    case .leaveNow: return "leave now"
    case .run: return "run"
    case .tooLate: return "too late"
    }
  }
}

extension WalkingModel {
  /// Whole minutes of walk for `seconds` (rounded up: "4 min walk"), at least 1.
  public static func minutes(seconds: Int32) -> Int {
    max(1, (Int(seconds) + 59) / 60)
  }
}
