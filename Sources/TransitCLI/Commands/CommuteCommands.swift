import FoundationEssentials
import GTFS
import GTFSRealtime
import History
import Services
import TransitModel
import UserData

/// What the `commute` commands share: days, deadlines, and choosing the departure to take.
enum CommuteSupport {
  /// "your 08:05: on time 4 of 6 days, usually 2 min late": how the recommended departure (its
  /// route, from its stop, at its scheduled time of day) ran on the days the history recorded;
  /// nil without a history or a record of it.
  static func recordLine(
    _ plan: CommutePlanner.Plan, store: Store, options: ServiceOptions, invocation: Invocation, zone: LocalZone
  ) throws -> String? {
    guard let index = plan.recommended, let history = try BoardSupport.historyIfAny(invocation) else { return nil }
    let call = plan.options[index].departure.call
    guard let scheduled = call.scheduledTime else { return nil }
    let session = TransitSession(store: store, options: options)
    guard
      let record = try session.commuteRecord(
        stopIDs: [call.stopID.rawValue], routeID: call.routeID.rawValue, scheduled: scheduled, in: history, now: invocation.now)
    else { return nil }
    return recordText(record, clock: StopCommandSupport.clock(scheduled, zone: zone, twelveHour: false))
  }

  /// The words of a commute record: the fewer-than-3 rule, else the on-time share and the
  /// median delay in whole minutes.
  static func recordText(_ record: CommuteRecord, clock: String) -> String {
    let s = record.statistics
    guard s.isEnough, let median = s.medianSeconds else {
      return "your \(clock): fewer than \(DelayStatistics.minimumCount) days recorded (\(s.count))"
    }
    let minutes = median >= 0 ? (median + 30) / 60 : -((-median + 30) / 60)
    let usually =
      minutes == 0 ? "usually on time" : minutes > 0 ? "usually \(minutes) min late" : "usually \(-minutes) min early"
    return "your \(clock): on time \(s.onTime) of \(s.count) days, \(usually)"
  }

  /// Whether the commute runs on `date`.
  static func runs(_ commute: UserStore.Commute, on date: ServiceDate) -> Bool {
    CommutePlanner.runs(commute, on: date)
  }

  /// "Tuesday 2026-12-01".
  static func dayText(_ date: ServiceDate) -> String {
    "\(date.weekdayName) \(date.dashed)"
  }

  /// The deadline of `commute` on `date`: its arrive-by time on the agency's clock.
  static func deadline(_ commute: UserStore.Commute, on date: ServiceDate, zone: LocalZone) throws -> UnixTime {
    CommutePlanner.deadline(commute, on: date, zone: zone)
  }

  /// The plan of `commute` on `date` (from all its `stops`) from the departure board and the realtime `live`.
  static func plan(
    _ commute: UserStore.Commute, stops: [TransitModel.Stop], on date: ServiceDate, store: Store, live: LiveRealtime
  ) throws -> CommutePlanner.Plan {
    try CommutePlanner.plan(commute, stops: stops, on: date, store: store, live: live)
  }
}

/// `transit commute add NAME --stop S --arrive-by HH:MM ...`.
enum CommuteAddCommand: TransitCommand {
  /// The options, declared once.
  enum Options {
    static let stop = Option.text(
      "--stop", value: "S",
      help:
        "The stop you board at (stop_id, code or name; a station complex: any of its stations, or with --to the one trips there leave from)",
      complete: .dynamic(.favourites))
    static let route = Option.text("--route", value: "R", help: "Only route R", complete: .dynamic(.routes))
    static let destination = Option.text(
      "--to", value: "STOP",
      help:
        "Where you get off: a stop or station (id, code or name, as STOP everywhere; a station means any platform); the deadline is the trip's arrival there"
    )
    static let arriveBy = Option.clockTime(
      "--arrive-by", help: "The deadline (on the agency's clock); without --to, the latest departure")
    static let days = Option.weekdays(
      "--days", value: "DAYS", help: "The days it runs: mon-fri, sat,sun, daily", default: 0b0011111,
      complete: .choices(["mon-fri", "sat,sun", "daily", "sat", "sun"]))
    static let walk = Option.integer(
      "--walk", value: "MIN", in: 0...180, help: "Minutes of walking to the stop: you leave this long before the departure"
    ).defaulting(to: 0)
    static let thenWalk = Option.integer(
      "--then-walk", value: "MIN", in: 0...180,
      help: "With --to: minutes of walking from where you get off; the deadline is your arrival on foot"
    ).defaulting(to: 0)
  }

  static let path = ["commute", "add"]
  static let spec = CommandSpec(
    path: path,
    summary: "Save a commute: a stop, a deadline and the days it runs",
    arguments: [ArgumentSpec("NAME", help: "The commute's name (work, school); saving it again replaces it")],
    options: [
      Options.stop.spec, Options.route.spec, Options.destination.spec, Options.arriveBy.spec, Options.days.spec, Options.walk.spec,
      Options.thenWalk.spec,
    ],
    examples: [
      "transit commute add work --stop 4530 --route 27 --to 'Crumlin Hospital' --arrive-by 08:30 --walk 5 --then-walk 4",
      "transit commute add school --stop TINT --arrive-by 08:00 --days mon-fri",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try PlacesSupport.name(try invocation.argument(0))
    let arguments = invocation.arguments
    guard let stopText = try arguments.read(Options.stop) else { throw UsageError("missing --stop S") }
    guard let arriveBy = try arguments.read(Options.arriveBy) else { throw UsageError("missing --arrive-by HH:MM") }
    let days = try arguments.read(Options.days)
    let walk = try arguments.read(Options.walk)
    let thenWalk = try arguments.read(Options.thenWalk)
    let destinationText = try arguments.read(Options.destination)
    if thenWalk > 0 && destinationText == nil {
      throw UsageError("--then-walk needs --to DEST: the walk starts where you get off")
    }
    let store = try StopCommandSupport.openStore(invocation)
    // --stop may be a complex when --to is given: the commute leaves from the part of it that a
    // trip to the destination leaves from (issue 32).
    // Without --to, a complex is all its stations: the commute weighs the departures of each.
    let origin = try StopCommandSupport.resolvePlace(stopText, in: store, context: invocation.context)
    // --to is a stop like every other: id, code, exact name or a unique match; a name shared by
    // a station and its platforms is the station (any platform). Saved as its stop_id.
    // A name fitting several places is read as those a trip from --stop reaches (issue 32); a
    // complex is its part in --stop's feed that such a trip reaches.
    let destinationPlace = try destinationText.map { text in
      try StopCommandSupport.resolvePlace(
        text, in: store, context: invocation.context, reachableFrom: origin.parts, originName: origin.name)
    }
    var stop = origin.parts[0]
    if let complex = origin.complex, let destinationPlace {
      guard
        let part = try complex.parts.first(where: { part in
          if case .trip = try store.reach(from: [part], to: destinationPlace.parts) { return true }
          return false
        })
      else {
        throw NotFoundError("no trip goes from \(complex.name) to \(destinationPlace.name); give --stop as one of its stations")
      }
      stop = part
      invocation.context.stderr.line(
        "--stop '\(stopText)': leaving from \(StopCommandSupport.describeCandidate(part, store: store)), where trips to \(destinationPlace.name) leave"
      )
    }
    let destination = try destinationPlace.map { place -> TransitModel.Stop in
      let inFeed = place.parts.filter { $0.feed == stop.feed }
      for part in inFeed where try store.reach(from: [stop], to: [part]) != nil { return part }
      return inFeed.first ?? place.parts[0]
    }
    if let destination, destination.feed != stop.feed {
      throw UsageError("--to '\(destinationText ?? "")' is in feed \(destination.feed), not in \(stop.feed) with --stop")
    }
    let commute = UserStore.Commute(
      name: name, feed: stop.feed.rawValue, stopID: stop.id.rawValue, route: try arguments.read(Options.route),
      destination: destination?.id.rawValue, arriveByMinutes: arriveBy, days: days, walkMinutes: walk,
      thenWalkMinutes: thenWalk,
      otherStops: destinationPlace == nil
        ? origin.parts.dropFirst().map { UserStore.StopKey(feed: $0.feed.rawValue, stopID: $0.id.rawValue) } : [])
    try UserStore(directory: invocation.paths.data).saveCommute(commute, now: invocation.now.seconds)
    if invocation.global.json {
      let complex = commute.otherStops.isEmpty ? nil : origin.complex
      invocation.context.stdout.line(CommuteListCommand.json(commute, stop: stop, complex: complex).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("saved commute '\(name)': \(CommuteListCommand.describe(commute, stop: stop, store: store))")
    }
    return 0
  }
}

/// `transit commute list`.
enum CommuteListCommand: TransitCommand {
  static let path = ["commute", "list"]
  static let spec = CommandSpec(
    path: path, summary: "The saved commutes", examples: ["transit commute list", "transit commute list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let commutes = try UserStore(directory: invocation.paths.data).commutes()
    let store = try Store(directory: invocation.paths.data)
    let stops = try commutes.map { commute in
      store.isEmpty ? nil : try store.stop(StopID(commute.stopID), feed: FeedName(commute.feed))
    }
    let out = invocation.context.stdout
    if invocation.global.json {
      let complexes = try zip(commutes, stops).map { commute, stop in
        try stop.flatMap { try CommutePlanner.complex(of: commute, stop: $0, store: store) }
      }
      out.line(
        JSON.array(zip(zip(commutes, stops), complexes).map { json($0.0, stop: $0.1, complex: $1) }).serialized(pretty: true))
      return 0
    }
    guard !commutes.isEmpty else {
      out.line("no commutes yet; add one with 'transit commute add NAME --stop S --arrive-by HH:MM'")
      return 0
    }
    out.write(StopCommandSupport.table(zip(commutes, stops).map { [$0.name, describe($0, stop: $1, store: store)] }))
    return 0
  }

  /// "Tallaght (The Square) [4530], route 27, to Crumlin, arrive by 08:30, mon-fri, 5 min walk";
  /// a commute of several stops: "Times Sq-42 St (and 3 more stations), ...".
  static func describe(_ commute: UserStore.Commute, stop: TransitModel.Stop?, store: Store? = nil) -> String {
    var place = stop.map { $0.name.shown + ($0.code.map { " [\($0.shown)]" } ?? "") } ?? "\(commute.stopID) (not in the timetable)"
    if !commute.otherStops.isEmpty {
      let count = commute.otherStops.count
      place += " (and \(count) more \(stop?.isStation == true ? "station" : "stop")\(count == 1 ? "" : "s"))"
    }
    var parts = [place]
    if let route = commute.route { parts.append("route \(route)") }
    if let destination = commute.destination {
      let named = store.flatMap { store in (try? store.stop(StopID(destination), feed: FeedName(commute.feed))) ?? nil }
      parts.append("to \((named?.name ?? destination).shown)")
    }
    parts.append("arrive by \(ValueParser.clockText(minutes: commute.arriveByMinutes))")
    parts.append(ValueParser.describeWeekdays(commute.days))
    if commute.walkMinutes > 0 { parts.append("\(commute.walkMinutes) min walk") }
    if commute.thenWalkMinutes > 0 { parts.append("then \(commute.thenWalkMinutes) min walk") }
    return parts.joined(separator: ", ")
  }

  /// A commute as JSON; one of several stops also lists them all (`stops`: feed and stop_id)
  /// and, when they are one complex, the `complex` object.
  static func json(_ commute: UserStore.Commute, stop: TransitModel.Stop?, complex: StopComplex? = nil) -> JSON {
    var members: [(String, JSON)] = [
      ("name", .string(commute.name)), ("feed", .string(commute.feed)), ("stop_id", .string(commute.stopID)),
      ("stop_name", .optional(stop?.name)),
    ]
    if !commute.otherStops.isEmpty {
      members.append(
        ("stops", .array(commute.stops.map { .object([("feed", .string($0.feed)), ("stop_id", .string($0.stopID))]) })))
    }
    if let complex { members.append(("complex", StopCommandSupport.complexJSON(complex))) }
    return .object(
      members + [
        ("route", .optional(commute.route)), ("to", .optional(commute.destination)),
        ("arrive_by", .string(ValueParser.clockText(minutes: commute.arriveByMinutes))),
        ("days", .string(ValueParser.describeWeekdays(commute.days))),
        ("walk_minutes", .number(commute.walkMinutes)), ("then_walk_minutes", .number(commute.thenWalkMinutes)),
        ("missing", .bool(stop == nil)),
      ])
  }
}

/// `transit commute remove NAME`.
enum CommuteRemoveCommand: TransitCommand {
  static let path = ["commute", "remove"]
  static let spec = CommandSpec(
    path: path, summary: "Forget a commute",
    arguments: [ArgumentSpec("NAME", help: "The commute's name", complete: .dynamic(.commutes))],
    examples: ["transit commute remove work", "transit commute remove school"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0).lowercased()
    guard try UserStore(directory: invocation.paths.data).removeCommute(name) else {
      throw NotFoundError("no commute '\(name)' (see 'transit commute list')")
    }
    if invocation.global.json {
      invocation.context.stdout.line(JSON.object([("removed", .string(name))]).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("removed commute '\(name)'")
    }
    return 0
  }
}

/// `transit commute [NAME] [--date D]`: which departure to take, and when to leave.
enum CommuteCommand: TransitCommand {
  /// The options, declared once (the watch's and the status line's are in CommuteWatch and
  /// StatusLine).
  enum Options {
    static let date = Option.date("--date", help: "For this date (default: today); with --ics, the first day")
    static let ics = Option.flag("--ics", help: "Print an iCalendar file of leave-by reminders (timetable times) instead")
    static let days = Option.integer(
      "--days", value: "N", in: 1...366, help: "With --ics: this many days from --date or today"
    ).defaulting(to: 7)
  }

  static let path = ["commute"]
  static let spec = CommandSpec(
    path: path,
    summary: "When to leave for a saved commute (all of them without NAME)",
    arguments: [ArgumentSpec("NAME", help: "The commute's name", optional: true, complete: .dynamic(.commutes))],
    options: [
      Options.date.spec, Options.ics.spec, Options.days.spec,
      FeedsSupport.refresh.spec,
      CommuteWatch.watch.spec, CommuteWatch.bell.spec, CommuteWatch.noBell.spec, CommuteWatch.count.spec, CommuteWatch.line.spec,
      StatusLine.timeout.spec, StatusLine.format.spec,
    ],
    discussion: """
      For the day, the recommended departure (the latest that gets you there by the deadline:
      its arrival at --to plus the --then-walk; without --to, the latest that leaves by it;
      from the departures of the 2 h before it), the two before it and the one after, each with
      the time to leave (the departure minus the --walk) and, today, how long until then. Realtime
      is used where there is some. On a day the commute does not run, says so and shows the
      next day it does. Add commutes with 'transit commute add'.

      With --ics, prints an iCalendar file (RFC 5545) for NAME: for each day the commute runs
      in the next --days days, an event from the leave-by time of the recommended departure to
      its arrival, with a reminder 5 minutes before leaving; times in UTC, from the timetable.

      \(CommuteWatch.discussion)
      """,
    examples: [
      "transit commute", "transit commute work --date 2026-12-07",
      "transit commute work --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb",
      "transit commute work --ics --days 7 > work.ics",
      "transit commute work --watch", "transit commute work --line",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    try CommuteWatch.validate(invocation)
    var commutes = try UserStore(directory: invocation.paths.data).commutes()
    if let name = invocation.arguments.positionals.first?.lowercased() {
      commutes = commutes.filter { $0.name == name }
      guard !commutes.isEmpty else { throw NotFoundError("no commute '\(name)' (see 'transit commute list')") }
    } else if commutes.isEmpty {
      invocation.context.stdout.line("no commutes yet; add one with 'transit commute add NAME --stop S --arrive-by HH:MM'")
      return 0
    }
    if let code = try CommuteWatch.dispatch(invocation, commutes: commutes) { return code }
    let store = try StopCommandSupport.openStore(invocation)
    let settings = try invocation.settings()
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let now = invocation.now
    let feeds = try FeedsSupport.realtimeFeeds(invocation)
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let dateOption = try invocation.arguments.read(Options.date)
    if invocation.arguments.isSet(Options.ics) {
      guard commutes.count == 1, invocation.arguments.positionals.count == 1 else { throw UsageError("--ics needs a commute NAME") }
      let days = try invocation.arguments.read(Options.days)
      invocation.context.stdout.write(
        try CommuteCalendar.ics(commutes[0], store: store, from: dateOption, days: days, now: now, options: options))
      return 0
    }
    if invocation.arguments.isGiven(Options.days) { throw UsageError("--days N goes with --ics") }
    let live = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: options)
    let out = invocation.context.stdout
    var documents: [JSON] = []
    for (number, commute) in commutes.enumerated() {
      let stops = try CommutePlanner.stops(of: commute, store: store)
      guard let stop = stops.first else {
        if invocation.global.json {
          documents.append(.object([("name", .string(commute.name)), ("missing", .bool(true))]))
        } else {
          out.line("commute '\(commute.name)': stop \(commute.stopID) is not in the timetable since the last ingest")
        }
        continue
      }
      let zone = store.timeZone(of: stop.feed)
      let today = store.localDate(of: now, feed: stop.feed)
      guard let (date, inactive) = CommutePlanner.day(of: commute, asked: dateOption ?? today) else {
        // A mask of no weekday (saved by hand, or by an older version): it never runs.
        if invocation.global.json {
          documents.append(.object([("name", .string(commute.name)), ("runs_on_no_day", .bool(true))]))
        } else {
          out.line("commute '\(commute.name)' runs on no day of the week; save it again with --days (see 'transit commute add --help')")
        }
        continue
      }
      let plan = try CommuteSupport.plan(commute, stops: stops, on: date, store: store, live: live)
      func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelve) }
      if invocation.global.json {
        var members: [(String, JSON)] = [("name", .string(commute.name)), ("date", .string(plan.date.description))]
        members.append(("inactive_date", .optional(inactive?.description)))
        members.append(("arrive_by", .string(ISOTime.format(plan.deadline, zone: zone))))
        members.append(
          (
            "options",
            .array(
              plan.options.enumerated().map { index, option in
                .object([
                  ("recommended", .bool(index == plan.recommended)),
                  ("departure", DeparturesCommand.departureJSON(option.departure, zone: zone, reachable: nil)),
                  ("arrives", .optional(option.arrives.map { ISOTime.format($0, zone: zone) })),
                  ("reaches", .optional(option.reaches.map { ISOTime.format($0, zone: zone) })),
                  ("leave_by", .string(ISOTime.format(option.leaveBy, zone: zone))),
                  ("minutes_until_leave", plan.date == today && option.leaveBy >= now ? .number((option.leaveBy - now) / 60) : .null),
                ])
              })
          ))
        documents.append(.object(members))
        continue
      }
      if number > 0 { out.line("") }
      if let inactive {
        out.line("commute '\(commute.name)' does not run on \(CommuteSupport.dayText(inactive)); next: \(CommuteSupport.dayText(date))")
      }
      out.line("commute '\(commute.name)': \(CommuteListCommand.describe(commute, stop: stop, store: store))")
      out.line("\(CommuteSupport.dayText(plan.date)), arrive by \(clock(plan.deadline))")
      if !feeds.isEmpty { out.line(RealtimeSupport.line(plan.report, zone: zone, twelveHour: twelve)) }
      guard !plan.options.isEmpty else {
        if let reason = DepartureBoard.emptyReason(store: store, stop: stop, start: plan.deadline)?.warning(feed: stop.feed.rawValue) {
          out.line("no departure: " + reason)
          continue
        }
        out.line("no departure in the 2 h either side of \(clock(plan.deadline))")
        continue
      }
      if plan.recommended == nil { out.line("nothing arrives in time; the first after:") }
      var rows: [[String]] = []
      for (index, option) in plan.options.enumerated() {
        let call = option.departure.call
        let marker: String = index == plan.recommended ? "→" : " "
        let headsign: String = call.headsign.isEmpty ? "(added trip)" : call.headsign.shown
        var arrives: String = option.arrives.map { "arr " + clock($0) } ?? ""
        if commute.thenWalkMinutes > 0, let reaches = option.reaches { arrives += ", there " + clock(reaches) }
        var row: [String] = [
          marker, call.routeShortName.shown, headsign, option.partLabel.map { "from " + $0.shown } ?? "",
          "dep " + clock(option.departs), arrives, "leave " + clock(option.leaveBy),
        ]
        if plan.date == today {
          row.append(option.leaveBy >= now ? "in \(StopCommandSupport.countdown(to: option.leaveBy, from: now))" : "too late")
        } else {
          row.append("")
        }
        if !feeds.isEmpty {
          row += DeparturesCommand.realtimeColumns(option.departure, zone: zone, twelveHour: twelve, colour: false).dropFirst()
        }
        rows.append(row)
      }
      if let width = rows.first?.count, width > 1 {
        for column in (1..<width).reversed() where rows.allSatisfy({ $0[column].isEmpty }) {
          for row in rows.indices { rows[row].remove(at: column) }
        }
      }
      out.write(StopCommandSupport.table(rows))
      if let record = try CommuteSupport.recordLine(plan, store: store, options: options, invocation: invocation, zone: zone) {
        out.line(record)
      }
    }
    if invocation.global.json {
      out.line(JSON.array(documents).serialized(pretty: true))
    }
    return 0
  }
}

/// iCalendar (RFC 5545) leave-by reminders for a commute.
enum CommuteCalendar {
  /// The calendar: a VEVENT with a VALARM for each day `commute` runs in `days` days from
  /// `from` (default: today), from the timetable.
  static func ics(
    _ commute: UserStore.Commute, store: Store, from: ServiceDate?, days: Int, now: UnixTime, options: ServiceOptions
  ) throws -> String {
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard let stop = stops.first else {
      throw NotFoundError("commute '\(commute.name)': stop \(commute.stopID) is not in the timetable")
    }
    let zone = store.timeZone(of: stop.feed)
    let first = from ?? store.localDate(of: now, feed: stop.feed)
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//transit//commute \(Transit.version)//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
      "X-WR-CALNAME:" + escape("transit: \(commute.name)"),
    ]
    for offset in 0..<days {
      let date = first.adding(days: offset)
      guard CommuteSupport.runs(commute, on: date) else { continue }
      let plan = try CommuteSupport.plan(commute, stops: stops, on: date, store: store, live: .none(now: now, options: options))
      guard let index = plan.recommended else { continue }
      let option = plan.options[index]
      let call = option.departure.call
      let departs = StopCommandSupport.clock(option.departs, zone: zone, twelveHour: false)
      let summary = "Leave for \(commute.name): \(call.routeShortName) to \(call.headsign) at \(departs)"
      var description = "Walk \(commute.walkMinutes) min to \(stop.name); \(call.routeShortName) \(call.headsign) departs \(departs)"
      if let arrives = option.arrives {
        description += ", arrives \(StopCommandSupport.clock(arrives, zone: zone, twelveHour: false))"
      }
      if commute.thenWalkMinutes > 0, let reaches = option.reaches {
        description += "; walk \(commute.thenWalkMinutes) min, there \(StopCommandSupport.clock(reaches, zone: zone, twelveHour: false))"
      }
      description +=
        " (arrive by \(ValueParser.clockText(minutes: commute.arriveByMinutes))).\nFrom the timetable: run 'transit commute \(commute.name)' for live times."
      lines += [
        "BEGIN:VEVENT",
        "UID:" + escape("\(commute.name)-\(date.description)@transit"),
        "DTSTAMP:" + utc(now),
        "DTSTART:" + utc(option.leaveBy),
        "DTEND:" + utc(max(option.reaches ?? option.departs, option.leaveBy + 60)),
        "SUMMARY:" + escape(summary),
        "DESCRIPTION:" + escape(description),
        "LOCATION:" + escape(stop.name + (stop.code.map { " [\($0)]" } ?? "")),
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + escape(summary), "TRIGGER:-PT5M", "END:VALARM",
        "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  /// "20261201T074600Z".
  static func utc(_ time: UnixTime) -> String {
    let iso = ISOTime.format(time, zone: LocalZone.utc)  // 2026-12-01T07:46:00+00:00
    return String(iso.prefix(19)).replacing("-", with: "").replacing(":", with: "") + "Z"
  }

  /// TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma and newline.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result
  }

  /// Folds a content line at 75 octets (RFC 5545 3.1): a CRLF and a space before each
  /// continuation, never inside a UTF-8 sequence.
  static func fold(_ line: String) -> String {
    var parts: [String] = []
    var current = ""
    var octets = 0
    for scalar in line.unicodeScalars {
      let size = String(scalar).utf8.count
      if octets + size > 75 {
        parts.append(current)
        current = " "
        octets = 1
      }
      current.unicodeScalars.append(scalar)
      octets += size
    }
    parts.append(current)
    return parts.joined(separator: "\r\n")
  }
}
