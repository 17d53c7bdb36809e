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

  /// The warnings about the timetables held, as a command says them on stderr: one line a
  /// timetable while there are at most `each`; beyond that (a region of many agencies, a
  /// folder of old feeds), one line for all those that have ended, one for those ending soon
  /// and one for those not started, naming the first three of each, so that a departures
  /// board is not buried under thirty lines. A kind with one timetable keeps its own line.
  static func warnings(_ statuses: [(feed: String, status: ServiceStatus)], each: Int = 3) -> [String] {
    let warned = statuses.filter { $0.status.needsWarning }
    guard warned.count > each else { return warned.compactMap { $0.status.warning(feed: $0.feed) } }
    var ended: [(feed: String, status: ServiceStatus)] = []
    var ending: [(feed: String, status: ServiceStatus)] = []
    var notStarted: [(feed: String, status: ServiceStatus)] = []
    for entry in warned {
      switch entry.status {
      case .ended: ended.append(entry)
      case .endingSoon: ending.append(entry)
      case .notStarted: notStarted.append(entry)
      case .running, .unknown: break
      }
    }
    func names(_ group: [(feed: String, status: ServiceStatus)], _ name: (String, ServiceStatus) -> String) -> String {
      let shown = group.prefix(3).map { name($0.feed, $0.status) }
      let more = group.count - shown.count
      return more == 0
        ? shown.dropLast().joined(separator: ", ") + " and " + shown.last!
        : shown.joined(separator: ", ") + " and \(more) more; 'transit ingest --check' lists them"
    }
    var lines: [String] = []
    func say(_ group: [(feed: String, status: ServiceStatus)], _ line: () -> String) {
      if group.count == 1 {
        if let single = group[0].status.warning(feed: group[0].feed) { lines.append(single) }
      } else if group.count > 1 {
        lines.append(line())
      }
    }
    say(ended) {
      "\(ended.count) timetables held have ended (\(names(ended) { feed, _ in feed })); refresh them with 'transit ingest'"
    }
    say(ending) {
      let listed = names(ending) { feed, status in
        if case .endingSoon(let day, _) = status { return "\(feed) on \(day.dashed)" }
        return feed
      }
      return "\(ending.count) timetables held end soon (\(listed)); refresh them with 'transit ingest'"
    }
    say(notStarted) {
      "\(notStarted.count) timetables held have not started yet (\(names(notStarted) { feed, _ in feed })); until then they have no service"
    }
    return lines
  }
}
