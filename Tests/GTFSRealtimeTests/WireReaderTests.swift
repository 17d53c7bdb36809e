import GTFSRealtime
import TestSupport
import Testing

@Suite struct WireReaderTests {
  static let varints: [(UInt64, [UInt8])] = [
    (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
    (1_699_405_534, [0xDE, 0xBD, 0xAB, 0xAA, 0x06]),
    (UInt64(Int64.max), [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
    (.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    (0, [0x80, 0x80, 0x80, 0x00]),  // over-long but valid: protobuf parsers accept it
  ]

  @Test(arguments: varints)
  func decodesVarint(value: UInt64, bytes: [UInt8]) throws {
    var reader = WireReader(bytes)
    #expect(try reader.readVarint() == value)
    #expect(reader.isAtEnd)
  }

  @Test(arguments: [0, 1, 300, 1 << 35, UInt64.max] as [UInt64])
  func varintRoundTrips(value: UInt64) throws {
    var writer = WireWriter()
    writer.varint(value)
    var reader = WireReader(writer.bytes)
    #expect(try reader.readVarint() == value)
    #expect(reader.isAtEnd)
  }

  @Test(arguments: varints)
  func decodesVarintWithBytesAfterIt(value: UInt64, bytes: [UInt8]) throws {
    // With ten or more bytes left in the input the reader decodes whole words at a time.
    var reader = WireReader(bytes + Array(repeating: 0xFF, count: 10), range: 0..<bytes.count + 10)
    #expect(try reader.readVarint() == value)
    #expect(reader.offset == bytes.count)
  }

  @Test(arguments: varints)
  func decodesVarintClosingTheInput(value: UInt64, bytes: [UInt8]) throws {
    // Fewer than ten bytes left, eight or more in the input: the reader loads the input's last
    // word (a timestamp closing a small feed, issue 24).
    let input = Array(repeating: UInt8(0x00), count: 8) + bytes
    var reader = WireReader(input, range: 8..<input.count)
    #expect(try reader.readVarint() == value)
    #expect(reader.isAtEnd)
  }

  static let truncatedClosingVarints: [([UInt8], Range<Int>)] = [
    ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xAC, 0x02], 8..<9),  // the message ends first
    ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xDE, 0xBD, 0xAB], 8..<11),  // the input ends first
    (Array(repeating: 0x00, count: 8) + Array(repeating: 0xFF, count: 8), 8..<16),  // 8 bytes, all go on
    (Array(repeating: 0x00, count: 8) + Array(repeating: 0xFF, count: 9), 8..<17),  // 9 bytes, all go on
    ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x80, 0x01], 8..<10),  // stops past the end
  ]

  @Test(arguments: truncatedClosingVarints)
  func varintClosingTheInputMustEndInTheMessage(input: [UInt8], range: Range<Int>) {
    var reader = WireReader(input, range: range)
    #expect(throws: WireError.truncated(offset: 8)) { try reader.readVarint() }
  }

  @Test(arguments: 0..<64)
  func varintsOfEveryLengthRoundTrip(bit: Int) throws {
    for value in [UInt64(1) << bit, (UInt64(1) << bit) &- 1, UInt64.max >> (63 - bit)] {
      var writer = WireWriter()
      writer.varint(value)
      writer.varint(value)
      let length = writer.bytes.count / 2
      writer.append(Array(repeating: 0x80, count: 12))
      var reader = WireReader(writer.bytes)
      #expect(try reader.readVarint() == value)
      #expect(try reader.readVarint() == value)
      #expect(reader.offset == 2 * length)
    }
  }

  @Test func varintMayNotRunPastTheMessageEvenIfTheInputGoesOn() {
    // The message ends after one byte; the varint's second byte lies beyond it.
    var reader = WireReader([0xAC, 0x02] + Array(repeating: 0, count: 12), range: 0..<1)
    #expect(throws: WireError.truncated(offset: 0)) { try reader.readVarint() }
    let tooLong = Array(repeating: UInt8(0xFF), count: 10) + [0x01] + Array(repeating: 0, count: 10)
    var long = WireReader(tooLong)
    #expect(throws: WireError.malformedVarint(offset: 0)) { try long.readVarint() }
    var high = WireReader(
      Array(repeating: 0xFF, count: 9) + [0x02] + Array(repeating: 0, count: 10))
    #expect(throws: WireError.malformedVarint(offset: 0)) { try high.readVarint() }
  }

  static let badVarints: [([UInt8], WireError)] = [
    ([0x80], .truncated(offset: 0)),
    ([0xFF, 0xFF, 0xFF], .truncated(offset: 0)),
    // 65 bits
    ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], .malformedVarint(offset: 0)),
    (
      [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x00],
      .malformedVarint(offset: 0)
    ),  // 11 bytes
    (
      [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
      .malformedVarint(offset: 0)
    ),
  ]

  @Test(arguments: badVarints)
  func rejectsBadVarint(bytes: [UInt8], expected: WireError) {
    var reader = WireReader(bytes)
    let error = #expect(throws: WireError.self) { try reader.readVarint() }
    #expect(error == expected)
  }

  @Test func readsFixedWidthLittleEndian() throws {
    var reader = WireReader([0x78, 0x56, 0x34, 0x12, 1, 2, 3, 4, 5, 6, 7, 8])
    #expect(try reader.readFixed32() == 0x1234_5678)
    #expect(try reader.readFixed64() == 0x0807_0605_0403_0201)
    #expect(reader.isAtEnd)
    var short = WireReader([1, 2, 3])
    #expect(throws: WireError.truncated(offset: 0)) { try short.readFixed32() }
  }

  static let badTags: [([UInt8], WireError)] = [
    ([0x00], .invalidFieldNumber(0, offset: 0)),
    ([0x02, 0x00], .invalidFieldNumber(0, offset: 0)),
    ([0x80, 0x80, 0x80, 0x80, 0x10], .invalidFieldNumber(1 << 29, offset: 0)),
    ([0x0B], .groupsNotSupported(field: 1, offset: 0)),
    ([0x0C], .groupsNotSupported(field: 1, offset: 0)),
    ([0x0E], .invalidWireType(6, field: 1, offset: 0)),
    ([0x0F], .invalidWireType(7, field: 1, offset: 0)),
    ([0x80], .truncated(offset: 0)),
  ]

  @Test(arguments: badTags)
  func rejectsBadTag(bytes: [UInt8], expected: WireError) {
    var reader = WireReader(bytes)
    let error = #expect(throws: WireError.self) { try reader.readTag() }
    #expect(error == expected)
  }

  @Test func largestFieldNumberIsValid() throws {
    var writer = WireWriter()
    writer.tag(FieldTag.maxNumber, .varint)
    var reader = WireReader(writer.bytes)
    let tag = try #require(try reader.readTag())
    #expect(tag.number == FieldTag.maxNumber)
    #expect(tag.wireType == .varint)
    #expect(try reader.readTag() == nil)
  }

  @Test func skipsEveryWireType() throws {
    var writer = WireWriter()
    writer.writeUInt64(1000, .max)
    writer.writeDouble(1001, 1.5)
    writer.writeFloat(9000, 2.5)
    writer.writeBytes(9999, [1, 2, 3])
    var reader = WireReader(writer.bytes)
    var numbers: [UInt32] = []
    while let tag = try reader.readTag() {
      numbers.append(tag.number)
      try reader.skip(tag)
    }
    #expect(numbers == [1000, 1001, 9000, 9999])
  }

  @Test func lengthIsCheckedAgainstWhatIsLeft() {
    var reader = WireReader([0x05, 1, 2, 3])
    #expect(throws: WireError.lengthPastEnd(length: 5, offset: 0)) {
      try reader.readLengthDelimited()
    }
    var huge = WireReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
    #expect(throws: WireError.lengthPastEnd(length: .max, offset: 0)) {
      try huge.readLengthDelimited()
    }
  }

  @Test func readsPackedAndUnpackedRepeatedFields() throws {
    var writer = WireWriter()
    writer.writeUInt64(4, 1)  // unpacked
    writer.writeMessage(4) { packed in  // packed: one length, then the varints
      packed.varint(2)
      packed.varint(300)
      packed.varint(.max)
    }
    writer.writeUInt64(4, 4)
    writer.writeFloat(5, 1.5)
    writer.writeMessage(5) { packed in
      packed.fixed32(Float(2.5).bitPattern)
      packed.fixed32(Float(-3).bitPattern)
    }
    var reader = WireReader(writer.bytes)
    var varints: [UInt64] = []
    var floats: [UInt32] = []
    while let tag = try reader.readTag() {
      switch tag.number {
      case 4: try reader.readRepeatedVarint(tag, "values", into: &varints)
      case 5: try reader.readRepeatedFixed32(tag, "floats", into: &floats)
      default: try reader.skip(tag)
      }
    }
    #expect(varints == [1, 2, 300, .max, 4])
    #expect(floats.map(Float.init(bitPattern:)) == [1.5, 2.5, -3])
  }

  @Test func packedElementMustEndWithTheRun() {
    // A packed run of 2 bytes whose second varint continues past the run's length.
    var reader = WireReader([0x22, 0x02, 0x01, 0x80, 0x01])
    var values: [UInt64] = []
    let error = #expect(throws: WireError.self) {
      let tag = try #require(try reader.readTag())
      try reader.readRepeatedVarint(tag, "values", into: &values)
    }
    #expect(error == WireError(.truncated(offset: 3), path: ["values[1]"]))
    var fixed = WireReader([0x2A, 0x03, 0x01, 0x02, 0x03])
    var floats: [UInt32] = []
    #expect(throws: WireError.self) {
      let tag = try #require(try fixed.readTag())
      try fixed.readRepeatedFixed32(tag, "floats", into: &floats)
    }
  }

  @Test func readerOverARange() throws {
    let bytes: [UInt8] = [0xFF, 0x0A, 0x03, 0x32, 0x2E, 0x30, 0xFF]
    var reader = WireReader(bytes, range: 1..<6)
    let tag = try #require(try reader.readTag())
    #expect(try reader.readString(tag, "gtfs_realtime_version") == "2.0")
    #expect(try reader.readTag() == nil)
    let header = try FeedHeader(decoding: bytes, range: 1..<6)
    #expect(header.gtfsRealtimeVersion == "2.0")
  }

  @Test func describesErrorsWithPathAndOffset() {
    let error = WireError(
      .lengthPastEnd(length: 812, offset: 10244),
      path: ["entity[5]", "trip_update", "stop_time_update[3]", "arrival"])
    #expect(
      error.description
        == "entity[5].trip_update.stop_time_update[3].arrival: length 812 runs past the end at byte 10244"
    )
    #expect(error.offset == 10244)
    #expect(WireError.truncated(offset: 7).description == "truncated value at byte 7")
  }
}
