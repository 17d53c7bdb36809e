import FoundationEssentials
import Services
import TransitModel

/// `transit departures STOP --watch`: the live board (issue 20). Realtime is fetched again in
/// step with the feed's own period (the poll schedule `follow` uses); between fetches the
/// countdowns are redrawn every second; rows that changed at a fetch are highlighted for a few
/// seconds. On a terminal it takes the alternate screen (q, Ctrl-C or SIGTERM restore it);
/// elsewhere, and with TERM=dumb, each fetch prints a plain frame.
enum DeparturesWatch {
  /// Seconds a changed row stays highlighted.
  static let highlightSeconds = 5.0

  static func run(_ invocation: Invocation) throws -> Int32 {
    let arguments = invocation.arguments
    if arguments.isGiven(DeparturesCommand.Options.at) || arguments.isGiven(DeparturesCommand.Options.date) {
      throw UsageError("--watch shows the board from now: leave out --at and --date")
    }
    let count = try arguments.read(Self.count)
    let grouped = arguments.isSet(group)
    let perGroup = try arguments.read(Self.perGroup)
    let board = try BoardContext(invocation, defaultLimit: grouped ? 1000 : nil)
    var loop = WatchLoop(invocation, count: count)
    loop.lastHold = 1
    let clock = BoardSupport.clock(invocation)
    let context = invocation.context
    var previous: [Departure]?
    var highlightUntil: [BoardChanges.Key: Double] = [:]
    var warned = false
    return try loop.run {
      let fetchedAt = clock()
      // On the full screen, diagnostics would scribble over the board: this fetch's go to the footer.
      let quiet = loop.quiet()
      let answer = try board.board(now: fetchedAt, warn: !warned && !loop.isFullScreen, report: quiet)
      warned = true
      let elapsedAtFetch = context.elapsed()
      let departures = answer.rows.map(\.departure)
      for key in BoardChanges.changed(from: previous, to: departures) { highlightUntil[key] = elapsedAtFetch + highlightSeconds }
      previous = departures
      var frame = BoardFrame(board: answer, twelveHour: board.twelveHour, groups: grouped ? answer.groups(perGroup: perGroup) : nil)
      let next = board.session.nextFetch(after: answer, now: context.clock.now().seconds)
      frame.highlighted = Set(highlightUntil.filter { $0.value > elapsedAtFetch }.keys)
      let size =
        (context.stdoutIsTerminal ? Terminal.windowSize() : nil) ?? (StopCommandSupport.environmentColumns(invocation) ?? 80, 1000)
      let plain = loop.isFullScreen ? [] : frame.render(columns: size.columns, rows: 1000, colour: false)
      let update = WatchLoop.Update(
        plain: plain,
        screen: { size, seconds, footer in
          frame.now = clock()
          frame.highlighted = Set(highlightUntil.filter { $0.value > elapsedAtFetch + seconds }.keys)
          frame.footer = footer
          return frame.render(columns: size.columns, rows: size.rows, colour: loop.screen?.allowsColour ?? false)
        }, wait: Double(max(0, next - context.clock.now().seconds)), problem: BoardSupport.lastLine(quiet.context.stderr))
      return .update(update)
    }
  }
}

extension StopCommandSupport {
  /// `COLUMNS` when it is a width.
  static func environmentColumns(_ invocation: Invocation) -> Int? {
    invocation.context.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
  }
}

// MARK: - Options

extension DeparturesWatch {
  // The options `departures` gains for the board and the status line (and StatusLine.timeout).
  static let watch = Option.flag("--watch", help: "A full-screen live board: refreshed with the feed, countdowns every second, q quits")
  static let group = Option.flag("--group", help: "The next few departures of each route and direction instead of one list")
  static let perGroup = Option.integer(
    "--per-group", value: "N", in: 1...100, help: "With --group: departures per route and direction"
  ).defaulting(to: DepartureGroups.defaultPerGroup)
  static let count = Option.integer("--count", value: "N", in: 1...1_000_000, help: "With --watch: stop after N updates")
  static let line = Option.flag(
    "--line", help: "One short line for a status bar or prompt: the next departure (and when to leave, with --from)")

  static let discussion = """
    --watch keeps a live board on the screen (the alternate screen, like 'follow'): realtime
    is fetched again just after the feed publishes (its --poll period, 30 s unless set),
    countdowns are redrawn every second, rows that changed are marked with * (and highlighted)
    for a few seconds, the title says how old the feed is, the stop's alerts are at the foot,
    and q, Ctrl-C or SIGTERM restore the terminal. A narrow window drops columns in a fixed
    order: the live/interpolated marker, the platform, the walk, the delay, the clock time.
    With TERM=dumb or when not on a terminal it prints a plain board at each update (--count N
    stops after N).

    --group (with or without --watch) lists the next --per-group departures (3) of each route
    and direction, so a busy station's board reaches further ahead.

    With --from LAT,LON or a place, each departure says how long the walk is and when to
    leave: "leave in 6 min" (the walk and a margin for prediction error, growing with how far
    ahead the departure is: the leave-margin setting, 10 % of the time ahead, at most 5 min),
    "leave now", "run" (only at up to 1.5 times the walking speed) or "too late".

    --line prints one line for a status bar, e.g. "27 07:53 +3 · in 13 min" ("+3": 3 min late;
    "sched": timetable only; with --from, "leave in 6 min" instead of the countdown; a stale
    feed adds its age, a failed or timed-out fetch "offline"), and "no 27 before 09:40" when
    nothing leaves in the window; it always exits 0 and waits for the network at most
    --timeout seconds.

    \(StatusLine.formatDiscussion)
    """

  static let examples = [
    "transit departures TINT --watch",
    "transit departures TINT --group --now 2026-12-01T07:40:00Z",
    "transit departures 4530 --from 53.2875,-6.3664 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb",
    "transit departures TINT --line --route 27",
  ]

  /// Runs the board, the grouped list or the status line when asked for; nil otherwise.
  static func dispatch(_ invocation: Invocation) throws -> Int32? {
    let arguments = invocation.arguments
    if arguments.isSet(line) {
      if arguments.isSet(watch) || arguments.isSet(group) { throw UsageError("--line is one line: leave out --watch and --group") }
      return try StatusLine.departures(invocation)
    }
    if arguments.isGiven(StatusLine.timeout) { throw UsageError("--timeout goes with --line") }
    if arguments.isGiven(StatusLine.format) { throw UsageError("--format goes with --line") }
    if arguments.isGiven(count) && !arguments.isSet(watch) { throw UsageError("--count N goes with --watch") }
    if arguments.isGiven(perGroup) && !arguments.isSet(group) { throw UsageError("--per-group N goes with --group") }
    if arguments.isSet(watch) {
      if invocation.global.json { throw UsageError("--watch draws a board: leave out --json") }
      return try run(invocation)
    }
    if arguments.isSet(group) { return try grouped(invocation) }
    return nil
  }

  /// `departures STOP --group` without --watch: one grouped board, from --at or now.
  static func grouped(_ invocation: Invocation) throws -> Int32 {
    let board = try BoardContext(invocation, defaultLimit: 1000)
    let perGroup = try invocation.arguments.read(Self.perGroup)
    let now = invocation.now
    let start = try invocation.arguments.queryStart(
      DeparturesCommand.Options.at, on: DeparturesCommand.Options.date, now: now, zone: board.zone)
    let answer = try board.board(now: now, warn: true, start: start)
    if invocation.global.json {
      // DESIGN.md's departures shape, the list as groups.
      invocation.context.stdout.line(JSONTreeEncoder.text(answer.groupedAnswer(perGroup: perGroup)))
      return 0
    }
    let frame = BoardFrame(
      board: answer, twelveHour: board.twelveHour, groups: answer.groups(perGroup: perGroup))
    let columns =
      (invocation.context.stdoutIsTerminal ? Terminal.windowSize()?.columns : nil) ?? StopCommandSupport.environmentColumns(invocation)
      ?? 80
    invocation.context.stdout.write(frame.render(columns: columns, rows: 10_000, colour: false).joined(separator: "\n") + "\n")
    return 0
  }
}
