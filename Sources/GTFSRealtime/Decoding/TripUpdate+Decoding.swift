// Decoders for the messages in TripUpdate.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

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
    while let tag = try reader.readTag() {
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
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1: delay = try reader.readInt32(tag, "delay")
      case 2: time = try reader.readInt64(tag, "time")
      case 3: uncertainty = try reader.readInt32(tag, "uncertainty")
      case 4: scheduledTime = try reader.readInt64(tag, "scheduled_time")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
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
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1: stopSequence = try reader.readUInt32(tag, "stop_sequence")
      case 2: try reader.mergeMessage(tag, "arrival", into: &arrival)
      case 3: try reader.mergeMessage(tag, "departure", into: &departure)
      case 4: stopID = try reader.readString(tag, "stop_id")
      case 5:
        scheduleRelationship = TripUpdate.StopTimeUpdate.ScheduleRelationship(
          rawValue: try reader.readEnum(tag, "schedule_relationship"))
      case 6: try reader.mergeMessage(tag, "stop_time_properties", into: &stopTimePropertiesBox)
      case 7:
        departureOccupancyStatus = VehiclePosition.OccupancyStatus(
          rawValue: try reader.readEnum(tag, "departure_occupancy_status"))
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
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
