// Decoders for the messages in VehiclePosition.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.
// VehiclePosition and Position match their common fields by raw key first (one jump each).

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
    // The common fields by raw key first (see `WireReader.readKey()`), then any field by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x0A: try reader.mergeMessage(reader.messageTag(forKey: key), "trip", into: &trip)
      case 0x12: try reader.mergeMessage(reader.messageTag(forKey: key), "position", into: &position)
      case 0x18:
        currentStopSequence = UInt32(truncatingIfNeeded: try reader.readVarint(named: "current_stop_sequence"))
      case 0x20:
        currentStatus = VehiclePosition.VehicleStopStatus(
          rawValue: Int32(truncatingIfNeeded: try reader.readVarint(named: "current_status")))
      case 0x28: timestamp = try reader.readVarint(named: "timestamp")
      case 0x3A: stopID = try reader.readString(named: "stop_id")
      case 0x42: try reader.mergeMessage(reader.messageTag(forKey: key), "vehicle", into: &vehicle)
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
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
    // The float fields by raw key first (see `WireReader.readKey()`), then any field by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x0D: latitude = try reader.readFloat(named: "latitude")
      case 0x15: longitude = try reader.readFloat(named: "longitude")
      case 0x1D: bearing = try reader.readFloat(named: "bearing")
      case 0x2D: speed = try reader.readFloat(named: "speed")
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
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
