import FoundationEssentials
import Services
import TransitModel

/// `--line` of `departures STOP` and `commute NAME` (issue 20): one short line for a shell
/// prompt or a status bar, e.g. `27 07:53 +3 · leave in 6 min`. It exits 0 even when there is
/// nothing to take, reads realtime through the snapshot cache, and waits for the network at
/// most `--timeout` seconds (default 2) before answering from the cache or the timetable.
///
/// The line: the route, the time (expected, else scheduled), the delay in minutes when live
/// (`+3`, `-1`; nothing when on the minute) or `sched` when only the timetable knows it; then
/// the leave advice (with `--from` or a commute's walk) or the countdown; then, when the feed
/// is stale, its age, and `offline` when the fetch failed or timed out.
enum StatusLine {
  static let timeout = Option.number(
    "--timeout", value: "SECONDS", help: "With --line: wait at most this long for realtime, then use the cache or the timetable",
    described: "a number of seconds above 0, at most 60", accepts: { $0 > 0 && $0 <= 60 }
  ).defaulting(to: 2)

  /// The `--timeout` in seconds.
  static func timeout(_ invocation: Invocation) throws(UsageError) -> Double {
    try invocation.arguments.read(timeout)
  }

  /// The line for `departure` at `now`, as `--line` prints it without --format.
  static func text(
    _ departure: Departure, advice: LeaveAdvice?, now: UnixTime, freshness: RealtimeFreshness?, offline: Bool, zone: LocalZone,
    twelveHour: Bool
  ) -> String {
    fields(departure, advice: advice, now: now, freshness: freshness, offline: offline, zone: zone, twelveHour: twelveHour)
      .defaultText
  }

  /// " · feed 5 min old" for a stale or unused feed, " · offline" after a failed fetch.
  static func suffix(freshness: RealtimeFreshness?, now: UnixTime, offline: Bool) -> String {
    notes(freshness: freshness, now: now, offline: offline).map { " · " + $0 }.joined()
  }

  /// `departures STOP --line`.
  static func departures(_ invocation: Invocation) throws -> Int32 {
    let timeout = try timeout(invocation)
    let template = try invocation.arguments.read(format)
    let board = try BoardContext(invocation) {
      try FeedsSupport.realtimeSource(invocation, budgetSeconds: timeout, refresh: false, skipsUnresolved: true)
    }
    let now = invocation.now
    let answer = try board.board(now: now, warn: false, quiet: true, limit: 10_000)
    let offline = !answer.realtimeProblems.isEmpty
    let out = invocation.context.stdout
    let freshness = answer.hasRealtime ? answer.report.freshness : nil
    let end = StopCommandSupport.clock(answer.windowEnd, zone: board.zone, twelveHour: board.twelveHour)
    let nothing = "no \(board.route ?? "departure") before \(end)" + suffix(freshness: freshness, now: now, offline: offline)
    // Each row weighed by the walk to its own stop (a board of several stops, a complex), and
    // by its departure's margin as the board gives it (learned from the history, or the fixed rule).
    let first = StatusLineChoice.first(answer.rows, now: now)
    let chosen = first.map { row, advice in
      var line = fields(
        row.departure, advice: advice, now: now, freshness: freshness, offline: offline, zone: board.zone, twelveHour: board.twelveHour)
      line.stop = row.partLabel ?? ""
      return line
    }
    out.line(output(chosen, nothing: nothing, template: template, json: invocation.global.json))
    return 0
  }

  /// `commute NAME --line`: the recommended departure today and when to leave for it.
  static func commute(_ invocation: Invocation, _ commute: SavedCommute) throws -> Int32 {
    let timeout = try timeout(invocation)
    let template = try invocation.arguments.read(format)
    let json = invocation.global.json
    let session = try SessionSupport.session(invocation) {
      try FeedsSupport.realtimeSource(invocation, budgetSeconds: timeout, refresh: false, skipsUnresolved: true)
    }
    let now = invocation.now
    let answer: CommuteLineAnswer
    do {
      answer = try session.commuteLine(commute, now: now)
    } catch CommuteFailure.missingStop(let name, let stopID) {
      throw NotFoundError("commute '\(name)': stop \(stopID) is not in the timetable since the last ingest")
    }
    let line: String
    switch answer.outcome {
    case .notToday: line = output(nil, nothing: "no \(commute.name) commute today", template: template, json: json)
    case .nothing:
      let nothing =
        "no \(commute.route ?? "departure") before \(SavedCommute.clockText(minutes: commute.arriveByMinutes))"
        + suffix(freshness: answer.freshness, now: now, offline: answer.isOffline)
      line = output(nil, nothing: nothing, template: template, json: json)
    case .departure(let departure, let advice):
      let chosen = fields(
        departure, advice: advice, now: now, freshness: answer.freshness, offline: answer.isOffline, zone: answer.zone,
        twelveHour: StopCommandSupport.uses12HourClock(invocation))
      line = output(chosen, nothing: "", template: template, json: json)
    }
    invocation.context.stdout.line(line)
    return 0
  }
}
