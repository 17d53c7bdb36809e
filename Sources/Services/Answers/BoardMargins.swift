import History
import TransitModel

/// Which rule gave a board's leave-now margin for one route at one stop in one hour, with
/// `leave-margin = learned` (issue 34): the learned figure where the history holds enough
/// calls, else the fixed rule. A board lists each once, in row order, so the rider reads why
/// "leave in 6 min" says 6.
public struct MarginRule: Sendable, Hashable {
  /// The route's short name (else its id).
  public var route: String
  public var stopID: StopID
  /// The local hour of the departures it covers (on the board's clock).
  public var hour: Int
  /// The learned margin; nil: the fixed rule, since fewer than `LearnedMargin.minimumCount`
  /// calls were recorded.
  public var learned: LearnedMargin?
  /// The fixed rule's percent of the time ahead.
  public var percent: Int
  /// The fixed rule's ceiling, in seconds.
  public var maxSeconds: Int64
}

extension Board.Row {
  /// When to leave for this row's departure at `now`, walking `walkSeconds` with the row's
  /// margin; nil without a walk, and for a cancelled trip or a skipped stop.
  public func leaveAdvice(at now: UnixTime) -> LeaveAdvice? {
    guard let walkSeconds else { return nil }
    return LeaveAdvice.classify(departure, walkSeconds: walkSeconds, now: now, margin: margin)
  }
}

extension TransitSession {
  /// The margin leave-now advice keeps for `departure` at `now`, and with
  /// `options.learnsLeaveMargin` the rule that gave it (on the clock of `zone`): the one
  /// choice the board, `--watch`, `--group`, `--line` and the commute views all take.
  /// - Throws: the history's errors.
  public func leaveMargin(for departure: Departure, zone: LocalZone, now: UnixTime) throws -> (LeaveAdvice.Margin, MarginRule?) {
    guard options.learnsLeaveMargin else { return (options.leaveMargin, nil) }
    return try leaveMargin(for: departure, zone: zone, now: now, history: try userData.historyIfPresent())
  }

  /// `leaveMargin(for:zone:now:)` with the history already opened (nil: none recorded).
  private func leaveMargin(
    for departure: Departure, zone: LocalZone, now: UnixTime, history: HistoryStore?
  ) throws -> (LeaveAdvice.Margin, MarginRule) {
    let fixed = options.leaveMargin
    let choice = try leaveMargin(for: departure, fixed: fixed, learning: true, history: history, now: now)
    let call = departure.call
    let rule = MarginRule(
      route: call.routeShortName.isEmpty ? call.routeID.rawValue : call.routeShortName, stopID: call.stopID,
      hour: LocalClock.secondsAfterMidnight(of: departure.time ?? now, in: zone) / 3600, learned: choice.learned,
      percent: fixed.percent, maxSeconds: fixed.maxSeconds)
    return (choice.margin, rule)
  }

  /// `board` with each walked row's margin, and the rules that gave them (`leaveMargin`).
  /// - Throws: the history's errors.
  func withMargins(_ board: Board) throws -> Board {
    var board = board
    for index in board.rows.indices { board.rows[index].margin = options.leaveMargin }
    guard options.learnsLeaveMargin, board.rows.contains(where: { $0.walkSeconds != nil }) else { return board }
    let history = try userData.historyIfPresent()
    // One history read per route, stop and hour on the route's clock (the one the history's
    // hours are on; a board can hold thousands of rows).
    struct Key: Hashable {
      var feed: FeedName
      var route: RouteID
      var stop: StopID
      var hour: Int
    }
    var known: [Key: (LeaveAdvice.Margin, MarginRule)] = [:]
    for index in board.rows.indices where board.rows[index].walkSeconds != nil {
      let departure = board.rows[index].departure
      let key = Key(
        feed: departure.call.feed, route: departure.call.routeID, stop: departure.call.stopID,
        hour: LocalClock.secondsAfterMidnight(of: departure.time ?? board.now, in: store.timeZone(of: departure.call.feed)) / 3600)
      let (margin, rule) = try known[key] ?? leaveMargin(for: departure, zone: board.zone, now: board.now, history: history)
      known[key] = (margin, rule)
      board.rows[index].margin = margin
      if !board.marginRules.contains(rule) { board.marginRules.append(rule) }
    }
    return board
  }
}
