import FoundationEssentials
import Services
import TransitModel

/// `transit departures STOP`: the next scheduled departures at a stop or station.
enum DeparturesCommand: TransitCommand {
  /// The options, declared once (the board's and the status line's are in DeparturesWatch
  /// and StatusLine).
  enum Options {
    static let at = Option.time("--at", help: "From TIME instead of now: HH:MM (the agency's clock) or ISO 8601")
    static let date = Option.date("--date", help: "On this date (with --at, or at the current time of day)")
    static let window = Option.integer(
      "--window", value: "MIN", in: 1...10_080,
      help:
        "Look this many minutes ahead: departures (expected, else scheduled) in [now, now + MIN), a departure exactly at the end is in the next window",
      default: "the window setting, \(Settings().windowMinutes)")
    static let limit = Option.integer(
      "--limit", short: "-n", value: "N", in: 1...10_000, help: "Show at most N departures",
      default: "the limit setting, \(Settings().limit)")
    static let route = Option.text("--route", value: "R", help: "Only route R (short name or route_id)", complete: .dynamic(.routes))
    static let destination = Option.text("--to", value: "DEST", help: "Only trips going to DEST (headsign or any later stop's name)")
    static let from = Option.place(
      "--from",
      help:
        "Show each departure's walk from LAT,LON or a saved place and when to leave (1.3 m/s, 1.25 × the straight line, the leave-margin; see 'transit config')"
    )
    static let arrivals = Option.flag("--arrivals", help: "Also list trips ending here and calls where nobody may board")
    static let accessible = Option.flag(
      "--accessible",
      help:
        "Only wheelchair-accessible departures: the trip (wheelchair_accessible 1) and the stop (wheelchair_boarding 1, a platform inheriting its station's); what the feed says nothing about counts as not accessible"
    )
  }

  static let path = ["departures"]
  static let spec = CommandSpec(
    path: path,
    summary: "The next departures at a stop or station: platforms, crowding, wheelchair access (--accessible)",
    arguments: [
      ArgumentSpec(
        "STOP",
        help:
          "A stop_id (FEED:stop_id with several feeds), a stop code, a name matching one stop, or a station complex's name; several make one board",
        variadic: true, complete: .dynamic(.favourites))
    ],
    options: [
      Options.at.spec, Options.date.spec, Options.window.spec, Options.limit.spec, Options.route.spec, Options.destination.spec,
      TripFilterOptions.via.spec,
      Options.from.spec, Options.arrivals.spec, Options.accessible.spec,
      RealtimeOptions.refresh.spec,
      DeparturesWatch.watch.spec, DeparturesWatch.group.spec, DeparturesWatch.perGroup.spec, DeparturesWatch.count.spec,
      DeparturesWatch.line.spec, StatusLine.timeout.spec, StatusLine.format.spec,
    ],
    discussion: """
      A station lists the departures of all its platforms. Times are the timetable's (GTFS
      times count from noon minus 12 h of the service date in the agency's time zone, so a
      departure after midnight can come from the day before's timetable), shown on the
      agency's clock in 24-hour form unless TRANSIT_CLOCK=12 or a 12-hour locale (en_US, ...)
      is set. Trips that end here, or do not pick up here (pickup_type 1), are not departures;
      --arrivals lists them too. 'transit config set' changes the defaults: clock, window, limit,
      walking-speed and detour, and the early and late thresholds.

      A station complex is one place: stations (or stops without a station) of one name
      within 400 m, or joined by transfers.txt or pathways.txt, and across the feeds held,
      stations of one name or one stop_id within 400 m. 'Times Sq-42 St' lists the departures
      of its four stations, 'Millbrae' those of BART and Caltrain; each row names its platform,
      and its part or feed where the line does not tell. Several STOPs make one board, each
      row naming its stop. --via STOP keeps the trips that call at STOP after this stop and let
      riders off there; a name fitting several places is read as those such a trip reaches.

      With --realtime FILE (trip updates and vehicle positions, repeatable), each departure shows
      its expected time and countdown, the scheduled time when it differs, how late or early it
      runs (late from +\(DelayThresholds.standard.lateSeconds / 60) min, early from \(DelayThresholds.standard.earlySeconds / 60) min), and whether the time is live, interpolated
      between predicted stops, carried forward from the last one, or scheduled; cancelled trips
      and skipped stops are listed as such, and added trips appear. A line under the title says
      how old the feed is: stale beyond 90 s, and not used at all beyond 15 min.

      The window holds expected times: a trip scheduled after it but predicted inside it is
      listed. A stop prediction more than 1 h off the timetable is not trusted: the timetable's
      time is shown, marked "prediction ignored (too far from the timetable)". A prediction of
      the arrival alone keeps the scheduled dwell: departure = predicted arrival + dwell. A
      start_date naming the calendar date of a run after midnight (24:00 or later of the day
      before) is read as that run, and a DUPLICATED trip without trip_properties as a copy
      starting at its start_time; such repairs are noted under the realtime line.

      ♿ (W in plain ASCII) after a destination marks a wheelchair-accessible trip; a station's
      platform column shows its platform_code, else what tells its name or description apart
      from the others, else the direction it serves ("towards San Francisco"). Where vehicle
      positions give crowding, a column shows it: ●○○ seats, ●●○ few seats or standing, ●●●
      crowded or full, with the feed's word or percentage (and per carriage).

      Without --realtime, the realtime feeds configured with 'transit feeds add' are used (the
      stop's own feed when it is configured): a snapshot younger than the feed's period (30 s
      unless --poll said otherwise) is reused from the cache, --refresh fetches anyway, and when
      a fetch fails the last good snapshot is used and its age said on stderr.

      \(DeparturesWatch.discussion)
      """,
    examples: [
      "transit departures 4500",
      "transit departures TINT --route 27 --to crumlin",
      "transit departures 'Tallaght (The Square)' --at 07:30 --date 2026-12-25",
      "transit departures TINT --json",
      "transit departures 4529 4530",
      "transit departures 'Times Sq-42 St' --via '34 St-Herald Sq'",
      "transit departures TINT --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb --realtime Data/realtime/demo-vehiclepositions.pb",
    ] + DeparturesWatch.examples)

  static func run(_ invocation: Invocation) throws -> Int32 {
    if let code = try DeparturesWatch.dispatch(invocation) { return code }
    let arguments = invocation.arguments
    // --realtime FILEs are read first (a bad one is the first error); the configured feeds'
    // realtime, through the cache, once the stop is known.
    let files = invocation.global.realtimeFiles.isEmpty ? nil : try FeedsSupport.realtimeSource(invocation)
    // The stop and the options the board, --group and --line read the same way.
    let board = try BoardContext(invocation, realtime: files.map { files in { files } })
    let (stop, zone) = (board.stop, board.zone)
    let (window, route, destination) = (board.windowMinutes, board.route, board.destination)
    let now = invocation.now
    let start = try arguments.queryStart(Options.at, on: Options.date, now: now, zone: zone)
    let answer = try board.board(
      now: now, warn: true, start: start, includeArrivals: arguments.isSet(Options.arrivals),
      accessibleOnly: arguments.isSet(Options.accessible))

    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }

    let out = invocation.context.stdout
    let twelve = board.twelveHour
    let single = answer.places.count == 1 && answer.complex == nil
    let code = single ? stop.code.map { " [\($0)]" } ?? "" : ""
    var startText = StopCommandSupport.clock(answer.start, zone: zone, twelveHour: twelve)
    if let day = answer.otherStartDate { startText = "\(day.dashed) \(startText)" }
    let stopMark = RiderMarks.wheelchair(answer.stopAccess, plain: invocation.usesPlainSymbols)
    out.line(
      "\(answer.title.shown)\(code.shown)\(stopMark.isEmpty || !single ? "" : " " + stopMark) · \(kindText(answer))departures from \(startText)\(board.viaName.map { " via " + $0.shown } ?? "")"
    )
    if answer.hasRealtime { out.line(RealtimeSupport.line(answer.report, zone: zone, twelveHour: twelve)) }
    for notice in answer.notices { out.line(noticeLine(effect: notice.effectName, text: notice.text)) }
    guard !answer.rows.isEmpty else {
      // A timetable whose service has ended (or not begun) at that date: that is the reason.
      if let reason = answer.emptyReason?.warning(feed: stop.feed.rawValue) {
        out.line("no departures: " + reason)
        return 0
      }
      out.line(
        "no departures in the \(window) min from \(startText)\(route.map { " on route \($0.shown)" } ?? "")\(destination.map { " to \($0.shown)" } ?? ""); try a wider --window"
      )
      return 0
    }
    let table = BoardTable(board: answer, now: now, twelveHour: twelve)
    let style = BoardTable.Style(colour: invocation.useColor, plainSymbols: invocation.usesPlainSymbols)
    out.write(StopCommandSupport.table(table.plainRows(answer.rows, style: style)))
    for note in BoardSupport.marginNotes(answer) { out.line(note) }
    return 0
  }

  /// What the title says the board is: "station, ", "complex of 4 stations, ", "2 stops, ".
  static func kindText(_ board: Board) -> String {
    if let complex = board.complex { return StopsSearchCommand.complexKind(complex) + ", " }
    if board.places.count > 1 { return "\(board.places.count) stops, " }
    return board.stop.isStation ? "station, " : ""
  }

  /// "notice (detour): Route 77X diverted ..." for one alert.
  static func noticeLine(effect effectName: String?, text given: String?) -> String {
    let effect = effectName.map { " (" + $0.lowercased().replacing("_", with: " ") + ")" } ?? ""
    let text = (given ?? "alert").shown.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return "notice\(effect): \(text)"
  }
}
