// Decoders for the messages in Alert.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension Alert: WireMessage {
  /// Decodes a serialized `Alert` from `bytes`, or from `range` of them without copying.
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
      case 1: try reader.appendMessage(tag, "active_period", to: &activePeriods)
      case 5: try reader.appendMessage(tag, "informed_entity", to: &informedEntities)
      case 6: cause = Alert.Cause(rawValue: try reader.readEnum(tag, "cause"))
      case 7: effect = Alert.Effect(rawValue: try reader.readEnum(tag, "effect"))
      case 8: try reader.mergeMessage(tag, "url", into: &url)
      case 10: try reader.mergeMessage(tag, "header_text", into: &headerText)
      case 11: try reader.mergeMessage(tag, "description_text", into: &descriptionText)
      case 12: try reader.mergeMessage(tag, "tts_header_text", into: &ttsHeaderText)
      case 13: try reader.mergeMessage(tag, "tts_description_text", into: &ttsDescriptionText)
      case 14:
        severityLevel = Alert.SeverityLevel(
          rawValue: try reader.readEnum(tag, "severity_level"))
      case 15: try reader.mergeMessage(tag, "image", into: &image)
      case 16: try reader.mergeMessage(tag, "image_alternative_text", into: &imageAlternativeText)
      case 17: try reader.mergeMessage(tag, "cause_detail", into: &causeDetail)
      case 18: try reader.mergeMessage(tag, "effect_detail", into: &effectDetail)
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TimeRange: WireMessage {
  /// Decodes a serialized `TimeRange` from `bytes`, or from `range` of them without copying.
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
      case 1: start = try reader.readUInt64(tag, "start")
      case 2: end = try reader.readUInt64(tag, "end")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension EntitySelector: WireMessage {
  /// Decodes a serialized `EntitySelector` from `bytes`, or from `range` of them without copying.
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
      case 1: agencyID = try reader.readString(tag, "agency_id")
      case 2: routeID = try reader.readString(tag, "route_id")
      case 3: routeType = try reader.readInt32(tag, "route_type")
      case 4: try reader.mergeMessage(tag, "trip", into: &trip)
      case 5: stopID = try reader.readString(tag, "stop_id")
      case 6: directionID = try reader.readUInt32(tag, "direction_id")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
