import Services
import TransitModel

/// How `ingest`'s answers are shown: the progress bars, the summary line (or JSON), the
/// `--list` table and the `--check` lines.
extension IngestCommand {
  /// The progress of one run: a bar in kB while a ZIP downloads, one in rows while a feed
  /// loads, and a line while another ingest holds the lock (on a terminal, without --quiet).
  final class Progress {
    let invocation: Invocation
    let isShown: Bool
    var bar: ProgressBar?

    init(_ invocation: Invocation) {
      self.invocation = invocation
      isShown = invocation.showsProgress && !invocation.arguments.isSet(Options.quiet)
    }

    func report(_ step: IngestStep) {
      let stderr = invocation.context.stderr
      switch step {
      case .waitingForLock(let waited, let limit):
        if isShown { stderr.write("\rwaiting for another ingest to finish (\(waited) s of \(limit) s)") }
      case .downloading(let received, let total):
        let label = "downloading \(FeedsSupport.sizeText(received))" + (total.map { " of \(FeedsSupport.sizeText($0))" } ?? "")
        bar(unit: "kB").update(fraction: total.map { $0 > 0 ? Double(received) / Double($0) : 0 }, label: label, count: received / 1000)
      case .loading(let file, let rows, let rowsSoFar, let fraction):
        bar(unit: "rows").update(fraction: fraction, label: "\(file) \(Format.thousands(rows)) rows", count: rowsSoFar)
      case .indexing: bar(unit: "rows").update(fraction: 1, label: "building indexes")
      case .downloaded, .loaded:
        bar?.finish()
        bar = nil
      }
    }

    func bar(unit: String) -> ProgressBar {
      if let bar { return bar }
      let made = ProgressBar(sink: invocation.context.stderr, enabled: isShown, unit: unit)
      bar = made
      return made
    }
  }

  static func progress(_ invocation: Invocation) -> Progress { Progress(invocation) }

  /// The summary of one ingest (or JSON); under --quiet only what changed for the user, which
  /// cron then mails.
  static func render(_ outcome: IngestOutcome, _ invocation: Invocation) {
    let out = invocation.context.stdout, stderr = invocation.context.stderr
    let quiet = invocation.arguments.isSet(Options.quiet)
    guard case .ingested(let answer) = outcome else {
      guard case .unchanged(let unchanged) = outcome else { return }
      if invocation.global.json {
        out.line(JSONTreeEncoder.text(unchanged))
      } else if !quiet {
        out.line("unchanged: \(unchanged.feed ?? "feed") (\(unchanged.decision.reason ?? ""))")
      }
      return
    }
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return
    }
    if quiet {
      for change in answer.yourChanges { out.line(change.text) }
      return
    }
    let counts = answer.rows.map { "\(Format.thousands($0.count)) \($0.file.replacing(".txt", with: ""))" }
    var line =
      (answer.saysChanged ? "changed: " : "") + "ingested \(answer.feed) in \(Format.seconds(answer.seconds)): "
      + counts.joined(separator: ", ")
    if answer.interpolatedStopTimes > 0 {
      line += " (\(Format.thousands(answer.interpolatedStopTimes)) untimed stop times interpolated)"
    }
    if !answer.warnings.isEmpty { line += "; \(answer.warnings.count) warning\(answer.warnings.count == 1 ? "" : "s")" }
    out.line(line)
    for change in answer.yourChanges { out.line(change.text) }
    for check in answer.checks where !check.passed {
      stderr.line("warning: swapped with --force although \(check.name) failed: \(check.detail)")
    }
    for warning in answer.warnings.prefix(10) { stderr.line("warning: \(warning)") }
    if answer.warnings.count > 10 { stderr.line("warning: … and \(answer.warnings.count - 10) more") }
  }

  /// `--list`: a table of the timetables held (or JSON).
  static func list(_ held: [HeldTimetable], _ invocation: Invocation) {
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(held))
      return
    }
    guard !held.isEmpty else {
      out.line("no feeds held yet; load one with 'transit ingest PATH'")
      return
    }
    var rows = [["FEED", "SERVICE", "STATUS", "LOADED", "STOPS", "ROUTES", "TRIPS", "PREVIOUS", "SOURCE"]]
    for feed in held {
      let previous = feed.previous.map { serviceText(start: $0.serviceStart, end: $0.serviceEnd) } ?? "-"
      rows.append([
        feed.name, serviceText(feed), feed.status.heldWord, loadedText(feed.loadedAt), Format.thousands(feed.stops),
        Format.thousands(feed.routes), Format.thousands(feed.trips), previous, feed.source.map { PathText.lastComponent($0) } ?? "",
      ])
    }
    out.write(Format.table(rows, rightAligned: [4, 5, 6]))
  }

  /// `--check`: a line for each timetable held that has ended, ends within 7 days or has not
  /// started (nothing else with --quiet).
  static func render(_ check: TimetableCheck, quiet: Bool, _ invocation: Invocation) {
    let out = invocation.context.stdout
    for feed in check.timetables {
      if let warning = feed.status.warning(feed: feed.name) {
        out.line(warning)
      } else if !quiet {
        out.line("\(feed.name): \(feed.status.heldWord), service to \(day(feed.serviceEnd))")
      }
    }
    if check.timetables.isEmpty && !quiet { out.line("no feeds held") }
  }

  /// `2026-01-01 to 2027-12-31`.
  static func serviceText(_ feed: HeldTimetable) -> String { serviceText(start: feed.serviceStart, end: feed.serviceEnd) }

  static func serviceText(start: String?, end: String?) -> String { "\(day(start)) to \(day(end))" }

  /// `20260101` as `2026-01-01`; `?` when not a date.
  static func day(_ text: String?) -> String {
    guard let text, text.count == 8 else { return "?" }
    return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
  }

  /// `2026-11-29 12:00` (UTC).
  static func loadedText(_ time: UnixTime?) -> String {
    time.map { String(ISOTime.format($0).prefix(16)).replacing("T", with: " ") } ?? "?"
  }
}
