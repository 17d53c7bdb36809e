// Decoders for the messages in TripModifications.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension TripModifications: WireMessage {
  /// Decodes a serialized `TripModifications` from `bytes`, or from `range` of them without copying.
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
      case 1: try reader.appendMessage(tag, "selected_trips", to: &selectedTrips)
      case 2: startTimes.append(try reader.readString(tag, "start_times", index: startTimes.count))
      case 3:
        serviceDates.append(try reader.readString(tag, "service_dates", index: serviceDates.count))
      case 4: try reader.appendMessage(tag, "modifications", to: &modifications)
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TripModifications.Modification: WireMessage {
  /// Decodes a serialized `Modification` from `bytes`, or from `range` of them without copying.
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
      case 1: try reader.mergeMessage(tag, "start_stop_selector", into: &startStopSelector)
      case 2: try reader.mergeMessage(tag, "end_stop_selector", into: &endStopSelector)
      case 3:
        propagatedModificationDelay = try reader.readInt32(tag, "propagated_modification_delay")
      case 4: try reader.appendMessage(tag, "replacement_stops", to: &replacementStops)
      case 5: serviceAlertID = try reader.readString(tag, "service_alert_id")
      case 6: lastModifiedTime = try reader.readUInt64(tag, "last_modified_time")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TripModifications.SelectedTrips: WireMessage {
  /// Decodes a serialized `SelectedTrips` from `bytes`, or from `range` of them without copying.
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
      case 1: tripIDs.append(try reader.readString(tag, "trip_ids", index: tripIDs.count))
      case 2: shapeID = try reader.readString(tag, "shape_id")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension StopSelector: WireMessage {
  /// Decodes a serialized `StopSelector` from `bytes`, or from `range` of them without copying.
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
      case 2: stopID = try reader.readString(tag, "stop_id")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension ReplacementStop: WireMessage {
  /// Decodes a serialized `ReplacementStop` from `bytes`, or from `range` of them without copying.
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
      case 1: travelTimeToStop = try reader.readInt32(tag, "travel_time_to_stop")
      case 2: stopID = try reader.readString(tag, "stop_id")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
