import Foundation
import Testing
import TransitModel

@testable import GTFS

// The tests written against Foundation's `TimeZone` (LocalClockTests, TimeZoneDepartureTests) run
// unchanged: a `TimeZone` here stands for the tz-database zone of its name, read by `LocalZone`.

extension LocalZone {
  /// The zone of `zone`'s name; UTC, and a failure of the test that asked, when this machine's
  /// tz database lacks it (one test fails, not the whole run).
  init(_ zone: TimeZone) {
    do {
      self = try LocalZone(named: zone.identifier)
    } catch {
      Issue.record("no tz database zone \(zone.identifier): \(error)")
      self = .utc
    }
  }
}

extension LocalClock {
  static func instant(_ date: ServiceDate, secondsAfterMidnight seconds: Int, in zone: TimeZone) -> UnixTime {
    instant(date, secondsAfterMidnight: seconds, in: LocalZone(zone))
  }

  static func date(of time: UnixTime, in zone: TimeZone) -> ServiceDate { date(of: time, in: LocalZone(zone)) }

  static func secondsAfterMidnight(of time: UnixTime, in zone: TimeZone) -> Int {
    secondsAfterMidnight(of: time, in: LocalZone(zone))
  }
}

extension ServiceCalendar {
  static func start(of date: ServiceDate, in zone: TimeZone) -> UnixTime { start(of: date, in: LocalZone(zone)) }
}
