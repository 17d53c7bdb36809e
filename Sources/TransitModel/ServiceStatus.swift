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
