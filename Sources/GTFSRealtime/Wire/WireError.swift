/// Why a GTFS-Realtime message could not be decoded, and where: the field path from the outermost
/// message inward and the byte offset in the input.
///
/// ```
/// entity[5].trip_update.stop_time_update[3].arrival: length 812 runs past the end at byte 10244
/// ```
///
/// Decoders throw a bare reason; each enclosing field prepends its name on the way out (only on
/// the error path, so decoding a good feed pays nothing for it). Offsets count from the start of
/// the whole input, since every nested message is a range of the same bytes.
public struct WireError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong with the bytes.
  public enum Reason: Equatable, Sendable {
    /// The input ends inside the value (tag, varint, fixed-width number or packed element) that
    /// starts at `offset`.
    case truncated(offset: Int)
    /// The varint at `offset` is longer than 10 bytes or holds more than 64 bits.
    case malformedVarint(offset: Int)
    /// The length read at `offset` is longer than what is left of the input or of the
    /// enclosing message.
    case lengthPastEnd(length: UInt64, offset: Int)
    /// A field this decoder knows arrived with another wire type than the .proto gives it.
    case wrongWireType(field: UInt32, found: WireType, expected: WireType, offset: Int)
    /// A tag with field number 0 or above 2^29 - 1.
    case invalidFieldNumber(UInt64, offset: Int)
    /// A tag with wire type 6 or 7, which protobuf does not define.
    case invalidWireType(UInt8, field: UInt32, offset: Int)
    /// A group (wire types 3 and 4, deprecated since proto2 and unused by gtfs-realtime.proto).
    case groupsNotSupported(field: UInt32, offset: Int)
    /// Messages nested deeper than the reader's depth budget.
    case tooDeep(limit: Int, offset: Int)
    /// A string field whose bytes at `offset` are not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// More elements of a repeated message (`entity`, `stop_time_update`, or repeated messages
    /// of any kind together) than the decoding limits allow; `offset` is where the run starts.
    case tooMany(String, limit: Int, offset: Int)
  }

  /// What was wrong.
  public var reason: Reason
  /// Field names from the outermost message inward, e.g. `["entity[5]", "trip_update"]`;
  /// empty when the problem is in the message being decoded itself.
  public var path: [String]

  /// An error for `reason` at `path`.
  public init(_ reason: Reason, path: [String] = []) {
    self.reason = reason
    self.path = path
  }

  /// The byte offset the error points at, counted from the start of the input.
  public var offset: Int {
    switch reason {
    case .truncated(let offset), .malformedVarint(let offset), .lengthPastEnd(_, let offset),
      .wrongWireType(_, _, _, let offset), .invalidFieldNumber(_, let offset),
      .invalidWireType(_, _, let offset), .groupsNotSupported(_, let offset),
      .tooDeep(_, let offset), .invalidUTF8(let offset), .tooMany(_, _, let offset):
      return offset
    }
  }

  /// `entity[5].trip_update: length 812 runs past the end at byte 10244`.
  public var description: String {
    path.isEmpty ? reason.description : path.joined(separator: ".") + ": " + reason.description
  }

  /// This error inside the field `name` (element `index` of a repeated field).
  package func within(_ name: StaticString, index: Int? = nil) -> WireError {
    var copy = self
    let component = index.map { "\(name)[\($0)]" } ?? "\(name)"
    copy.path.insert(component, at: 0)
    return copy
  }

  // MARK: - Shorthands, so `throw .truncated(offset: 4)` reads like an enum case

  /// See `Reason.truncated`.
  public static func truncated(offset: Int) -> WireError { WireError(.truncated(offset: offset)) }
  /// See `Reason.malformedVarint`.
  public static func malformedVarint(offset: Int) -> WireError {
    WireError(.malformedVarint(offset: offset))
  }
  /// See `Reason.lengthPastEnd`.
  public static func lengthPastEnd(length: UInt64, offset: Int) -> WireError {
    WireError(.lengthPastEnd(length: length, offset: offset))
  }
  /// See `Reason.wrongWireType`.
  public static func wrongWireType(
    field: UInt32, found: WireType, expected: WireType, offset: Int
  )
    -> WireError
  {
    WireError(.wrongWireType(field: field, found: found, expected: expected, offset: offset))
  }
  /// See `Reason.invalidFieldNumber`.
  public static func invalidFieldNumber(_ number: UInt64, offset: Int) -> WireError {
    WireError(.invalidFieldNumber(number, offset: offset))
  }
  /// See `Reason.invalidWireType`.
  public static func invalidWireType(_ wireType: UInt8, field: UInt32, offset: Int) -> WireError {
    WireError(.invalidWireType(wireType, field: field, offset: offset))
  }
  /// See `Reason.groupsNotSupported`.
  public static func groupsNotSupported(field: UInt32, offset: Int) -> WireError {
    WireError(.groupsNotSupported(field: field, offset: offset))
  }
  /// See `Reason.tooDeep`.
  public static func tooDeep(limit: Int, offset: Int) -> WireError {
    WireError(.tooDeep(limit: limit, offset: offset))
  }
  /// See `Reason.invalidUTF8`.
  public static func invalidUTF8(offset: Int) -> WireError {
    WireError(.invalidUTF8(offset: offset))
  }
  /// See `Reason.tooMany`.
  public static func tooMany(_ what: String, limit: Int, offset: Int) -> WireError {
    WireError(.tooMany(what, limit: limit, offset: offset))
  }
}

extension WireError.Reason: CustomStringConvertible {
  /// A lower-case fragment ending in the byte offset: `truncated value at byte 12`.
  public var description: String {
    switch self {
    case .truncated(let offset):
      "truncated value at byte \(offset)"
    case .malformedVarint(let offset):
      "varint longer than 10 bytes or 64 bits at byte \(offset)"
    case .lengthPastEnd(let length, let offset):
      "length \(length) runs past the end at byte \(offset)"
    case .wrongWireType(let field, let found, let expected, let offset):
      "field \(field) has wire type \(found), expected \(expected), at byte \(offset)"
    case .invalidFieldNumber(let number, let offset):
      "invalid field number \(number) at byte \(offset)"
    case .invalidWireType(let wireType, let field, let offset):
      "invalid wire type \(wireType) (field \(field)) at byte \(offset)"
    case .groupsNotSupported(let field, let offset):
      "group in field \(field) at byte \(offset) (groups are not supported)"
    case .tooDeep(let limit, let offset):
      "messages nested more than \(limit) deep at byte \(offset)"
    case .invalidUTF8(let offset):
      "string is not valid UTF-8 at byte \(offset)"
    case .tooMany(let what, let limit, let offset):
      "more than \(limit) \(what) elements at byte \(offset) (a decoding limit)"
    }
  }
}
