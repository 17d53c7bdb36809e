import FoundationEssentials
import Services
import TransitModel

/// The clock, as a value: the real one, or a fixed instant from `--now`.
public struct WallClock: Sendable {
  public var now: @Sendable () -> UnixTime

  public init(now: @escaping @Sendable () -> UnixTime) { self.now = now }

  /// The system clock.
  public static let system = WallClock { UnixTime(Int64(Date().timeIntervalSince1970)) }

  /// Always `time`.
  public static func fixed(_ time: UnixTime) -> WallClock { WallClock { time } }
}

/// ISO 8601 times as the command line reads and writes them.
public enum ISOTime {
  /// Parses `2023-11-08T01:05:34Z`, `…+01:00`, `2023-11-08 17:05`, `2023-11-08` (midnight),
  /// or `@1699405534` (Unix seconds). A time without an offset is read in `zone` (only then
  /// worked out: the system's zone is a file to read).
  /// A time outside `UnixTime.supportedSeconds` (years 1900 to 9999) is nil, as an unreadable
  /// one is (`isOutOfRange` tells them apart).
  public static func parse(_ text: String, zone: @autoclosure () -> LocalZone = .current) -> UnixTime? {
    parseAnyYear(text, zone: zone()).flatMap { UnixTime(checked: $0.seconds) }
  }

  /// Whether `text` is a time, but outside the years transit handles.
  public static func isOutOfRange(_ text: String) -> Bool {
    if text.hasPrefix("@") {
      let body = text.dropFirst(), digits = body.first == "-" ? body.dropFirst() : body
      return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && parse(text) == nil
    }
    return parseAnyYear(text, zone: .utc).map { UnixTime(checked: $0.seconds) == nil } ?? false
  }

  /// `parse` without the range check (the arithmetic stays within `Int64` for any 4-digit year).
  static func parseAnyYear(_ text: String, zone: @autoclosure () -> LocalZone) -> UnixTime? {
    if text.hasPrefix("@") { return Int64(text.dropFirst()).map(UnixTime.init) }
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + digits] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      index += digits
      return value
    }
    func expect(_ character: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == character else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
      let date = ServiceDate(year: year, month: month, day: day)
    else { return nil }
    var hour = 0, minute = 0, second = 0
    if index < bytes.count, bytes[index] == 84 || bytes[index] == 32 {  // 'T' or ' '
      index += 1
      guard let h = number(2), expect(58), let m = number(2), h < 24, m < 60 else { return nil }
      hour = h
      minute = m
      if expect(58) {
        guard let s = number(2), s < 61 else { return nil }
        second = min(s, 59)
        if expect(46) { while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 } }
      }
    }
    let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    if index == bytes.count {
      // No offset: the wall-clock time in `zone` (the earlier instant if it occurs twice).
      return LocalClock.instant(date, secondsAfterMidnight: hour * 3600 + minute * 60 + second, in: zone())
    }
    if expect(90) {  // 'Z'
      return index == bytes.count ? UnixTime(local) : nil
    }
    guard index < bytes.count, bytes[index] == 43 || bytes[index] == 45 else { return nil }
    let sign: Int64 = bytes[index] == 45 ? -1 : 1
    index += 1
    guard let oh = number(2) else { return nil }
    _ = expect(58)
    let om = number(2) ?? 0
    guard index == bytes.count else { return nil }
    return UnixTime(local - sign * Int64(oh * 3600 + om * 60))
  }

  /// Formats `time` as `2023-11-07T17:05:34-08:00` in `zone` (`Z` for UTC): `LocalZone.isoText`,
  /// the answers' own form.
  public static func format(
    _ time: UnixTime, zone: LocalZone = LocalZone.utc
  )
    -> String
  {
    zone.isoText(time)
  }

}
