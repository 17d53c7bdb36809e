// Decoders for the messages in Shape.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension Shape: WireMessage {
  /// Decodes a serialized `Shape` from `bytes`, or from `range` of them without copying.
  /// - Throws: `WireError` naming the field and byte offset of the first problem.
  /// - Precondition: `range`, if given, lies within `bytes`.
  public init(decoding bytes: [UInt8], range: Range<Int>? = nil) throws(WireError) {
    var reader = WireReader(bytes, range: range)
    self.init()
    try merge(from: &reader)
  }

  package mutating func merge(from reader: inout WireReader) throws(WireError) {
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1: shapeID = try reader.readString(tag, "shape_id")
      case 2: encodedPolyline = try reader.readString(tag, "encoded_polyline")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
