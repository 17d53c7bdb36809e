/// Seconds since 1970-01-01T00:00:00Z. The only absolute time the libraries pass around;
/// `Date` and the system clock stay at the command-line edge.
public struct UnixTime: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var seconds: Int64

  public init(_ seconds: Int64) { self.seconds = seconds }

  /// Whole minutes from this moment until `time`, as a countdown counts them: rounded down,
  /// so 59 s ahead is 0 ("now") and 1 s ago is -1 ("1 min ago").
  public func minutes(until time: UnixTime) -> Int64 {
    let seconds = time.seconds - self.seconds
    return seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
  }

  public static func < (lhs: UnixTime, rhs: UnixTime) -> Bool { lhs.seconds < rhs.seconds }
  public static func + (lhs: UnixTime, rhs: Int64) -> UnixTime { UnixTime(lhs.seconds + rhs) }
  public static func - (lhs: UnixTime, rhs: Int64) -> UnixTime { UnixTime(lhs.seconds - rhs) }
  public static func - (lhs: UnixTime, rhs: UnixTime) -> Int64 { lhs.seconds - rhs.seconds }

  public var description: String { "\(seconds)" }

  /// `2023-11-08T01:05:34`: the calendar date and time of day of `localSeconds` (seconds since
  /// 1970-01-01T00:00:00 on some clock: UTC's, or a zone's once its offset is added), as ISO
  /// 8601 writes them; the caller adds the offset (`Z`, `-08:00`).
  public static func wallClockText(localSeconds: Int64) -> String {
    let days = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
    let date = ServiceDate(daysSinceEpoch: Int(days)), time = Int(localSeconds - days * 86_400)
    return "\(pad(date.year, 4))-\(pad(date.month))-\(pad(date.day))T\(pad(time / 3600)):\(pad(time / 60 % 60)):\(pad(time % 60))"
  }

  /// `value` with leading zeros to `width` digits.
  static func pad(_ value: Int, _ width: Int = 2) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
