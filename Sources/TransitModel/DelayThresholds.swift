/// What counts as early, on time and late (DESIGN.md rule 12): the one rule every answer that
/// classifies a delay applies (boards, vehicles, follow, history), and the defaults a rider
/// gets until `transit config set early|late` says otherwise.
public struct DelayThresholds: Hashable, Sendable {
  /// A delay at or below this many seconds is early.
  public var earlySeconds: Int64
  /// A delay at or above this many seconds is late.
  public var lateSeconds: Int64

  /// The thresholds a rider gets by default: early from a minute ahead, late from two behind.
  public static let standard = DelayThresholds(earlySeconds: -60, lateSeconds: 120)

  /// Thresholds of `earlySeconds` (at or below: early) and `lateSeconds` (at or above: late).
  public init(earlySeconds: Int64, lateSeconds: Int64) {
    self.earlySeconds = earlySeconds
    self.lateSeconds = lateSeconds
  }

  /// The class of a delay of `delay` seconds: early, on time or late.
  public func status(delay: Int64) -> DepartureStatus {
    if delay <= earlySeconds { return .early }
    if delay >= lateSeconds { return .late }
    return .onTime
  }
}
