import Fetch
import GTFS
import GTFSRealtime
import History
import Services
import TransitModel

// The pieces the commands not yet on the session (commute, plan, follow, record, the home
// view's commute card) still assemble their answers from. Each goes when its last caller asks
// the session instead (issue 33); the board, --watch, --group and --line no longer use them.

extension BoardSupport {
  /// The leave-now margin the settings ask for (the commute views, until they move onto the
  /// session: the board's rows carry their own).
  static func margin(_ settings: Settings) -> LeaveAdvice.Margin {
    LeaveAdvice.Margin(percent: settings.leaveMarginPercent)
  }

  /// The leave-now margin for `departure` (`TransitSession.leaveMargin`) and, with
  /// `leave-margin = learned`, the words saying which rule made it.
  static func margin(
    for departure: Departure, settings: Settings, session: TransitSession, history: HistoryStore?, zone: LocalZone, now: UnixTime
  ) throws -> (margin: LeaveAdvice.Margin, note: String?) {
    let choice = try session.leaveMargin(
      for: departure, fixed: margin(settings), learning: settings.leaveMarginLearned, history: history, now: now)
    guard settings.leaveMarginLearned else { return (choice.margin, nil) }
    let call = departure.call
    let route = call.routeShortName.isEmpty ? call.routeID.rawValue : call.routeShortName
    let hour = StopCommandSupport.clock(departure.time ?? now, zone: zone, twelveHour: false).prefix(2) + ":00"
    if let learned = choice.learned {
      return (
        choice.margin,
        "leave-margin learned for \(route) at \(call.stopID) \(hour): \(HistoryText.delay(learned.seconds)) (90th percentile lateness of \(learned.count) calls)"
      )
    }
    return (
      choice.margin,
      "leave-margin: the fixed rule (\(settings.leaveMarginPercent) % of the time ahead, at most 5 min); fewer than \(LearnedMargin.minimumCount) calls of \(route) at \(call.stopID) \(hour) recorded"
    )
  }

  /// The history, when there is one (nil otherwise: asking makes no file).
  static func historyIfAny(_ invocation: Invocation) throws -> HistoryStore? {
    HistoryStore.exists(in: invocation.paths.data) ? try HistoryStore(directory: invocation.paths.data) : nil
  }

  /// When to fetch next, in the context clock's seconds: just after the feed's next publish.
  static func nextFetch(_ invocation: Invocation, feeds: [FeedMessage], period: Int64?) -> Int64 {
    let stamp = feeds.compactMap { $0.header?.timestamp }.max().map { Int64(clamping: $0) }
    let now = invocation.context.clock.now().seconds
    return Fetch.PollSchedule.nextFetch(now: now, lastHeaderTimestamp: stamp, period: period)
  }
}

extension RealtimeSupport {
  /// `feeds` matched against the timetables at `now`; the warnings (a feed matching nothing or
  /// less than half) go to stderr, once.
  static func live(
    _ invocation: Invocation, store: Store, feeds: [FeedMessage], now: UnixTime, options: ServiceOptions, warn: Bool = true
  ) throws -> LiveRealtime {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    if warn { self.warn(live.report, invocation: invocation) }
    return live
  }
}

extension DeparturesCommand {
  /// The realtime columns of a departure (`BoardTable.realtimeCells`), for the commute views.
  static func realtimeColumns(_ departure: Departure, zone: LocalZone, twelveHour: Bool, colour: Bool) -> [String] {
    let cells = BoardTable.realtimeCells(departure, zone: zone, twelveHour: twelveHour, colour: colour)
    return [cells.scheduled, cells.delay, cells.marker]
  }

  /// A scheduled call in DESIGN.md's `departures --json` shape (no realtime).
  static func departureJSON(_ call: ScheduledCall, zone: LocalZone, reachable: Bool?) -> JSON {
    departureJSON(Departure(call: call), zone: zone, reachable: reachable)
  }

  /// One departure in DESIGN.md's `departures --json` shape (`DepartureAnswer`).
  static func departureJSON(_ departure: Departure, zone: LocalZone, reachable: Bool?) -> JSON {
    JSONTreeEncoder.encode(DepartureAnswer(departure, zone: zone, isReachable: reachable))
  }
}

extension FollowCommand {
  /// "vehicle-positions" from ".../1796110560-vehicle-positions.pb" (`SnapshotNaming.kind`).
  static func kind(of path: String) -> String { SnapshotNaming.kind(of: path) }
}
