import Foundation
import TransitModel

@testable import GTFS

// The tests written against Foundation's `TimeZone` (LocalClockTests, TimeZoneDepartureTests) run
// unchanged: a `TimeZone` here stands for the tz-database zone of its name, read by `LocalZone`.

extension LocalZone {
  init(_ zone: TimeZone) { self = try! LocalZone(named: zone.identifier) }
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
