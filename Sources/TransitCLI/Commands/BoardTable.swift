import Services
import TransitModel

/// The departure board's columns, declared once (issue 33): what each says for a row of a
/// `Board`, the order the plain board and the home view's cards list them in, and the order a
/// narrow live frame (`BoardFrame`) drops them. A column added here reaches the plain board,
/// `--group`, `--watch` and the home view alike.
struct BoardTable {
  /// A column of the board. The cases are in the order a live frame draws them.
  enum Column: Int, CaseIterable {
    case route, headsign, part, platform, time, countdown, delay, source, walk, leave
    /// What a narrow frame drops first: what the marker says (live, interpolated), then the
    /// platform, the walk, the delay, the clock time and which of several stops. The route,
    /// destination, countdown and leave advice always stay.
    static let dropOrder: [Column] = [.source, .platform, .walk, .delay, .time, .part]
  }

  /// What the plain text shows beside the frame's columns.
  struct Style {
    /// Route names in their mode's colour, delays in red, green or cyan.
    var colour = false
    /// ASCII marks (W) instead of ♿.
    var plainSymbols = false
    /// The board's own (`departures`): wheelchair and crowding marks, "(arrives, terminates)",
    /// the walk; a home card shows none of them, its lines indented.
    var isFullBoard = true
  }

  let board: Board
  /// The moment the countdowns run from.
  var now: UnixTime
  let twelveHour: Bool

  var zone: LocalZone { board.zone }

  /// "07:49" (or "7:49 AM") on the board's clock.
  func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }

  /// The headsign, "(added trip)" when the update gives none.
  static func headsign(_ row: Board.Row) -> String {
    row.departure.call.headsign.isEmpty ? "(added trip)" : row.departure.call.headsign.shown
  }

  /// The cells of a row in a live frame, by column (an absent column has nothing to say).
  func frameCells(_ row: Board.Row) -> [Column: String] {
    let departure = row.departure
    let time = departure.time ?? now
    var cells: [Column: String] = [.route: departure.call.routeShortName.shown, .headsign: Self.headsign(row), .time: clock(time)]
    if let part = row.partLabel { cells[.part] = part.shown }
    if let platform = row.platform { cells[.platform] = platform.shown }
    switch departure.status {
    case .cancelled: cells[.countdown] = "cancelled"
    case .skipped: cells[.countdown] = "skipped"
    default: cells[.countdown] = StopCommandSupport.countdown(to: time, from: now)
    }
    if board.hasRealtime {
      let live = realtimeCells(departure, colour: false)
      cells[.delay] = live.delay
      if departure.status != .cancelled && departure.status != .skipped { cells[.source] = live.marker }
    }
    if let walk = row.walkSeconds {
      cells[.walk] = BoardSupport.walkText(seconds: walk)
      if let advice = row.leaveAdvice(at: now) { cells[.leave] = advice.text }
    }
    return cells
  }

  /// The plain board's rows, its columns in order: route, destination, which part, platform,
  /// the time with its countdown (and walk), the realtime's scheduled time, delay and marker,
  /// crowding. A column no row has anything in takes no room.
  func plainRows(_ rows: [Board.Row], style: Style) -> [[String]] {
    let showsParts = rows.contains { $0.partLabel != nil }
    let showsPlatforms = Board.parts(of: board.places).contains(where: \.isStation)
    let showsCrowding = style.isFullBoard && rows.contains { $0.details.crowding != nil }
    var table = rows.map { row -> [String] in
      let departure = row.departure
      let call = departure.call
      let time = departure.time ?? now
      var cells: [String]
      if style.isFullBoard {
        let wheelchair = RiderMarks.wheelchair(row.details.tripAccess, plain: style.plainSymbols)
        cells = [
          StopCommandSupport.coloured(call.routeShortName.shown, mode: TransitMode(routeType: call.routeType), enabled: style.colour),
          Self.headsign(row) + (call.isLastStop ? " (arrives, terminates)" : call.pickupType == 1 ? " (no boarding)" : "")
            + (wheelchair.isEmpty ? "" : " " + wheelchair),
        ]
      } else {
        cells = ["  " + call.routeShortName.shown, Self.headsign(row)]
      }
      if showsParts { cells.append(row.partLabel?.shown ?? "") }
      if showsPlatforms { cells.append(row.platform?.shown ?? "") }
      var when = clock(time)
      if departure.status != .cancelled && departure.status != .skipped {
        when += " · \(StopCommandSupport.countdown(to: time, from: now))"
      }
      // The walk and when to leave (issue 20): "4 min walk, leave in 6 min"; the margin learned
      // from the history with `leave-margin = learned` (issue 34), said below the board.
      if style.isFullBoard { when += BoardSupport.walkNote(row, now: now) }
      cells.append(when)
      if board.hasRealtime {
        let live = realtimeCells(departure, colour: style.colour)
        cells += [live.scheduled, live.delay, live.marker]
      }
      if showsCrowding { cells.append(RiderMarks.crowding(row.details.crowding)) }
      return cells
    }
    if let width = table.first?.count, width > 1 {
      for column in (1..<width).reversed() where table.allSatisfy({ $0[column].isEmpty }) {
        for row in table.indices { table[row].remove(at: column) }
      }
    }
    return table
  }

  /// The realtime cells of a departure: the scheduled time when it differs, the delay, and
  /// the marker (live, interpolated, cancelled, ...) with any platform change.
  func realtimeCells(_ departure: Departure, colour: Bool) -> (scheduled: String, delay: String, marker: String) {
    Self.realtimeCells(departure, zone: zone, twelveHour: twelveHour, colour: colour)
  }

  /// `realtimeCells(_:colour:)` on the clock of `zone`.
  static func realtimeCells(
    _ departure: Departure, zone: LocalZone, twelveHour: Bool, colour: Bool
  ) -> (scheduled: String, delay: String, marker: String) {
    func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }
    var scheduled = ""
    if let expected = departure.expected, let planned = departure.call.scheduledTime, clock(expected) != clock(planned) {
      scheduled = "sched " + clock(planned)
    }
    var delay = ""
    if let seconds = departure.delaySeconds {
      let minutes = DelayRounding.minutes(seconds)
      switch departure.status {
      case .late: delay = paint("\(minutes) min late", code: "31", colour)
      case .early: delay = paint("\(minutes) min early", code: "36", colour)
      case .onTime: delay = paint("on time", code: "32", colour)
      default: delay = seconds == 0 ? "" : seconds > 0 ? "+\(minutes) min" : "-\(minutes) min"
      }
    }
    var marker: String
    switch departure.status {
    case .cancelled: marker = paint("cancelled", code: "31", colour)
    case .skipped: marker = "skipped"
    case .added: marker = departure.isAwaitingTrain ? "not in timetable, no train yet" : "live, not in timetable"
    default:
      switch departure.source {
      case .realtime: marker = "live"
      case .interpolated: marker = "live, interpolated"
      case .propagated: marker = "live, carried forward"
      case .schedule: marker = departure.isPredictionIgnored ? "prediction ignored (too far from the timetable)" : "scheduled"
      }
      // The producer's plan, not a running train (NYCT: not yet assigned).
      if departure.isAwaitingTrain && departure.source != .schedule { marker = "planned, no train yet" }
    }
    return (scheduled, delay, marker + (departure.platformChange.map { ", " + PlatformChangeText.text($0) } ?? ""))
  }

  /// `text` in ANSI colour `code` when `enabled`.
  static func paint(_ text: String, code: String, _ enabled: Bool) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
