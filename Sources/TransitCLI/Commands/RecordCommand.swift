import Services
import TransitModel

/// `transit record DIR`: saves timestamped snapshots of the configured realtime feeds, for
/// `follow --replay`.
enum RecordCommand: TransitCommand {
  static let duration = Option.duration("--duration", value: "D", help: "Stop after D (90s, 15m, 2h; default: until Ctrl-C)")
  static let feed = Option.text("--feed", value: "NAME", help: "Only the configured feed NAME", complete: .dynamic(.feeds))
  static let history = Option.flag("--history", help: "Also take each snapshot into the history ('transit history')")

  static let path = ["record"]
  static let spec = CommandSpec(
    path: path,
    summary: "Save realtime snapshots of the configured feeds for --replay",
    arguments: [ArgumentSpec("DIR", help: "The folder to save snapshots in (created if missing)")],
    options: [
      duration.spec, feed.spec, history.spec,
    ],
    discussion: """
      Fetches every realtime URL of the configured feeds in step with their publish period and
      writes each new snapshot as DIR/<unix-seconds>-<kind>.pb (kind: trip-updates,
      vehicle-positions, alerts), named by the feed's own header timestamp (else the fetch
      time). 'transit follow ... --replay DIR' plays them back by that clock. With --history,
      each new trip-updates snapshot (with the feed's latest vehicle positions) is also taken
      into history.sqlite as it comes, as 'transit history import DIR' would.
      """,
    examples: [
      "transit record ~/rides/monday --duration 30m",
      "transit record ~/rides/dublin --feed dublin --duration 2h",
      "transit record ~/rides/week --history --duration 2h",
      "transit follow V27-1 --replay ~/rides/monday",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let withHistory = invocation.arguments.isSet(history)
    let request = RecordRequest(
      directory: invocation.absolutePath(try invocation.argument(0)), feed: try invocation.arguments.read(feed),
      durationSeconds: try invocation.arguments.read(Self.duration),
      history: withHistory ? { try session(invocation) } : nil,
      options: { try RealtimeSupport.options(invocation, settings: try invocation.settings()) }, now: invocation.now)
    let bar = ProgressBar(sink: invocation.context.stderr, enabled: invocation.showsProgress, unit: "snapshots")
    let answer = try FeedsSupport.access(invocation).record(request, dataDirectory: invocation.paths.data) { event in
      switch event {
      case .round(let saved, let elapsed):
        bar.update(
          fraction: request.durationSeconds.map { Double(elapsed) / Double($0) },
          label: "recording: \(saved) snapshot\(saved == 1 ? "" : "s") saved", count: saved)
      case .failed(let message):
        bar.finish()
        invocation.context.stderr.line("transit: \(message); will retry")
      }
    }
    bar.finish()
    if let report = answer.report { RealtimeSupport.warn(report, invocation: invocation) }
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let saved = answer.snapshots
    let matched = answer.report.flatMap(RealtimeSupport.matchText).map { "; the last snapshot: \($0)" } ?? ""
    invocation.context.stdout.line("saved \(saved) snapshot\(saved == 1 ? "" : "s") in \(answer.folder)\(matched)")
    if let counts = answer.history {
      invocation.context.stdout.line(
        "history: \(counts.snapshots) snapshots taken in, \(counts.actuals) actuals (\(counts.observed) observed, \(counts.inferred) inferred), \(counts.cancellations) cancellations, \(counts.ghostTrips) ghost trips"
      )
    }
    return 0
  }

  /// The session `--history` matches against, and the days the history keeps.
  static func session(_ invocation: Invocation) throws -> (session: TransitSession, retentionDays: Int) {
    let settings = try invocation.settings()
    let session = try SessionSupport.session(invocation, settings: settings, realtime: { FixedRealtime([]) })
    return (session, settings.historyRetentionDays)
  }
}
