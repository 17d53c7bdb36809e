/// Small text helpers shared by the commands' human output.
enum Format {
  /// 1234567 as "1,234,567".
  static func thousands(_ value: Int) -> String {
    let digits = String(abs(value))
    var result = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return value < 0 ? "-" + result : result
  }

  /// A length of time as every command writes it: "45 s" (under 90 s), "5 min", "2 h",
  /// "1 h 5 min" (under two days), "3 days". Its sign is ignored.
  static func duration(seconds: Int64) -> String {
    let s = seconds == .min ? Int64.max : abs(seconds)
    return s < 90 ? "\(s) s" : duration(minutes: s / 60)
  }

  /// `duration(seconds:)` to the minute: "0 min", "5 min", "1 h 5 min", "3 days".
  static func duration(minutes: Int64) -> String {
    let m = minutes == .min ? Int64.max : abs(minutes)
    if m < 60 { return "\(m) min" }
    if m < 2 * 24 * 60 { return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min" }
    return "\(m / (24 * 60)) days"
  }

  /// A duration in seconds with sensible precision: "0.42 s", "12.3 s", "2 min 5 s".
  static func seconds(_ value: Double) -> String {
    if value < 10 { return String(format2(value)) + " s" }
    if value < 120 { return String(Double(Int(value * 10)) / 10) + " s" }
    return "\(Int(value) / 60) min \(Int(value) % 60) s"
  }

  static func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// Pads `text` to `width` characters (on the right unless `leading`).
  static func pad(_ text: String, _ width: Int, leading: Bool = false) -> String {
    let count = RiderMarks.width(text)
    guard count < width else { return text }
    let padding = String(repeating: " ", count: width - count)
    return leading ? padding + text : text + padding
  }

  /// Rows aligned in columns separated by two spaces; `rightAligned` columns are numbers.
  /// A cell is one line: breaks inside it become spaces (`TerminalText.foldingBreaks`; the
  /// feed's and user's strings in it are `shown` before, since a cell may hold our colour).
  static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
    let rows = rows.map { $0.map(TerminalText.foldingBreaks) }
    guard let columns = rows.map(\.count).max() else { return "" }
    var widths = [Int](repeating: 0, count: columns)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], RiderMarks.width(cell)) } }
    return rows.map { row in
      row.enumerated().map { index, cell in
        index == row.count - 1 && !rightAligned.contains(index) ? cell : pad(cell, widths[index], leading: rightAligned.contains(index))
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// The lines of `text`: a last newline ends the last line and starts no other.
  static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.count > 1 && lines.last == "" { lines.removeLast() }
    return lines
  }
}
