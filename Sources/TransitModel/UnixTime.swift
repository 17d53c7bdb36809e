/// Seconds since 1970-01-01T00:00:00Z. The only absolute time the libraries pass around;
/// `Date` and the system clock stay at the command-line edge.
public struct UnixTime: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var seconds: Int64

  public init(_ seconds: Int64) { self.seconds = seconds }

  public static func < (lhs: UnixTime, rhs: UnixTime) -> Bool { lhs.seconds < rhs.seconds }
  public static func + (lhs: UnixTime, rhs: Int64) -> UnixTime { UnixTime(lhs.seconds + rhs) }
  public static func - (lhs: UnixTime, rhs: Int64) -> UnixTime { UnixTime(lhs.seconds - rhs) }
  public static func - (lhs: UnixTime, rhs: UnixTime) -> Int64 { lhs.seconds - rhs.seconds }

  public var description: String { "\(seconds)" }
}
