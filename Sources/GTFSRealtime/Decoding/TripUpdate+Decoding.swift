// Decoders for the messages in TripUpdate.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.
//
// TripUpdate, StopTimeUpdate and StopTimeEvent are most of a large feed, so their loops first
// match the raw keys of their common fields (`WireReader.readKey()`), and only other keys go
// through the checked tag and the switch by number (`mergeField`).

extension TripUpdate: WireMessage {
  /// Decodes a serialized `TripUpdate` from `bytes`, or from `range` of them without copying.
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
      case 0x12:
        try reader.appendMessages(key: key, "stop_time_update", to: &stopTimeUpdates)
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
    case 2: try reader.appendMessage(tag, "stop_time_update", to: &stopTimeUpdates)
    case 3: try reader.mergeMessage(tag, "vehicle", into: &vehicle)
    case 4: timestamp = try reader.readUInt64(tag, "timestamp")
    case 5: delay = try reader.readInt32(tag, "delay")
    case 6: try reader.mergeMessage(tag, "trip_properties", into: &tripPropertiesBox)
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}

extension TripUpdate.StopTimeEvent: WireMessage {
  /// Decodes a serialized `StopTimeEvent` from `bytes`, or from `range` of them without copying.
  /// - Throws: `WireError` naming the field and byte offset of the first problem.
  /// - Precondition: `range`, if given, lies within `bytes`.
  public init(decoding bytes: [UInt8], range: Range<Int>? = nil) throws(WireError) {
    var reader = WireReader(bytes, range: range)
    self.init()
    try merge(from: &reader)
  }

  package mutating func merge(from reader: inout WireReader) throws(WireError) {
    // Every field by raw key first (see `WireReader.readKey()`), straight into the compact
    // storage; any other key by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x10:
        storedTime = Int64(bitPattern: try reader.readVarint(named: "time"))
        presence |= Field.time
      case 0x08:
        storedDelay = Int32(truncatingIfNeeded: try reader.readVarint(named: "delay"))
        presence |= Field.delay
      case 0x18:
        storedUncertainty = Int32(truncatingIfNeeded: try reader.readVarint(named: "uncertainty"))
        presence |= Field.uncertainty
      case 0x20:
        storedScheduledTime = Int64(bitPattern: try reader.readVarint(named: "scheduled_time"))
        presence |= Field.scheduledTime
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number: a known field with the wrong wire type, or an unknown
  /// field or extension.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
    switch tag.number {
    case 1:
      storedDelay = try reader.readInt32(tag, "delay")
      presence |= Field.delay
    case 2:
      storedTime = try reader.readInt64(tag, "time")
      presence |= Field.time
    case 3:
      storedUncertainty = try reader.readInt32(tag, "uncertainty")
      presence |= Field.uncertainty
    case 4:
      storedScheduledTime = try reader.readInt64(tag, "scheduled_time")
      presence |= Field.scheduledTime
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}

extension TripUpdate.StopTimeUpdate: WireMessage {
  /// Decodes a serialized `StopTimeUpdate` from `bytes`, or from `range` of them without copying.
  /// - Throws: `WireError` naming the field and byte offset of the first problem.
  /// - Precondition: `range`, if given, lies within `bytes`.
  public init(decoding bytes: [UInt8], range: Range<Int>? = nil) throws(WireError) {
    var reader = WireReader(bytes, range: range)
    self.init()
    try merge(from: &reader)
  }

  package mutating func merge(from reader: inout WireReader) throws(WireError) {
    // The common fields by raw key first (see `WireReader.readKey()`), straight into the compact
    // storage; any other key by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x12:
        try reader.mergeMessage(reader.messageTag(forKey: key), "arrival", into: &storedArrival)
        presence |= Field.arrival
      case 0x1A:
        try reader.mergeMessage(reader.messageTag(forKey: key), "departure", into: &storedDeparture)
        presence |= Field.departure
      case 0x22:
        storedStopID = try reader.readString(named: "stop_id")
        presence |= Field.stopID
      case 0x08:
        storedStopSequence = UInt32(
          truncatingIfNeeded: try reader.readVarint(named: "stop_sequence"))
        presence |= Field.stopSequence
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
    switch tag.number {
    // Enums keep their number.
    case 1:
      storedStopSequence = try reader.readUInt32(tag, "stop_sequence")
      presence |= Field.stopSequence
    case 2:
      try reader.mergeMessage(tag, "arrival", into: &storedArrival)
      presence |= Field.arrival
    case 3:
      try reader.mergeMessage(tag, "departure", into: &storedDeparture)
      presence |= Field.departure
    case 4:
      storedStopID = try reader.readString(tag, "stop_id")
      presence |= Field.stopID
    case 5:
      storedScheduleRelationship = try reader.readEnum(tag, "schedule_relationship")
      presence |= Field.scheduleRelationship
    case 6: try reader.mergeMessage(tag, "stop_time_properties", into: &stopTimePropertiesBox)
    case 7:
      storedDepartureOccupancyStatus = try reader.readEnum(tag, "departure_occupancy_status")
      presence |= Field.departureOccupancyStatus
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}

extension TripUpdate.StopTimeUpdate.StopTimeProperties: WireMessage {
  /// Decodes a serialized `StopTimeProperties` from `bytes`, or from `range` of them without copying.
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
      case 1: assignedStopID = try reader.readString(tag, "assigned_stop_id")
      case 2: stopHeadsign = try reader.readString(tag, "stop_headsign")
      case 3:
        pickupType = TripUpdate.StopTimeUpdate.StopTimeProperties.DropOffPickupType(
          rawValue: try reader.readEnum(tag, "pickup_type"))
      case 4:
        dropOffType = TripUpdate.StopTimeUpdate.StopTimeProperties.DropOffPickupType(
          rawValue: try reader.readEnum(tag, "drop_off_type"))
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TripUpdate.TripProperties: WireMessage {
  /// Decodes a serialized `TripProperties` from `bytes`, or from `range` of them without copying.
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
      case 1: tripID = try reader.readString(tag, "trip_id")
      case 2: startDate = try reader.readString(tag, "start_date")
      case 3: startTime = try reader.readString(tag, "start_time")
      case 4: shapeID = try reader.readString(tag, "shape_id")
      case 5: tripHeadsign = try reader.readString(tag, "trip_headsign")
      case 6: tripShortName = try reader.readString(tag, "trip_short_name")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
