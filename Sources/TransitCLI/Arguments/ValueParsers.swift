import FoundationEssentials
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

  private static func clockMinutesIfValid(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
      let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    return hour * 60 + minute
  }
}

extension ValueParser {
  /// A whole number within `range`.
  public static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw UsageError("option '\(option)' takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  /// `HH:MM` or ISO 8601, kept as given until the agency's zone is known; checked now (the zone
  /// only places a time without an offset, it never makes one valid).
  public static func time(_ text: String, option: String) throws(UsageError) -> TimeArgument {
    _ = try requestedTime(text, option: option, zone: .utc)
    return TimeArgument(text: text, option: option)
  }

  /// A language tag (BCP 47: en, fr, es-MX), checked for its characters.
  public static func languageTag(_ text: String, option: String) throws(UsageError) -> String {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
      throw UsageError("\(option) '\(text)' is not a language tag (en, fr, es-MX)")
    }
    return text
  }

  /// A feed name, checked against `FeedName.rule`.
  public static func feedName(_ text: String, option: String) throws(UsageError) -> String {
    guard FeedName.isValid(text) else { throw UsageError("\(option) '\(text)': a feed name must be \(FeedName.rule)") }
    return text
  }

  /// `LAT,LON` in degrees (spaces around either number allowed), latitude within ±90 and
  /// longitude within ±180.
  public static func coordinate(_ text: String, option: String) throws(UsageError) -> Coordinate {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingSpaces()
    }
    guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
      Coordinate(latitude: lat, longitude: lon).isValid
    else {
      throw UsageError("\(option) '\(text)' is not a position LAT,LON in degrees (53.2875,-6.3664)")
    }
    return Coordinate(latitude: lat, longitude: lon)
  }

  /// A position `LAT,LON` (what starts with a digit, a sign or a point), else a saved place's
  /// name, looked up later.
  public static func place(_ text: String, option: String) throws(UsageError) -> PlaceArgument {
    let trimmed = text.trimmingSpaces()
    if let first = trimmed.first, first.isNumber || first == "-" || first == "+" || first == "." {
      return PlaceArgument(text: text, option: option, position: try coordinate(trimmed, option: option))
    }
    return PlaceArgument(text: text, option: option, position: nil)
  }

  /// The modes a `--mode` takes, by name.
  public static let modeNames = TransitMode.allCases.filter { $0 != .other }.map { $0.rawValue }  // (a key path costs start-up)

  /// Modes by name, each value comma-separated.
  public static func modes(_ values: [String], option: String) throws(UsageError) -> Set<TransitMode> {
    var result = Set<TransitMode>()
    for value in values {
      for part in value.split(separator: ",") {
        guard let mode = TransitMode(rawValue: part.lowercased()) else {
          throw UsageError("\(option) '\(part)' is not one of \(modeNames.joined(separator: ", "))")
        }
        result.insert(mode)
      }
    }
    return result
  }

  /// Three-letter day names, Monday first.
  public static let dayNames = SavedCommute.dayNames

  /// `mon-fri`, `sat,sun`, `mon,wed-fri`, `daily`, `weekdays`, `weekends` as a mask (bit 0
  /// Monday … bit 6 Sunday).
  public static func weekdays(_ text: String, option: String) throws(UsageError) -> Int {
    let lowered = text.lowercased()
    switch lowered {
    case "daily", "all", "every": return 0b1111111
    case "weekdays": return 0b0011111
    case "weekends", "weekend": return 0b1100000
    default: break
    }
    let bad = UsageError("\(option) '\(text)' is not a list of days (mon-fri, sat,sun, daily)")
    func index(_ name: Substring) throws(UsageError) -> Int {
      guard let index = dayNames.firstIndex(where: { name.hasPrefix($0) }) else { throw bad }
      return index
    }
    var mask = 0
    for part in lowered.split(separator: ",") {
      let ends = part.split(separator: "-")
      guard ends.count == 1 || ends.count == 2 else { throw bad }
      let first = try index(ends[0])
      let last = try index(ends[ends.count - 1])
      var day = first
      while true {
        mask |= 1 << day
        if day == last { break }
        day = (day + 1) % 7
      }
    }
    guard mask != 0 else { throw bad }
    return mask
  }
}

/// A time option's value (`--at 07:30`, `--depart 2026-12-01T08:00`): checked when parsed,
/// read once the agency's time zone is known.
public struct TimeArgument: Sendable {
  public let text: String
  /// The option it came from, for messages.
  public let option: String

  /// The time in `zone` (an ISO time without an offset is read there).
  public func requested(in zone: LocalZone) throws(UsageError) -> RequestedTime {
    try ValueParser.requestedTime(text, option: option, zone: zone)
  }
}

/// A position given as `LAT,LON` or as the name of a saved place ('home', 'work').
public struct PlaceArgument: Sendable {
  public let text: String
  /// The option it came from, for messages.
  public let option: String
  /// The position when `LAT,LON` was given; nil for a place's name.
  public let position: Coordinate?
}

extension ParsedArguments {
  /// The instant a query starts from: `time` (HH:MM or ISO 8601) on `date`, else now.
  /// A full ISO time with a date is refused: the two would disagree.
  public func queryStart(
    _ time: Option<TimeArgument?>, on date: Option<ServiceDate?>, now: UnixTime, zone: LocalZone
  ) throws(UsageError) -> UnixTime {
    let day = try read(date)
    let requested = try read(time)?.requested(in: zone)
    if case .instant = requested, day != nil {
      throw UsageError("\(date.spec.name) goes with \(time.spec.name) HH:MM, not with a full ISO time")
    }
    return RequestedTime.start(requested, on: day, now: now, zone: zone)
  }
}
