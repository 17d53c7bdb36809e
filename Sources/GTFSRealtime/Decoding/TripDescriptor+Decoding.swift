// Decoders for the messages in TripDescriptor.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension TripDescriptor: WireMessage {
  /// Decodes a serialized `TripDescriptor` from `bytes`, or from `range` of them without copying.
  /// - Throws: `WireError` naming the field and byte offset of the first problem.
  /// - Precondition: `range`, if given, lies within `bytes`.
  public init(decoding bytes: [UInt8], range: Range<Int>? = nil) throws(WireError) {
    var reader = WireReader(bytes, range: range)
    self.init()
    try merge(from: &reader)
  }

  package mutating func merge(from reader: inout WireReader) throws(WireError) {
    // The string fields by raw key first (see `WireReader.readKey()`), then any field by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x0A: tripID = try reader.readString(named: "trip_id")
      case 0x12: startTime = try reader.readString(named: "start_time")
      case 0x1A: startDate = try reader.readString(named: "start_date")
      case 0x2A: routeID = try reader.readString(named: "route_id")
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
    switch tag.number {
    case 1: tripID = try reader.readString(tag, "trip_id")
    case 2: startTime = try reader.readString(tag, "start_time")
    case 3: startDate = try reader.readString(tag, "start_date")
    case 4:
      scheduleRelationship = TripDescriptor.ScheduleRelationship(
        rawValue: try reader.readEnum(tag, "schedule_relationship"))
    case 5: routeID = try reader.readString(tag, "route_id")
    case 6: directionID = try reader.readUInt32(tag, "direction_id")
    case 7: try reader.mergeMessage(tag, "modified_trip", into: &modifiedTripBox)
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}

extension TripDescriptor.ModifiedTripSelector: WireMessage {
  /// Decodes a serialized `ModifiedTripSelector` from `bytes`, or from `range` of them without copying.
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
      case 1: modificationsID = try reader.readString(tag, "modifications_id")
      case 2: affectedTripID = try reader.readString(tag, "affected_trip_id")
      case 3: startTime = try reader.readString(tag, "start_time")
      case 4: startDate = try reader.readString(tag, "start_date")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension VehicleDescriptor: WireMessage {
  /// Decodes a serialized `VehicleDescriptor` from `bytes`, or from `range` of them without copying.
  /// - Throws: `WireError` naming the field and byte offset of the first problem.
  /// - Precondition: `range`, if given, lies within `bytes`.
  public init(decoding bytes: [UInt8], range: Range<Int>? = nil) throws(WireError) {
    var reader = WireReader(bytes, range: range)
    self.init()
    try merge(from: &reader)
  }

  package mutating func merge(from reader: inout WireReader) throws(WireError) {
    // The string fields by raw key first (see `WireReader.readKey()`), then any field by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x0A: id = try reader.readString(named: "id")
      case 0x12: label = try reader.readString(named: "label")
      case 0x1A: licensePlate = try reader.readString(named: "license_plate")
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
    switch tag.number {
    case 1: id = try reader.readString(tag, "id")
    case 2: label = try reader.readString(tag, "label")
    case 3: licensePlate = try reader.readString(tag, "license_plate")
    case 4:
      wheelchairAccessible = VehicleDescriptor.WheelchairAccessible(
        rawValue: try reader.readEnum(tag, "wheelchair_accessible"))
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}
