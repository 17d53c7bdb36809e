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

  /// The delay class of `delaySeconds` under these thresholds (rule 12).
  public func status(delaySeconds: Int64) -> DepartureStatus { reconciler.status(delay: delaySeconds) }
}
