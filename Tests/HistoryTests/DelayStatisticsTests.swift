import History
import Testing

/// On-time share, percentiles and bins against figures worked out by hand.
@Suite struct DelayStatisticsTests {
  @Test func figuresOfTenDelays() {
    // Sorted: -90 -30 0 30 60 90 120 150 240 400. Early (<= -60): 1. Late (>= 120): 4.
    let delays: [Int64] = [120, -30, 0, 400, 60, 90, -90, 150, 30, 240]
    let s = DelayStatistics(delays, earlySeconds: -60, lateSeconds: 120)
    #expect(s.count == 10)
    #expect(s.early == 1)
    #expect(s.late == 4)
    #expect(s.onTime == 5)
    // Nearest rank: median rank ceil(0.5*10) = 5 -> 60; p90 rank 9 -> 240.
    #expect(s.medianSeconds == 60)
    #expect(s.p90Seconds == 240)
    // Minutes: -90 -> -2, -30 -> -1, 0 and 30 -> 0, 60 and 90 -> 1, 120 and 150 -> 2, 240 -> 4, 400 -> 6.
    #expect(s.firstMinute == -2)
    #expect(s.bins == [1, 1, 2, 2, 2, 0, 1, 0, 1])
  }

  @Test func fewerThanThreeClaimsNoPercentile() {
    let s = DelayStatistics([60, 600], earlySeconds: -60, lateSeconds: 120)
    #expect(!s.isEnough)
    #expect(s.medianSeconds == nil)
    #expect(s.p90Seconds == nil)
    #expect(s.count == 2)
    let three = DelayStatistics([60, 600, 0], earlySeconds: -60, lateSeconds: 120)
    #expect(three.isEnough)
    #expect(three.medianSeconds == 60)
  }

  @Test(arguments: zip([-1, -59, -60, -61, 0, 59, 60] as [Int64], [-1, -1, -1, -2, 0, 0, 1] as [Int64]))
  func minuteOf(seconds: Int64, minute: Int64) {
    #expect(DelayStatistics.minute(seconds) == minute)
  }
}
