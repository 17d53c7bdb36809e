import Fetch
import FoundationEssentials
import GTFS
import GTFSRealtime
import Services
import TransitModel
import UserData

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

  /// Realtime for a status line: `--realtime` files, else the configured feeds (only the
  /// `preferred` one when it is configured) through the cache, the network given `timeout`
  /// seconds in all. Says nothing on stderr; `offline` tells whether a fetch failed.
  static func feeds(_ invocation: Invocation, preferred: String?, timeout: Double) throws -> (feeds: [FeedMessage], offline: Bool) {
    let source = try FeedsSupport.realtimeSource(invocation, budgetSeconds: timeout, refresh: false, skipsUnresolved: true)
    let read = try source.read(preferring: preferred.map(FeedName.init))
    return (read.feeds, read.isOffline)
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
    let end = StopCommandSupport.clock(now + Int64(board.windowMinutes * 60), zone: board.zone, twelveHour: board.twelveHour)
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
  static func commute(_ invocation: Invocation, _ commute: UserStore.Commute) throws -> Int32 {
    let timeout = try timeout(invocation)
    let template = try invocation.arguments.read(format)
    let json = invocation.global.json
    let out = invocation.context.stdout
    let store = try StopCommandSupport.openStore(invocation)
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard let stop = stops.first else {
      throw NotFoundError("commute '\(commute.name)': stop \(commute.stopID) is not in the timetable since the last ingest")
    }
    let settings = try invocation.settings()
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let zone = store.timeZone(of: stop.feed)
    let now = invocation.now
    let today = store.localDate(of: now, feed: stop.feed)
    let deadlineText = ValueParser.clockText(minutes: commute.arriveByMinutes)
    guard CommutePlanner.runs(commute, on: today) else {
      out.line(output(nil, nothing: "no \(commute.name) commute today", template: template, json: json))
      return 0
    }
    let (feeds, offline) = try feeds(invocation, preferred: stop.feed.rawValue, timeout: timeout)
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let live = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: options, warn: false)
    let plan = try CommutePlanner.plan(commute, stops: stops, on: today, store: store, live: live)
    let freshness = feeds.isEmpty ? nil : live.report.freshness
    let what = commute.route ?? "departure"
    guard let index = plan.recommended else {
      let nothing = "no \(what) before \(deadlineText)" + suffix(freshness: freshness, now: now, offline: offline)
      out.line(output(nil, nothing: nothing, template: template, json: json))
      return 0
    }
    let option = plan.options[index]
    // The margin `commute --watch` takes (learned from the history, or the fixed rule).
    let margin = try BoardSupport.margin(
      for: option.departure, settings: settings, session: TransitSession(store: store, options: options),
      history: settings.leaveMarginLearned ? try BoardSupport.historyIfAny(invocation) : nil, zone: zone, now: now
    ).margin
    let advice = LeaveAdvice.classify(
      departs: option.departs, walkSeconds: Int64(commute.walkMinutes * 60), now: now, margin: margin)
    let chosen = fields(
      option.departure, advice: advice, now: now, freshness: freshness, offline: offline, zone: zone, twelveHour: twelve)
    out.line(output(chosen, nothing: "", template: template, json: json))
    return 0
  }
}
