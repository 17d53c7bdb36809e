/// Conversions and ranges for numbers that come from outside (a feed, a file, the command line):
/// a value out of range is refused (nil), never trapped on.

extension FixedWidthInteger {
  /// `value` rounded by `rule` to this integer type; nil when `value` is NaN, infinite, or
  /// rounds to a number outside the type's range. The one way transit turns a floating-point
  /// number it was given into an integer (`Int(x.rounded())` traps on all three).
  @inlinable
  public init?<Source: BinaryFloatingPoint>(
    roundingFinite value: Source, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
  ) {
    guard value.isFinite, let exact = Self(exactly: value.rounded(rule)) else { return nil }
    self = exact
  }
}

extension UnixTime {
  /// The instants transit works with: 1900-01-01T00:00:00Z through 9999-12-31T23:59:59Z. Any
  /// time of day, delay or service day added to one stays far inside `Int64`, so arithmetic on
  /// them cannot overflow; a time outside (a feed's INT64_MIN, `--now @9223372036854775807`)
  /// is refused or treated as absent.
  public static let supportedSeconds: ClosedRange<Int64> = -2_208_988_800...253_402_300_799

  /// `seconds`, when inside `supportedSeconds`.
  @inlinable
  public init?(checked seconds: Int64) {
    guard UnixTime.supportedSeconds.contains(seconds) else { return nil }
    self.init(seconds)
  }

  /// `seconds` (an unsigned feed timestamp), when inside `supportedSeconds`.
  @inlinable
  public init?(checked seconds: UInt64) {
    guard seconds <= UInt64(UnixTime.supportedSeconds.upperBound) else { return nil }
    self.init(Int64(seconds))
  }
}
