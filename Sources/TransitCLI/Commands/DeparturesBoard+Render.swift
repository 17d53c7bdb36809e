import FoundationEssentials
import Services
import TransitModel

/// One frame of the live departure board (issue 20) and how it is drawn: a title with the
/// clock and the feed's age, the rows, the stop's alerts and a footer, fitted to the window.
struct BoardFrame {
  /// The board drawn: its rows, platforms, walks, realtime and alerts (`TransitSession.board`).
  var board: Board
  /// The moment drawn (countdowns run from it; a watch moves it on between fetches).
  var now: UnixTime
  var twelveHour: Bool
  /// With `--group`: only the groups are drawn.
  var groups: [Board.Group]?
  /// Rows that changed at the last fetch, still highlighted.
  var highlighted: Set<BoardChanges.Key> = []
  /// The last line: how to quit, when the next update comes, what went wrong.
  var footer: String?

  /// A frame of `board` at its own moment.
  init(board: Board, twelveHour: Bool, groups: [Board.Group]? = nil) {
    self.board = board
    self.now = board.now
    self.twelveHour = twelveHour
    self.groups = groups
  }

  var zone: LocalZone { board.zone }
  /// "Tallaght Interchange [TINT]".
  var title: String {
    board.title.shown + (board.places.count == 1 && board.complex == nil ? board.stop.code.map { " [\($0.shown)]" } ?? "" : "")
  }
  /// What the realtime was when fetched; nil: no realtime at all.
  var freshness: RealtimeFreshness? { board.hasRealtime ? board.report.freshness : nil }
  /// The stop's alerts, one line each.
  var notices: [String] { board.notices.map { DeparturesCommand.noticeLine(effect: $0.effectName, text: $0.text) } }
  /// Why an empty board is empty when the timetable is the reason.
  var emptyReason: String? { board.emptyReason?.warning(feed: board.stop.feed.rawValue) }

  typealias Column = BoardTable.Column

  /// The room the destination asks for before columns are dropped (a longer one is cut).
  static let wantedHeadsign = 24

  /// The frame as lines of at most `columns` characters and at most `rows` lines. Highlighted
  /// rows start with `*`, and are in reverse video when `colour` is on.
  func render(columns: Int, rows: Int, colour: Bool) -> [String] {
    let columns = max(20, columns)
    var header = [
      fit(title + " · " + StopCommandSupport.clockSeconds(now, zone: zone, twelveHour: twelveHour) + " · " + realtimeText(), columns)
    ]
    header.append("")
    var trailer: [String] = []
    if !notices.isEmpty { trailer.append("") }
    trailer += notices.map { fit($0, columns) }
    let marginNotes = BoardSupport.marginNotes(board)
    if !marginNotes.isEmpty { trailer.append("") }
    trailer += marginNotes.map { fit($0, columns) }
    if let footer { trailer += ["", fit(footer, columns)] }

    // The rows (cells by column), with a group heading before each group.
    enum Line {
      case heading(String)
      case row([Column: String], BoardChanges.Key)
      case blank
    }
    var lines: [Line] = []
    let table = BoardTable(board: board, now: now, twelveHour: twelveHour)
    func cells(_ row: Board.Row) -> [Column: String] { table.frameCells(row) }
    if let groups {
      for (index, group) in groups.enumerated() {
        if index > 0 { lines.append(.blank) }
        lines.append(.heading("\(group.route.shown) → \(group.headsign.shown)"))
        for row in group.rows { lines.append(.row(cells(row), row.key)) }
      }
    } else {
      for row in board.rows { lines.append(.row(cells(row), row.key)) }
    }
    let room = max(1, rows - header.count - trailer.count)
    if lines.count > room { lines = Array(lines.prefix(room)) }
    if lines.isEmpty {
      // The reason on lines of its own where it would not fit ("...; refresh it with ...").
      var message = ["no departures in the window"]
      if let emptyReason {
        let whole = "no departures: " + emptyReason
        message = whole.count <= columns ? [whole] : whole.components(separatedBy: "; ").enumerated().map { $0 == 0 ? $1 + ";" : $1 }
      }
      return header + message.map { fit($0, columns) } + trailer
    }

    // Widths, then columns dropped in their fixed order until the row fits.
    var widths: [Column: Int] = [:]
    for case .row(let cells, _) in lines {
      for (column, text) in cells where !text.isEmpty { widths[column] = max(widths[column] ?? 0, text.count) }
    }
    var shown = Column.allCases.filter { widths[$0] != nil }
    func total(headsign: Int) -> Int {
      2 + shown.map { $0 == .headsign ? headsign : widths[$0]! }.reduce(0, +) + 2 * (shown.count - 1)
    }
    let naturalHeadsign = widths[.headsign] ?? 0
    for column in Column.dropOrder where total(headsign: min(naturalHeadsign, Self.wantedHeadsign)) > columns {
      shown.removeAll { $0 == column }
    }
    if shown.contains(.headsign) {
      widths[.headsign] = max(4, min(naturalHeadsign, columns - total(headsign: 0)))
    }
    let rightAligned: Set<Column> = [.countdown]
    var body: [String] = []
    for line in lines {
      switch line {
      case .blank: body.append("")
      case .heading(let text): body.append(fit(text, columns))
      case .row(let cells, let key):
        let marked = highlighted.contains(key)
        var text = marked ? "* " : "  "
        for (index, column) in shown.enumerated() {
          let width = widths[column]!
          var cell = cells[column] ?? ""
          if cell.count > width { cell = String(cell.prefix(max(0, width - 1))) + "…" }
          let pad = String(repeating: " ", count: width - cell.count)
          text += rightAligned.contains(column) ? pad + cell : cell + (index == shown.count - 1 ? "" : pad)
          if index < shown.count - 1 { text += "  " }
        }
        while text.last == " " { text.removeLast() }
        text = fit(text, columns)
        body.append(marked && colour ? "\u{1B}[7m" + text + "\u{1B}[0m" : text)
      }
    }
    return header + body + trailer
  }

  /// "live, feed 30 s old", "stale, feed 3 min old", "timetable only".
  func realtimeText() -> String { Self.realtimeText(freshness, now: now) }

  /// `realtimeText()` for `freshness` (nil: no realtime) at `now`.
  static func realtimeText(_ freshness: RealtimeFreshness?, now: UnixTime) -> String {
    guard let freshness else { return "timetable only" }
    let age = freshness.feedTimestamp.map { now - $0 }.map { "feed \(FeedsSupport.ageText(max(0, $0))) old" }
    switch freshness.status {
    case .fresh: return "live, " + (age ?? "feed time unknown")
    case .stale: return "stale, " + (age ?? "feed time unknown")
    case .expired: return "realtime not used, " + (age ?? "feed time unknown")
    case .unknown: return "live, feed time unknown"
    case .none: return "timetable only"
    }
  }

  /// `text` cut to `columns` characters.
  func fit(_ text: String, _ columns: Int) -> String {
    text.count > columns ? String(text.prefix(max(0, columns - 1))) + "…" : text
  }
}

extension StopCommandSupport {
  /// "07:40:05" (or "7:40:05 AM").
  static func clockSeconds(_ time: UnixTime, zone: LocalZone, twelveHour: Bool) -> String {
    let iso = ISOTime.format(time, zone: zone)
    let seconds = String(iso.dropFirst(17).prefix(2))
    let minutes = clock(time, zone: zone, twelveHour: twelveHour)
    guard twelveHour else { return minutes + ":" + seconds }
    let parts = minutes.split(separator: " ")
    return parts.count == 2 ? "\(parts[0]):\(seconds) \(parts[1])" : minutes
  }
}
