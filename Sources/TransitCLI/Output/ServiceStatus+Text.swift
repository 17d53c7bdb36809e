import TransitModel

extension ServiceStatus {
  /// "the timetable held for hart ended on 2021-04-24; refresh it with 'transit ingest'", or
  /// nil when there is nothing to say: the library says where the service stands, the command
  /// line the advice that names a command.
  func warning(feed: String) -> String? {
    switch self {
    case .running, .unknown: return nil
    case .ended(let day): return "the timetable held for \(feed) ended on \(day.dashed); refresh it with 'transit ingest'"
    case .endingSoon(let day, let days):
      let when = days == 0 ? "today" : days == 1 ? "tomorrow" : "in \(days) days"
      return "the timetable held for \(feed) ends on \(day.dashed) (\(when)); refresh it with 'transit ingest'"
    case .notStarted(let day): return "the timetable held for \(feed) starts on \(day.dashed); until then it has no service"
    }
  }
}
