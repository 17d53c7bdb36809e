/// The figures of a set of delays (actual − scheduled, seconds): on-time share under the
/// early/late thresholds, median and 90th percentile, and a one-minute histogram.
public struct DelayStatistics: Sendable, Hashable, Encodable {
  /// Nothing is claimed from fewer observations than this (the rule: say so instead).
  public static let minimumCount = 3

  /// How many delays.
  public var count: Int
  /// How many were on time (early < delay < late), early (≤ early) and late (≥ late).
  public var onTime: Int
  public var early: Int
  public var late: Int
  /// The median and 90th percentile (nearest rank) in seconds; nil under `minimumCount`.
  public var medianSeconds: Int64?
  public var p90Seconds: Int64?
  /// Counts per one-minute bin: `bins[i]` holds delays in [(firstMinute + i) min, +1 min).
  public var firstMinute: Int
  public var bins: [Int]

  /// Whether there are enough observations to claim anything.
  public var isEnough: Bool { count >= Self.minimumCount }

  /// The figures of `delays` with the thresholds `earlySeconds` (early at or below) and
  /// `lateSeconds` (late at or above).
  /// - Complexity: O(n log n).
  public init(_ delays: [Int64], earlySeconds: Int64, lateSeconds: Int64) {
    let sorted = delays.sorted()
    count = sorted.count
    early = sorted.filter { $0 <= earlySeconds }.count
    late = sorted.filter { $0 >= lateSeconds }.count
    onTime = count - early - late
    if sorted.count >= Self.minimumCount {
      medianSeconds = Self.percentile(sorted, 50)
      p90Seconds = Self.percentile(sorted, 90)
    }
    guard let low = sorted.first, let high = sorted.last else {
      firstMinute = 0
      bins = []
      return
    }
    firstMinute = Int(Self.minute(low))
    var bins = [Int](repeating: 0, count: Int(Self.minute(high)) - firstMinute + 1)
    for delay in sorted { bins[Int(Self.minute(delay)) - firstMinute] += 1 }
    self.bins = bins
  }

  /// The whole minute a delay falls in, rounded down (−30 s is in minute −1).
  public static func minute(_ seconds: Int64) -> Int64 {
    seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
  }

  /// The `p`th percentile of `sorted` by nearest rank: the value at rank ⌈p/100 × n⌉.
  public static func percentile(_ sorted: [Int64], _ p: Int) -> Int64 {
    precondition(!sorted.isEmpty, "percentile of no values")
    let rank = (p * sorted.count + 99) / 100
    return sorted[max(0, rank - 1)]
  }

  enum CodingKeys: String, CodingKey {
    case count, onTime = "on_time", early, late, medianSeconds = "median_seconds", p90Seconds = "p90_seconds"
    case firstMinute = "first_minute", bins, enough
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encode(onTime, forKey: .onTime)
    try container.encode(early, forKey: .early)
    try container.encode(late, forKey: .late)
    try container.encode(medianSeconds, forKey: .medianSeconds)
    try container.encode(p90Seconds, forKey: .p90Seconds)
    try container.encode(firstMinute, forKey: .firstMinute)
    try container.encode(bins, forKey: .bins)
    try container.encode(isEnough, forKey: .enough)
  }
}
