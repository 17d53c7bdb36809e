import History
import Testing

/// The ETA benchmark's buckets and windows, on a hand-computed example that sits on each
/// bucket's edges.
@Suite struct ETAAccuracyTests {
  /// Leads at each bucket's edges: 0 s and 179 s are the first bucket, 180 s the second, 599 s
  /// the third, 600 s and 899 s the fourth; 900 s and -1 s are in none.
  @Test(arguments: zip([0, 179, 180, 359, 360, 599, 600, 899, 900, -1] as [Int64], [0, 0, 1, 1, 2, 2, 3, 3, nil, nil] as [Int?]))
  func bucketsByLead(lead: Int64, bucket: Int?) {
    #expect(ETAAccuracy.bucket(leadSeconds: lead) == bucket)
  }

  @Test func scoresEachBucketAtItsEdges() {
    let made: Int64 = 1_000_000
    func sample(lead: Int64, error: Int64) -> ETAAccuracy.Sample {
      ETAAccuracy.Sample(madeAt: made, predicted: made + lead, actual: made + lead + error)
    }
    let samples = [
      // 0-3 min, [-30 s, +90 s]: -30 and +90 accurate, -31 and +91 not: 2 of 4.
      sample(lead: 60, error: -30), sample(lead: 60, error: 90), sample(lead: 60, error: -31), sample(lead: 179, error: 91),
      // 3-6 min, [-60 s, +150 s]: -60, +150 accurate; -61 not: 2 of 3.
      sample(lead: 180, error: -60), sample(lead: 300, error: 150), sample(lead: 359, error: -61),
      // 6-10 min, [-60 s, +210 s]: +210 accurate; +211 and -61 not: 1 of 3.
      sample(lead: 360, error: 210), sample(lead: 599, error: 211), sample(lead: 500, error: -61),
      // 10-15 min, [-90 s, +270 s]: -90, +270, 0 accurate; -91 not: 3 of 4.
      sample(lead: 600, error: -90), sample(lead: 899, error: 270), sample(lead: 700, error: 0), sample(lead: 700, error: -91),
      // 15 min ahead: in no bucket, left out.
      sample(lead: 900, error: 0),
    ]
    let score = ETAAccuracy.score(samples)
    #expect(score.buckets.map(\.count) == [4, 3, 3, 4])
    #expect(score.buckets.map(\.accurate) == [2, 2, 1, 3])
    #expect(score.count == 14)
    // (2/4 + 2/3 + 1/3 + 3/4) / 4 = (0.5 + 0.6667 + 0.3333 + 0.75) / 4 = 2.25 / 4 = 0.5625
    #expect(score.score.map { abs($0 - 0.5625) < 1e-12 } == true)
  }

  @Test func scoreOfNoPredictionIsNone() {
    let score = ETAAccuracy.score([])
    #expect(score.score == nil)
    #expect(score.buckets.allSatisfy { $0.accuracy == nil })
  }
}
