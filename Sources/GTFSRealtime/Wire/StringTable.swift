/// The short strings (1 to 15 bytes) already decoded from one input, found again by their bytes.
///
/// IDs repeat within a feed: a large trip-updates capture names each stop in hundreds of
/// stop_time_updates, and routes and vehicles recur too. Building a `String` costs a call into
/// the standard library (about a hundred instructions even for a small, inline string), while
/// finding the same bytes here costs a hash of two words and a comparison, and the string found
/// is a copy of one already validated and built. Strings of 16 bytes or more are not kept: they
/// need a heap allocation of their own anyway.
///
/// The table is direct-mapped (one slot per hash, a newer string replaces an older one), so a
/// lookup is a single probe and the table never grows. A key is the string's bytes loaded into
/// two little-endian words with its length in the top byte of the second, so two keys are
/// equal exactly when the bytes are, and the all-zero key of an empty slot never matches.
///
/// The table is a struct of pointers, so the reader reaches it without reference counting; the
/// memory belongs to a `Storage` object that the table holds and that frees it. The keys and
/// the strings live in that one object (one allocation per decode, whatever the table's size),
/// and a slot's string is initialised only when the slot is first filled and destroyed only if
/// it was: a small feed that finds a few strings pays for those, not for every slot (an empty
/// feed's version string used to cost the set-up and tear-down of 64 strings, most of its
/// decoding time).
struct StringTable {
  /// `2 * slotCount` words: the key of each slot (all zero while empty).
  private let keys: UnsafeMutablePointer<UInt64>
  /// `slotCount` strings: the string of each slot, initialised only where the key is not zero.
  private let strings: UnsafeMutablePointer<String>
  /// 64 minus log2(slotCount): how far a hash is shifted to give a slot.
  private let shift: UInt64
  /// Owns `keys` and `strings`.
  private let storage: Storage

  /// The owner of a table's memory: a header (the slot count) and, after it, the keys followed
  /// by the strings, which it destroys when the last reader using it goes.
  final class Storage: ManagedBuffer<Int, UInt64> {
    /// Storage for `slotCount` slots, keys zeroed, strings uninitialised.
    static func make(slotCount: Int) -> Storage {
      // 2 words of key and 2 words of string (16 bytes) per slot.
      let buffer = Storage.create(minimumCapacity: 4 &* slotCount) { _ in slotCount }
      let storage = unsafeDowncast(buffer, to: Storage.self)
      storage.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: 2 &* slotCount) }
      return storage
    }

    var keys: UnsafeMutablePointer<UInt64> { withUnsafeMutablePointerToElements { $0 } }

    var strings: UnsafeMutablePointer<String> {
      withUnsafeMutablePointerToElements { elements in
        UnsafeMutableRawPointer(elements + 2 &* header).assumingMemoryBound(to: String.self)
      }
    }

    deinit {
      let keys = self.keys
      let strings = self.strings
      for slot in 0..<header where keys[2 &* slot &+ 1] != 0 {  // (a key's length byte is never 0)
        (strings + slot).deinitialize(count: 1)
      }
    }
  }

  /// Inputs smaller than this build their strings directly, without a table.
  static let minimumInputSize = 1024

  /// A table sized for an input of `inputSize` bytes: about one slot per 64 bytes, between 16
  /// and 4096 slots (32 bytes each).
  init(inputSize: Int) {
    var slotCount = 16
    while slotCount < 4096 && slotCount &* 64 < inputSize { slotCount &*= 2 }
    storage = Storage.make(slotCount: slotCount)
    keys = storage.keys
    strings = storage.strings
    shift = UInt64(64 &- slotCount.trailingZeroBitCount)
  }

  /// The string whose bytes are `bytes` (1 to 15 of them), or nil if they are not valid UTF-8.
  @inline(__always)
  func string(_ bytes: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<UInt8>)
    -> String?
  {
    let (low, high) = Self.key(bytes, source: source)
    var hash = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    hash ^= hash &>> 29
    let slot = Int(truncatingIfNeeded: hash &>> shift)
    if keys[2 &* slot] == low && keys[2 &* slot &+ 1] == high { return strings[slot] }
    return insert(bytes, low: low, high: high, slot: slot)
  }

  /// Builds the string for a key not in the table and puts it in `slot`.
  @inline(never)
  private func insert(_ bytes: UnsafeBufferPointer<UInt8>, low: UInt64, high: UInt64, slot: Int)
    -> String?
  {
    // All ASCII (no byte with its high bit set, the length byte aside) is valid UTF-8.
    let ascii = (low | (high & 0x00FF_FFFF_FFFF_FFFF)) & 0x8080_8080_8080_8080 == 0
    guard ascii || UTF8Validation.isValid(bytes) else { return nil }
    let string = String(unsafeUninitializedCapacity: bytes.count) { target in
      for index in 0..<bytes.count { target[index] = bytes[index] }
      return bytes.count
    }
    if keys[2 &* slot &+ 1] == 0 {
      (strings + slot).initialize(to: string)  // an empty slot: its string is not initialised
    } else {
      strings[slot] = string
    }
    keys[2 &* slot] = low
    keys[2 &* slot &+ 1] = high
    return string
  }

  /// The key of `bytes` (1 to 15 bytes within `source`): two words, little-endian, with the
  /// length in the top byte of the second.
  @inline(__always)
  private static func key(_ bytes: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<UInt8>)
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
    return (low, high | UInt64(count) &<< 56)
  }
}
