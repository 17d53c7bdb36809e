import TransitModel

/// The thresholds a merge applies (DESIGN.md rules 11 and 12); all configurable.
public struct ReconcilerOptions: Hashable, Sendable {
  /// Realtime older than this is stale (3 feed periods of 30 s).
  public var staleAfterSeconds: Int64 = 90
  /// Realtime older than this is not used for predictions.
  public var ignoreAfterSeconds: Int64 = 900
  /// What counts as early and late (rule 12; `DelayThresholds.standard` unless set).
  public var thresholds = DelayThresholds.standard
  /// A stop prediction whose delay is beyond ± this is an outlier, reported and not trusted:
  /// the stop is shown on its timetable time, marked "prediction ignored".
  public var outlierSeconds: Int64 = 3600
  /// A trip update without start_date matches an instance only when the instance runs within
  /// this long of the update's time (so today's update does not land on yesterday's run).
  public var matchWindowSeconds: Int64 = 6 * 3600

  /// The defaults.
  public init() {}

  /// A delay at or below this is early (`thresholds`).
  public var earlyThresholdSeconds: Int64 {
    get { thresholds.earlySeconds }
    set { thresholds.earlySeconds = newValue }
  }
  /// A delay at or above this is late (`thresholds`).
  public var lateThresholdSeconds: Int64 {
    get { thresholds.lateSeconds }
    set { thresholds.lateSeconds = newValue }
  }

  /// The status of a delay (`DelayThresholds.status`).
  public func status(delay: Int64) -> DepartureStatus { thresholds.status(delay: delay) }
}
