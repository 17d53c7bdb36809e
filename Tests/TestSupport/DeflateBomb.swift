/// Small gzip files that decompress to a great deal: `unit` repeated, written as one fixed-Huffman
/// deflate block of back-references (RFC 1951 3.2.6), about 160 to 1 for short units. For the
/// memory-budget tests, which must refuse such a file as it inflates.
package enum DeflateBomb {
  /// A gzip member holding `unit` repeated `count` times.
  ///
  /// - Parameter trailer: write the real CRC-32 and size (costly for hundreds of MiB); without
  ///   it the trailer is zeros, which only matters to a reader that gets that far.
  /// Empty (which no test that expects a bomb accepts) for a unit it cannot repeat.
  package static func gzip(repeating unit: [UInt8], count: Int, trailer: Bool = false) -> [UInt8] {
    guard !unit.isEmpty && unit.count <= 32_768 && count >= 1 else { return [] }
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
    let total = unit.count * count
    for byte in unit { bits.literal(Int(byte)) }
    var written = unit.count
    let distance = Distance(unit.count)
    while total - written >= 258 {
      bits.huffman(0xC5, length: 8)  // length code 285: 258 bytes, no extra bits
      bits.huffman(distance.code, length: 5)
      bits.write(distance.extra, count: distance.extraBits)
      written += 258
    }
    while written < total {
      bits.literal(Int(unit[written % unit.count]))
      written += 1
    }
    bits.huffman(0, length: 7)  // end of block (256)
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + bits.flushed
    var crc: UInt32 = 0
    if trailer {
      var whole: [UInt8] = []
      whole.reserveCapacity(total)
      for _ in 0..<count { whole += unit }
      crc = FeedGzip.crc32(whole)
    }
    for value in [crc, UInt32(truncatingIfNeeded: total)] {
      for shift in stride(from: 0, to: 32, by: 8) { out.append(trailer ? UInt8(truncatingIfNeeded: value >> UInt32(shift)) : 0) }
    }
    return out
  }

  /// A distance's 5-bit code and extra bits (RFC 1951 3.2.5).
  private struct Distance {
    var code = 0, extra = 0, extraBits = 0
    init(_ distance: Int) {
      var base = 1
      for code in 0..<30 {
        let extraBits = code < 4 ? 0 : code / 2 - 1
        if distance < base + (1 << extraBits) {
          self.code = code
          self.extra = distance - base
          self.extraBits = extraBits
          return
        }
        base += 1 << extraBits
      }
      // Unreachable: gzip(repeating:) takes units of at most 32,768 bytes, the last base.
      (code, extra, extraBits) = (29, distance - 24_577, 13)
    }
  }

  private struct BitWriter {
    var bytes: [UInt8] = []
    var current: UInt32 = 0
    var used = 0

    /// `value`'s low `count` bits, least significant first (header fields, extra bits).
    mutating func write(_ value: Int, count: Int) {
      for index in 0..<count { bit((value >> index) & 1) }
    }

    /// A Huffman code, most significant bit first.
    mutating func huffman(_ code: Int, length: Int) {
      for index in stride(from: length - 1, through: 0, by: -1) { bit((code >> index) & 1) }
    }

    /// A literal byte in the fixed code.
    mutating func literal(_ value: Int) {
      if value < 144 { huffman(0x30 + value, length: 8) } else { huffman(0x190 + value - 144, length: 9) }
    }

    mutating func bit(_ value: Int) {
      current |= UInt32(value) << UInt32(used)
      used += 1
      if used == 8 {
        bytes.append(UInt8(current))
        current = 0
        used = 0
      }
    }

    var flushed: [UInt8] { used > 0 ? bytes + [UInt8(current)] : bytes }
  }
}
