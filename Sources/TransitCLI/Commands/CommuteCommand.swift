import FoundationEssentials
import Services
import TransitModel

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
      RealtimeOptions.refresh.spec,
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
    var commutes = try CommuteSupport.saved(invocation)
    if let name = invocation.arguments.positionals.first?.lowercased() {
      commutes = commutes.filter { $0.name == name }
      guard !commutes.isEmpty else { throw CommuteSupport.notFound(name) }
    } else if commutes.isEmpty {
      invocation.context.stdout.line("no commutes yet; add one with 'transit commute add NAME --stop S --arrive-by HH:MM'")
      return 0
    }
    if let code = try CommuteWatch.dispatch(invocation, commutes: commutes) { return code }
    let settings = try invocation.settings()
    let session = try SessionSupport.session(invocation, settings: settings)
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let dateOption = try invocation.arguments.read(Options.date)
    if invocation.arguments.isSet(Options.ics) {
      guard commutes.count == 1, invocation.arguments.positionals.count == 1 else { throw UsageError("--ics needs a commute NAME") }
      let days = try invocation.arguments.read(Options.days)
      let calendar: CommuteCalendarAnswer
      do {
        calendar = try session.commuteCalendar(commutes[0], from: dateOption, days: days, now: invocation.now)
      } catch CommuteFailure.missingStop(let name, let stopID) {
        throw NotFoundError("commute '\(name)': stop \(stopID) is not in the timetable")
      }
      invocation.context.stdout.write(CommuteCalendar.ics(calendar, now: invocation.now))
      return 0
    }
    if invocation.arguments.isGiven(Options.days) { throw UsageError("--days N goes with --ics") }
    // The history says how the recommended departure ran (the text's last line).
    let history = invocation.global.json ? nil : try session.userData.historyIfPresent()
    let answer = try session.commute(commutes, date: dateOption, now: invocation.now, history: history)
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    RealtimeSupport.warn(answer.report, invocation: invocation)
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
    } else {
      render(answer, invocation: invocation, twelveHour: twelve)
    }
    return 0
  }

  /// The text: per commute its description, day and deadline, then its departures as a table
  /// (the recommended one marked), each with when to leave.
  static func render(_ answer: CommuteAnswer, invocation: Invocation, twelveHour twelve: Bool) {
    let out = invocation.context.stdout
    for (number, item) in answer.items.enumerated() {
      let day: CommuteDay
      switch item {
      case .missingStop(let commute):
        out.line("commute '\(commute.name)': stop \(commute.stopID) is not in the timetable since the last ingest")
        continue
      case .runsOnNoDay(let commute):
        out.line("commute '\(commute.name)' runs on no day of the week; save it again with --days (see 'transit commute add --help')")
        continue
      case .day(let worked): day = worked
      }
      let (commute, plan, zone) = (day.commute, day.plan, day.zone)
      func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelve) }
      if number > 0 { out.line("") }
      if let inactive = day.inactive {
        out.line(
          "commute '\(commute.name)' does not run on \(CommuteSupport.dayText(inactive)); next: \(CommuteSupport.dayText(plan.date))")
      }
      out.line("commute '\(commute.name)': \(CommuteListCommand.describe(day.entry))")
      out.line("\(CommuteSupport.dayText(plan.date)), arrive by \(clock(plan.deadline))")
      if answer.hasRealtime { out.line(RealtimeSupport.line(plan.report, zone: zone, twelveHour: twelve)) }
      guard !plan.options.isEmpty else {
        if let reason = day.emptyReason?.warning(feed: day.stop.feed.rawValue) {
          out.line("no departure: " + reason)
        } else {
          out.line("no departure in the 2 h either side of \(clock(plan.deadline))")
        }
        continue
      }
      if plan.recommended == nil { out.line("nothing arrives in time; the first after:") }
      var rows: [[String]] = []
      for (index, option) in plan.options.enumerated() {
        let call = option.departure.call
        var arrives: String = option.arrives.map { "arr " + clock($0) } ?? ""
        if commute.thenWalkMinutes > 0, let reaches = option.reaches { arrives += ", there " + clock(reaches) }
        var row: [String] = [
          index == plan.recommended ? "→" : " ", call.routeShortName.shown, call.headsign.isEmpty ? "(added trip)" : call.headsign.shown,
          option.partLabel.map { "from " + $0.shown } ?? "", "dep " + clock(option.departs), arrives, "leave " + clock(option.leaveBy),
        ]
        if day.isToday {
          row.append(
            day.minutesUntilLeave(option) != nil
              ? "in \(StopCommandSupport.countdown(to: option.leaveBy, from: day.now))" : "too late")
        } else {
          row.append("")
        }
        if answer.hasRealtime {
          let live = BoardTable.realtimeCells(option.departure, zone: zone, twelveHour: twelve, colour: false)
          row += [live.delay, live.marker]
        }
        rows.append(row)
      }
      if let width = rows.first?.count, width > 1 {
        for column in (1..<width).reversed() where rows.allSatisfy({ $0[column].isEmpty }) {
          for row in rows.indices { rows[row].remove(at: column) }
        }
      }
      out.write(StopCommandSupport.table(rows))
      if let record = CommuteSupport.recordLine(day) { out.line(record) }
    }
  }
}
