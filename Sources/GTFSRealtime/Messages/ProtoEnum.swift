/// An enum of gtfs-realtime.proto: a known case per value the .proto names, and
/// `unrecognized(Int32)` for any other number, so a value added to the spec after this decoder
/// was written is kept rather than dropped or fatal.
public protocol ProtoEnum: RawRepresentable, Sendable, Hashable, CustomStringConvertible
where RawValue == Int32 {
  /// The value for its number on the wire; never fails.
  init(rawValue: Int32)
  /// The name the .proto gives the value (`SCHEDULED`), or nil when unrecognized.
  var protoName: String? { get }
}

extension ProtoEnum {
  /// The proto name, or the number for an unrecognized value.
  public var description: String { protoName ?? String(rawValue) }

  /// Equal by number, so `.unrecognized(0)` and the case for 0 are one value.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

  /// Hashes the number, consistently with `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
