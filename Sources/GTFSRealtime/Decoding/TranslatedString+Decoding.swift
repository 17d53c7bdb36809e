// Decoders for the messages in TranslatedString.swift: one loop over the tags, one case per field of
// gtfs-realtime.proto. Fields are matched by number whatever their order on the wire; a
// known field with the wrong wire type throws; unknown fields and extensions are skipped.

extension TranslatedString: WireMessage {
  /// Decodes a serialized `TranslatedString` from `bytes`, or from `range` of them without copying.
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
      case 1: try reader.appendMessage(tag, "translation", to: &translations)
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TranslatedString.Translation: WireMessage {
  /// Decodes a serialized `Translation` from `bytes`, or from `range` of them without copying.
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
      case 1: text = try reader.readString(tag, "text")
      case 2: language = try reader.readString(tag, "language")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TranslatedImage: WireMessage {
  /// Decodes a serialized `TranslatedImage` from `bytes`, or from `range` of them without copying.
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
      case 1: try reader.appendMessage(tag, "localized_image", to: &localizedImages)
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}

extension TranslatedImage.LocalizedImage: WireMessage {
  /// Decodes a serialized `LocalizedImage` from `bytes`, or from `range` of them without copying.
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
      case 1: url = try reader.readString(tag, "url")
      case 2: mediaType = try reader.readString(tag, "media_type")
      case 3: language = try reader.readString(tag, "language")
      default: try reader.skip(tag)  // unknown field or extension (1000-1999, 9000-9999)
      }
    }
  }
}
