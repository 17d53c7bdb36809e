import FoundationEssentials
import TransitModel

/// Whether a held timetable covers a date: what `ingest --list` and `--check` show and every
/// command warns about.
public enum ServiceStatus: Sendable, Equatable {
  /// Service runs today and for more than the warning days ahead.
  case running(lastDay: ServiceDate)
  /// The last day with service is within the warning days.
  case endingSoon(lastDay: ServiceDate, daysLeft: Int)
  /// The last day with service is before today.
  case ended(lastDay: ServiceDate)
  /// The first day with service is after today.
  case notStarted(firstDay: ServiceDate)
  /// The timetable holds no dates with service.
  case unknown

  /// Whether a rider should hear about it.
  public var needsWarning: Bool {
    switch self {
    case .running, .unknown: return false
    case .endingSoon, .ended, .notStarted: return true
    }
  }
}

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
