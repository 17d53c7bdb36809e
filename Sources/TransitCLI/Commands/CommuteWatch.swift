import FoundationEssentials
import Services
import TransitModel

/// `transit commute NAME --watch` (issue 20): the recommended departure and its alternatives,
/// live, with when to leave for each; the terminal bell rings once when it is time to leave
/// for the recommended one (and `notify-send` runs when it is on PATH in a desktop session).
/// Realtime is fetched in step with the feed; the clock is checked every second in between.
enum CommuteWatch {
  // The options `commute` gains for the watch and the status line (and StatusLine.timeout).
  static let watch = Option.flag("--watch", help: "Watch it live; ring the bell once when it is time to leave")
  static let bell = Option.flag("--bell", help: "With --watch: ring the terminal bell at leave time (the default)")
  static let noBell = Option.flag("--no-bell", help: "With --watch: no bell and no desktop notification")
  static let count = Option.integer("--count", value: "N", in: 1...1_000_000, help: "With --watch: stop after N updates")
  static let line = Option.flag("--line", help: "One short line for a status bar: the recommended departure and when to leave")

  static let discussion = """
    With --watch, the day's recommended departure and its alternatives stay on the screen,
    refreshed with the feed, each with "leave in N min", "leave now", "run" or "too late" (the
    --walk and a margin for prediction error: the leave-margin setting); when it is time to
    leave for the recommended one the terminal bell rings once (and notify-send shows it, when
    it is installed and a desktop session is there); --no-bell keeps quiet. q quits. With
    --to, the arrival is guarded as 'plan --watch' guards a change: the buffer between getting
    there (the expected arrival and the --then-walk) and the deadline is safe, tight (under the
    transfer-margin setting), at risk (under 1 min) or missed, and the bell rings when it moves.

    With --line, one line for a status bar: "27 07:53 +3 · leave in 6 min" (+3: 3 min late;
    "sched": timetable only; a stale feed adds its age, a failed fetch "offline"), or "no 27
    before 08:30" when nothing gets there in time; it always exits 0 and waits for the network
    at most --timeout seconds.

    \(StatusLine.formatDiscussion)
    """

  /// Refuses --line and --watch without a commute NAME, and their options without them.
  static func validate(_ invocation: Invocation) throws(UsageError) {
    let arguments = invocation.arguments
    let line = arguments.isSet(Self.line), watch = arguments.isSet(Self.watch)
    if (line || watch) && arguments.positionals.isEmpty { throw UsageError("\(line ? "--line" : "--watch") needs a commute NAME") }
    if !watch {
      for option in [bell, noBell] where arguments.isSet(option) { throw UsageError("\(option.spec.name) goes with --watch") }
      if arguments.isGiven(count) { throw UsageError("--count N goes with --watch") }
    }
    if !line, arguments.isGiven(StatusLine.timeout) { throw UsageError("--timeout goes with --line") }
    if !line, arguments.isGiven(StatusLine.format) { throw UsageError("--format goes with --line") }
  }

  /// Runs --line or --watch for the one commute named; nil when neither is asked for.
  static func dispatch(_ invocation: Invocation, commutes: [SavedCommute]) throws -> Int32? {
    let arguments = invocation.arguments
    let line = arguments.isSet(Self.line), watch = arguments.isSet(Self.watch)
    guard line || watch else { return nil }
    guard arguments.positionals.count == 1, commutes.count == 1 else {
      throw UsageError("\(line ? "--line" : "--watch") needs a commute NAME")
    }
    if line && watch { throw UsageError("give --line or --watch, not both") }
    if watch && invocation.global.json { throw UsageError("--watch is text: leave out --json") }
    if arguments.isSet(bell) && arguments.isSet(noBell) { throw UsageError("give --bell or --no-bell, not both") }
    return line ? try StatusLine.commute(invocation, commutes[0]) : try run(invocation, commutes[0])
  }

  static func run(_ invocation: Invocation, _ commute: SavedCommute) throws -> Int32 {
    let count = try invocation.arguments.read(Self.count)
    let bell = !invocation.arguments.isSet(noBell)
    let settings = try invocation.settings()
    let session = try SessionSupport.session(invocation, settings: settings, realtime: { FixedRealtime([]) })
    guard try session.commuteEntries([commute]).first?.stop != nil else {
      throw NotFoundError("commute '\(commute.name)': stop \(commute.stopID) is not in the timetable since the last ingest")
    }
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let loop = WatchLoop(invocation, count: count)
    let clock = BoardSupport.clock(invocation)
    let period = try FeedsSupport.access(invocation).realtimePeriodSeconds(ofFeed: commute.feed)
    let out = invocation.context.stdout
    var alarm = LeaveAlarm()
    var rang: String?
    // The guard of `plan --watch` on the commute's arrival (`CommuteWatchFrame.arrival`); the
    // bell rings when its state moves.
    var arrivalState: TransferState?
    var fetches = 0
    return try loop.run {
      let fetchedAt = clock()
      let quiet = loop.quiet()
      let feeds = try FeedsSupport.realtimeFeeds(quiet, preferred: commute.feed)
      let frame = try session.commuteWatchFrame(commute, feeds: feeds, now: fetchedAt)
      if fetches == 0 { RealtimeSupport.warn(frame.report, invocation: quiet) }
      let (day, zone) = (frame.day, frame.day.zone)
      // With `leave-margin = learned`: the margin of the recommended departure, and which rule.
      var margin = session.options.leaveMargin
      var marginNote: String?
      if let option = day.recommended {
        let (chosen, rule) = try session.leaveMargin(for: option.departure, zone: zone, now: fetchedAt)
        (margin, marginNote) = (chosen, rule.map(BoardSupport.marginNote))
      }
      fetches += 1
      if let arrival = frame.arrival {
        if let before = arrivalState, before != arrival.state {
          let message =
            "arriving by \(StopCommandSupport.clock(day.plan.deadline, zone: zone, twelveHour: twelve)) is now \(arrival.state.text) (\(RideText.buffer(arrival.bufferSeconds)))"
          rang = StopCommandSupport.clockSeconds(fetchedAt, zone: zone, twelveHour: twelve) + " " + message
          if bell { BoardSupport.ring(invocation, message: message) }
        }
        arrivalState = arrival.state
      } else {
        arrivalState = nil
      }
      let next = session.nextFetch(after: feeds, period: period, now: invocation.context.clock.now().seconds)
      let wait = max(0, next - invocation.context.clock.now().seconds)
      func lines(at now: UnixTime) -> [String] {
        render(frame, now: now, margin: margin, twelveHour: twelve, rang: rang) + (marginNote.map { [$0] } ?? [])
      }
      return .update(
        WatchLoop.Update(
          plain: loop.isFullScreen ? [] : lines(at: fetchedAt),
          screen: { size, _, footer in
            (lines(at: clock()) + ["", footer]).map { $0.count > size.columns ? String($0.prefix(size.columns)) : $0 }
          }, wait: Double(wait),
          tick: { _ in
            // Every second until the next fetch: the bell.
            let now = clock()
            guard let (option, leaveBy) = frame.leaveBy(at: now, margin: margin),
              alarm.shouldRing(leaveBy: leaveBy, departs: option.departs, now: now)
            else { return }
            let call = option.departure.call
            let message =
              "time to leave for the \(StopCommandSupport.clock(option.departs, zone: zone, twelveHour: twelve)) \(call.routeShortName.shown) to \(call.headsign.shown)"
            rang = StopCommandSupport.clockSeconds(now, zone: zone, twelveHour: twelve) + " " + message
            if bell { BoardSupport.ring(invocation, message: message) }
            if !loop.isFullScreen { out.line(rang!) }
          }))
    }
  }

  /// The watch as lines at `now`.
  static func render(_ frame: CommuteWatchFrame, now: UnixTime, margin: LeaveAdvice.Margin, twelveHour: Bool, rang: String?) -> [String] {
    let (day, plan, commute, zone) = (frame.day, frame.day.plan, frame.day.commute, frame.day.zone)
    func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }
    var lines = [
      "commute '\(commute.name)' · \(StopCommandSupport.clockSeconds(now, zone: zone, twelveHour: twelveHour)) · \(BoardFrame.realtimeText(frame.hasRealtime ? frame.report.freshness : nil, now: now))",
      "\(CommuteSupport.dayText(plan.date)), arrive by \(clock(plan.deadline)), from \(day.stop.name.shown)"
        + (commute.walkMinutes > 0 ? " (\(commute.walkMinutes) min walk)" : ""),
      "",
    ]
    guard !plan.options.isEmpty else { return lines + ["no departure in the 2 h before \(clock(plan.deadline))"] }
    if plan.recommended == nil { lines.append("nothing arrives in time; the first after:") }
    var rows: [[String]] = []
    for (index, option) in plan.options.enumerated() {
      let call = option.departure.call
      rows.append([
        index == plan.recommended ? "→" : " ", call.routeShortName.shown, call.headsign.isEmpty ? "(added trip)" : call.headsign.shown,
        clock(option.departs), StopCommandSupport.countdown(to: option.departs, from: now),
        option.arrives.map { "arr " + clock($0) } ?? "", frame.advice(for: option, at: now, margin: margin)?.text ?? "",
      ])
    }
    lines += StopCommandSupport.table(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let arrival = frame.arrival {
      if lines.last?.isEmpty == false { lines.append("") }
      lines += [
        "there by \(clock(arrival.reaches)), \(clock(plan.deadline)) at the latest: \(RideText.buffer(arrival.bufferSeconds)) · \(arrival.state.text)"
      ]
    }
    if let rang { lines += ["", rang] }
    return lines
  }
}
