import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
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
        "STOP", help: "A stop_id (FEED:stop_id with several feeds), a stop code, or a name matching one stop",
        complete: .dynamic(.favourites))
    ],
    options: [
      Options.at.spec, Options.date.spec, Options.window.spec, Options.limit.spec, Options.route.spec, Options.destination.spec,
      Options.from.spec, Options.arrivals.spec, Options.accessible.spec,
      FeedsSupport.refresh.spec,
      DeparturesWatch.watch.spec, DeparturesWatch.group.spec, DeparturesWatch.perGroup.spec, DeparturesWatch.count.spec,
      DeparturesWatch.line.spec, StatusLine.timeout.spec,
    ],
    discussion: """
      A station lists the departures of all its platforms. Times are the timetable's (GTFS
      times count from noon minus 12 h of the service date in the agency's time zone, so a
      departure after midnight can come from the day before's timetable), shown on the
      agency's clock in 24-hour form unless TRANSIT_CLOCK=12 or a 12-hour locale (en_US, ...)
      is set. Trips that end here, or do not pick up here (pickup_type 1), are not departures;
      --arrivals lists them too. 'transit config set' changes the defaults: clock, window, limit,
      walking-speed and detour, and the early and late thresholds.

      With --realtime FILE (trip updates and vehicle positions, repeatable), each departure shows
      its expected time and countdown, the scheduled time when it differs, how late or early it
      runs (late from +2 min, early from -1 min), and whether the time is live, interpolated
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
      "transit departures TINT --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb --realtime Data/realtime/demo-vehiclepositions.pb",
    ] + DeparturesWatch.examples)

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    if let code = try DeparturesWatch.dispatch(invocation) { return code }
    let arguments = invocation.arguments
    let localFeeds = try invocation.global.realtimeFiles.map { try RtDumpCommand.load($0, invocation: invocation) }
    // The stop and the options the board, --group and --line read the same way.
    let board = try BoardContext(invocation)
    let (store, stop, platforms, zone) = (board.store, board.stop, board.platforms, board.zone)
    let (window, from, route, destination) = (board.windowMinutes, board.from, board.route, board.destination)
    // --realtime FILE overrides; otherwise the configured feeds' realtime, through the cache.
    let feeds = localFeeds.isEmpty ? try FeedsSupport.realtimeFeeds(invocation, preferred: stop.feed.rawValue) : localFeeds
    let now = invocation.now
    let start = try arguments.queryStart(Options.at, on: Options.date, now: now, zone: zone)
    let (live, departures, notices) = try board.board(
      now: now, feeds: feeds, warn: true, start: start, includeArrivals: arguments.isSet(Options.arrivals),
      accessibleOnly: arguments.isSet(Options.accessible))
    let details = try RiderDetails.of(departures, store: store, live: live)
    let platformLabels = stop.isStation ? try PlatformLabels.labels(for: Array(platforms.values), in: store) : [:]
    func reachable(_ departure: Departure) -> Bool? {
      DepartureBoard.isReachable(
        departure, from: from, stopCoordinate: platforms[departure.call.stopID.rawValue]?.coordinate ?? stop.coordinate, now: now,
        walking: board.options.walking)
    }

    if invocation.global.json {
      let manyFeeds = store.feedNames.count > 1
      var stopMembers: [(String, JSON)] = [
        ("stop_id", .string(stop.id.rawValue)), ("stop_code", .optional(stop.code)), ("name", .string(stop.name)),
      ]
      if manyFeeds { stopMembers.insert(("feed", .string(stop.feed.rawValue)), at: 0) }
      let json = JSON.object([
        ("stop", .object(stopMembers)),
        ("now", .string(ISOTime.format(now, zone: zone))),
        ("realtime", RealtimeSupport.json(live.report, zone: zone)),
        (
          "departures",
          .array(
            zip(departures, details).map { departure, detail in
              guard case .object(var members) = departureJSON(departure, zone: zone, reachable: reachable(departure)) else { return .null }
              members += [
                ("platform", .optional(platformLabels[departure.call.stopID])),
                ("wheelchair_accessible", .optional(detail.wheelchairAccessible)),
                ("wheelchair_boarding", .optional(detail.wheelchairBoarding)),
                ("occupancy", RiderMarks.json(detail.crowding)),
              ]
              return .object(members)
            })
        ),
      ])
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }

    let out = invocation.context.stdout
    let twelve = board.twelveHour
    let code = stop.code.map { " [\($0)]" } ?? ""
    var startText = StopCommandSupport.clock(start, zone: zone, twelveHour: twelve)
    let startDay = ISOTime.format(start, zone: zone).prefix(10)
    if startDay != ISOTime.format(now, zone: zone).prefix(10) { startText = "\(startDay) \(startText)" }
    let stopMark = RiderMarks.wheelchair(try Accessibility.stop(stop, in: store), plain: invocation.usesPlainSymbols)
    out.line(
      "\(TerminalText.singleLine(stop.name))\(code)\(stopMark.isEmpty ? "" : " " + stopMark) · \(stop.isStation ? "station, " : "")departures from \(startText)"
    )
    if !feeds.isEmpty { out.line(RealtimeSupport.line(live.report, zone: zone, twelveHour: twelve)) }
    for notice in notices { out.line(noticeLine(notice)) }
    guard !departures.isEmpty else {
      // A timetable whose service has ended (or not begun) at that date: that is the reason.
      if let status = DepartureBoard.emptyReason(store: store, stop: stop, start: start),
        let reason = status.warning(feed: stop.feed.rawValue)
      {
        out.line("no departures: " + reason)
        return 0
      }
      out.line(
        "no departures in the \(window) min from \(startText)\(route.map { " on route \($0)" } ?? "")\(destination.map { " to \($0)" } ?? ""); try a wider --window"
      )
      return 0
    }
    let colour = invocation.useColor
    let plain = invocation.usesPlainSymbols
    let showsCrowding = details.contains { $0.crowding != nil }
    var rows = zip(departures, details).map { departure, detail -> [String] in
      let call = departure.call
      let wheelchair = RiderMarks.wheelchair(detail.tripAccess, plain: plain)
      let time = departure.time ?? now
      var row = [
        StopCommandSupport.coloured(call.routeShortName, mode: TransitMode(routeType: call.routeType), enabled: colour),
        (call.headsign.isEmpty ? "(added trip)" : call.headsign)
          + (call.isLastStop ? " (arrives, terminates)" : call.pickupType == 1 ? " (no boarding)" : "")
          + (wheelchair.isEmpty ? "" : " " + wheelchair),
      ]
      if stop.isStation {
        let platform = platforms[call.stopID.rawValue]
        row.append(platformLabels[call.stopID] ?? platform?.platformCode.map { "platform \($0)" } ?? platform?.name ?? "")
      }
      var when = StopCommandSupport.clock(time, zone: zone, twelveHour: twelve)
      if departure.status != .cancelled && departure.status != .skipped {
        when += " · \(StopCommandSupport.countdown(to: time, from: now))"
      }
      if let from, let target = platforms[call.stopID.rawValue]?.coordinate ?? stop.coordinate {
        // The walk and when to leave (issue 20): "4 min walk, leave in 6 min".
        when += BoardSupport.walkNote(
          departure, walkSeconds: Int64(board.options.walking.seconds(from: from, to: target)), now: now, margin: board.margin)
      }
      row.append(when)
      if !feeds.isEmpty { row += realtimeColumns(departure, zone: zone, twelveHour: twelve, colour: colour) }
      if showsCrowding { row.append(RiderMarks.crowding(detail.crowding)) }
      return row
    }
    // Realtime columns nobody has anything in take no room.
    if let width = rows.first?.count, width > 1 {
      for column in (1..<width).reversed() where rows.allSatisfy({ $0[column].isEmpty }) {
        for row in rows.indices { rows[row].remove(at: column) }
      }
    }
    if colour {
      // ANSI codes have no width: pad the coloured columns by their visible text.
      var padded = rows
      let visible = rows.map { $0.map(Self.visibleWidth) }
      for column in 0..<(rows.first?.count ?? 0) {
        let width = visible.map { $0.count > column ? $0[column] : 0 }.max() ?? 0
        for row in padded.indices where column < padded[row].count - 1 {
          padded[row][column] += String(repeating: " ", count: width - visible[row][column])
        }
      }
      out.write(
        padded.map { row in
          var line = Substring(row.joined(separator: "  "))
          while line.last == " " { line = line.dropLast() }
          return String(line)
        }.joined(separator: "\n") + "\n")
    } else {
      out.write(StopCommandSupport.table(rows))
    }
    return 0
  }

  /// "notice (detour): Route 77X diverted ..." for one alert.
  static func noticeLine(_ notice: AlertNotice) -> String {
    let effect = notice.effect.flatMap(\.protoName).map { " (" + $0.lowercased().replacing("_", with: " ") + ")" } ?? ""
    let text = (notice.header ?? notice.description ?? notice.id ?? "alert").split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    return "notice\(effect): \(text)"
  }

  /// The line under the title: where the realtime stands.
  static func realtimeLine(_ freshness: RealtimeFreshness, zone: LocalZone, twelveHour: Bool) -> String {
    let age = freshness.ageSeconds.map { $0 >= 0 ? "\(Format.duration(seconds: $0)) old" : "\(Format.duration(seconds: $0)) ahead of now" }
    let stamp = freshness.feedTimestamp.map { " (\(StopCommandSupport.clock($0, zone: zone, twelveHour: twelveHour)))" } ?? ""
    switch freshness.status {
    case .fresh: return "realtime: fresh, feed \(age ?? "time unknown")\(stamp)"
    case .stale: return "realtime: stale, feed \(age ?? "time unknown")\(stamp)"
    case .expired: return "realtime: not used, feed \(age ?? "time unknown")\(stamp), older than 15 min; timetable times"
    case .none: return "realtime: none; timetable times"
    case .unknown: return "realtime: unknown age (the feed gives no timestamp)"
    }
  }

  /// The realtime columns of a row: scheduled time when different, delay, and a marker.
  static func realtimeColumns(_ departure: Departure, zone: LocalZone, twelveHour: Bool, colour: Bool) -> [String] {
    var scheduled = ""
    if let expected = departure.expected, let planned = departure.call.scheduledTime,
      StopCommandSupport.clock(expected, zone: zone, twelveHour: twelveHour)
        != StopCommandSupport.clock(planned, zone: zone, twelveHour: twelveHour)
    {
      scheduled = "sched " + StopCommandSupport.clock(planned, zone: zone, twelveHour: twelveHour)
    }
    var delay = ""
    if let seconds = departure.delaySeconds {
      let minutes = (abs(seconds) + 30) / 60
      switch departure.status {
      case .late: delay = paint("\(minutes) min late", code: "31", colour)
      case .early: delay = paint("\(minutes) min early", code: "36", colour)
      case .onTime: delay = paint("on time", code: "32", colour)
      default: delay = seconds == 0 ? "" : seconds > 0 ? "+\(minutes) min" : "-\(minutes) min"
      }
    }
    let marker: String
    switch departure.status {
    case .cancelled: marker = paint("cancelled", code: "31", colour)
    case .skipped: marker = "skipped"
    case .added: marker = "live, added"
    default:
      switch departure.source {
      case .realtime: marker = "live"
      case .interpolated: marker = "live, interpolated"
      case .propagated: marker = "live, carried forward"
      case .schedule: marker = departure.isPredictionIgnored ? "prediction ignored (too far from the timetable)" : "scheduled"
      }
    }
    return [scheduled, delay, marker]
  }

  static func paint(_ text: String, code: String, _ enabled: Bool) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// The width of `text` on a terminal, ANSI colour codes left out.
  static func visibleWidth(_ text: String) -> Int {
    var count = 0, escaped = false
    for character in text {
      if escaped { if character == "m" { escaped = false }; continue }
      if character == "\u{1B}" { escaped = true; continue }
      count += character == "♿" ? 2 : 1
    }
    return count
  }

  /// DESIGN.md's `realtime` object; a feed too old to use counts as stale.
  static func realtimeJSON(_ freshness: RealtimeFreshness, zone: LocalZone) -> JSON {
    let status = freshness.status == .expired ? "stale" : freshness.status.rawValue
    return .object([
      ("status", .string(status)),
      ("feed_timestamp", .optional(freshness.feedTimestamp.map { ISOTime.format($0, zone: zone) })),
      ("age_seconds", freshness.ageSeconds.map { JSON.number(Int($0)) } ?? .null),
    ])
  }

  /// A scheduled call in DESIGN.md's `departures --json` shape (no realtime).
  static func departureJSON(_ call: ScheduledCall, zone: LocalZone, reachable: Bool?) -> JSON {
    departureJSON(Departure(call: call), zone: zone, reachable: reachable)
  }

  /// One departure in DESIGN.md's `departures --json` shape.
  static func departureJSON(_ departure: Departure, zone: LocalZone, reachable: Bool?) -> JSON {
    let call = departure.call
    return .object([
      ("trip_id", .string(call.tripID.rawValue)), ("route_id", .string(call.routeID.rawValue)),
      ("route_short_name", .string(call.routeShortName)), ("headsign", .string(call.headsign)),
      ("stop_id", .string(call.stopID.rawValue)), ("stop_sequence", .number(call.stopSequence)),
      ("service_date", .string(call.serviceDate.description)),
      ("scheduled", .optional(call.scheduledTime.map { ISOTime.format($0, zone: zone) })),
      ("expected", .optional(departure.expected.map { ISOTime.format($0, zone: zone) })),
      ("delay_seconds", departure.delaySeconds.map { JSON.number(Int($0)) } ?? .null),
      ("status", .string(departure.status.rawValue)), ("source", .string(departure.source.rawValue)),
      ("vehicle_id", .optional(departure.vehicleID)),
      ("reachable", reachable.map(JSON.bool) ?? .null),
      ("prediction_ignored", .bool(departure.isPredictionIgnored)),
    ])
  }
}
