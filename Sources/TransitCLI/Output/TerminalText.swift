/// Makes text safe for a terminal: feed text (stop names, headsigns, route and agency names,
/// alert texts, vehicle labels, ids) reaches the output through `OutputSink` and the full-screen
/// view, and a feed may hold control characters that retitle the window, clear the screen or
/// move the cursor. Text output passes through here once, at the stream; JSON escapes controls
/// itself and is left alone.
///
/// Removed: C0 controls but tab and newline (and a carriage return before a newline), DEL, C1
/// controls (U+0080 to U+009F), and whole escape sequences (CSI `ESC [ ... final`, OSC
/// `ESC ] ... BEL|ST`, DCS/SOS/PM/APC strings, two-byte `ESC x`). Kept when asked: colour (SGR,
/// `ESC [ digits ; ... m`) when colour is on, and erase-line (`ESC [ 2K`) for progress bars.
/// Also removed: the bidirectional embedding, override and isolate controls (U+202A to U+202E,
/// U+2066 to U+2069) and marks (U+200E, U+200F, U+061C), with which a name could reverse the
/// text after it on the line, and the line and paragraph separators (U+2028, U+2029).
///
/// The stream cannot tell a feed's newline from ours, so every feed or user string a text
/// renderer writes (stop, route, agency and place names, headsigns, alert texts, labels, ids)
/// goes through `singleLine` first: one line, no control, no escape sequence, whatever the
/// stream later allows (colour on a colour terminal is ours only).
enum TerminalText {
  /// What may stay.
  struct Allowance: Equatable, Sendable {
    /// Colour sequences (`ESC [ 1;31 m`): our own styling, when colour is on.
    var colour = false
    /// Erase-in-line (`ESC [ K`, `ESC [ 2K`) and a carriage return before one: progress bars.
    var lineErase = false
  }

  /// `text` with every control character and escape sequence not allowed removed.
  static func sanitize(_ text: String, allowing allowance: Allowance = Allowance()) -> String {
    guard needsWork(text) else { return text }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    let n = bytes.count
    while i < n {
      let byte = bytes[i]
      if byte == 0x1B {  // ESC
        i = escape(bytes, from: i + 1, into: &out, allowance: allowance)
        continue
      }
      if byte == 0xC2, i + 1 < n, (0x80...0x9F).contains(bytes[i + 1]) {  // a C1 control, U+0080-U+009F
        let c1 = bytes[i + 1]
        i += 2
        switch c1 {
        case 0x9B: i = controlSequence(bytes, from: i, into: &out, allowance: allowance, start: [0xC2, 0x9B])
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: i = skipString(bytes, from: i)
        default: break
        }
        continue
      }
      if byte == 0xE2, isBidiControl(bytes, at: i) {
        i += 3
        continue
      }
      if byte == 0xD8, i + 1 < n, bytes[i + 1] == 0x9C {  // U+061C, the Arabic letter mark
        i += 2
        continue
      }
      if byte < 0x20 || byte == 0x7F {
        let keep =
          byte == 0x0A || byte == 0x09
          || (byte == 0x0D && i + 1 < n && bytes[i + 1] == 0x0A)
          || (byte == 0x0D && allowance.lineErase && i + 2 < n && bytes[i + 1] == 0x1B && bytes[i + 2] == UInt8(ascii: "["))
        if keep { out.append(byte) }
        i += 1
        continue
      }
      out.append(byte)
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `text` holds anything `sanitize` might remove (most text does not: one quick pass).
  private static func needsWork(_ text: String) -> Bool {
    var previous: UInt8 = 0, beforePrevious: UInt8 = 0
    for byte in text.utf8 {
      if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F { return true }
      if previous == 0xC2 && (0x80...0x9F).contains(byte) { return true }
      if beforePrevious == 0xE2, isBidiControl(previous, byte) { return true }
      if previous == 0xD8 && byte == 0x9C { return true }
      beforePrevious = previous
      previous = byte
    }
    return false
  }

  /// Whether the UTF-8 bytes at `index` (an 0xE2 lead byte) are U+200E, U+200F, U+202A-U+202E
  /// or U+2066-U+2069, or the line and paragraph separators U+2028 and U+2029.
  private static func isBidiControl(_ bytes: [UInt8], at index: Int) -> Bool {
    index + 2 < bytes.count && isBidiControl(bytes[index + 1], bytes[index + 2])
  }

  /// Whether the continuation bytes after 0xE2 make a bidi control.
  private static func isBidiControl(_ second: UInt8, _ third: UInt8) -> Bool {
    (second == 0x80 && ((0xAA...0xAE).contains(third) || third == 0x8E || third == 0x8F || third == 0xA8 || third == 0xA9))
      || (second == 0x81 && (0xA6...0xA9).contains(third))
  }

  /// A feed's or the user's string as text output writes it, on one line: line and paragraph
  /// breaks, carriage returns and tabs become one space (a newline inside a feed's CSV field
  /// would break a row in two, or forge a line), then every other control character, escape
  /// sequence and bidi control goes (`sanitize` allowing nothing: a feed's colour sequence does
  /// not pass even where ours do). JSON output takes the string as it is.
  static func singleLine(_ text: String) -> String {
    sanitize(foldingBreaks(text))
  }

  /// `text` with each run of line and paragraph breaks and tabs as one space (none after a
  /// space). A table cell goes through this alone: it may hold our own colour.
  static func foldingBreaks(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isBreak($0) }) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isBreak(scalar) {
        if scalars.last != " " { scalars.append(" ") }
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  private static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
  }

  /// After an ESC at `from - 1`: the sequence it starts, kept or dropped; returns where the text
  /// resumes.
  private static func escape(_ bytes: [UInt8], from start: Int, into out: inout [UInt8], allowance: Allowance) -> Int {
    guard start < bytes.count else { return start }
    switch bytes[start] {
    case UInt8(ascii: "["):
      return controlSequence(bytes, from: start + 1, into: &out, allowance: allowance, start: [0x1B, UInt8(ascii: "[")])
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
      return skipString(bytes, from: start + 1)
    case 0x20...0x7E:
      return start + 1  // a two-byte sequence (ESC c resets the terminal)
    default:
      return start  // a lone ESC: dropped, the next byte is looked at on its own
    }
  }

  /// A control sequence's parameters, intermediates and final byte from `from`; kept (with
  /// `start` before it) only when allowed.
  private static func controlSequence(
    _ bytes: [UInt8], from: Int, into out: inout [UInt8], allowance: Allowance, start: [UInt8]
  ) -> Int {
    var i = from
    while i < bytes.count, (0x20...0x3F).contains(bytes[i]) { i += 1 }
    guard i < bytes.count, (0x40...0x7E).contains(bytes[i]) else { return i }  // unfinished: dropped
    let final = bytes[i]
    let parameters = bytes[from..<i]
    let isNumeric = parameters.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ";") }
    let keep =
      start == [0x1B, UInt8(ascii: "[")] && isNumeric
      && ((final == UInt8(ascii: "m") && allowance.colour) || (final == UInt8(ascii: "K") && allowance.lineErase))
    if keep { out += start + parameters + [final] }
    return i + 1
  }

  /// Skips an OSC, DCS, SOS, PM or APC string up to its terminator (BEL, ESC \, or ST).
  private static func skipString(_ bytes: [UInt8], from: Int) -> Int {
    var i = from
    while i < bytes.count {
      if bytes[i] == 0x07 { return i + 1 }
      if bytes[i] == 0x1B { return i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\\") ? i + 2 : i + 1 }
      if bytes[i] == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0x9C { return i + 2 }
      i += 1
    }
    return i
  }
}

extension String {
  /// The string as text output shows a feed's or the user's string: `TerminalText.singleLine`.
  var shown: String { TerminalText.singleLine(self) }
}
