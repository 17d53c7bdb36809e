/// Strings of 1 to 15 bytes (most IDs in a feed: stop, trip, route and vehicle IDs, dates and
/// times) built straight from the input's bytes.
///
/// The standard library keeps such a string inline, in the two words of the `String` itself:
/// the UTF-8 bytes, little-endian, then a discriminator byte (`0xE0` for ASCII, `0xA0`
/// otherwise, plus the byte count). Building one through `String(unsafeUninitializedCapacity:)`
/// costs a call and a second validation (about a hundred instructions even for "2.0"); here it
/// costs two loads and a mask. Earlier versions found repeated IDs again in a per-input hash
/// table instead, whose set-up and tear-down cost more than they saved on small feeds, and which
/// thrashed once a feed had more distinct IDs than its 4,096 slots.
///
/// The layout is the standard library's (the same on every 64-bit little-endian platform, and
/// ABI on Apple's). It is checked once per process, against strings the standard library built
/// (`isLayoutKnown`); should it ever differ, strings are built the ordinary way.
enum ShortString {
  /// Whether strings built here are the standard library's own small strings; checked once.
  static let isLayoutKnown: Bool = {
    #if _pointerBitWidth(_64) && _endian(little)
      // "2.0" (ASCII) and "é日本 7" (not), as the standard library builds them, against the
      // same bytes as built here.
      let samples: [[UInt8]] = [Array("2.0".utf8), Array("é日本 7".utf8), Array("123456789012345".utf8)]
      // `store` writes an optional string's two words as the string's own (no tag of its own),
      // and the empty string as a small string of no bytes.
      guard MemoryLayout<String?>.size == MemoryLayout<String>.size,
        unsafeBitCast(Optional("2.0"), to: (UInt64, UInt64).self) == unsafeBitCast("2.0", to: (UInt64, UInt64).self),
        unsafeBitCast("", to: (UInt64, UInt64).self) == (0, 0xE0 &<< 56)
      else { return false }
      return samples.allSatisfy { sample in
        sample.withUnsafeBufferPointer { buffer in
          let built = make(buffer, source: buffer, inline: true)
          let expected = String(decoding: sample, as: UTF8.self)
          guard let built, built == expected, built.utf8.count == sample.count else { return false }
          return unsafeBitCast(built, to: (UInt64, UInt64).self)
            == unsafeBitCast(expected, to: (UInt64, UInt64).self)
        }
      }
    #else
      return false
    #endif
  }()

  /// The string whose bytes are `bytes` (1 to 15 of them, within `source`), or nil if they are
  /// not valid UTF-8. `inline` says whether it may be built in place (`isLayoutKnown`).
  @inline(__always)
  static func make(
    _ bytes: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<UInt8>, inline: Bool
  ) -> String? {
    let (low, high) = load(bytes, source: source)
    // All ASCII (no byte with its high bit set) is valid UTF-8.
    let ascii = (low | high) & 0x8080_8080_8080_8080 == 0
    guard ascii || UTF8Validation.isValid(bytes) else { return nil }
    guard inline else { return build(bytes) }
    #if _pointerBitWidth(_64) && _endian(little)
      let discriminator = (ascii ? 0xE0 : 0xA0) | UInt64(bytes.count)
      // Moved out of the two words rather than `unsafeBitCast`: a bit cast copies the string, and
      // the copy costs a `swift_bridgeObjectRetain` call (about 20 instructions, for nothing: a
      // small string holds no reference).
      var words = (low, high | discriminator &<< 56)
      return withUnsafeMutablePointer(to: &words) { pointer in
        pointer.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
      }
    #else
      return build(bytes)
    #endif
  }

  /// Writes the string whose bytes are `bytes` (0 to 15 of them, within `source`) as a
  /// `String?` at `target`, over an unset value (nil holds no reference, so nothing is
  /// released), and returns true; false, writing nothing, if they are not valid UTF-8.
  /// - Precondition: `isLayoutKnown`.
  @inline(__always)
  static func store(
    _ bytes: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableRawPointer
  ) -> Bool {
    var (low, high): (UInt64, UInt64) = (0, 0)
    var ascii = true
    if bytes.count > 0 {
      (low, high) = load(bytes, source: source)
      ascii = (low | high) & 0x8080_8080_8080_8080 == 0
      guard ascii || UTF8Validation.isValid(bytes) else { return false }
    }
    let discriminator = (ascii ? 0xE0 : 0xA0) | UInt64(bytes.count)
    target.storeBytes(of: low, as: UInt64.self)
    target.storeBytes(of: high | discriminator &<< 56, toByteOffset: 8, as: UInt64.self)
    return true
  }

  /// `bytes` (valid UTF-8) as a string, built by the standard library.
  @inline(never)
  private static func build(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count) { target in
      for index in 0..<bytes.count { target[index] = bytes[index] }
      return bytes.count
    }
  }

  /// `bytes` (1 to 15 within `source`) as two little-endian words, zero beyond the string.
  @inline(__always)
  private static func load(
    _ bytes: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<UInt8>
  )
    -> (UInt64, UInt64)
  {
    let count = bytes.count
    let start = bytes.baseAddress!
    var low: UInt64 = 0
    var high: UInt64 = 0
    if source.baseAddress! + source.count - start >= 16 {
      // Sixteen bytes are in the input: load two words and mask off what is not the string's.
      let raw = UnsafeRawPointer(start)
      low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
      if count < 8 {
        low &= (1 &<< UInt64(8 &* count)) &- 1
      } else if count > 8 {
        high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        high &= (1 &<< UInt64(8 &* (count &- 8))) &- 1
      }
    } else {
      // Near the end of the input: a byte at a time.
      for index in 0..<min(count, 8) { low |= UInt64(bytes[index]) &<< UInt64(8 &* index) }
      for index in 8..<max(count, 8) { high |= UInt64(bytes[index]) &<< UInt64(8 &* (index &- 8)) }
    }
    return (low, high)
  }
}
