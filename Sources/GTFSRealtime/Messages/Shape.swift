// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// Describes the physical path that a vehicle takes when it's not part of the (CSV) GTFS, such as
/// for a detour.
///
/// The proto's `Shape`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct Shape: Sendable, Equatable {
  /// Identifier of the shape.
  ///
  /// Proto field 1: `optional string shape_id`.
  public var shapeID: String?
  /// Encoded polyline representation of the shape.
  ///
  /// Proto field 2: `optional string encoded_polyline`.
  public var encodedPolyline: String?

  /// A `Shape` with every field unset.
  public init() {}

  /// A `Shape` with the given fields; those not given are unset.
  public init(
    shapeID: String? = nil,
    encodedPolyline: String? = nil
  ) {
    self.shapeID = shapeID
    self.encodedPolyline = encodedPolyline
  }
}
