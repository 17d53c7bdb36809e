/// Counts a decoded feed may not exceed, so that a hostile or broken feed fails early with a
/// one-line error instead of exhausting memory. They are checked before room is made for the
/// elements (the decoder sizes each repeated field from a scan of its tags), so an input of
/// millions of empty entities is refused having allocated nothing.
///
/// ```swift
/// var limits = DecodingLimits.default
/// limits.maxEntities = 500_000
/// let feed = try FeedMessage(decoding: bytes, limits: limits)
/// ```
public struct DecodingLimits: Sendable, Hashable {
  /// The most `entity` elements a feed may hold. Default 100,000 (the largest real feeds,
  /// whole-country trip updates, hold a few tens of thousands).
  public var maxEntities: Int
  /// The most `stop_time_update` elements, summed over every trip update. Default 500,000.
  public var maxStopTimeUpdates: Int
  /// The most elements of repeated message fields of every kind together (entities, stop time
  /// updates, informed entities, translations, shape points...). Default 1,000,000.
  public var maxMessages: Int

  /// Creates limits; every argument defaults to the value documented on its property.
  public init(maxEntities: Int = 100_000, maxStopTimeUpdates: Int = 500_000, maxMessages: Int = 1_000_000) {
    self.maxEntities = maxEntities
    self.maxStopTimeUpdates = maxStopTimeUpdates
    self.maxMessages = maxMessages
  }

  /// 100,000 entities, 500,000 stop time updates, 1,000,000 repeated messages in all.
  public static let `default` = DecodingLimits()

  /// No limits beyond the input's own size (tests and tools that decode trusted captures).
  public static let unlimited = DecodingLimits(maxEntities: .max, maxStopTimeUpdates: .max, maxMessages: .max)
}
