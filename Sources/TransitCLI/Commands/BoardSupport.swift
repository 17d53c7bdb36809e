import FoundationEssentials
import Services
import TransitModel

/// What the live board, `--group` and `--line` of `departures` share (issue 20): the stops and
/// their query as the command line gives them, and one board for a moment and its feeds.
struct BoardContext {
  let invocation: Invocation
  /// The places named (stops, stations, complexes), in order.
  let places: [StopPlace]
  /// The first stop named (its feed's clock is the board's).
  let stop: TransitModel.Stop
  /// The stops of `--via STOP`: only trips calling there later (empty without it).
  let via: [TransitModel.Stop]
  /// The name of `--via STOP`'s place, as resolved.
  let viaName: String?
  let zone: LocalZone
  let session: TransitSession
  let twelveHour: Bool
  let windowMinutes: Int
  let limit: Int
  let route: String?
  let destination: String?
  let from: Coordinate?

  /// The stop and options of `departures STOP ...`, and the session that answers for it; its
  /// realtime from `realtime` (made once the stop is known), else `FeedsSupport.realtimeSource`.
  init(_ invocation: Invocation, defaultLimit: Int? = nil, realtime: (() throws -> any RealtimeSource)? = nil) throws {
    self.invocation = invocation
    let arguments = invocation.arguments
    _ = try invocation.argument(0)  // a missing STOP is a usage error before any file is read
    let settings = try invocation.settings()
    windowMinutes = try arguments.read(DeparturesCommand.Options.window) ?? settings.windowMinutes
    limit = try arguments.read(DeparturesCommand.Options.limit) ?? defaultLimit ?? settings.limit
    from = try arguments.read(DeparturesCommand.Options.from).map { place in try StopCommandSupport.location(place, invocation: invocation)
    }
    // The places are looked up before any realtime is read: an unknown stop is the first error.
    let lookup = try SessionSupport.session(invocation, settings: settings) { FixedRealtime([]) }
    let places = try arguments.positionals.map { try StopCommandSupport.resolvePlace($0, session: lookup, context: invocation.context) }
    self.places = places
    stop = places[0].parts[0]
    // --via is read after the stops: a name fitting several places is narrowed to those a trip
    // from the board's stops reaches.
    let viaPlace = try arguments.read(TripFilterOptions.via).map { text in
      try StopCommandSupport.resolvePlace(
        text, session: lookup, context: invocation.context, reachableFrom: Board.parts(of: places),
        originName: places.map(\.name).joined(separator: " + "))
    }
    via = viaPlace?.parts ?? []
    viaName = viaPlace?.name
    zone = lookup.zone(of: stop.feed)
    session = lookup.with(realtime: try realtime?() ?? FeedsSupport.realtimeSource(invocation))
    twelveHour = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    route = try arguments.read(DeparturesCommand.Options.route)
    destination = try arguments.read(DeparturesCommand.Options.destination)
  }

  /// The board at `now` with the session's realtime (the first `limit` rows, default
  /// `--limit`); what went wrong reading it (unless `quiet`: the board keeps it) and, when
  /// `warn`, the matching's warnings go to `report`'s stderr (default: this invocation's).
  func board(
    now: UnixTime, warn: Bool, quiet: Bool = false, limit: Int? = nil, start: UnixTime? = nil, includeArrivals: Bool = false,
    accessibleOnly: Bool = false, report: Invocation? = nil
  ) throws -> Board {
    var query = BoardQuery(
      start: start ?? now, windowMinutes: windowMinutes, limit: limit ?? self.limit, includeArrivals: includeArrivals,
      route: route, destination: destination, accessibleOnly: accessibleOnly)
    query.via = via
    let board = try session.board(BoardRequest(places: places, query: query, from: from), now: now)
    if !quiet { FeedsSupport.report(board.realtimeProblems, invocation: report ?? invocation) }
    if warn { RealtimeSupport.warn(board.report, invocation: report ?? invocation) }
    return board
  }
}

/// Shared pieces of the watch views and the status line.
enum BoardSupport {
  /// One line per rule that gave a board's margins (`Board.marginRules`, with `leave-margin =
  /// learned`): "leave-margin learned for 27 at 4530 08:00: +3 min (90th percentile ...)".
  static func marginNotes(_ board: Board) -> [String] { board.marginRules.map(marginNote) }

  /// The line of one margin rule.
  static func marginNote(_ rule: MarginRule) -> String {
    let hour = (rule.hour < 10 ? "0" : "") + "\(rule.hour):00"
    if let learned = rule.learned {
      return
        "leave-margin learned for \(rule.route) at \(rule.stopID) \(hour): \(HistoryText.delay(learned.seconds)) (90th percentile lateness of \(learned.count) calls)"
    }
    return
      "leave-margin: the fixed rule (\(rule.percent) % of the time ahead, at most \(rule.maxSeconds / 60) min); fewer than \(LearnedMargin.minimumCount) calls of \(rule.route) at \(rule.stopID) \(hour) recorded"
  }

  /// "  4 min walk, leave in 6 min" for a row of `departures --from` ("  4 min walk" alone for
  /// a cancelled or skipped one).
  static func walkNote(_ row: Board.Row, now: UnixTime) -> String {
    guard let walkSeconds = row.walkSeconds else { return "" }
    return "  " + walkText(seconds: walkSeconds) + (row.leaveAdvice(at: now).map { ", " + $0.text } ?? "")
  }

  /// "4 min walk".
  static func walkText(seconds: Int64) -> String {
    "\(WalkingModel.minutes(seconds: Int32(clamping: seconds))) min walk"
  }

  /// The clock of a watch: the context's clock, or, under `--now`, that moment moved on by
  /// the time the watch has run (so countdowns run down in a replayed board too).
  static func clock(_ invocation: Invocation) -> () -> UnixTime {
    guard let fixed = invocation.global.now else { return { invocation.context.clock.now() } }
    let context = invocation.context
    let start = context.elapsed()
    return { fixed + Int64((context.elapsed() - start).rounded(.down)) }
  }

  /// The invocation with stderr kept in memory, for a full-screen view that must not be
  /// written over by diagnostics (the view shows the last one in its footer instead).
  static func quietStderr(_ invocation: Invocation) -> Invocation {
    let context = invocation.context
    let quiet = CommandContext(
      environment: context.environment, stdout: context.stdout, stderr: .memory(), stdoutIsTerminal: context.stdoutIsTerminal,
      stderrIsTerminal: false, clock: context.clock, currentDirectory: context.currentDirectory, sleep: context.sleep,
      elapsed: context.elapsed)
    var copy = invocation
    copy.context = quiet
    return copy
  }

  /// The last line written to a memory sink, without the "transit: " prefix.
  static func lastLine(_ sink: OutputSink) -> String? {
    sink.text.split(separator: "\n").last.map { line in
      line.hasPrefix("transit: ") ? String(line.dropFirst("transit: ".count)) : String(line)
    }
  }

  /// Rings the terminal bell: BEL written as is (output is otherwise stripped of control
  /// characters), and `notify-send` when it is on PATH and a desktop session is there; with
  /// `bell` false (output that is JSON), the notification alone.
  static func ring(_ invocation: Invocation, message: String, bell: Bool = true) {
    let out = invocation.context.stdout
    if bell {
      let allowance = out.allowance
      out.allowance = nil
      out.write("\u{07}")
      out.allowance = allowance
    }
    let environment = invocation.context.environment
    guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
    guard
      let path = (environment["PATH"] ?? "").split(separator: ":").map({ $0 + "/notify-send" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return }
    ChildProcess.run(path, arguments: ["transit", message], environment: environment)
  }
}

extension StopCommandSupport {
  /// The walking model the settings ask for.
  static func walkingModel(_ invocation: Invocation) throws -> WalkingModel {
    try invocation.settings().walkingModel
  }

  /// "4 min walk" for a straight line of `meters` (issue 20: walk times beside distances).
  static func walkText(_ meters: Double, _ walking: WalkingModel) -> String {
    "\(WalkingModel.minutes(seconds: walking.seconds(straightLineMeters: meters))) min walk"
  }
}
