import Services
import TransitModel

/// `transit history import DIR`.
enum HistoryImportCommand: TransitCommand {
  static let path = ["history", "import"]
  static let spec = CommandSpec(
    path: path,
    summary: "Take recorded realtime snapshots into the history",
    arguments: [ArgumentSpec("DIR", help: "A folder of .pb snapshots ('transit record' writes them)")],
    options: [],
    discussion: """
      Reads every .pb (or .pb.gz) file in DIR, groups them by their feed header's timestamp
      (the files of one moment: trip updates and vehicle positions) and takes them in in time
      order, matched against the timetables held. A snapshot already in the history is
      skipped, so importing a folder again changes nothing; so is one older than the newest
      taken in (inferring actuals needs time order).
      """,
    examples: ["transit history import ~/rides/monday", "transit history import Data/replay --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let directory = invocation.absolutePath(try invocation.argument(0))
    let settings = try invocation.settings()
    let session = try SessionSupport.session(invocation, settings: settings, realtime: { FixedRealtime([]) })
    let request = HistoryImportRequest(
      directory: directory, caps: settings.realtimeCaps, importedAt: invocation.context.clock.now().seconds,
      retentionDays: settings.historyRetentionDays)
    let answer: HistoryImportAnswer
    do {
      answer = try session.importHistory(request, now: invocation.now)
    } catch let failure as HistoryImportFailure {
      throw RuntimeError(message(failure))
    }
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let counts = answer.counts
    func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    var line =
      "imported \(count(counts.snapshots, "snapshot")): \(count(counts.actuals, "actual")) (\(counts.observed) observed, \(counts.inferred) inferred), \(count(counts.skips, "skip")), \(count(counts.predictions, "prediction")), \(count(counts.cancellations, "cancellation")), \(count(counts.ghostTrips, "ghost trip"))"
    if answer.alreadyImported > 0 { line += "; \(answer.alreadyImported) already in the history" }
    if answer.olderThanHistory > 0 { line += "; \(answer.olderThanHistory) older than the history's newest snapshot, left out" }
    if answer.removedPastRetention > 0 {
      line +=
        "; \(answer.removedPastRetention) calls older than the \(settings.historyRetentionDays) days kept deleted (the history-days setting)"
    }
    invocation.context.stdout.line(line)
    return 0
  }

  /// What went wrong taking a folder in, in words.
  static func message(_ failure: HistoryImportFailure) -> String {
    switch failure {
    case .unreadableFolder(let directory): return "cannot read snapshot folder '\(directory)'"
    case .unreadableFile(let path): return "\(path): cannot be read"
    case .noTimestamp(let path):
      return "\(path): the feed header has no timestamp and the name does not start with one (<unix-seconds>-<kind>.pb)"
    case .noSnapshots(let directory): return "no snapshots (.pb files) in '\(directory)'"
    case .readFailure(let error, let taken):
      let reason = (error as? HistoryImportFailure).map(message) ?? "\(error)"
      return
        "\(reason); the \(taken) snapshot\(taken == 1 ? "" : "s") before it \(taken == 1 ? "is" : "are") in the history (import again once the file is mended or moved away)"
    }
  }
}
