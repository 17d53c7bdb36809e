import FoundationEssentials
import TransitModel

extension Timetables.Feed {
  /// The feed's service on the local date of `now` in its time zone, warning when the last
  /// day with service is within `warningDays` days.
  public func serviceStatus(now: UnixTime, warningDays: Int = 7) -> ServiceStatus {
    guard let first = meta["service_start"].flatMap({ ServiceDate(gtfs: $0) }),
      let last = meta["service_end"].flatMap({ ServiceDate(gtfs: $0) })
    else { return .unknown }
    let zone = meta["timezone"].flatMap { try? LocalZone(named: $0) } ?? LocalZone.utc
    let today = ServiceCalendar.localDate(of: now, in: zone)
    if last < today { return .ended(lastDay: last) }
    if today < first { return .notStarted(firstDay: first) }
    let daysLeft = last.daysSinceEpoch - today.daysSinceEpoch
    return daysLeft < warningDays ? .endingSoon(lastDay: last, daysLeft: daysLeft) : .running(lastDay: last)
  }
}
