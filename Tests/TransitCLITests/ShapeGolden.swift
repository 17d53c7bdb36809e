import Testing

/// What the shape tests (issue 33: one golden object per answer type) share: a JSON document
/// read as written (members in order, numbers as their text), and a comparison with a golden
/// value worked out by hand.
///
/// A golden value is `nil` (JSON null), a `String`, a `Bool`, an `Int` (an integer written as
/// such), a `Double` (any number of that value), an `[Any?]` (the same count, each element
/// compared) or a `[String: Any?]` (exactly these members, each compared).
enum ShapeGolden {
  /// A JSON value as written.
  indirect enum Node: CustomStringConvertible {
    case object([(String, Node)])
    case array([Node])
    case string(String)
    /// A number, true, false or null, as its text.
    case literal(String)

    var description: String {
      switch self {
      case .object(let members): "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
      case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
      case .string(let text): "\"\(text)\""
      case .literal(let text): text
      }
    }

    /// The member names of an object, in order (none for anything else).
    var keys: [String] {
      guard case .object(let members) = self else { return [] }
      return members.map(\.0)
    }

    /// The member `key` of an object.
    subscript(key: String) -> Node? {
      guard case .object(let members) = self else { return nil }
      return members.first { $0.0 == key }?.1
    }

    /// The element `index` of an array.
    subscript(index: Int) -> Node? {
      guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
      return elements[index]
    }

    /// An array's elements (none for anything else).
    var elements: [Node] {
      guard case .array(let elements) = self else { return [] }
      return elements
    }

    /// A string's text.
    var text: String? {
      guard case .string(let text) = self else { return nil }
      return text
    }
  }

  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  /// The value at `path` (member names and array indexes) of the JSON `text`.
  static func node(_ text: String, _ path: [Any] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> Node {
    var reader = Reader(scalars: Array(text.unicodeScalars))
    var node = try reader.value()
    reader.skipSpace()
    guard reader.index == reader.scalars.count else { throw Malformed(description: "text after the value: \(text)") }
    for step in path {
      if let key = step as? String { node = try #require(node[key], "no \(key) in \(node)", sourceLocation: sourceLocation) }
      if let index = step as? Int { node = try #require(node[index], "no [\(index)] in \(node)", sourceLocation: sourceLocation) }
    }
    return node
  }

  /// Records an issue for each part of `actual` that differs from `golden`, named by `path`.
  static func expect(_ actual: Node?, _ golden: Any?, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let actual else {
      Issue.record("\(path): missing", sourceLocation: sourceLocation)
      return
    }
    switch (golden, actual) {
    case (nil, .literal("null")): break
    case (let text as String, .string(let found)):
      #expect(found == text, "\(path): \"\(found)\", not \"\(text)\"", sourceLocation: sourceLocation)
    case (let flag as Bool, .literal(let found)):
      #expect(found == (flag ? "true" : "false"), "\(path): \(found), not \(flag)", sourceLocation: sourceLocation)
    case (let number as Int, .literal(let found)):
      #expect(found == String(number), "\(path): \(found), not \(number)", sourceLocation: sourceLocation)
    case (let number as Double, .literal(let found)):
      #expect(Double(found) == number, "\(path): \(found), not \(number)", sourceLocation: sourceLocation)
    case (let members as [String: Any?], .object):
      #expect(
        Set(actual.keys) == Set(members.keys), "\(path): members \(actual.keys.sorted()), not \(members.keys.sorted())",
        sourceLocation: sourceLocation)
      for (key, value) in members where actual[key] != nil {
        expect(actual[key], value, path + "." + key, sourceLocation: sourceLocation)
      }
    case (let elements as [Any?], .array(let found)):
      #expect(found.count == elements.count, "\(path): \(found.count) elements, not \(elements.count)", sourceLocation: sourceLocation)
      for (index, pair) in zip(found, elements).enumerated() {
        expect(pair.0, pair.1, path + "[\(index)]", sourceLocation: sourceLocation)
      }
    default:
      Issue.record("\(path): \(actual), not \(String(describing: golden))", sourceLocation: sourceLocation)
    }
  }

  /// Records an issue unless the `documented` members are all in `object`, in that order
  /// (others may come between them).
  static func expectOrder(_ object: Node, documented: [String], _ view: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let order = object.keys
    let positions = documented.map { order.firstIndex(of: $0) }
    #expect(positions.allSatisfy { $0 != nil }, "\(view): not every documented member in \(order)", sourceLocation: sourceLocation)
    let found = positions.compactMap { $0 }
    #expect(found == found.sorted(), "\(view): documented members out of order in \(order)", sourceLocation: sourceLocation)
  }

  /// A JSON reader that keeps what JSONSerialization loses: the members' order and how each
  /// number is written.
  private struct Reader {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func skipSpace() {
      while index < scalars.count, [" ", "\n", "\r", "\t"].contains(scalars[index]) { index += 1 }
    }

    mutating func next() throws -> Unicode.Scalar {
      guard index < scalars.count else { throw Malformed(description: "the text ends early") }
      index += 1
      return scalars[index - 1]
    }

    mutating func value() throws -> Node {
      skipSpace()
      guard index < scalars.count else { throw Malformed(description: "no value") }
      switch scalars[index] {
      case "{":
        index += 1
        var members: [(String, Node)] = []
        skipSpace()
        if index < scalars.count, scalars[index] == "}" {
          index += 1
          return .object(members)
        }
        while true {
          skipSpace()
          let key = try string()
          skipSpace()
          guard try next() == ":" else { throw Malformed(description: "no colon after \(key)") }
          members.append((key, try value()))
          skipSpace()
          switch try next() {
          case "}": return .object(members)
          case ",": continue
          default: throw Malformed(description: "no comma after \(key)")
          }
        }
      case "[":
        index += 1
        var elements: [Node] = []
        skipSpace()
        if index < scalars.count, scalars[index] == "]" {
          index += 1
          return .array(elements)
        }
        while true {
          elements.append(try value())
          skipSpace()
          switch try next() {
          case "]": return .array(elements)
          case ",": continue
          default: throw Malformed(description: "no comma in an array")
          }
        }
      case "\"":
        return .string(try string())
      default:
        var text = String.UnicodeScalarView()
        while index < scalars.count, !",}] \n\r\t".unicodeScalars.contains(scalars[index]) {
          text.append(scalars[index])
          index += 1
        }
        return .literal(String(text))
      }
    }

    mutating func string() throws -> String {
      guard try next() == "\"" else { throw Malformed(description: "no string") }
      var text = String.UnicodeScalarView()
      while true {
        let scalar = try next()
        switch scalar {
        case "\"": return String(text)
        case "\\":
          switch try next() {
          case "n": text.append("\n")
          case "t": text.append("\t")
          case "r": text.append("\r")
          case "b": text.append("\u{8}")
          case "f": text.append("\u{C}")
          case "u":
            var code: UInt32 = 0
            for _ in 0..<4 {
              guard let digit = UInt32(String(try next()), radix: 16) else { throw Malformed(description: "bad \\u") }
              code = code * 16 + digit
            }
            text.append(Unicode.Scalar(code) ?? "\u{FFFD}")
          case let other: text.append(other)
          }
        default: text.append(scalar)
        }
      }
    }
  }
}
