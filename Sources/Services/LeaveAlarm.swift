import Merge
import TransitModel

/// The commute watch's bell (issue 20): it rings once, when the time to leave for the
/// recommended departure comes, and not for a departure already gone.
public struct LeaveAlarm: Sendable, Hashable {
  /// Whether it has rung in this watch.
  public private(set) var hasRung = false

  /// A bell not yet rung.
  public init() {}

  /// Whether to ring now: the first time `now` reaches `leaveBy` while the departure
  /// (`departs`) is still ahead. Rings at most once.
  public mutating func shouldRing(leaveBy: UnixTime, departs: UnixTime, now: UnixTime) -> Bool {
    guard !hasRung, now >= leaveBy, now < departs else { return false }
    hasRung = true
    return true
  }
}

/// Which departure a status line names (issue 20, `--line`).
public enum StatusLineChoice {
  /// The first departure in `departures` (soonest first) that runs (not cancelled or skipped)
  /// and, with a walk, can still be caught at least at a run; nil when there is none.
  public static func first(
    _ departures: [Departure], walkSeconds: Int64?, now: UnixTime, margin: LeaveAdvice.Margin
  ) -> (Departure, LeaveAdvice?)? {
    first(departures, walkSeconds: walkSeconds, now: now) { _ in margin }
  }

  /// `first(_:walkSeconds:now:margin:)` with each departure's own margin (`leave-margin =
  /// learned`: the history's lateness of its route, stop and hour).
  public static func first(
    _ departures: [Departure], walkSeconds: Int64?, now: UnixTime, margin: (Departure) throws -> LeaveAdvice.Margin
  ) rethrows -> (Departure, LeaveAdvice?)? {
    for departure in departures where departure.status != .cancelled && departure.status != .skipped {
      guard let time = departure.time, time >= now else { continue }
      guard let walkSeconds else { return (departure, nil) }
      let advice = LeaveAdvice.classify(departs: time, walkSeconds: walkSeconds, now: now, margin: try margin(departure))
      if advice != .tooLate { return (departure, advice) }
    }
    return nil
  }

  /// The first row of a board (soonest first) that runs and, with a walk (each row's own, from
  /// the board's `from` to the stop or platform it leaves from), can still be caught at least
  /// at a run; nil when there is none. On a board of several stops each row is weighed by the
  /// walk to its own stop.
  /// Each row is weighed with its own margin (`Board.Row.margin`: with `leave-margin =
  /// learned`, the history's lateness of its route, stop and hour; else the fixed rule).
  public static func first(_ rows: [Board.Row], now: UnixTime) -> (Board.Row, LeaveAdvice?)? {
    for row in rows {
      guard let (_, advice) = first([row.departure], walkSeconds: row.walkSeconds, now: now, margin: row.margin) else {
        continue
      }
      return (row, advice)
    }
    return nil
  }
}
