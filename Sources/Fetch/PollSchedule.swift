import TransitModel

/// When to fetch a realtime feed next, from what its header timestamps have shown: pure
/// functions with no clock of their own (the caller passes `now`).
///
/// Agencies publish on a fixed cadence (often 15 or 30 s). Fetching just after the next
/// expected publish gets each snapshot once, fresh, without hammering the server.
public enum PollSchedule {
  /// Never fetch more often than this.
  public static let floorSeconds: Int64 = 5
  /// The period assumed until one is learned.
  public static let defaultPeriodSeconds = Int64(FeedDefinition.defaultPeriodSeconds)
  /// The longest wait, however long the backoff.
  public static let maxWaitSeconds: Int64 = 300
  /// How long after the expected publish to ask, so the new snapshot is there.
  public static let marginSeconds: Int64 = 2

  /// The publish period shown by successive header timestamps: the median gap between
  /// distinct consecutive timestamps (repeats are the same snapshot fetched twice), so one
  /// missed publish or a late one does not skew it. Nil with fewer than two distinct stamps.
  ///
  /// - Complexity: O(n log n) in the number of timestamps.
  public static func learnedPeriod(from timestamps: [Int64]) -> Int64? {
    var gaps: [Int64] = []
    var previous: Int64?
    for stamp in timestamps {
      if let last = previous {
        if stamp > last { gaps.append(stamp - last) }
        if stamp == last { continue }
      }
      previous = stamp
    }
    guard !gaps.isEmpty else { return nil }
    gaps.sort()
    return max(1, gaps[gaps.count / 2])
  }

  /// The time (Unix seconds) to fetch next.
  ///
  /// - Parameters:
  ///   - now: the current time.
  ///   - lastHeaderTimestamp: the newest feed timestamp seen, if any.
  ///   - period: the learned or configured publish period (default 30 s).
  ///   - failures: consecutive failed fetches: wait the period, doubled per failure.
  ///   - unchanged: consecutive fetches that brought the same snapshot: the publish is late,
  ///     so ask again after a growing share of the period.
  /// - Returns: never earlier than `now + floorSeconds`, never later than `now + maxWaitSeconds`.
  public static func nextFetch(
    now: Int64, lastHeaderTimestamp: Int64?, period: Int64?, failures: Int = 0, unchanged: Int = 0
  ) -> Int64 {
    let period = max(floorSeconds, period ?? defaultPeriodSeconds)
    let wait: Int64
    if failures > 0 {
      wait = period << Int64(min(failures - 1, 10))
    } else if unchanged > 0 {
      wait = max(floorSeconds, period / 4) << Int64(min(unchanged - 1, 10))
    } else if let last = lastHeaderTimestamp, last > now + maxWaitSeconds {
      // A header stamped further ahead than the longest wait (a producer's clock, or a hostile
      // UInt64.max): the longest wait, without adding to a time near Int64's end.
      wait = maxWaitSeconds
    } else if let last = lastHeaderTimestamp {
      // The first expected publish still ahead of now (less the margin), then just after it.
      let elapsed = max(0, now - last)
      let periodsPassed = elapsed / period + 1
      let expected = last + periodsPassed * period
      wait = expected + marginSeconds - now
    } else {
      wait = period
    }
    return now + min(maxWaitSeconds, max(floorSeconds, wait))
  }
}
