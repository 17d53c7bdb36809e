/// A cursor over serialized protobuf: an `offset`/`end` pair over one `[UInt8]`.
///
/// The array shares its storage, so a nested message is only a narrower `end` over the same
/// bytes: nothing is copied until a string is decoded. Every read checks what is left first, as
/// swift-protobuf's `BinaryDecoder` does, and throws `WireError` instead of reading past `end`;
/// offsets in errors count from the start of the array.
///
/// `offset <= end <= bytes.count` always holds (`init` checks `end`, and `end` only ever narrows
/// to a length checked against it), so once a read has checked `offset < end` the hot paths
/// read the array's buffer directly instead of checking the index a second time.
///
/// The message decoders (generated from gtfs-realtime.proto by Scripts/generate-rt-fields) read
/// raw keys with `readKey()` and match each field with the wire type the .proto gives it; any
/// other key goes through `tag(forKey:)`'s checked `FieldTag`:
///
/// ```swift
/// var reader = WireReader(bytes)
/// while let key = try reader.readKey() {
///   switch key {
///   case 0x08: delay = Int32(truncatingIfNeeded: try reader.readVarint(named: "delay"))
///   default:
///     let tag = try reader.tag(forKey: key)
///     switch tag.number {
///     case 1: throw reader.wrongWireType(tag, expected: .varint, "delay")
///     default: try reader.skip(tag)
///     }
///   }
/// }
/// ```
package struct WireReader {
  /// The whole input.
  package let bytes: [UInt8]
  /// The next byte to read.
  package internal(set) var offset: Int
  /// One past the last byte of the message being read.
  package private(set) var end: Int
  /// How many more levels of nested messages may be entered.
  package private(set) var depthBudget: Int
  /// The depth budget the reader started with, for error messages.
  package let maxDepth: Int
  /// Where the last key read by `readKey()` starts.
  package internal(set) var keyOffset = 0
  /// Whether strings of 1 to 15 bytes are built in place (see `ShortString`), read once per
  /// reader rather than once per string.
  private let buildsShortStringsInline = ShortString.isLayoutKnown
  /// The counts the input may not exceed.
  package let limits: DecodingLimits
  /// How many more entities, stop_time_updates and repeated messages of any kind may be made.
  private var entityBudget: Int
  private(set) var stopTimeUpdateBudget: Int
  private var messageBudget: Int
  /// The repeated field whose elements were last spent ahead, all at once (`spendRun`): the
  /// end of its message and its number. A later run of that field in that message was paid
  /// for then; a run in another message (a second `trip_update` in one entity, merged into the
  /// first) was not, and pays per element (`spendElement`).
  private var spentRun: (end: Int, number: UInt32) = (-1, 0)
  /// The payloads decoded but not yet given their store (see `PayloadPools`); nil until the
  /// first, so a feed without any costs nothing more.
  var pools: PayloadPools?
  /// Whether a `FeedMessage` is being decoded, which gives its entities their payloads once all
  /// are decoded; otherwise a `FeedEntity` takes its own at its end.
  var isPoolingPayloads = false
  /// How many entities have been spent from the budget (the size of a feed's entity array, once
  /// its first entity is read).
  var entitiesSpent: Int { limits.maxEntities &- entityBudget }

  /// The default depth budget. gtfs-realtime.proto itself nests at most 5 messages below
  /// FeedMessage (entity.alert.informed_entity.trip.modified_trip); the budget bounds the work
  /// any input can cause if a future version of the proto becomes recursive.
  package static let defaultMaxDepth = 32

  /// A reader over `range` of `bytes` (all of it by default).
  /// - Precondition: `range` lies within `bytes`.
  package init(
    _ bytes: [UInt8], range: Range<Int>? = nil, maxDepth: Int = defaultMaxDepth,
    limits: DecodingLimits = .default
  ) {
    let range = range ?? bytes.startIndex..<bytes.endIndex
    precondition(
      range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the input")
    self.bytes = bytes
    self.offset = range.lowerBound
    self.end = range.upperBound
    self.maxDepth = maxDepth
    self.depthBudget = maxDepth
    self.limits = limits
    self.entityBudget = limits.maxEntities
    self.stopTimeUpdateBudget = limits.maxStopTimeUpdates
    self.messageBudget = limits.maxMessages
  }

  /// The decoding limit a repeated message field counts against, besides the limit on repeated
  /// messages of every kind (see `DecodingLimits`).
  package enum Budget: Sendable {
    /// `FeedMessage.entity`.
    case entity
    /// `TripUpdate.stop_time_update`.
    case stopTimeUpdate
    /// Any other repeated message field.
    case message
  }

  /// Spends `count` elements of a repeated message field from `budget` (and from the budget of
  /// repeated messages of any kind), before any room is made for them: a hostile input of a
  /// million empty entities fails here, having allocated nothing.
  /// - Throws: `WireError.tooMany` naming the limit that would be passed.
  @inline(__always)
  package mutating func spend(_ count: Int, from budget: Budget, at offset: Int) throws(WireError) {
    switch budget {
    case .entity:
      entityBudget &-= count
      if entityBudget < 0 { throw .tooMany("entity", limit: limits.maxEntities, offset: offset) }
    case .stopTimeUpdate:
      stopTimeUpdateBudget &-= count
      if stopTimeUpdateBudget < 0 {
        throw .tooMany("stop_time_update", limit: limits.maxStopTimeUpdates, offset: offset)
      }
    case .message:
      break
    }
    messageBudget &-= count
    if messageBudget < 0 { throw .tooMany("repeated message", limit: limits.maxMessages, offset: offset) }
  }

  /// Counts the elements of the repeated field `tag` names from here to the end of the message
  /// and spends them all from `budget` before any is made; returns the count (at least 1).
  @inline(__always)
  package mutating func spendRun(_ tag: FieldTag, from budget: Budget) throws(WireError) -> Int {
    let total = Swift.max(1, count(of: tag.number, from: tag.offset))
    try spend(total, from: budget, at: tag.offset)
    spentRun = (end, tag.number)
    return total
  }

  /// Spends one element of the repeated field `tag` names, unless `spendRun` paid for it.
  @inline(__always)
  package mutating func spendElement(_ tag: FieldTag, from budget: Budget) throws(WireError) {
    guard spentRun.end != end || spentRun.number != tag.number else { return }
    try spend(1, from: budget, at: tag.offset)
  }

  /// Whether the current message has no bytes left.
  package var isAtEnd: Bool { offset >= end }

  // MARK: - Primitives

  /// Reads a base-128 varint.
  /// - Throws: `truncated` if the input ends first; `malformedVarint` beyond 10 bytes or 64 bits.
  @inline(__always)
  package mutating func readVarint() throws(WireError) -> UInt64 {
    // One and two bytes (keys, lengths, small numbers) inline; longer ones in a call.
    // (`offset < end <= bytes.count` always holds, so the buffer is read without a second check.)
    if offset < end {
      let first = bytes.withUnsafeBufferPointer { $0[offset] }
      if first < 0x80 {
        offset &+= 1
        return UInt64(first)
      }
      if end &- offset >= 2 {
        let second = bytes.withUnsafeBufferPointer { $0[offset &+ 1] }
        if second < 0x80 {
          offset &+= 2
          return UInt64(first & 0x7F) | UInt64(second) &<< 7
        }
      }
    }
    return try readLongVarint()
  }

  /// A varint of at most 8 bytes loaded as a little-endian `word` (bytes after it included):
  /// keeps its `length` bytes, then squeezes out the high bits (7-bit groups into 14-, 28- and
  /// finally 56-bit groups).
  @inline(__always)
  private static func squeeze(_ word: UInt64, length: Int) -> UInt64 {
    var value = word & (UInt64.max &>> UInt64(64 &- 8 &* length)) & 0x7F7F_7F7F_7F7F_7F7F
    value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) &>> 1)
    value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) &>> 2)
    value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) &>> 4)
    return value
  }

  /// A varint of up to 10 bytes at `base` (10 bytes readable): its value and length, or a
  /// length of 0 if a 10th byte carries more than the 64th bit.
  @inline(__always)
  private static func parseVarint(at base: UnsafeRawPointer) -> (UInt64, Int) {
    let word = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
    let stops = ~word & 0x8080_8080_8080_8080  // the high bit of each byte that ends it
    if stops != 0 {
      // Up to 8 bytes: keep the bytes up to the first stop, then squeeze out the high bits
      // (7-bit groups into 14-, 28- and finally 56-bit groups).
      let length = (stops.trailingZeroBitCount &+ 1) &>> 3
      return (squeeze(word, length: length), length)
    }
    // 9 or 10 bytes; the 10th may only carry the 64th bit.
    var value = word & 0x7F7F_7F7F_7F7F_7F7F
    value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) &>> 1)
    value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) &>> 2)
    value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) &>> 4)
    let ninth = base.load(fromByteOffset: 8, as: UInt8.self)
    value |= UInt64(ninth & 0x7F) &<< 56
    if ninth < 0x80 { return (value, 9) }
    let tenth = base.load(fromByteOffset: 9, as: UInt8.self)
    guard tenth <= 1 else { return (0, 0) }
    return (value | UInt64(tenth) &<< 63, 10)
  }

  /// The varint loop, for values of two bytes or more (and for errors).
  @inline(never)
  private mutating func readLongVarint() throws(WireError) -> UInt64 {
    let start = offset
    if bytes.count &- start >= 10 {
      // Ten bytes are in the input (perhaps past the end of this message: the length is checked
      // below), so whole words can be read without a bounds check per byte.
      let (value, length) = bytes.withUnsafeBufferPointer { buffer in
        Self.parseVarint(at: UnsafeRawPointer(buffer.baseAddress! + start))
      }
      if length > 0 && length <= end &- start {
        offset = start &+ length
        return value
      }
      // Malformed, or running past the end of this message: the loop below says which.
    } else if start < end && bytes.count >= 8 {
      // Fewer than ten bytes are left in the input (a timestamp closing a small feed): the last
      // eight bytes of the input are read as one word, shifted so that those left come first,
      // zero-padded (or the eight from `start`, and the ninth, when nine are left). What is left
      // of this message (`count`, at most nine bytes) holds the whole varint, or it is truncated
      // (a 10th byte, which could make it malformed, is never among them).
      let count = end &- start
      let left = bytes.count &- start  // 1...9, at least `count`
      let (word, ninth) = bytes.withUnsafeBufferPointer { buffer -> (UInt64, UInt8) in
        let base = UnsafeRawPointer(buffer.baseAddress!)
        if left <= 8 {
          let last = UInt64(
            littleEndian: base.loadUnaligned(fromByteOffset: buffer.count &- 8, as: UInt64.self))
          return (last &>> UInt64(8 &* (8 &- left)), 0)
        }
        return (
          UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
          base.load(fromByteOffset: start &+ 8, as: UInt8.self)
        )
      }
      let stops = ~word & 0x8080_8080_8080_8080
      if stops != 0 {
        let length = (stops.trailingZeroBitCount &+ 1) &>> 3
        guard length <= count else { throw .truncated(offset: start) }
        offset = start &+ length
        return Self.squeeze(word, length: length)
      }
      // Eight bytes that all continue: nine bytes, or truncated (`ninth` is 0 when only eight
      // are left, and then `count` is at most 8).
      guard ninth < 0x80 && count >= 9 else { throw .truncated(offset: start) }
      offset = start &+ 9
      return Self.squeeze(word, length: 8) | UInt64(ninth) &<< 56
    }
    // A byte at a time (near the end of a message, or malformed). `end <= bytes.count`, so the
    // buffer is read without a second check.
    let end = self.end
    let (value, next) = bytes.withUnsafeBufferPointer { buffer -> (UInt64, Int) in
      var index = start
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while index < end {
        let byte = buffer[index]
        index &+= 1
        // The 10th byte may only carry the 64th bit: anything more is over 64 bits or 11+ bytes.
        if shift == 63 && byte > 1 { return (0, -1) }
        value |= UInt64(byte & 0x7F) &<< shift
        if byte < 0x80 { return (value, index) }
        shift &+= 7
      }
      return (0, -2)
    }
    if next == -1 { throw .malformedVarint(offset: start) }
    if next == -2 { throw .truncated(offset: start) }
    offset = next
    return value
  }

  /// Reads a field key; nil at the end of the current message.
  /// - Throws: for a truncated key, field number 0 or above 2^29 - 1, groups, wire types 6 and 7.
  @inline(__always)
  package mutating func readTag() throws(WireError) -> FieldTag? {
    guard offset < end else { return nil }
    let start = offset
    return try FieldTag(rawValue: try readVarint(), offset: start)
  }

  /// Reads a field key as it is on the wire (`number << 3 | wire type`), unchecked; nil at the end
  /// of the current message. Its offset is kept in `keyOffset`.
  ///
  /// The generated decoders switch on the raw keys of their fields with the wire type the .proto
  /// gives them (one jump; a key equal to such a value is valid by construction) and hand any
  /// other key to `tag(forKey:)`, which checks it exactly as `readTag()` does, then report a
  /// known field with the wrong wire type or skip an unknown one.
  @inline(__always)
  package mutating func readKey() throws(WireError) -> UInt64? {
    guard offset < end else { return nil }
    keyOffset = offset
    return try readVarint()
  }

  /// The tag of a key read by `readKey()`, checked as `readTag()` checks it.
  @inline(__always)
  package func tag(forKey key: UInt64) throws(WireError) -> FieldTag {
    try FieldTag(rawValue: key, offset: keyOffset)
  }

  /// The tag of a key read by `readKey()` that a decoder matched against one of its own
  /// fields' keys, so it is valid: field `key >> 3`, wire type length-delimited.
  @inline(__always)
  package func messageTag(forKey key: UInt64) -> FieldTag {
    FieldTag(
      number: UInt32(truncatingIfNeeded: key &>> 3), wireType: .lengthDelimited, offset: keyOffset)
  }

  /// The value of a varint field whose key a decoder matched (so its wire type is right), with
  /// `name` on any error.
  @inline(__always)
  package mutating func readVarint(named name: StaticString) throws(WireError) -> UInt64 {
    // One byte (enums, sequence numbers, small delays) first; then values of up to 8 bytes
    // (timestamps take 5) inline, a word at a time, when 8 bytes are in the input; the length
    // found is checked against the end of the message.
    if offset < end {
      let first = bytes.withUnsafeBufferPointer { $0[offset] }
      if first < 0x80 {
        offset &+= 1
        return UInt64(first)
      }
      if bytes.count &- offset >= 8 {
        let word = bytes.withUnsafeBufferPointer { buffer in
          UInt64(
            littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(
              as: UInt64.self))
        }
        let stops = ~word & 0x8080_8080_8080_8080  // the high bit of each byte that ends it
        let length = (stops.trailingZeroBitCount &+ 1) &>> 3
        if stops != 0 && length <= end &- offset {
          offset &+= length
          return Self.squeeze(word, length: length)
        }
      }
    }
    do throws(WireError) {
      return try readVarint()
    } catch {
      throw error.within(name)
    }
  }

  /// Reads 4 bytes, little-endian.
  @inline(__always)
  package mutating func readFixed32() throws(WireError) -> UInt32 {
    guard end &- offset >= 4 else { throw .truncated(offset: offset) }
    // (`offset + 4 <= end <= bytes.count`: the word is in the input.)
    let value = bytes.withUnsafeBufferPointer { buffer in
      UInt32(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt32.self))
    }
    offset &+= 4
    return value
  }

  /// Reads 8 bytes, little-endian.
  @inline(__always)
  package mutating func readFixed64() throws(WireError) -> UInt64 {
    guard end &- offset >= 8 else { throw .truncated(offset: offset) }
    let value = bytes.withUnsafeBufferPointer { buffer in
      UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    }
    offset &+= 8
    return value
  }

  /// Reads a length prefix and steps over the bytes it covers; returns their range.
  /// - Throws: `lengthPastEnd` when the length is more than what is left of the current message
  ///   (checked before any arithmetic, so a length near 2^64 cannot overflow).
  @inline(__always)
  package mutating func readLengthDelimited() throws(WireError) -> Range<Int> {
    let start = offset
    let length = try readVarint()
    guard length <= UInt64(end &- offset) else {
      throw .lengthPastEnd(length: length, offset: start)
    }
    let lower = offset
    offset = lower &+ Int(length)
    return lower..<offset
  }

  /// Steps over the value of a field this decoder does not know (an unknown field or an
  /// extension, 1000-1999 or 9000-9999), by its wire type.
  package mutating func skip(_ tag: FieldTag) throws(WireError) {
    switch tag.wireType {
    case .varint: _ = try readVarint()
    case .fixed64: try advance(by: 8)
    case .fixed32: try advance(by: 4)
    case .lengthDelimited: _ = try readLengthDelimited()
    }
  }

  private mutating func advance(by count: Int) throws(WireError) {
    guard end - offset >= count else { throw .truncated(offset: offset) }
    offset &+= count
  }

  // MARK: - Fields

  /// Throws `wrongWireType` unless `tag` has `wireType`. A known field with another wire type is
  /// malformed input here, though the protobuf spec would let a parser skip it as unknown.
  @inline(__always)
  private func expect(
    _ tag: FieldTag, _ wireType: WireType, _ name: StaticString, index: Int? = nil
  )
    throws(WireError)
  {
    guard tag.wireType == wireType else {
      throw Self.wrongWireType(tag, expected: wireType).within(name, index: index)
    }
  }

  /// The error for `tag` arriving where the .proto gives `expected`, without a path.
  private static func wrongWireType(_ tag: FieldTag, expected: WireType) -> WireError {
    .wrongWireType(field: tag.number, found: tag.wireType, expected: expected, offset: tag.offset)
  }

  /// A varint field, with `name` on any error.
  @inline(__always)
  private mutating func readVarintField(
    _ tag: FieldTag, _ name: StaticString
  ) throws(WireError)
    -> UInt64
  {
    try expect(tag, .varint, name)
    do throws(WireError) {
      return try readVarint()
    } catch {
      throw error.within(name)
    }
  }

  /// An `int32` field. Negative values arrive sign-extended to 10 bytes; larger values are
  /// truncated to 32 bits, as protobuf's C++ parser does.
  @inline(__always)
  package mutating func readInt32(_ tag: FieldTag, _ name: StaticString) throws(WireError) -> Int32 {
    Int32(truncatingIfNeeded: try readVarintField(tag, name))
  }

  /// An enum field's number (an `int32` on the wire).
  @inline(__always)
  package mutating func readEnum(_ tag: FieldTag, _ name: StaticString) throws(WireError) -> Int32 {
    Int32(truncatingIfNeeded: try readVarintField(tag, name))
  }

  /// An `int64` field.
  @inline(__always)
  package mutating func readInt64(_ tag: FieldTag, _ name: StaticString) throws(WireError) -> Int64 {
    Int64(bitPattern: try readVarintField(tag, name))
  }

  /// A `uint32` field (larger values truncated to 32 bits).
  @inline(__always)
  package mutating func readUInt32(
    _ tag: FieldTag, _ name: StaticString
  ) throws(WireError)
    -> UInt32
  {
    UInt32(truncatingIfNeeded: try readVarintField(tag, name))
  }

  /// A `uint64` field.
  @inline(__always)
  package mutating func readUInt64(
    _ tag: FieldTag, _ name: StaticString
  ) throws(WireError)
    -> UInt64
  {
    try readVarintField(tag, name)
  }

  /// A `bool` field: any non-zero varint is true.
  @inline(__always)
  package mutating func readBool(_ tag: FieldTag, _ name: StaticString) throws(WireError) -> Bool {
    try readVarintField(tag, name) != 0
  }

  /// A `float` field (fixed32).
  package mutating func readFloat(_ tag: FieldTag, _ name: StaticString) throws(WireError) -> Float {
    try expect(tag, .fixed32, name)
    do throws(WireError) {
      return Float(bitPattern: try readFixed32())
    } catch {
      throw error.within(name)
    }
  }

  /// A `double` field (fixed64).
  package mutating func readDouble(
    _ tag: FieldTag, _ name: StaticString
  ) throws(WireError)
    -> Double
  {
    try expect(tag, .fixed64, name)
    do throws(WireError) {
      return Double(bitPattern: try readFixed64())
    } catch {
      throw error.within(name)
    }
  }

  /// A `string` field, decoded once from the input's bytes. IDs must match exactly, so invalid
  /// UTF-8 is an error rather than replaced.
  /// - Parameter index: the element's index, for a repeated field.
  package mutating func readString(
    _ tag: FieldTag, _ name: StaticString, index: Int? = nil
  )
    throws(WireError) -> String
  {
    try expect(tag, .lengthDelimited, name, index: index)
    let range: Range<Int>
    do throws(WireError) {
      range = try readLengthDelimited()
    } catch {
      throw error.within(name, index: index)
    }
    guard let string = decodeString(range) else {
      throw WireError.invalidUTF8(offset: range.lowerBound).within(name, index: index)
    }
    return string
  }

  /// A `float` field whose key a decoder matched (so its wire type is right), with `name` on
  /// any error.
  @inline(__always)
  package mutating func readFloat(named name: StaticString) throws(WireError) -> Float {
    do throws(WireError) {
      return Float(bitPattern: try readFixed32())
    } catch {
      throw error.within(name)
    }
  }

  /// A `double` field whose key a decoder matched (so its wire type is right), with `name` on
  /// any error.
  package mutating func readDouble(named name: StaticString) throws(WireError) -> Double {
    do throws(WireError) {
      return Double(bitPattern: try readFixed64())
    } catch {
      throw error.within(name)
    }
  }

  /// A `string` field whose key a decoder matched (so its wire type is right), with `name` on
  /// any error.
  @inline(__always)
  package mutating func readString(named name: StaticString) throws(WireError) -> String {
    let start = offset
    let length: UInt64
    do throws(WireError) {
      length = try readVarint()  // (mostly one byte: not `readVarint(named:)`'s word path)
    } catch {
      throw error.within(name)
    }
    guard length <= UInt64(end &- offset) else {
      throw WireError.lengthPastEnd(length: length, offset: start).within(name)
    }
    let range = offset..<offset &+ Int(length)
    offset = range.upperBound
    guard let string = decodeString(range) else {
      throw WireError.invalidUTF8(offset: range.lowerBound).within(name)
    }
    return string
  }

  /// A `string` field whose key a decoder matched, stored in `field` (with `name` on any error).
  ///
  /// A field is mostly seen once, so `field` is mostly nil: the string is then put in place
  /// without the call that assignment makes to release the old value (a nil string holds no
  /// reference), a tenth of the cost of a short ID.
  ///
  /// Only the short-string fast path is inlined into the decoders; anything else (a long or
  /// non-ASCII string, a field seen again, an error) takes a call. Inlining the whole read made
  /// every call site large enough that the optimizer stopped inlining it at all (measured: the
  /// fast path then cost a call of about 65 instructions per short ID).
  @inline(__always)
  package mutating func readString(named name: StaticString, into field: inout String?) throws(WireError) {
    if field == nil && storeShortString(at: &field) { return }
    try readStringOutOfLine(named: name, into: &field)
  }

  /// `readString(named:into:)` past its fast path.
  @inline(never)
  private mutating func readStringOutOfLine(
    named name: StaticString, into field: inout String?
  ) throws(WireError) {
    let value = try readString(named: name)
    if field == nil {
      withUnsafeMutablePointer(to: &field) { $0.initialize(to: value) }
    } else {
      field = value
    }
  }

  /// A `string` field of a compact message (see `StopTimeUpdate`), stored in `field`, which
  /// holds the empty string unless `isSet` (the field's presence bit): put in place as
  /// `readString(named:into:)` does.
  @inline(__always)
  package mutating func readString(
    named name: StaticString, into field: inout String, isSet: Bool
  ) throws(WireError) {
    // ("" holds no reference either, and a string is laid out as an optional one is.)
    if !isSet && storeShortString(at: &field) { return }
    try readStringOutOfLine(named: name, into: &field, isSet: isSet)
  }

  /// `readString(named:into:isSet:)` past its fast path.
  @inline(never)
  private mutating func readStringOutOfLine(
    named name: StaticString, into field: inout String, isSet: Bool
  ) throws(WireError) {
    let value = try readString(named: name)
    if isSet {
      field = value
    } else {
      withUnsafeMutablePointer(to: &field) { $0.initialize(to: value) }  // "" holds no reference
    }
  }

  /// The fast path of both `readString(named:into:)` methods: a one-byte length and a valid string of at
  /// most 15 bytes within the message, written straight over the unset `String?` (or empty
  /// `String`) at `target` (`ShortString.store`), and true; false, reading and writing nothing,
  /// for anything else.
  @inline(__always)
  private mutating func storeShortString<T>(at target: UnsafeMutablePointer<T>) -> Bool {
    guard buildsShortStringsInline && offset < end else { return false }
    let length = Int(bytes.withUnsafeBufferPointer { $0[offset] })
    guard length < 16 && length < end &- offset else { return false }
    let start = offset &+ 1
    let stored = bytes.withUnsafeBufferPointer { buffer in
      ShortString.store(
        UnsafeBufferPointer(rebasing: buffer[start..<(start &+ length)]), source: buffer,
        into: UnsafeMutableRawPointer(target))
    }
    if stored { offset = start &+ length }
    return stored
  }

  /// Element `index` of a repeated `string` field whose key a decoder matched, with
  /// `name[index]` on any error.
  package mutating func readString(
    named name: StaticString, index: Int
  ) throws(WireError)
    -> String
  {
    do throws(WireError) {
      return try readString(named: name)
    } catch {
      var indexed = error
      indexed.path[0] = "\(name)[\(index)]"  // `name` itself, from `readString(named:)`
      throw indexed
    }
  }

  /// The error for a known field `name` (element `index` of a repeated field) whose checked
  /// `tag` has another wire type than the .proto's `expected`. A known field with another wire
  /// type is malformed input here, though the protobuf spec would let a parser skip it.
  package func wrongWireType(
    _ tag: FieldTag, expected: WireType, _ name: StaticString, index: Int? = nil
  ) -> WireError {
    Self.wrongWireType(tag, expected: expected).within(name, index: index)
  }

  /// `bytes[range]` as a string, or nil if they are not valid UTF-8; strings of 1 to 15 bytes
  /// built in place (see `ShortString`).
  @inline(__always)
  private func decodeString(_ range: Range<Int>) -> String? {
    switch range.count {
    case 0: return ""
    case 1..<16:
      return bytes.withUnsafeBufferPointer { buffer in
        ShortString.make(
          UnsafeBufferPointer(rebasing: buffer[range]), source: buffer,
          inline: buildsShortStringsInline)
      }
    default:
      return Self.decodeUTF8(bytes, range)
    }
  }

  /// `bytes[range]` as a string, or nil if they are not valid UTF-8.
  ///
  /// The bytes are validated here (strictly, see `UTF8Validation`) and then copied straight into
  /// the string's storage, which the standard library validates once more (it would repair
  /// rather than reject). `String(decoding:as:)` would scan them twice more. Never inlined: the
  /// validation loop is compiled once, on its own, whatever reads the string (inlined into
  /// `readStringOutOfLine` it ran 10% slower on the alerts of a Puget Sound capture).
  @inline(never)
  private static func decodeUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
    bytes.withUnsafeBufferPointer { buffer in
      let source = UnsafeBufferPointer(rebasing: buffer[range])
      guard UTF8Validation.isValid(source) else { return nil }
      return String(unsafeUninitializedCapacity: source.count) { target in
        target.baseAddress!.initialize(from: source.baseAddress!, count: source.count)
        return source.count
      }
    }
  }

  /// How many fields numbered `number` the current message holds from `offset` on: a quick scan
  /// of the tags, skipping values, so a repeated field's array can be allocated once. Stops
  /// early, without throwing, at anything malformed (the real decode reports it). Each counted
  /// field takes at least two bytes, so the count never exceeds half the input.
  package func count(of number: UInt32, from offset: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      // A plain loop over the buffer (`index < end <= buffer.count` is checked before each read):
      // this runs once per repeated field, over all of its elements.
      var index = offset
      var count = 0
      while index < end {
        // The common case first: a one-byte key of a length-delimited field, a one-byte length.
        let first = buffer[index]
        if first & 0x87 == 2 && end &- index >= 2 && buffer[index &+ 1] < 0x80 {
          if UInt32(first &>> 3) == number { count &+= 1 }
          index &+= 2 &+ Int(buffer[index &+ 1])
          continue
        }
        // Next, a one-byte key of a varint field (timestamps, delays, enums) with eight more
        // bytes in the input: the varint is stepped over a word at a time (the high bit of each
        // byte that ends it), not a byte at a time; one that runs past the message ends the loop,
        // as below. Longer varints take the loop below.
        if first & 0x87 == 0 && buffer.count &- index >= 9 {
          let word = UInt64(
            littleEndian: UnsafeRawPointer(buffer.baseAddress! + (index &+ 1)).loadUnaligned(as: UInt64.self))
          let stops = ~word & 0x8080_8080_8080_8080
          if stops != 0 {
            if UInt32(first &>> 3) == number { count &+= 1 }
            index &+= 1 &+ (stops.trailingZeroBitCount &+ 1) &>> 3
            continue
          }
        }
        // Any other field: the key, then the value's length (a varint's or a length prefix's).
        var key: UInt64 = 0
        var shift: UInt64 = 0
        while true {
          guard index < end, shift < 64 else { return count }
          let byte = buffer[index]
          index &+= 1
          key |= UInt64(byte & 0x7F) &<< shift
          if byte < 0x80 { break }
          shift &+= 7
        }
        if key &>> 3 == UInt64(number) { count &+= 1 }
        switch key & 7 {
        case 0, 2:
          var value: UInt64 = 0
          shift = 0
          while true {
            guard index < end, shift < 64 else { return count }
            let byte = buffer[index]
            index &+= 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { break }
            shift &+= 7
          }
          if key & 7 == 2 {
            guard value <= UInt64(end &- index) else { return count }
            index &+= Int(value)
          }
        case 1: index &+= 8
        case 5: index &+= 4
        default: return count
        }
      }
      return count
    }
  }

  // MARK: - Repeated scalars

  /// Appends the values of a repeated varint field, packed or not: protobuf parsers must accept
  /// both forms whatever the .proto says ("Packed Repeated Fields").
  package mutating func readRepeatedVarint(
    _ tag: FieldTag, _ name: StaticString, into values: inout [UInt64]
  ) throws(WireError) {
    do throws(WireError) {
      switch tag.wireType {
      case .varint:
        values.append(try readVarint())
      case .lengthDelimited:
        try readPacked { reader throws(WireError) in values.append(try reader.readVarint()) }
      default:
        throw Self.wrongWireType(tag, expected: .varint)
      }
    } catch {
      throw error.within(name, index: values.count)
    }
  }

  /// Appends the values of a repeated fixed32 field (`fixed32`, `sfixed32`, `float`), packed or not.
  package mutating func readRepeatedFixed32(
    _ tag: FieldTag, _ name: StaticString, into values: inout [UInt32]
  ) throws(WireError) {
    do throws(WireError) {
      switch tag.wireType {
      case .fixed32:
        values.append(try readFixed32())
      case .lengthDelimited:
        try readPacked { reader throws(WireError) in values.append(try reader.readFixed32()) }
      default:
        throw Self.wrongWireType(tag, expected: .fixed32)
      }
    } catch {
      throw error.within(name, index: values.count)
    }
  }

  /// Reads a packed run: a length, then elements until exactly that length is used up (an element
  /// that crosses the end throws `truncated`).
  private mutating func readPacked(
    _ element: (inout WireReader) throws(WireError) -> Void
  )
    throws(WireError)
  {
    let range = try readLengthDelimited()
    let outerEnd = end
    offset = range.lowerBound
    end = range.upperBound
    while offset < end { try element(&self) }
    end = outerEnd
  }

  // MARK: - Nested messages

  /// A message field that may appear once, merged into `value` as proto2 requires when it appears
  /// again ("Last One Wins" for scalars, concatenation for repeated fields, merge for messages).
  package mutating func mergeMessage<M: WireMessage>(
    _ tag: FieldTag, _ name: StaticString, into value: inout M?
  ) throws(WireError) {
    // Decoded in place (`value!` is a modify access): FeedEntity and TripUpdate are hundreds of
    // bytes, and copying them in and out costs more than decoding their small fields.
    if value == nil {
      // In place of nil, which holds nothing to release (an assignment would call the
      // message's outlined destroy first).
      withUnsafeMutablePointer(to: &value) { $0.initialize(to: M()) }
    }
    try decodeNested(tag, name, index: nil, into: &value!)
  }

  /// A message field kept in a `Box`, merged in place: the cell is made on first use and copied
  /// first if anything else shares it.
  mutating func mergeMessage<M: WireMessage & Sendable>(
    _ tag: FieldTag, _ name: StaticString, into box: inout Box<M>?
  ) throws(WireError) {
    guard box != nil else {
      // The usual case: decoded here and moved into a new cell, since writing through the
      // cell's property costs a dynamic exclusivity check (`swift_beginAccess`) per message.
      var value = M()
      try decodeNested(tag, name, index: nil, into: &value)
      box = Box(value)
      return
    }
    if !isKnownUniquelyReferenced(&box!) { box = Box(box!.value) }
    try decodeNested(tag, name, index: nil, into: &box!.value)
  }

  /// NYCT's extension of a stop time update, merged into it (`NYCTTracks` packs short tracks in
  /// place; others go to its `rareBox`).
  @inline(__always)
  mutating func mergeNYCTStopTimeUpdate(
    _ tag: FieldTag, _ name: StaticString, into update: inout TripUpdate.StopTimeUpdate
  ) throws(WireError) {
    // NYCT's own shape, read straight from the bytes: `0A 01 t` (scheduled_track) and
    // `12 01 t` (actual_track), each track one or two ASCII bytes, at most once each. Anything
    // else is decoded the general way below, from the same place.
    if tag.wireType == .lengthDelimited, depthBudget > 0, update.storedTracks == 0, update.rareBox == nil,
      let (packed, next) = Self.packedTracks(bytes, at: offset, end: end)
    {
      offset = next
      update.storedTracks = packed
      return
    }
    try mergeNYCTStopTimeUpdateOutOfLine(tag, name, into: &update)
  }

  /// The tracks of an NYCT stop time update extension at `start` (its length prefix) packed as
  /// `storedTracks` keeps them, and the offset after it; nil unless it is NYCT's short shape.
  @inline(__always)
  private static func packedTracks(_ bytes: [UInt8], at start: Int, end: Int) -> (UInt32, Int)? {
    bytes.withUnsafeBufferPointer { buffer -> (UInt32, Int)? in
      // (`start < end <= buffer.count` is checked first; every read below is before `stop`.)
      guard start < end else { return nil }
      let base = buffer.baseAddress!
      let length = Int(base[start])
      let stop = start &+ 1 &+ length
      guard length > 0, length < 0x80, stop <= end else { return nil }
      var position = start &+ 1
      var packed: UInt32 = 0
      while position < stop {
        guard stop &- position >= 3 else { return nil }
        let key = base[position]
        let count = Int(base[position &+ 1])
        let shift: UInt32
        if key == 0x0A {
          shift = 0
        } else if key == 0x12 {
          shift = 16
        } else {
          return nil
        }
        guard count == 1 || (count == 2 && stop &- position >= 4), (packed &>> shift) & 0xFFFF == 0 else { return nil }
        let first = base[position &+ 2]
        let second: UInt8 = count == 2 ? base[position &+ 3] : 0
        guard first > 0, first < 0x80, count == 1 || (second > 0 && second < 0x80) else { return nil }
        packed |= (UInt32(first) | UInt32(second) &<< 8) &<< shift
        position &+= 2 &+ count
      }
      return packed == 0 ? nil : (packed, stop)
    }
  }

  /// `mergeNYCTStopTimeUpdate`'s general way: the extension decoded as a message.
  @inline(never)
  private mutating func mergeNYCTStopTimeUpdateOutOfLine(
    _ tag: FieldTag, _ name: StaticString, into update: inout TripUpdate.StopTimeUpdate
  ) throws(WireError) {
    var value = update.nyctStopTimeUpdate ?? NyctStopTimeUpdate()
    try decodeNested(tag, name, index: nil, into: &value)
    update.nyctStopTimeUpdate = value
  }

  /// A `StopTimeEvent` field (a stop time update's arrival or departure) whose one-byte key a
  /// decoder matched, merged into `event`.
  ///
  /// The usual event (a body under 128 bytes of varint fields that `StopTimeEvent` knows, each
  /// whole within it, with ten bytes of input after each key) is read straight from the bytes:
  /// a word per varint, without entering the message's own decode loop (about a third of the
  /// cost of a feed of many stop time updates). Anything else (an unknown field, another wire
  /// type, a longer body, a varint that runs past the body, the input's last bytes, no depth
  /// left) is decoded the general way from the same place, so it fails with the same error.
  @inline(__always)
  mutating func mergeStopTimeEvent(
    key: UInt64, _ name: StaticString, into event: inout TripUpdate.StopTimeEvent
  ) throws(WireError) {
    if depthBudget > 0, let next = Self.mergeShortStopTimeEvent(bytes, at: offset, end: end, into: &event) {
      offset = next
      return
    }
    try decodeNested(messageTag(forKey: key), name, index: nil, into: &event)
  }

  /// `mergeStopTimeEvent`'s fast path: the event whose length prefix is at `start`, merged into
  /// `event`, and the offset after it; nil when it takes the general way. The fields read before
  /// a field it leaves to the general way are written already; the general way reads them again
  /// from the start of the event and writes the same values (a scalar read again replaces).
  @inline(__always)
  private static func mergeShortStopTimeEvent(
    _ bytes: [UInt8], at start: Int, end: Int, into event: inout TripUpdate.StopTimeEvent
  ) -> Int? {
    bytes.withUnsafeBufferPointer { buffer -> Int? in
      guard start < end else { return nil }
      let base = UnsafeRawPointer(buffer.baseAddress!)
      let length = Int(base.load(fromByteOffset: start, as: UInt8.self))
      let stop = start &+ 1 &+ length
      // Each varint is read as a word from its first byte, which needs ten bytes of input from
      // there (and every varint starts before `stop`).
      guard length < 0x80, stop <= end, buffer.count &- stop >= 10 else { return nil }
      var position = start &+ 1
      while position < stop {
        let key = base.load(fromByteOffset: position, as: UInt8.self)
        guard key & 7 == 0, key >= 0x08, key <= 0x20 else { return nil }
        var value: UInt64
        let first = base.load(fromByteOffset: position &+ 1, as: UInt8.self)
        if first < 0x80 {  // (delays of under two minutes, uncertainties, zeros)
          value = UInt64(first)
          position &+= 2
        } else {
          let count: Int
          (value, count) = parseVarint(at: base + (position &+ 1))
          guard count > 0 else { return nil }
          position &+= 1 &+ count
        }
        guard position <= stop else { return nil }
        switch key {
        case 0x08:
          event.storedDelay = Int32(truncatingIfNeeded: value)
          event.presence |= TripUpdate.StopTimeEvent.Field.delay
        case 0x10:
          event.storedTime = Int64(bitPattern: value)
          event.presence |= TripUpdate.StopTimeEvent.Field.time
        case 0x18:
          event.storedUncertainty = Int32(truncatingIfNeeded: value)
          event.presence |= TripUpdate.StopTimeEvent.Field.uncertainty
        default:
          event.storedScheduledTime = Int64(bitPattern: value)
          event.presence |= TripUpdate.StopTimeEvent.Field.scheduledTime
        }
      }
      return stop
    }
  }

  /// A message field kept with other rarely set ones in one `Box` (`StopTimeUpdate.Rare`),
  /// merged in place at `field` of the cell's value; the cell is made on first use.
  mutating func mergeMessage<R: RareFields, M: WireMessage & Sendable>(
    _ tag: FieldTag, _ name: StaticString, into box: inout Box<R>?, at field: WritableKeyPath<R, M?>
  ) throws(WireError) {
    var value = box?.value[keyPath: field] ?? M()
    try decodeNested(tag, name, index: nil, into: &value)
    if box == nil {
      var rare = R()
      rare[keyPath: field] = value
      box = Box(rare)
      return
    }
    if !isKnownUniquelyReferenced(&box!) { box = Box(box!.value) }
    box!.value[keyPath: field] = value
  }

  /// One element of a repeated message field, appended to `array`. The first element reserves
  /// room for all the elements the message holds, so the array is allocated once.
  @inline(__always)
  package mutating func appendMessage<M: WireMessage>(
    _ tag: FieldTag, _ name: StaticString, budget: Budget = .message, to array: inout [M]
  ) throws(WireError) {
    if array.isEmpty {
      // Every element from here to the end of the message, spent once (later calls for the same
      // array find it non-empty).
      array.reserveCapacity(try spendRun(tag, from: budget))
    } else {
      try spendElement(tag, from: budget)
    }
    let index = array.count
    array.append(M())
    try decodeNested(tag, name, index: index, into: &array[index])  // in place, no copy
  }

  /// A repeated message field whose one-byte `key` (wire type length-delimited) a decoder
  /// matched: this element and those that directly follow it with the same key, appended to
  /// `array`.
  ///
  /// When `array` is empty the run is decoded in place into a new array of the size
  /// `count(of:from:)` gives (a large trip update lists its stop_time_updates one after the
  /// other), filled with empty elements in one loop, so no element pays for the array's
  /// uniqueness and capacity checks; otherwise the element is appended as `appendMessage` does.
  @inline(__always)
  package mutating func appendMessages<M: WireMessage>(
    key: UInt64, _ name: StaticString, budget: Budget = .message, to array: inout [M]
  ) throws(WireError) {
    let tag = messageTag(forKey: key)
    guard array.isEmpty && key < 0x80 else {
      try appendMessage(tag, name, budget: budget, to: &array)
      return
    }
    let capacity = try spendRun(tag, from: budget)  // all of them, before any is allocated
    // Filled with empty elements first: `reserveCapacity` and `append` are specialized for `M`
    // (the loop becomes a few vector stores per element), while `Array(repeating:count:)` and
    // `Array(unsafeUninitializedCapacity:)` allocate through the standard library's
    // unspecialized path, a generic metadata lookup per array (measured: a feed of small trip
    // updates decodes 14% slower with the former).
    var elements: [M] = []
    elements.reserveCapacity(capacity)
    for _ in 0..<capacity { elements.append(M()) }
    // The run holds at most `capacity` elements: the count covers every field numbered
    // `tag.number` from here to the end of the message.
    let decoded = try elements.withUnsafeMutableBufferPointer { buffer throws(WireError) in
      try decodeRun(key: key, name, first: tag, upTo: capacity, into: buffer, at: 0, indexBase: 0)
    }
    if decoded < capacity { elements.removeLast(capacity &- decoded) }  // more of them later
    array = elements
  }

  /// A run of a repeated message field whose one-byte `key` a decoder matched, decoded in place
  /// into `buffer` from `start` on, at most `limit` elements: the first (its key read, `tag`),
  /// then each that directly follows it with the same key (read here). Returns how many were
  /// decoded. `indexBase` is the first one's index in its field, for error paths. (One loop for
  /// `appendMessages` and `appendStopTimeUpdates`.)
  @inline(__always)
  mutating func decodeRun<M: WireMessage>(
    key: UInt64, _ name: StaticString, first tag: FieldTag, upTo limit: Int,
    into buffer: UnsafeMutableBufferPointer<M>, at start: Int, indexBase: Int
  ) throws(WireError) -> Int {
    var tag = tag
    var decoded = 0
    while decoded < limit {
      let index = decoded
      decoded = index &+ 1
      try decodeNested(tag, name, index: indexBase &+ index, into: &buffer[start &+ index])
      // The next field, if it is another element there is room for: its key is read here.
      guard decoded < limit, key < 0x80, offset < end,
        bytes.withUnsafeBufferPointer({ $0[offset] }) == UInt8(key)
      else { break }
      keyOffset = offset
      offset &+= 1
      tag = messageTag(forKey: key)
    }
    return decoded
  }

  /// Reads a length-delimited sub-message in place: the reader's `end` narrows to the length,
  /// so the message must end exactly where its length says, and one level of the depth budget
  /// is spent while inside it.
  mutating func decodeNested<M: WireMessage>(
    _ tag: FieldTag, _ name: StaticString, index: Int?, into message: inout M
  ) throws(WireError) {
    do throws(WireError) {
      guard tag.wireType == .lengthDelimited else {
        throw Self.wrongWireType(tag, expected: .lengthDelimited)
      }
      guard depthBudget > 0 else { throw .tooDeep(limit: maxDepth, offset: tag.offset) }
      let range = try readLengthDelimited()
      let outerEnd = end
      offset = range.lowerBound
      end = range.upperBound
      depthBudget &-= 1
      try message.merge(from: &self)
      depthBudget &+= 1
      end = outerEnd
    } catch {
      throw error.within(name, index: index)
    }
  }
}

/// A message of gtfs-realtime.proto that the wire decoder can fill.
package protocol WireMessage {
  /// The message with every field unset.
  init()
  /// Reads fields until the reader's end, over the values already set (protobuf's merge: a
  /// scalar read again replaces, a repeated field appends, a message merges).
  mutating func merge(from reader: inout WireReader) throws(WireError)
}
