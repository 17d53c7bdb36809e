/// Prediction accuracy as the public ETA Accuracy Benchmark defines it (TransitApp's
/// ETA-Accuracy-Benchmark, after IBI Group): predictions are bucketed by how far ahead of the
/// predicted time they were made, and one is accurate when actual − predicted lies in the
/// bucket's window; the score is the mean of the buckets' accuracies.
public enum ETAAccuracy {
  /// A lead bucket: predictions made `leadSeconds` ahead, and the window of actual − predicted
  /// that counts as accurate (both ends included).
  public struct Bucket: Sendable, Hashable {
    /// Leads from `lowerLead` (included) to `upperLead` (excluded), in seconds.
    public var lowerLead: Int64
    public var upperLead: Int64
    /// The accurate window of actual − predicted, in seconds.
    public var earliest: Int64
    public var latest: Int64
    /// "0-3 min".
    public var label: String
  }

  /// The four buckets: 0–3 min [−30 s, +90 s], 3–6 min [−1, +2.5 min], 6–10 min [−1, +3.5 min],
  /// 10–15 min [−1.5, +4.5 min].
  public static let buckets: [Bucket] = [
    Bucket(lowerLead: 0, upperLead: 180, earliest: -30, latest: 90, label: "0-3 min"),
    Bucket(lowerLead: 180, upperLead: 360, earliest: -60, latest: 150, label: "3-6 min"),
    Bucket(lowerLead: 360, upperLead: 600, earliest: -60, latest: 210, label: "6-10 min"),
    Bucket(lowerLead: 600, upperLead: 900, earliest: -90, latest: 270, label: "10-15 min"),
  ]

  /// The bucket of a prediction made `leadSeconds` before the time it predicts, or nil (past,
  /// or 15 min or more ahead).
  public static func bucket(leadSeconds: Int64) -> Int? {
    buckets.firstIndex { leadSeconds >= $0.lowerLead && leadSeconds < $0.upperLead }
  }

  /// One prediction judged: made at `madeAt`, saying `predicted`, against `actual`.
  public struct Sample: Sendable, Hashable {
    public var madeAt: Int64
    public var predicted: Int64
    public var actual: Int64

    /// Creates a sample.
    public init(madeAt: Int64, predicted: Int64, actual: Int64) {
      self.madeAt = madeAt
      self.predicted = predicted
      self.actual = actual
    }
  }

  /// Each bucket's count and accurate count, and the score.
  public struct Score: Sendable, Hashable, Encodable {
    /// One bucket's figures.
    public struct BucketScore: Sendable, Hashable, Encodable {
      public var bucket: String
      public var count: Int
      public var accurate: Int
      /// accurate / count; nil without predictions.
      public var accuracy: Double? { count == 0 ? nil : Double(accurate) / Double(count) }

      enum CodingKeys: String, CodingKey { case bucket, count, accurate, accuracy }
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bucket, forKey: .bucket)
        try container.encode(count, forKey: .count)
        try container.encode(accurate, forKey: .accurate)
        try container.encode(accuracy, forKey: .accuracy)
      }
    }

    /// The four buckets, in order.
    public var buckets: [BucketScore]
    /// The mean of the buckets' accuracies, over the buckets holding predictions (nil when none
    /// does).
    public var score: Double? {
      let scored = buckets.compactMap(\.accuracy)
      return scored.isEmpty ? nil : scored.reduce(0, +) / Double(scored.count)
    }
    /// Every prediction judged.
    public var count: Int { buckets.map(\.count).reduce(0, +) }

    enum CodingKeys: String, CodingKey { case buckets, score, count }
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(buckets, forKey: .buckets)
      try container.encode(score, forKey: .score)
      try container.encode(count, forKey: .count)
    }
  }

  /// The score of `samples` (those outside every bucket are left out).
  /// - Complexity: O(samples).
  public static func score(_ samples: [Sample]) -> Score {
    var counts = [Int](repeating: 0, count: buckets.count)
    var accurate = counts
    for sample in samples {
      guard let index = bucket(leadSeconds: sample.predicted - sample.madeAt) else { continue }
      counts[index] += 1
      let error = sample.actual - sample.predicted
      if error >= buckets[index].earliest && error <= buckets[index].latest { accurate[index] += 1 }
    }
    return Score(
      buckets: buckets.indices.map { .init(bucket: buckets[$0].label, count: counts[$0], accurate: accurate[$0]) })
  }
}
