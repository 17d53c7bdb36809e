import GTFSRealtime

/// Writes protobuf wire format, for tests: the inverse of `WireReader`, plus raw pieces
/// (`tag`, `varint`, `bytes`) to build malformed input byte by byte.
///
/// ```swift
/// var writer = WireWriter()
/// writer.writeString(1, "2.0")
/// writer.writeUInt64(3, 1_699_405_534)
/// let header = try FeedHeader(decoding: writer.bytes)
/// ```
package struct WireWriter {
  /// What has been written so far.
  package var bytes: [UInt8] = []

  package init() {}

  // MARK: - Raw pieces

  /// A base-128 varint.
  package mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// A field key: `number << 3 | wireType`.
  package mutating func tag(_ number: UInt32, _ wireType: WireType) {
    varint(UInt64(number) << 3 | UInt64(wireType.rawValue))
  }

  /// A field key with any wire type, even the invalid ones (3, 4, 6, 7).
  package mutating func tag(_ number: UInt64, rawWireType: UInt8) {
    varint(number << 3 | UInt64(rawWireType))
  }

  /// 4 bytes, little-endian.
  package mutating func fixed32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  /// 8 bytes, little-endian.
  package mutating func fixed64(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  /// Raw bytes, as they are.
  package mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

  // MARK: - Fields

  /// An `int32` field: negative values are sign-extended to 10 bytes, as protobuf requires.
  package mutating func writeInt32(_ number: UInt32, _ value: Int32) {
    tag(number, .varint)
    varint(UInt64(bitPattern: Int64(value)))
  }

  /// An `int64` field.
  package mutating func writeInt64(_ number: UInt32, _ value: Int64) {
    tag(number, .varint)
    varint(UInt64(bitPattern: value))
  }

  /// A `uint32` field.
  package mutating func writeUInt32(_ number: UInt32, _ value: UInt32) {
    tag(number, .varint)
    varint(UInt64(value))
  }

  /// A `uint64` field.
  package mutating func writeUInt64(_ number: UInt32, _ value: UInt64) {
    tag(number, .varint)
    varint(value)
  }

  /// A `bool` field.
  package mutating func writeBool(_ number: UInt32, _ value: Bool) {
    tag(number, .varint)
    varint(value ? 1 : 0)
  }

  /// A `float` field.
  package mutating func writeFloat(_ number: UInt32, _ value: Float) {
    tag(number, .fixed32)
    fixed32(value.bitPattern)
  }

  /// A `double` field.
  package mutating func writeDouble(_ number: UInt32, _ value: Double) {
    tag(number, .fixed64)
    fixed64(value.bitPattern)
  }

  /// A length-delimited field holding `raw`.
  package mutating func writeBytes(_ number: UInt32, _ raw: [UInt8]) {
    tag(number, .lengthDelimited)
    varint(UInt64(raw.count))
    bytes.append(contentsOf: raw)
  }

  /// A `string` field.
  package mutating func writeString(_ number: UInt32, _ value: String) {
    writeBytes(number, Array(value.utf8))
  }

  /// An embedded message field.
  package mutating func writeMessage(_ number: UInt32, _ message: some WireEncodable) {
    writeBytes(number, message.encoded())
  }

  /// An embedded message written by `body`.
  package mutating func writeMessage(_ number: UInt32, _ body: (inout WireWriter) -> Void) {
    var nested = WireWriter()
    body(&nested)
    writeBytes(number, nested.bytes)
  }
}

/// A message the test encoder can write (every message of gtfs-realtime.proto; see
/// FeedEncoder.swift).
package protocol WireEncodable {
  /// Writes the message's set fields, in field number order.
  func encode(to writer: inout WireWriter)
}

extension WireEncodable {
  /// The message serialized.
  package func encoded() -> [UInt8] {
    var writer = WireWriter()
    encode(to: &writer)
    return writer.bytes
  }
}
