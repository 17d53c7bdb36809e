import Foundation
import GTFS
import Services
import Testing
import TransitModel

// RequestedTimeTests, written against Foundation's `TimeZone`, run unchanged: a `TimeZone` here
// stands for the tz-database zone of its name, read by `LocalZone`.
extension RequestedTime {
  static func start(_ time: RequestedTime?, on date: ServiceDate?, now: UnixTime, zone: TimeZone) -> UnixTime {
    start(time, on: date, now: now, zone: LocalZone(zone))
  }
}

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
