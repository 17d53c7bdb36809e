import FoundationEssentials
import GTFS
import Services
import TransitModel

/// The value parsers options share: one rule and one error wording for each kind of value, so
/// `--date` means the same in `departures`, `plan`, `route show` and `commute`.
public enum ValueParser {
  /// `YYYY-MM-DD`.
  public static func date(_ text: String, option: String) throws(UsageError) -> ServiceDate {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let date = ServiceDate(gtfs: text.replacing("-", with: ""))
    else { throw UsageError("\(option) '\(text)' is not a date YYYY-MM-DD") }
    return date
  }

  /// `HH:MM` on a 24-hour clock, as minutes after midnight.
  public static func clockMinutes(_ text: String, option: String) throws(UsageError) -> Int {
    guard let minutes = clockMinutesIfValid(text) else { throw UsageError("\(option) '\(text)' is not a time HH:MM") }
    return minutes
  }

  /// `HH:MM` (on the agency's clock) or an ISO 8601 time (read in `zone` without an offset).
  public static func requestedTime(_ text: String, option: String, zone: LocalZone) throws(UsageError) -> RequestedTime {
    if let minutes = clockMinutesIfValid(text) { return .clock(minutes: minutes) }
    guard text.count > 5, let instant = ISOTime.parse(text, zone: zone) else {
      throw UsageError("\(option) '\(text)' is not a time HH:MM or ISO 8601")
    }
    return .instant(instant)
  }

  /// Seconds in "90", "90s", "15m", "2h" (up to 10,000,000 units).
  public static func duration(_ text: String, option: String) throws(UsageError) -> Int64 {
    let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600]
    var digits = Substring(text), unit: Int64 = 1
    if let last = text.last, let factor = units[last] {
      digits = text.dropLast()
      unit = factor
    }
    guard let value = Int64(digits), value > 0, value < 10_000_000 else {
      throw UsageError("\(option) '\(text)' is not a duration (90s, 15m, 2h)")
    }
    return value * unit
  }

  /// "08:30" for 510 minutes.
  public static func clockText(minutes: Int) -> String {
    let hours = minutes / 60, rest = minutes % 60
    return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
  }

  private static func clockMinutesIfValid(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
      let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    return hour * 60 + minute
  }
}

extension ParsedArguments {
  /// `option`'s value as a date `YYYY-MM-DD`.
  public func date(_ option: String) throws(UsageError) -> ServiceDate? {
    guard let text = value(option) else { return nil }
    return try ValueParser.date(text, option: option)
  }

  /// `option`'s value as `HH:MM`, in minutes after midnight.
  public func clockMinutes(_ option: String) throws(UsageError) -> Int? {
    guard let text = value(option) else { return nil }
    return try ValueParser.clockMinutes(text, option: option)
  }

  /// `option`'s value as `HH:MM` or ISO 8601.
  public func requestedTime(_ option: String, zone: LocalZone) throws(UsageError) -> RequestedTime? {
    guard let text = value(option) else { return nil }
    return try ValueParser.requestedTime(text, option: option, zone: zone)
  }

  /// The instant a query starts from: `timeOption` (HH:MM or ISO 8601) on `--date`, else now.
  /// A full ISO time with `--date` is refused: the two would disagree.
  public func queryStart(_ timeOption: String, now: UnixTime, zone: LocalZone) throws(UsageError) -> UnixTime {
    let date = try date("--date")
    let time = try requestedTime(timeOption, zone: zone)
    if case .instant = time, date != nil {
      throw UsageError("--date goes with \(timeOption) HH:MM, not with a full ISO time")
    }
    return RequestedTime.start(time, on: date, now: now, zone: zone)
  }
}
