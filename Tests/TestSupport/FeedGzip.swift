/// Gzip for tests (RFC 1952) without zlib: deflate "stored" blocks (RFC 1951 3.2.4), so any
/// gzip reader accepts the result; nothing is compressed.
package enum FeedGzip {
  /// `bytes` wrapped as a one-member gzip file.
  package static func wrap(_ bytes: [UInt8]) -> [UInt8] {
    // Magic, deflate, no flags, no time, no extra flags, OS unknown.
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    var offset = 0
    repeat {
      let count = min(65_535, bytes.count - offset)
      let isFinal = offset + count == bytes.count
      out.append(isFinal ? 1 : 0)  // BFINAL, BTYPE 00 (stored), padded to the byte
      out += littleEndian(UInt32(count), bytes: 2) + littleEndian(UInt32(~UInt16(count)), bytes: 2)
      out += bytes[offset..<offset + count]
      offset += count
    } while offset < bytes.count
    out += littleEndian(crc32(bytes), bytes: 4)
    out += littleEndian(UInt32(truncatingIfNeeded: bytes.count), bytes: 4)
    return out
  }

  /// CRC-32 (ISO 3309, polynomial 0xEDB88320), as gzip's trailer holds it.
  package static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  private static func littleEndian(_ value: UInt32, bytes count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}
