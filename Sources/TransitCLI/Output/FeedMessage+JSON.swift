// `rt dump --json`: the FeedMessage in protobuf's JSON mapping, but keyed by the .proto's own
// field names (DESIGN.md, "JSON shapes"). Enums by name (unrecognized ones as their number),
// 64-bit integers as numbers, unset fields, unknown fields and extensions left out.
//
// The fields come from each message's generated `traverse(visitor:)` (Scripts/generate-rt-fields),
// in the .proto's declaration order: this file only says how each kind of value is written.

import GTFSRealtime

extension ProtoMessage {
  /// This message in protobuf's JSON mapping, keyed by the .proto's field names; unset fields
  /// and empty repeated fields are left out.
  package var json: JSON {
    var visitor = JSONFieldVisitor()
    traverse(visitor: &visitor)
    return .object(visitor.members)
  }
}

/// Collects a message's set fields as JSON object members.
struct JSONFieldVisitor: FieldVisitor {
  var members: [(String, JSON)] = []

  mutating func visitSigned(_ value: Int64, number: Int, name: StaticString) {
    members.append(("\(name)", .int(value)))
  }

  mutating func visitUnsigned(_ value: UInt64, number: Int, name: StaticString) {
    members.append(("\(name)", .unsigned(value)))
  }

  mutating func visitBool(_ value: Bool, number: Int, name: StaticString) {
    members.append(("\(name)", .bool(value)))
  }

  mutating func visitFloat(_ value: Float, number: Int, name: StaticString) {
    members.append(("\(name)", .protoFloat(value)))
  }

  mutating func visitDouble(_ value: Double, number: Int, name: StaticString) {
    members.append(("\(name)", .protoDouble(value)))
  }

  mutating func visitString(_ value: String, number: Int, name: StaticString) {
    members.append(("\(name)", .string(value)))
  }

  mutating func visitEnum<E: ProtoEnum>(_ value: E, number: Int, name: StaticString) {
    members.append(("\(name)", .protoEnum(value)))
  }

  mutating func visitMessage<M: ProtoMessage>(_ value: M, number: Int, name: StaticString) {
    members.append(("\(name)", value.json))
  }

  mutating func visitRepeatedString(_ values: [String], number: Int, name: StaticString) {
    members.append(("\(name)", .array(values.map(JSON.string))))
  }

  mutating func visitRepeatedMessage<M: ProtoMessage>(
    _ values: [M], number: Int, name: StaticString
  ) {
    members.append(("\(name)", .array(values.map(\.json))))
  }
}

// MARK: - Protobuf JSON mapping of scalars

extension JSON {
  /// An enum by its .proto name; one the proto does not define, by its number.
  static func protoEnum(_ value: some ProtoEnum) -> JSON {
    value.protoName.map(JSON.string) ?? .int(Int64(value.rawValue))
  }

  /// A uint64 as a JSON number. `JSON` holds Int64, so a value above Int64.max (never a real
  /// timestamp) is written as a double, rounded.
  static func unsigned(_ value: UInt64) -> JSON {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
  }

  /// A float as the shortest decimal that reads back as the same float (47.6062, not
  /// 47.60620117…), as protobuf's JSON printers do; NaN and infinities as the strings
  /// protobuf's JSON mapping uses.
  static func protoFloat(_ value: Float) -> JSON {
    guard value.isFinite else { return nonFinite(Double(value)) }
    return .double(Double(value.description) ?? Double(value))
  }

  /// A double; NaN and infinities as protobuf's JSON strings.
  static func protoDouble(_ value: Double) -> JSON {
    value.isFinite ? .double(value) : nonFinite(value)
  }

  private static func nonFinite(_ value: Double) -> JSON {
    .string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
  }
}
