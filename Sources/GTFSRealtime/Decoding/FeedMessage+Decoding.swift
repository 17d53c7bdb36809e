// Decoders for the messages in FeedMessage.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension FeedMessage: WireMessage {
  /// Decodes a serialized `FeedMessage` from `bytes`, or from `range` of them without copying.
  /// - Parameter limits: the most entities, stop time updates and repeated messages accepted.
  /// - Throws: `WireError` naming the field and byte offset of the first problem, or the limit
  ///   passed.
  /// - Precondition: `range`, if given, lies within `bytes`.
  public init(decoding bytes: [UInt8], range: Range<Int>? = nil, limits: DecodingLimits = .default) throws(WireError) {
    var reader = WireReader(bytes, range: range, limits: limits)
    self.init()
    try merge(from: &reader)
  }

  package mutating func merge(from reader: inout WireReader) throws(WireError) {
    // The entities by raw key first (see `WireReader.readKey()`), then any field by number.
    while let key = try reader.readKey() {
      switch key {
      case 0x12: try reader.appendMessages(key: key, "entity", to: &entities)
      default: try mergeField(reader.tag(forKey: key), from: &reader)
      }
    }
  }

  /// Reads the field `tag` by its number.
  private mutating func mergeField(_ tag: FieldTag, from reader: inout WireReader)
    throws(WireError)
  {
    switch tag.number {
    case 1: try reader.mergeMessage(tag, "header", into: &header)
    case 2: try reader.appendMessage(tag, "entity", to: &entities)
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}

extension FeedHeader: WireMessage {
  /// Decodes a serialized `FeedHeader` from `bytes`, or from `range` of them without copying.
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
      case 1: gtfsRealtimeVersion = try reader.readString(tag, "gtfs_realtime_version")
      case 2:
        incrementality = FeedHeader.Incrementality(
          rawValue: try reader.readEnum(tag, "incrementality"))
      case 3: timestamp = try reader.readUInt64(tag, "timestamp")
      case 4: feedVersion = try reader.readString(tag, "feed_version")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension FeedEntity: WireMessage {
  /// Decodes a serialized `FeedEntity` from `bytes`, or from `range` of them without copying.
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
      case 0x0A: id = try reader.readString(named: "id")
      case 0x1A:
        try reader.mergeMessage(reader.messageTag(forKey: key), "trip_update", into: &tripUpdateBox)
      case 0x22: try reader.mergeMessage(reader.messageTag(forKey: key), "vehicle", into: &vehicle)
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
    case 2: isDeleted = try reader.readBool(tag, "is_deleted")
    case 3: try reader.mergeMessage(tag, "trip_update", into: &tripUpdateBox)
    case 4: try reader.mergeMessage(tag, "vehicle", into: &vehicle)
    case 5: try reader.mergeMessage(tag, "alert", into: &alertBox)
    case 6: try reader.mergeMessage(tag, "shape", into: &shapeBox)
    case 7: try reader.mergeMessage(tag, "stop", into: &stopBox)
    case 8: try reader.mergeMessage(tag, "trip_modifications", into: &tripModificationsBox)
    default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
    }
  }
}
