// Decoders for the messages in VehiclePosition.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension VehiclePosition: WireMessage {
  /// Decodes a serialized `VehiclePosition` from `bytes`, or from `range` of them without copying.
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
      case 1: try reader.mergeMessage(tag, "trip", into: &trip)
      case 2: try reader.mergeMessage(tag, "position", into: &position)
      case 3: currentStopSequence = try reader.readUInt32(tag, "current_stop_sequence")
      case 4:
        currentStatus = VehiclePosition.VehicleStopStatus(
          rawValue: try reader.readEnum(tag, "current_status"))
      case 5: timestamp = try reader.readUInt64(tag, "timestamp")
      case 6:
        congestionLevel = VehiclePosition.CongestionLevel(
          rawValue: try reader.readEnum(tag, "congestion_level"))
      case 7: stopID = try reader.readString(tag, "stop_id")
      case 8: try reader.mergeMessage(tag, "vehicle", into: &vehicle)
      case 9:
        occupancyStatus = VehiclePosition.OccupancyStatus(
          rawValue: try reader.readEnum(tag, "occupancy_status"))
      case 10: occupancyPercentage = try reader.readUInt32(tag, "occupancy_percentage")
      case 11: try reader.appendMessage(tag, "multi_carriage_details", to: &multiCarriageDetails)
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension VehiclePosition.CarriageDetails: WireMessage {
  /// Decodes a serialized `CarriageDetails` from `bytes`, or from `range` of them without copying.
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
      case 1: id = try reader.readString(tag, "id")
      case 2: label = try reader.readString(tag, "label")
      case 3:
        occupancyStatus = VehiclePosition.OccupancyStatus(
          rawValue: try reader.readEnum(tag, "occupancy_status"))
      case 4: occupancyPercentage = try reader.readInt32(tag, "occupancy_percentage")
      case 5: carriageSequence = try reader.readUInt32(tag, "carriage_sequence")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension Position: WireMessage {
  /// Decodes a serialized `Position` from `bytes`, or from `range` of them without copying.
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
      case 1: latitude = try reader.readFloat(tag, "latitude")
      case 2: longitude = try reader.readFloat(tag, "longitude")
      case 3: bearing = try reader.readFloat(tag, "bearing")
      case 4: odometer = try reader.readDouble(tag, "odometer")
      case 5: speed = try reader.readFloat(tag, "speed")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
