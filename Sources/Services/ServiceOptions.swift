import GTFS
import Merge
import TransitModel

/// Everything the answers depend on beyond the data: built once from the settings by the
/// command line and passed to every entry point, so that two commands asked the same question
/// use the same thresholds, walking model and language.
public struct ServiceOptions: Sendable, Hashable {
  /// Staleness, the early and late thresholds, outliers and matching (DESIGN.md rules 11, 12).
  public var reconciler: ReconcilerOptions
  /// How people walk: the one formula for "reachable", access walks and commute walks.
  public var walking: WalkingModel
  /// The language alert texts are shown in (BCP 47), already resolved from the settings and
  /// the locale; "en" when neither says.
  public var language: String
  /// A change of trains with less buffer than this is tight (the transfer-margin setting;
  /// issue 35's guard).
  public var transferMarginSeconds: Int64
  /// The margin leave-now advice keeps for prediction error (the leave-margin setting's
  /// percent rule: 10 % of the time ahead, at most 5 min).
  public var leaveMargin = LeaveAdvice.Margin()
  /// Whether leave-now advice learns each route's margin from the history instead
  /// (`leave-margin = learned`, issue 34), where it holds enough calls.
  public var learnsLeaveMargin = false

  /// Options with the given parts (defaults: Merge's thresholds, 1.3 m/s × 1.25, English, a
  /// 3 min transfer margin).
  public init(
    reconciler: ReconcilerOptions = .init(), walking: WalkingModel = .init(), language: String = "en",
    transferMarginSeconds: Int64 = 180
  ) {
    self.reconciler = reconciler
    self.walking = walking
    self.language = language
    self.transferMarginSeconds = transferMarginSeconds
  }

  /// Options resolved from a rider's settings: what counts as early and late (`thresholds`),
  /// how they walk, the alerts' language, the transfer margin, and the leave-now margin (a
  /// percent of the time ahead, or learned from the history).
  public init(
    thresholds: DelayThresholds, walking: WalkingModel, language: String, transferMarginSeconds: Int64, leaveMarginPercent: Int,
    learnsLeaveMargin: Bool
  ) {
    var reconciler = ReconcilerOptions()
    reconciler.thresholds = thresholds
    self.init(reconciler: reconciler, walking: walking, language: language, transferMarginSeconds: transferMarginSeconds)
    leaveMargin = LeaveAdvice.Margin(percent: leaveMarginPercent)
    self.learnsLeaveMargin = learnsLeaveMargin
  }

  /// The delay class of `delaySeconds` under these thresholds (rule 12).
  public func status(delaySeconds: Int64) -> DepartureStatus { reconciler.status(delay: delaySeconds) }
}
