/// A GTFS service date (`YYYYMMDD`), the day a timetable's times count from.
///
/// Stored as the integer `yyyymmdd` so it sorts and compares like the text it comes from.
public struct ServiceDate: Hashable, Sendable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Creates a date, or nil when the parts do not name a real day of the Gregorian calendar.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...ServiceDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYYMMDD` exactly (eight digits, a real day).
  /// (Inlinable, and read byte by byte: every trip descriptor of every realtime snapshot is
  /// parsed, and an array of the bytes and a generic call across modules cost 3,000
  /// instructions a date.)
  @inlinable
  public init?(gtfs text: some StringProtocol) {
    var value = 0
    var count = 0
    for byte in text.utf8 {
      guard byte >= 48 && byte <= 57, count < 8 else { return nil }
      value = value * 10 + Int(byte - 48)
      count += 1
    }
    guard count == 8 else { return nil }
    self.init(year: value / 10_000, month: value / 100 % 100, day: value % 100)
  }

  /// The date as the integer yyyymmdd (20240131).
  public var yyyymmdd: Int { year * 10_000 + month * 100 + day }

  /// Creates a date from the integer yyyymmdd, or nil when it is not a real day.
  public init?(yyyymmdd: Int) {
    self.init(year: yyyymmdd / 10_000, month: yyyymmdd / 100 % 100, day: yyyymmdd % 100)
  }

  public var description: String {
    let text = String(yyyymmdd)
    return String(repeating: "0", count: max(0, 8 - text.count)) + text
  }

  public static func < (lhs: ServiceDate, rhs: ServiceDate) -> Bool { lhs.yyyymmdd < rhs.yyyymmdd }

  /// Days since 1970-01-01 (negative before). Howard Hinnant's days_from_civil.
  public var daysSinceEpoch: Int { Self.daysSinceEpoch(year: year, month: month, day: day) }

  /// Days since 1970-01-01 of a proleptic Gregorian date, whatever its year (time zone rules
  /// ask for years a `ServiceDate` does not hold).
  public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `daysSinceEpoch` days after 1970-01-01. Howard Hinnant's civil_from_days.
  public init(daysSinceEpoch days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
    self.month = m
    self.day = d
  }

  /// The date `count` days later (earlier when negative).
  public func adding(days count: Int) -> ServiceDate {
    ServiceDate(daysSinceEpoch: daysSinceEpoch + count)
  }

  /// ISO weekday: 1 is Monday, 7 is Sunday.
  public var weekday: Int {
    let d = daysSinceEpoch  // 1970-01-01 was a Thursday (4)
    return ((d % 7 + 7) % 7 + 3) % 7 + 1
  }

  /// Whether `year` has a 29 February.
  public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  /// The number of days of `month` (1 to 12) in `year`.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
