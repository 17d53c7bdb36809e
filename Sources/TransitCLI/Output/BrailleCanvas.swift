/// A grid of terminal cells drawn with dots: 2 dots wide and 4 high per cell, shown as Unicode
/// braille (U+2800–U+28FF) or, where the terminal cannot show braille, one ASCII character per
/// cell chosen by the dots' shape. Text marks (a stop, `@`, a route number) sit on top.
///
/// Pure and deterministic: no terminal, no I/O.
struct BrailleCanvas {
  /// Size in cells.
  let columns: Int
  let rows: Int
  /// Each cell's dots as a braille bit mask (bit 0 is dot 1, the top left).
  private var cells: [UInt8]
  /// Text drawn over the dots, by cell.
  private var marks: [Character?]

  /// An empty canvas of `columns` × `rows` cells.
  init(columns: Int, rows: Int) {
    precondition(columns > 0 && rows > 0, "a canvas needs at least one cell")
    self.columns = columns
    self.rows = rows
    cells = [UInt8](repeating: 0, count: columns * rows)
    marks = [Character?](repeating: nil, count: columns * rows)
  }

  /// Size in dots.
  var dotColumns: Int { columns * 2 }
  var dotRows: Int { rows * 4 }

  /// The braille bit of the dot at (`x`, `y`) within its cell (Unicode's dot numbering:
  /// 1 2 3 7 down the left column, 4 5 6 8 down the right).
  static func bit(x: Int, y: Int) -> UInt8 {
    let left: [UInt8] = [0x01, 0x02, 0x04, 0x40]
    let right: [UInt8] = [0x08, 0x10, 0x20, 0x80]
    return x == 0 ? left[y] : right[y]
  }

  /// Sets the dot at (`x`, `y`), counted from the top left; dots off the canvas are ignored.
  mutating func set(x: Int, y: Int) {
    guard x >= 0, y >= 0, x < dotColumns, y < dotRows else { return }
    cells[(y / 4) * columns + x / 2] |= Self.bit(x: x % 2, y: y % 4)
  }

  /// Whether the dot at (`x`, `y`) is set.
  func isSet(x: Int, y: Int) -> Bool {
    guard x >= 0, y >= 0, x < dotColumns, y < dotRows else { return false }
    return cells[(y / 4) * columns + x / 2] & Self.bit(x: x % 2, y: y % 4) != 0
  }

  /// Draws a straight line of dots from one point to another, both included (Bresenham).
  mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int)) {
    // Far off-canvas ends (a point far outside the map) would only cost time: clamp them.
    let limit = 4 * (dotColumns + dotRows)
    var x = min(max(start.x, -limit), limit), y = min(max(start.y, -limit), limit)
    let x1 = min(max(end.x, -limit), limit), y1 = min(max(end.y, -limit), limit)
    let dx = abs(x1 - x), dy = -abs(y1 - y)
    let sx = x < x1 ? 1 : -1, sy = y < y1 ? 1 : -1
    var error = dx + dy
    while true {
      set(x: x, y: y)
      if x == x1 && y == y1 { return }
      let twice = 2 * error
      if twice >= dy {
        error += dy
        x += sx
      }
      if twice <= dx {
        error += dx
        y += sy
      }
    }
  }

  /// Writes `text` from cell (`column`, `row`) rightwards over the dots; shifted left to stay
  /// on the canvas, clipped when longer than a row.
  mutating func write(_ text: String, column: Int, row: Int) {
    guard row >= 0, row < rows, !text.isEmpty else { return }
    let characters = Array(text.prefix(columns))
    var start = min(max(0, column), columns - characters.count)
    start = max(0, start)
    for (offset, character) in characters.enumerated() { marks[row * columns + start + offset] = character }
  }

  /// The mark written at a cell, if any.
  func mark(column: Int, row: Int) -> Character? { marks[row * columns + column] }

  /// The canvas as `rows` lines of `columns` characters each: braille, or ASCII when `ascii`.
  func lines(ascii: Bool) -> [String] {
    (0..<rows).map { row in
      var line = ""
      for column in 0..<columns {
        let index = row * columns + column
        if let mark = marks[index] {
          line.append(mark)
        } else if ascii {
          line.append(Self.asciiCharacter(cells[index]))
        } else {
          line.append(cells[index] == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32(cells[index]))!))
        }
      }
      return line
    }
  }

  /// The ASCII character nearest a cell's dots: `-` flat, `|` upright, `/` and `\` slanted,
  /// `.` a lone dot, `+` anything else.
  static func asciiCharacter(_ mask: UInt8) -> Character {
    guard mask != 0 else { return " " }
    var left: [Int] = [], right: [Int] = []
    for y in 0..<4 {
      if mask & bit(x: 0, y: y) != 0 { left.append(y) }
      if mask & bit(x: 1, y: y) != 0 { right.append(y) }
    }
    let all = left + right
    let span = all.max()! - all.min()!
    if left.isEmpty || right.isEmpty { return span == 0 ? "." : "|" }
    if span <= 1 { return "-" }
    if left.max()! < right.min()! { return "\\" }
    if left.min()! > right.max()! { return "/" }
    return left.count + right.count >= 6 ? "|" : "+"
  }
}
