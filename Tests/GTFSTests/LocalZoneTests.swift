import Foundation
import Testing

@testable import GTFS
@testable import TransitModel

/// `LocalZone` against facts published for these zones (the tz database's own change times, as
/// the zones' governments set them), each instant worked out by hand in `utc(...)`, which counts
/// days with a loop of its own.
@Suite struct LocalZoneTests {
  /// Unix seconds of a UTC date and time, counted day by day (independent of the code tested).
  func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
    func leap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
    var days = 0
    if year >= 1970 {
      for y in 1970..<year { days += leap(y) ? 366 : 365 }
    } else {
      for y in year..<1970 { days -= leap(y) ? 366 : 365 }
    }
    let lengths = [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    days += lengths.prefix(month - 1).reduce(0, +) + day - 1
    return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60)
  }

  func zone(_ name: String) throws -> LocalZone { try LocalZone(named: name) }

  @Test func losAngelesSkipsTwoThirtyOnTenthOfMarch2019() throws {
    let zone = try zone("America/Los_Angeles")
    // PST (−8) until 02:00 local = 10:00 UTC, then PDT (−7): 01:59:59 is followed by 03:00:00.
    #expect(zone.secondsFromGMT(at: utc(2019, 3, 10, 10) - 1) == -8 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2019, 3, 10, 10)) == -7 * 3600)
    // So 02:30 is read with the offset from before the change: 10:30 UTC (03:30 PDT).
    let date = ServiceDate(year: 2019, month: 3, day: 10)!
    #expect(LocalClock.instant(date, secondsAfterMidnight: 2 * 3600 + 1800, in: zone).seconds == utc(2019, 3, 10, 10, 30))
  }

  @Test func losAngelesHasOneThirtyTwiceOnThirdOfNovember2019() throws {
    let zone = try zone("America/Los_Angeles")
    let date = ServiceDate(year: 2019, month: 11, day: 3)!
    // 01:30 PDT is 08:30 UTC, 01:30 PST 09:30 UTC: both read 01:30 on the 3rd.
    for instant in [utc(2019, 11, 3, 8, 30), utc(2019, 11, 3, 9, 30)] {
      #expect(LocalClock.secondsAfterMidnight(of: UnixTime(instant), in: zone) == 5400)
      #expect(LocalClock.date(of: UnixTime(instant), in: zone) == date)
    }
    #expect(LocalClock.instant(date, secondsAfterMidnight: 5400, in: zone).seconds == utc(2019, 11, 3, 8, 30))
  }

  @Test func dublinWithItsNegativeDaylightSaving() throws {
    // tzdata describes Irish time as IST (+1) standard with a −1 h "daylight saving" in winter;
    // the offsets are what count: GMT in winter, IST in summer, changes at 01:00 UTC.
    let zone = try zone("Europe/Dublin")
    #expect(zone.secondsFromGMT(at: utc(2026, 1, 15, 12)) == 0)
    #expect(zone.secondsFromGMT(at: utc(2026, 7, 15, 12)) == 3600)
    #expect(zone.secondsFromGMT(at: utc(2026, 3, 29, 1) - 1) == 0)
    #expect(zone.secondsFromGMT(at: utc(2026, 3, 29, 1)) == 3600)
    #expect(zone.secondsFromGMT(at: utc(2026, 10, 25, 1) - 1) == 3600)
    #expect(zone.secondsFromGMT(at: utc(2026, 10, 25, 1)) == 0)
    // Far beyond the transitions listed (the footer rule IST-1GMT0,M10.5.0,M3.5.0/1): last
    // Sundays of March and October 2050 are the 27th and the 30th.
    #expect(zone.secondsFromGMT(at: utc(2050, 3, 27, 1) - 1) == 0)
    #expect(zone.secondsFromGMT(at: utc(2050, 3, 27, 1)) == 3600)
    #expect(zone.secondsFromGMT(at: utc(2050, 10, 30, 1) - 1) == 3600)
    #expect(zone.secondsFromGMT(at: utc(2050, 10, 30, 1)) == 0)
  }

  @Test func lordHoweMovesHalfAnHour() throws {
    // +10:30 standard, +11 in summer; the change on the first Sunday of October (4 October 2026)
    // at 02:00 local standard time = 15:30 UTC the day before, and back on the first Sunday of
    // April (5 April 2026) at 02:00 summer time = 15:00 UTC the day before.
    let zone = try zone("Australia/Lord_Howe")
    #expect(zone.secondsFromGMT(at: utc(2026, 7, 15)) == 10 * 3600 + 1800)
    #expect(zone.secondsFromGMT(at: utc(2026, 1, 15)) == 11 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2026, 4, 4, 15) - 1) == 11 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2026, 4, 4, 15)) == 10 * 3600 + 1800)
    #expect(zone.secondsFromGMT(at: utc(2026, 10, 3, 15, 30) - 1) == 10 * 3600 + 1800)
    #expect(zone.secondsFromGMT(at: utc(2026, 10, 3, 15, 30)) == 11 * 3600)
  }

  @Test func after2037TheFooterRuleDecides() throws {
    // US rules: second Sunday of March (13 March 2050), first of November (6 November 2050).
    let zone = try zone("America/Los_Angeles")
    #expect(zone.secondsFromGMT(at: utc(2050, 3, 13, 10) - 1) == -8 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2050, 3, 13, 10)) == -7 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2050, 11, 6, 9) - 1) == -7 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2050, 11, 6, 9)) == -8 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2100, 1, 1)) == -8 * 3600)
    // Sydney's summer spans the new year: DST from the first Sunday of October to the first of April.
    let sydney = try self.zone("Australia/Sydney")
    #expect(sydney.secondsFromGMT(at: utc(2061, 1, 1)) == 11 * 3600)
    #expect(sydney.secondsFromGMT(at: utc(2061, 7, 1)) == 10 * 3600)
  }

  @Test func offsetsOfAFewZones() throws {
    let cases: [(String, Int64, Int)] = [
      ("UTC", utc(2026, 7, 1), 0),
      ("Asia/Kolkata", utc(2026, 7, 1), 5 * 3600 + 1800),
      ("Asia/Kathmandu", utc(2026, 7, 1), 5 * 3600 + 2700),
      ("America/St_Johns", utc(2026, 1, 15), -(3 * 3600 + 1800)),
      ("America/St_Johns", utc(2026, 7, 15), -(2 * 3600 + 1800)),
      ("Pacific/Chatham", utc(2026, 1, 15), 13 * 3600 + 2700),
      ("Pacific/Chatham", utc(2026, 7, 15), 12 * 3600 + 2700),
      ("America/Sao_Paulo", utc(2026, 1, 15), -3 * 3600),  // no daylight saving since 2019
      ("Asia/Tokyo", utc(1990, 6, 1), 9 * 3600),
      ("Europe/Moscow", utc(2012, 1, 1), 4 * 3600),  // permanent "summer" time 2011-2014
      ("Europe/Moscow", utc(2016, 1, 1), 3 * 3600),
    ]
    for (name, instant, offset) in cases {
      #expect(try zone(name).secondsFromGMT(at: instant) == offset, "\(name) at \(instant)")
    }
  }

  @Test func aMissingZoneNamesTheZoneAndTheFile() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/localzone-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(throws: LocalZoneError.self) { try LocalZone(named: "Mars/Olympus_Mons", directory: folder) }
    do {
      _ = try LocalZone(named: "Mars/Olympus_Mons", directory: folder)
    } catch {
      #expect(error.description.hasPrefix("time zone 'Mars/Olympus_Mons': \(folder)/Mars/Olympus_Mons does not exist"))
      #expect(!error.description.contains("\n"))
    }
    // A folder of zones that does not exist at all (tzdata not installed): ingest must not call
    // the feed's zone unknown.
    #expect(throws: LocalZoneError.self) { try LocalZone.exists("Europe/Dublin", directory: folder + "/none") }
    #expect(try LocalZone.exists("Mars/Olympus_Mons", directory: folder) == false)
    #expect(try LocalZone.exists("Europe/Dublin"))
    // Names that would leave the folder are refused before any file is read.
    #expect(throws: LocalZoneError.self) { try LocalZone(named: "../etc/passwd", directory: folder) }
    #expect(throws: LocalZoneError.self) { try LocalZone(named: "/etc/passwd", directory: folder) }
  }

  @Test func aNonZoneFileIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/localzone-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("not a zone".utf8).write(to: URL(fileURLWithPath: folder + "/Bad"))
    do {
      _ = try LocalZone(named: "Bad", directory: folder)
      Issue.record("a text file read as a zone")
    } catch {
      #expect(error.description == "time zone 'Bad': \(folder)/Bad is not a TZif zone file")
    }
  }

  /// A version 2 file made here byte by byte: one transition at 1000 s from +1 h to +2 h, then a
  /// footer rule of −5 h standard / −4 h summer (US dates) for what follows.
  @Test func aHandMadeFileReadFromAnotherFolder() throws {
    func be32(_ v: Int32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
    func be64(_ v: Int64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
    func header(times: Int32, types: Int32, chars: Int32) -> [UInt8] {
      Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15) + be32(0) + be32(0) + be32(0) + be32(times) + be32(types) + be32(chars)
    }
    var bytes = header(times: 0, types: 1, chars: 4) + be32(0) + [0, 0] + Array("UTC\0".utf8)  // the v1 block, ignored
    bytes += header(times: 1, types: 2, chars: 8) + be64(1000) + [1]
    bytes += be32(3600) + [0, 0] + be32(7200) + [1, 4] + Array("ONE\0TWO\0".utf8)
    bytes += Array("\nEST5EDT,M3.2.0,M11.1.0\n".utf8)
    let folder = FileManager.default.temporaryDirectory.path + "/localzone-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder + "/Test", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/Test/Zone"))
    let zone = try LocalZone(named: "Test/Zone", directory: folder)
    #expect(zone.identifier == "Test/Zone")
    #expect(zone.secondsFromGMT(at: -1_000_000) == 3600)  // before the first transition: type 0
    #expect(zone.secondsFromGMT(at: 999) == 3600)
    // From the last transition on, the footer: 1970-01-01 is winter in New York.
    #expect(zone.secondsFromGMT(at: 1000) == -5 * 3600)
    #expect(zone.secondsFromGMT(at: utc(2026, 7, 1)) == -4 * 3600)
  }

  @Test func julianAndZeroBasedDaysOfTheFooterRule() throws {
    // J60 never counts 29 February: 1 March in 2024 (leap) and 2025; day 59 counting from 0 is
    // 29 February 2024 but 1 March 2025.
    let j60 = PosixZoneRule.Change(day: .julian(60), time: 7200)
    let n59 = PosixZoneRule.Change(day: .zeroBased(59), time: 0)
    #expect(PosixZoneRule.instant(of: j60, in: 2024) == utc(2024, 3, 1, 2))
    #expect(PosixZoneRule.instant(of: j60, in: 2025) == utc(2025, 3, 1, 2))
    #expect(PosixZoneRule.instant(of: n59, in: 2024) == utc(2024, 2, 29))
    #expect(PosixZoneRule.instant(of: n59, in: 2025) == utc(2025, 3, 1))
    // Fifth Sunday of a month that has four: the last one (February 2026: 1, 8, 15, 22).
    let last = PosixZoneRule.Change(day: .monthWeek(month: 2, week: 5, weekday: 0), time: -3600)
    #expect(PosixZoneRule.instant(of: last, in: 2026) == utc(2026, 2, 22) - 3600)
    // Angle-bracketed names, minutes in offsets, a rule without daylight saving.
    #expect(PosixZoneRule("<+0545>-5:45")?.offset(at: 0) == 5 * 3600 + 2700)
    #expect(PosixZoneRule("<-03>3")?.offset(at: utc(2026, 1, 1)) == -3 * 3600)
    #expect(PosixZoneRule("EST5EDT,M3.2.0") == nil)
    #expect(PosixZoneRule("5") == nil)
  }
}
