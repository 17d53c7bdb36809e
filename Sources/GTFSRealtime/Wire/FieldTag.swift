/// How a field's value is laid out on the wire (protobuf encoding, "Message Structure").
///
/// Only the four wire types protobuf still uses can be represented; groups (3, 4) and the
/// undefined 6 and 7 are rejected when the tag is read.
public enum WireType: UInt8, Sendable, CustomStringConvertible {
  /// int32, int64, uint32, uint64, bool, enum: a base-128 varint.
  case varint = 0
  /// fixed64, sfixed64, double: 8 bytes, little-endian.
  case fixed64 = 1
  /// string, bytes, embedded messages, packed repeated fields: a varint length, then the bytes.
  case lengthDelimited = 2
  /// fixed32, sfixed32, float: 4 bytes, little-endian.
  case fixed32 = 5

  /// `0 (varint)`.
  public var description: String {
    switch self {
    case .varint: "0 (varint)"
    case .fixed64: "1 (64-bit)"
    case .lengthDelimited: "2 (length-delimited)"
    case .fixed32: "5 (32-bit)"
    }
  }
}

/// A field's key: its number and wire type, valid by construction.
///
/// As in swift-protobuf's `FieldTag`, a tag with field number 0, a number above 2^29 - 1, or
/// wire type 3, 4, 6 or 7 cannot be made, so decoders never check for them.
package struct FieldTag: Equatable, Sendable {
  /// The field number, 1 ... 536,870,911.
  package let number: UInt32
  /// How the value is encoded.
  package let wireType: WireType
  /// Where the tag starts in the input, for error messages.
  package let offset: Int

  /// The largest field number protobuf allows (2^29 - 1).
  package static let maxNumber: UInt32 = (1 << 29) - 1

  /// A tag its maker knows to be valid (a key it matched against a field of its own).
  @inline(__always)
  init(number: UInt32, wireType: WireType, offset: Int) {
    self.number = number
    self.wireType = wireType
    self.offset = offset
  }

  /// Splits a raw key read at `offset`.
  /// - Throws: `invalidFieldNumber` (0 or too large), `groupsNotSupported` (wire types 3 and 4)
  ///   or `invalidWireType` (6 and 7).
  @inline(__always)
  package init(rawValue: UInt64, offset: Int) throws(WireError) {
    let number = rawValue >> 3
    guard number != 0, number <= UInt64(FieldTag.maxNumber) else {
      throw .invalidFieldNumber(number, offset: offset)
    }
    let raw = UInt8(truncatingIfNeeded: rawValue & 7)
    guard let wireType = WireType(rawValue: raw) else {
      if raw == 3 || raw == 4 { throw .groupsNotSupported(field: UInt32(number), offset: offset) }
      throw .invalidWireType(raw, field: UInt32(number), offset: offset)
    }
    self.number = UInt32(number)
    self.wireType = wireType
    self.offset = offset
  }
}
