import Foundation
import GTFS
import Services
import TransitModel

// RequestedTimeTests, written against Foundation's `TimeZone`, run unchanged: a `TimeZone` here
// stands for the tz-database zone of its name, read by `LocalZone`.
extension RequestedTime {
  static func start(_ time: RequestedTime?, on date: ServiceDate?, now: UnixTime, zone: TimeZone) -> UnixTime {
    start(time, on: date, now: now, zone: try! LocalZone(named: zone.identifier))
  }
}
