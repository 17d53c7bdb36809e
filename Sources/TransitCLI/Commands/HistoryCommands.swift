import Services
import TransitModel

/// What the history commands share: their options, the session, and rendering.
enum HistorySupport {
  static let route = Option.text("--route", value: "R", help: "Only route R (short name or route_id)", complete: .dynamic(.routes))
  static let to = Option.text("--to", value: "HEADSIGN", help: "Only trips whose headsign contains HEADSIGN")
  static let days = Option.integer("--days", value: "N", in: 1...3650, help: "The last N days").defaulting(to: 30)
  static let hours = Option<ClosedRange<Int>?>.single(
    OptionSpec("--hours", value: "HH-HH", help: "Only calls scheduled from the first hour to the second (07-09: 07:00 to 09:00)"),
    parseHours)
  static let weekdays = Option.flag("--weekdays", help: "Only Monday to Friday")
  static let ascii = Option.flag("--ascii", help: "Draw the histogram with ASCII '#' instead of block characters")
  static let csv = Option.flag("--csv", help: "Print the calls as CSV (one row each) instead")

  static let queryOptions = [to.spec, days.spec, hours.spec, weekdays.spec, ascii.spec, csv.spec]

  /// "07-09" as 7...9; a usage error otherwise.
  @Sendable static func parseHours(_ text: String, option: String) throws(UsageError) -> ClosedRange<Int> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]), (0...23).contains(from), (1...24).contains(to), from < to
    else {
      throw UsageError("option '\(option)' takes two hours HH-HH, the first before the second (07-09), not '\(text)'")
    }
    return from...to
  }

  /// The headsign, days, hours and weekdays the common options ask for.
  static func filters(_ invocation: Invocation) throws -> HistoryQuery {
    let arguments = invocation.arguments
    let filters = HistoryQuery(
      headsign: try arguments.read(to), days: try arguments.read(days), hours: try arguments.read(hours),
      weekdaysOnly: arguments.isSet(weekdays))
    if arguments.isSet(csv) && invocation.global.json { throw UsageError("--csv and --json cannot go together") }
    return filters
  }

  /// The session of a history command: no realtime; the timetables checked (and an ending one
  /// said) by `requireTimetables` when `checked` is false.
  static func session(_ invocation: Invocation, checked: Bool = true) throws -> TransitSession {
    try SessionSupport.session(invocation, requiresTimetables: checked, realtime: { FixedRealtime([]) }, warnsAboutExpiry: false)
  }

  /// The error of a session without timetables; else an ending timetable said.
  static func requireTimetables(_ session: TransitSession, _ invocation: Invocation) throws {
    guard session.holdsTimetables else { throw SessionSupport.noTimetables }
    SessionSupport.warnAboutExpiry(session, invocation)
  }

  /// What `question` answers; a `HistoryFailure` said in words, with the advice.
  static func asking<Answer>(_ context: CommandContext, _ question: () throws -> Answer) throws -> Answer {
    do {
      return try question()
    } catch let failure as HistoryFailure {
      throw try error(failure, context: context)
    }
  }

  /// The words of a history failure, with the advice.
  static func error(_ failure: HistoryFailure, context: CommandContext) throws -> any Error {
    switch failure {
    case .noHistory:
      return RuntimeError("no history yet; fill it with 'transit history import DIR' or 'transit record DIR --history'")
    case .noCommute(let name):
      return CommuteSupport.notFound(name)
    case .commuteStopNotHeld(let commute, let stopID):
      return NotFoundError("commute '\(commute)': stop \(stopID) is not in the timetable since the last ingest")
    case .commuteRoute(let lookup):
      _ = try RouteCommandSupport.route(of: lookup, context: context)
      return failure
    }
  }

  /// Asks the session and prints the answer (text, --json or --csv).
  static func answer(_ invocation: Invocation, session: TransitSession, request: HistoryRequest) throws -> Int32 {
    let answer = try asking(invocation.context) { try session.history(request, now: invocation.now) }
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
    } else if invocation.arguments.isSet(csv) {
      out.write(HistoryText.csv(answer))
    } else {
      out.write(HistoryText.text(answer, ascii: invocation.arguments.isSet(ascii) || invocation.usesPlainSymbols))
    }
    return 0
  }

  /// "route 27" (its route_id when it has no short name).
  static func routeWords(_ route: RouteSummary) -> String {
    "route \((route.shortName.isEmpty ? route.id.rawValue : route.shortName).shown)"
  }
}

/// `transit history STOP`: how the departures of a stop ran, from the recorded history.
enum HistoryCommand: TransitCommand {
  static let status = Option.flag("--status", help: "Say what the history holds, its size and its retention, instead")

  static let path = ["history"]
  static let spec = CommandSpec(
    path: path,
    summary: "How reliable a stop's departures were, from the recorded history",
    arguments: [ArgumentSpec("STOP", help: "Stop id, code or name (a station: all its platforms)", optional: true)],
    options: [HistorySupport.route.spec] + HistorySupport.queryOptions + [status.spec],
    discussion: """
      From history.sqlite (filled by 'transit history import DIR' and 'transit record DIR
      --history'): the calls recorded with an actual time (observed: the vehicle said
      STOPPED_AT, then left; inferred: the stop dropped out of the trip's update), their
      on-time share under the early and late settings, median and 90th percentile delay, a
      histogram in one-minute bins, overall and by hour; prediction accuracy as the ETA
      Accuracy Benchmark defines it (buckets 0-3, 3-6, 6-10, 10-15 min ahead); ghost trips
      and cancellations by day. Nothing is claimed from fewer than 3 observations.
      """,
    examples: [
      "transit history 4527 --route 27 --hours 07-09 --weekdays", "transit history --status",
      "transit history 4527 --csv > calls.csv",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    if invocation.arguments.isSet(status) { return try HistoryStatusText.run(invocation) }
    let text = try invocation.argument(0)
    let filters = try HistorySupport.filters(invocation)
    let session = try HistorySupport.session(invocation)
    let place = try StopCommandSupport.resolvePlace(text, session: session, context: invocation.context)
    var request = HistoryRequest(subject: .place(place), subjectText: "", filters: filters)
    switch place {
    case .stop(let stop): request.subjectText = "stop \((stop.code ?? stop.id.rawValue).shown) \(stop.name.shown)"
    case .complex(let complex): request.subjectText = "\(complex.name.shown) (\(StopsSearchCommand.complexKind(complex)))"
    }
    if let routeText = try invocation.arguments.read(HistorySupport.route) {
      let route = try RouteCommandSupport.resolveRoute(routeText, session: session, context: invocation.context)
      request.route = route
      request.subjectText += ", " + HistorySupport.routeWords(route)
    }
    return try HistorySupport.answer(invocation, session: session, request: request)
  }
}

/// `transit history route R`.
enum HistoryRouteCommand: TransitCommand {
  static let path = ["history", "route"]
  static let spec = CommandSpec(
    path: path,
    summary: "How reliable a route was at all its stops, from the recorded history",
    arguments: [ArgumentSpec("R", help: "Route short name or route_id", complete: .dynamic(.routes))],
    options: HistorySupport.queryOptions,
    discussion: "As 'transit history STOP', over every stop of route R.",
    examples: ["transit history route 27 --hours 07-09 --weekdays", "transit history route 27 --days 14 --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let filters = try HistorySupport.filters(invocation)
    let session = try HistorySupport.session(invocation)
    let route = try RouteCommandSupport.resolveRoute(text, session: session, context: invocation.context)
    let request = HistoryRequest(subject: .route(route), subjectText: HistorySupport.routeWords(route), filters: filters)
    return try HistorySupport.answer(invocation, session: session, request: request)
  }
}

/// `transit history commute NAME`.
enum HistoryCommuteCommand: TransitCommand {
  static let path = ["history", "commute"]
  static let spec = CommandSpec(
    path: path,
    summary: "How reliable a saved commute's departures were, from the recorded history",
    arguments: [ArgumentSpec("NAME", help: "The commute's name", complete: .dynamic(.commutes))],
    options: HistorySupport.queryOptions,
    discussion: "As 'transit history STOP' for the commute's stop (and route, and destination as --to), on the days it runs.",
    examples: ["transit history commute work --days 60", "transit history commute work --csv > work.csv"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0)
    let session = try HistorySupport.session(invocation, checked: false)
    let commute = try HistorySupport.asking(invocation.context) { try session.savedCommute(named: name) }
    let filters = try HistorySupport.filters(invocation)
    let request = HistoryRequest(subject: .commute(commute), subjectText: "commute '\(commute.name)'", filters: filters)
    try HistorySupport.requireTimetables(session, invocation)
    return try HistorySupport.answer(invocation, session: session, request: request)
  }
}
