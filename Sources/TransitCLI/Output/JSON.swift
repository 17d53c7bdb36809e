/// A JSON value, built by commands and written in one place so every `--json` output is valid
/// and escaped the same way.
public enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSON])
  /// Keys keep the order they were given in (stable, readable output).
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    lhs.serialized() == rhs.serialized()
  }

  /// An integer value.
  public static func number(_ value: some BinaryInteger) -> JSON { .int(Int64(value)) }

  /// `value` as a string, or null.
  public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

  /// `value` as a number, or null.
  public static func optional(_ value: (some BinaryInteger)?) -> JSON { value.map { .int(Int64($0)) } ?? .null }

  /// `value` as a number, or null.
  public static func optional(_ value: Double?) -> JSON { value.map(JSON.double) ?? .null }

  /// Compact JSON text (no spaces), or indented with two spaces when `pretty`.
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  private func write(to out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value):
      if value.isFinite {
        if value == value.rounded(), abs(value) < 1e15 {
          out += String(Int64(value))
        } else {
          out += "\(value)"
        }
      } else {
        out += "null"  // JSON has no NaN or infinity
      }
    case .string(let value): JSON.escape(value, into: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (offset, item) in items.enumerated() {
        if offset > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
        item.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { out += "\n" + String(repeating: "  ", count: indent) }
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (offset, (key, value)) in members.enumerated() {
        if offset > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
        JSON.escape(key, into: &out)
        out += pretty ? ": " : ":"
        value.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { out += "\n" + String(repeating: "  ", count: indent) }
      out += "}"
    }
  }

  /// Writes `text` as a JSON string literal (RFC 8259: quote, backslash and controls escaped).
  static func escape(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
