/// A POSIX TZ rule as a TZif footer holds it (`EST5EDT,M3.2.0,M11.1.0`, `IST-1GMT0,M10.5.0,M3.5.0/1`,
/// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`): a standard offset and, optionally, a daylight-saving
/// offset with the yearly rules for when it starts and ends. Offsets in the text count west of
/// UTC; the values kept here count east, as `secondsFromGMT` does.
struct PosixZoneRule: Sendable, Equatable {
  /// When in a year a change happens: a day (see `Day`) and the local time of day it happens at,
  /// in seconds (may be negative or beyond 24 h, as version 3 files allow).
  struct Change: Sendable, Equatable {
    enum Day: Sendable, Equatable {
      /// `Jn`: day 1...365 counting 28 February and 1 March as days 59 and 60 in every year.
      case julian(Int)
      /// `n`: day 0...365 counting 29 February in leap years.
      case zeroBased(Int)
      /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1...5, 5 the last) of month `m`.
      case monthWeek(month: Int, week: Int, weekday: Int)
    }
    var day: Day
    var time: Int
  }

  var standardOffset: Int
  /// The daylight-saving offset and the changes into and out of it; nil for a zone without one.
  var daylight: (offset: Int, start: Change, end: Change)?

  static func == (lhs: PosixZoneRule, rhs: PosixZoneRule) -> Bool {
    lhs.standardOffset == rhs.standardOffset && lhs.daylight?.offset == rhs.daylight?.offset
      && lhs.daylight?.start == rhs.daylight?.start && lhs.daylight?.end == rhs.daylight?.end
  }

  /// Parses the rule; nil when it is not one.
  init?(_ text: String) {
    var scanner = Scanner(bytes: Array(text.utf8))
    guard scanner.name(), let standard = scanner.offset() else { return nil }
    standardOffset = -standard
    if scanner.atEnd {
      daylight = nil
      return
    }
    guard scanner.name() else { return nil }
    var daylightOffset = standardOffset + 3600
    if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
      guard let offset = scanner.offset() else { return nil }
      daylightOffset = -offset
    }
    var start = Change(day: .monthWeek(month: 3, week: 2, weekday: 0), time: 7200)
    var end = Change(day: .monthWeek(month: 11, week: 1, weekday: 0), time: 7200)
    if !scanner.atEnd {
      guard scanner.take(UInt8(ascii: ",")), let first = scanner.change(), scanner.take(UInt8(ascii: ",")),
        let second = scanner.change(), scanner.atEnd
      else { return nil }
      start = first
      end = second
    }
    daylight = (daylightOffset, start, end)
  }

  /// The offset in force at `seconds` (Unix time).
  func offset(at seconds: Int64) -> Int {
    guard let daylight else { return standardOffset }
    // The year, read in standard time; the changes of that year, as instants. The start happens
    // at a local time read in standard time, the end at one read in daylight time.
    let year = ServiceDate(daysSinceEpoch: Int(floorDivide(seconds + Int64(standardOffset), 86_400))).year
    let start = Self.instant(of: daylight.start, in: year) - Int64(standardOffset)
    let end = Self.instant(of: daylight.end, in: year) - Int64(daylight.offset)
    let inDaylight = start < end ? (seconds >= start && seconds < end) : !(seconds >= end && seconds < start)
    return inDaylight ? daylight.offset : standardOffset
  }

  /// The local seconds (days since 1970 × 86,400 + time of day) of `change` in `year`.
  static func instant(of change: Change, in year: Int) -> Int64 {
    let january1 = Int64(ServiceDate.daysSinceEpoch(year: year, month: 1, day: 1))
    let day: Int64
    switch change.day {
    case .julian(let n):
      // Never counts 29 February: days after February in a leap year are one later.
      day = january1 + Int64(n - 1) + (ServiceDate.isLeap(year) && n >= 60 ? 1 : 0)
    case .zeroBased(let n):
      day = january1 + Int64(n)
    case .monthWeek(let month, let week, let weekday):
      let first = Int64(ServiceDate.daysSinceEpoch(year: year, month: month, day: 1))
      // 1970-01-01 was a Thursday (4).
      let firstWeekday = Int(((first % 7) + 7 + 4) % 7)
      var date = first + Int64((weekday - firstWeekday + 7) % 7) + Int64(7 * (week - 1))
      let length = ServiceDate.daysIn(month: month, year: year)
      while date - first >= Int64(length) { date -= 7 }
      day = date
    }
    return day * 86_400 + Int64(change.time)
  }

  struct Scanner {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func take(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      index += 1
      return true
    }

    /// A zone abbreviation: three or more letters, or anything in angle brackets.
    mutating func name() -> Bool {
      if take(UInt8(ascii: "<")) {
        while let byte = peek, byte != UInt8(ascii: ">") { index += 1 }
        return take(UInt8(ascii: ">"))
      }
      let start = index
      while let byte = peek, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { index += 1 }
      return index - start >= 3
    }

    mutating func number() -> Int? {
      var value = 0, digits = 0
      while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 6 {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
        index += 1
      }
      return digits == 0 ? nil : value
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    mutating func offset() -> Int? {
      var sign = 1
      if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
      guard let hours = number() else { return nil }
      var seconds = hours * 3600
      if take(UInt8(ascii: ":")) {
        guard let minutes = number() else { return nil }
        seconds += minutes * 60
        if take(UInt8(ascii: ":")) {
          guard let rest = number() else { return nil }
          seconds += rest
        }
      }
      return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, then `/time` (02:00 when left out).
    mutating func change() -> Change? {
      let day: Change.Day
      if take(UInt8(ascii: "M")) {
        guard let month = number(), take(UInt8(ascii: ".")), let week = number(), take(UInt8(ascii: ".")),
          let weekday = number(), (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday)
        else { return nil }
        day = .monthWeek(month: month, week: week, weekday: weekday)
      } else if take(UInt8(ascii: "J")) {
        guard let n = number(), (1...365).contains(n) else { return nil }
        day = .julian(n)
      } else {
        guard let n = number(), (0...365).contains(n) else { return nil }
        day = .zeroBased(n)
      }
      var time = 7200
      if take(UInt8(ascii: "/")) {
        guard let value = offset() else { return nil }
        time = value
      }
      return Change(day: day, time: time)
    }
  }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
