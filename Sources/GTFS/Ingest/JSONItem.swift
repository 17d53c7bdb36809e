import FoundationEssentials

/// Any JSON value, decoded (what `JSONSerialization.jsonObject` gave, without Foundation's
/// `NSNumber`): the stop lists read by `StopsJSON` hold ids as strings or numbers.
enum JSONItem: Decodable, Equatable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONItem])
  case object([String: JSONItem])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let list = try? container.decode([JSONItem].self) {
      self = .array(list)
    } else {
      self = .object(try container.decode([String: JSONItem].self))
    }
  }

  /// A number as `NSNumber.stringValue` wrote it: integers without a decimal point (`8011`),
  /// others in Swift's shortest form (`53.35`).
  static func text(of number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    return String(number)
  }

  /// How the value reads in a message: strings as they are, numbers as `text(of:)`.
  var description: String {
    switch self {
    case .null: return "<null>"
    case .bool(let flag): return flag ? "1" : "0"
    case .number(let number): return Self.text(of: number)
    case .string(let text): return text
    case .array: return "(list)"
    case .object: return "(object)"
    }
  }
}
