/// A GTFS time of day: seconds from the start of the service day.
///
/// GTFS times count from "noon minus 12 h" of the service date and may pass 24:00:00:
/// 25:10:00 is ten past one the next morning, on the previous service date's timetable.
public struct ServiceTime: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var seconds: Int32

  public init(seconds: Int32) { self.seconds = seconds }

  /// The largest time accepted (GTFS sets no limit; real feeds stop near 30 h, and a week
  /// is far past anything a timetable means).
  public static let maximumSeconds: Int32 = 7 * 24 * 3600

  /// Parses `H:MM:SS` or `HH:MM:SS` (hours may pass 24; minutes and seconds are 0–59).
  /// Leading and trailing spaces are tolerated, as real feeds pad times.
  public init?(gtfs text: some StringProtocol) {
    var utf8 = Array(text.utf8)[...]
    while utf8.first == 32 { utf8 = utf8.dropFirst() }
    while utf8.last == 32 { utf8 = utf8.dropLast() }
    guard let value = ServiceTime.parse(utf8) else { return nil }
    self.seconds = value
  }

  /// Parses the bytes of a GTFS time; nil unless they are `H+:MM:SS` with MM and SS below 60.
  public static func parse<C: Collection<UInt8>>(_ bytes: C) -> Int32? {
    var hours: Int32 = 0, digits = 0
    var index = bytes.startIndex
    while index != bytes.endIndex, bytes[index] != 58 {  // ':'
      let d = bytes[index] &- 48
      guard d < 10, digits < 3 else { return nil }
      hours = hours * 10 + Int32(d)
      digits += 1
      index = bytes.index(after: index)
    }
    guard digits > 0, index != bytes.endIndex else { return nil }
    index = bytes.index(after: index)
    func twoDigits() -> Int32? {
      guard index != bytes.endIndex else { return nil }
      let a = bytes[index] &- 48
      index = bytes.index(after: index)
      guard index != bytes.endIndex else { return nil }
      let b = bytes[index] &- 48
      index = bytes.index(after: index)
      guard a < 6, b < 10 else { return nil }
      return Int32(a) * 10 + Int32(b)
    }
    guard let minutes = twoDigits(), index != bytes.endIndex, bytes[index] == 58 else { return nil }
    index = bytes.index(after: index)
    guard let seconds = twoDigits(), index == bytes.endIndex else { return nil }
    let total = hours * 3600 + minutes * 60 + seconds
    return total <= maximumSeconds ? total : nil
  }

  /// `HH:MM:SS`, hours past 24 kept as GTFS writes them.
  public var description: String {
    let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
    func pad(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(pad(h)):\(pad(m)):\(pad(s))"
  }

  public static func < (lhs: ServiceTime, rhs: ServiceTime) -> Bool { lhs.seconds < rhs.seconds }
}
