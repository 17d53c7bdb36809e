/// A message of gtfs-realtime.proto whose set fields can be walked, as swift-protobuf's
/// `Message.traverse(visitor:)` walks them: the one place output (`rt dump --json`) learns a
/// message's fields, generated with the decoder from the .proto (Scripts/generate-rt-fields).
package protocol ProtoMessage: WireMessage {
  /// The message's name in the .proto (`TripUpdate.StopTimeEvent`).
  static var protoName: StaticString { get }

  /// The message's fields, in the .proto's declaration order.
  static var fields: [ProtoField] { get }

  /// Hands each set field to `visitor`, in the .proto's declaration order; unset fields and
  /// empty repeated fields are left out.
  func traverse<V: FieldVisitor>(visitor: inout V)
}

/// What `ProtoMessage.traverse(visitor:)` hands the set fields of a message to: one method per
/// kind of value, each with the field's number and .proto name.
///
/// ```swift
/// struct FieldNames: FieldVisitor {
///   var names: [String] = []
///   mutating func visitString(_ value: String, number: Int, name: StaticString) {
///     names.append("\(name)")
///   }
///   // ...
/// }
/// ```
package protocol FieldVisitor {
  /// An `int32` or `int64` field.
  mutating func visitSigned(_ value: Int64, number: Int, name: StaticString)
  /// A `uint32` or `uint64` field.
  mutating func visitUnsigned(_ value: UInt64, number: Int, name: StaticString)
  /// A `bool` field.
  mutating func visitBool(_ value: Bool, number: Int, name: StaticString)
  /// A `float` field.
  mutating func visitFloat(_ value: Float, number: Int, name: StaticString)
  /// A `double` field.
  mutating func visitDouble(_ value: Double, number: Int, name: StaticString)
  /// A `string` field.
  mutating func visitString(_ value: String, number: Int, name: StaticString)
  /// An enum field.
  mutating func visitEnum<E: ProtoEnum>(_ value: E, number: Int, name: StaticString)
  /// A message field.
  mutating func visitMessage<M: ProtoMessage>(_ value: M, number: Int, name: StaticString)
  /// A repeated `string` field with at least one element.
  mutating func visitRepeatedString(_ values: [String], number: Int, name: StaticString)
  /// A repeated message field with at least one element.
  mutating func visitRepeatedMessage<M: ProtoMessage>(_ values: [M], number: Int, name: StaticString)
}

/// One row of a message's field table (`ProtoMessage.fields`), as gtfs-realtime.proto declares
/// the field.
package struct ProtoField: Sendable {
  /// How many values the field holds.
  package enum Label: Sendable {
    case required, optional, repeated
  }

  /// What kind of value the field holds.
  package enum Kind: Sendable {
    case scalar, enumeration, message
  }

  /// The field number.
  package let number: Int
  /// The .proto's name (`stop_time_update`).
  package let name: StaticString
  /// `required`, `optional` or `repeated`.
  package let label: Label
  /// A scalar (number, bool, string), an enum or a message.
  package let kind: Kind
}
