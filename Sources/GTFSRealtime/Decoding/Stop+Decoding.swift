// Decoders for the messages in Stop.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension Stop: WireMessage {
  /// Decodes a serialized `Stop` from `bytes`, or from `range` of them without copying.
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
      case 1: stopID = try reader.readString(tag, "stop_id")
      case 2: try reader.mergeMessage(tag, "stop_code", into: &stopCode)
      case 3: try reader.mergeMessage(tag, "stop_name", into: &stopName)
      case 4: try reader.mergeMessage(tag, "tts_stop_name", into: &ttsStopName)
      case 5: try reader.mergeMessage(tag, "stop_desc", into: &stopDesc)
      case 6: stopLat = try reader.readFloat(tag, "stop_lat")
      case 7: stopLon = try reader.readFloat(tag, "stop_lon")
      case 8: zoneID = try reader.readString(tag, "zone_id")
      case 9: try reader.mergeMessage(tag, "stop_url", into: &stopURL)
      case 11: parentStation = try reader.readString(tag, "parent_station")
      case 12: stopTimezone = try reader.readString(tag, "stop_timezone")
      case 13:
        wheelchairBoarding = Stop.WheelchairBoarding(
          rawValue: try reader.readEnum(tag, "wheelchair_boarding"))
      case 14: levelID = try reader.readString(tag, "level_id")
      case 15: try reader.mergeMessage(tag, "platform_code", into: &platformCode)
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
