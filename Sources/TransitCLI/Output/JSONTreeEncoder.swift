/// An answer's `Encodable` form as `JSON`, its members in the order its `encode(to:)` writes
/// them: the documented shapes list their keys in an order, which Foundation's `JSONEncoder`
/// does not promise (and it spaces its colons otherwise). The one encoder every `--json`
/// answer goes through.
enum JSONTreeEncoder {
  /// `value` as a JSON value. The containers here never throw, and no answer's `encode(to:)`
  /// does on its own: an error is a programmer's mistake.
  static func encode(_ value: some Encodable) -> JSON {
    let node = Node()
    do {
      try value.encode(to: TreeEncoder(node: node, codingPath: []))
    } catch {
      preconditionFailure("encoding \(type(of: value)) threw \(error)")
    }
    return node.json
  }

  /// `value` as pretty JSON text, the form every command prints.
  static func text(_ value: some Encodable) -> String {
    encode(value).serialized(pretty: true)
  }
}

/// One value being built: a scalar, an object (members in order) or an array.
private final class Node {
  var scalar: JSON?
  var members: [(String, Node)]?
  var items: [Node]?

  var json: JSON {
    if let members { return .object(members.map { ($0.0, $0.1.json) }) }
    if let items { return .array(items.map(\.json)) }
    return scalar ?? .null
  }

  /// The member `key` (a key written twice keeps its first place and its last value).
  func member(_ key: String) -> Node {
    if members == nil { members = [] }
    if let existing = members!.first(where: { $0.0 == key }) { return existing.1 }
    let node = Node()
    members!.append((key, node))
    return node
  }

  func item() -> Node {
    if items == nil { items = [] }
    let node = Node()
    items!.append(node)
    return node
  }

  func set(_ value: some Encodable) throws {
    switch value {
    case let value as Bool: scalar = .bool(value)
    case let value as String: scalar = .string(value)
    case let value as Double: scalar = .double(value)
    case let value as Float: scalar = .double(Double(value))
    case let value as Int: scalar = .int(Int64(value))
    case let value as Int64: scalar = .int(value)
    case let value as Int32: scalar = .int(Int64(value))
    case let value as UInt32: scalar = .int(Int64(value))
    case let value as UInt64: scalar = .int(Int64(clamping: value))
    default: try value.encode(to: TreeEncoder(node: self, codingPath: []))
    }
  }
}

private struct TreeEncoder: Encoder {
  let node: Node
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if node.members == nil { node.members = [] }
    return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if node.items == nil { node.items = [] }
    return Unkeyed(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).scalar = .null }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try node.member(key.stringValue).set(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  )
    -> KeyedEncodingContainer<NestedKey>
  {
    TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.member("super"), codingPath: codingPath) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct Unkeyed: UnkeyedEncodingContainer {
  let node: Node
  var codingPath: [any CodingKey]
  var count: Int { node.items?.count ?? 0 }

  mutating func encodeNil() throws { node.item().scalar = .null }
  mutating func encode<T: Encodable>(_ value: T) throws { try node.item().set(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    TreeEncoder(node: node.item(), codingPath: codingPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    TreeEncoder(node: node.item(), codingPath: codingPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.item(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
  let node: Node
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.scalar = .null }
  mutating func encode<T: Encodable>(_ value: T) throws { try node.set(value) }
}
