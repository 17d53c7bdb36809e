import Foundation
import TestSupport
import Testing
import TransitCLI

/// Options declared once with their type (`Option`): their values are checked before the
/// command runs, with one wording wherever the option appears.
@Suite struct TypedOptionTests {
  @Test func aBadValueIsAUsageErrorBeforeAnythingIsOpened() {
    let empty = TemporaryFolder()
    // No timetable is held: the language tag is refused first, the same way in both commands.
    for command in [["status"], ["alerts"]] {
      let result = transit(command + ["--lang", "b@d", "--data-dir", empty.path])
      #expect(result.code == 2, "\(command)")
      #expect(result.stderr.hasPrefix("transit: --lang 'b@d' is not a language tag (en, fr, es-MX) (usage: "), "\(command)")
    }
    let record = transit(["record", empty.path + "/snapshots", "--duration", "soon", "--data-dir", empty.path])
    #expect(record.code == 2)
    #expect(record.stderr.hasPrefix("transit: --duration 'soon' is not a duration (90s, 15m, 2h) (usage: "))
  }

  @Test func durationsAndDatesHaveOneParser() throws {
    #expect(try ValueParser.duration("90", option: "--duration") == 90)
    #expect(try ValueParser.duration("15m", option: "--duration") == 900)
    #expect(try ValueParser.duration("2h", option: "--duration") == 7200)
    #expect(throws: UsageError.self) { try ValueParser.duration("0s", option: "--duration") }
    #expect(try ValueParser.date("2026-12-01", option: "--date").yyyymmdd == 20_261_201)
    #expect(throws: UsageError.self) { try ValueParser.date("2026-1-01", option: "--date") }
    #expect(throws: UsageError.self) { try ValueParser.date("2026-02-30", option: "--date") }
    #expect(try ValueParser.clockMinutes("7:05", option: "--at") == 425)
    #expect(throws: UsageError.self) { try ValueParser.clockMinutes("24:00", option: "--at") }
  }

  @Test func positionsAreCheckedForRange() throws {
    let point = try ValueParser.coordinate(" 53.2875 , -6.3664 ", option: "--near")
    #expect(point.latitude == 53.2875 && point.longitude == -6.3664)
    #expect(try ValueParser.coordinate("-90,180", option: "--near").longitude == 180)
    for bad in ["91,0", "-90.5,0", "0,181", "0,-180.01", "53.2", "53,-6,1", "north,west", ""] {
      #expect(throws: UsageError("--near '\(bad)' is not a position LAT,LON in degrees (53.2875,-6.3664)"), "\(bad)") {
        try ValueParser.coordinate(bad, option: "--near")
      }
    }
    // A place: a position when it starts like a number, else a saved place's name.
    #expect(try ValueParser.place("53.2875,-6.3664", option: "--from").position?.latitude == 53.2875)
    #expect(try ValueParser.place("-33.9,151.2", option: "--from").position?.longitude == 151.2)
    #expect(try ValueParser.place("Home", option: "--from").position == nil)
    #expect(throws: UsageError.self) { try ValueParser.place("95,0", option: "--from") }
  }

  @Test func modesDaysAndWholeNumbers() throws {
    #expect(try ValueParser.modes(["bus,Tram", "rail"], option: "--mode") == [.bus, .tram, .rail])
    #expect(try ValueParser.modes([], option: "--mode").isEmpty)
    #expect(throws: UsageError.self) { try ValueParser.modes(["bus,boat"], option: "--mode") }
    // Bit 0 is Monday: mon-fri 1+2+4+8+16, sat,sun 32+64, fri-mon wraps: 16+32+64+1.
    #expect(try ValueParser.weekdays("mon-fri", option: "--days") == 31)
    #expect(try ValueParser.weekdays("sat,sun", option: "--days") == 96)
    #expect(try ValueParser.weekdays("fri-mon", option: "--days") == 113)
    #expect(try ValueParser.weekdays("daily", option: "--days") == 127)
    #expect(throws: UsageError("--days 'someday' is not a list of days (mon-fri, sat,sun, daily)")) {
      try ValueParser.weekdays("someday", option: "--days")
    }
    #expect(try ValueParser.integer("0", option: "--direction", in: 0...1) == 0)
    #expect(throws: UsageError("option '--direction' takes a whole number from 0 to 1, not '2'")) {
      try ValueParser.integer("2", option: "--direction", in: 0...1)
    }
    #expect(throws: UsageError.self) { try ValueParser.integer("1.5", option: "--limit", in: 1...10) }
    // A time is checked when parsed and placed in the agency's zone later.
    #expect(try ValueParser.time("7:30", option: "--at").text == "7:30")
    #expect(throws: UsageError("--at '7.30' is not a time HH:MM or ISO 8601")) { try ValueParser.time("7.30", option: "--at") }
  }

  /// Each converted command refuses a bad value with one line naming the option, exit 2,
  /// before anything is opened (the data folder is empty).
  @Test func badValuesOfTheConvertedCommands() {
    let empty = TemporaryFolder()
    let cases: [([String], String)] = [
      (["vehicles", "--near", "95,0"], "--near '95,0' is not a position LAT,LON in degrees (53.2875,-6.3664)"),
      (["vehicles", "--radius", "0"], "option '--radius' takes a whole number from 1 to 1000000, not '0'"),
      (["stops", "near", "--mode", "boat"], "--mode 'boat' is not one of "),
      (["stops", "search", "x", "--near", "53,200"], "--near '53,200' is not a position LAT,LON in degrees (53.2875,-6.3664)"),
      (["departures", "TINT", "--window", "0"], "option '--window' takes a whole number from 1 to 10080, not '0'"),
      (["departures", "TINT", "--at", "25:00"], "--at '25:00' is not a time HH:MM or ISO 8601"),
      (["departures", "TINT", "--from", "91,0"], "--from '91,0' is not a position LAT,LON in degrees (53.2875,-6.3664)"),
      (["departures", "TINT", "--line", "--timeout", "0"], "--timeout '0' is not a number of seconds above 0, at most 60"),
      (["plan", "A", "B", "--walk-speed", "5"], "--walk-speed '5' is not a speed between 0.3 and 3 metres per second"),
      (["plan", "A", "B", "--max-transfers", "9"], "option '--max-transfers' takes a whole number from 0 to 8, not '9'"),
      (["follow", "V1", "--speed", "0"], "--speed '0' is not a positive number"),
      (["timetable", "TINT", "--date", "2026-1-225"], "--date '2026-1-225' is not a date YYYY-MM-DD"),
      (["trip", "show", "T", "--date", "tomorrow"], "--date 'tomorrow' is not a date YYYY-MM-DD"),
      (["route", "show", "27", "--direction", "2"], "option '--direction' takes a whole number from 0 to 1, not '2'"),
      (["commute", "add", "w", "--stop", "S", "--arrive-by", "8.30"], "--arrive-by '8.30' is not a time HH:MM"),
      (
        ["commute", "add", "w", "--stop", "S", "--arrive-by", "08:30", "--days", "someday"],
        "--days 'someday' is not a list of days (mon-fri, sat,sun, daily)"
      ),
      (["commute", "w", "--ics", "--days", "0"], "option '--days' takes a whole number from 1 to 366, not '0'"),
      (["--from", "95,0"], "--from '95,0' is not a position LAT,LON in degrees (53.2875,-6.3664)"),
    ]
    for (words, message) in cases {
      let result = transit(words + ["--data-dir", empty.path])
      #expect(result.code == 2, "\(words)")
      #expect(result.stdout.isEmpty, "\(words)")
      #expect(result.stderr.hasPrefix("transit: " + message), "\(words): \(result.stderr)")
    }
  }
}
