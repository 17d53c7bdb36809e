/// Strict UTF-8 validation (RFC 3629, Unicode Table 3-7): no overlong forms, no surrogates,
/// nothing above U+10FFFF, no truncated sequences.
enum UTF8Validation {
  /// Whether `bytes` are well-formed UTF-8.
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    // ASCII runs, eight bytes at a time.
    while index &+ 8 <= count {
      let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
      if word & 0x8080_8080_8080_8080 != 0 { break }
      index &+= 8
    }
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index &+= 1
        continue
      }
      // The allowed range of the second byte depends on the lead byte; later bytes are 80...BF.
      let length: Int
      let second: ClosedRange<UInt8>
      switch lead {
      case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
      case 0xED: (length, second) = (3, 0x80...0x9F)  // no UTF-16 surrogates
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
      case 0xF4: (length, second) = (4, 0x80...0x8F)  // nothing above U+10FFFF
      default: return false  // continuation byte, C0, C1, F5...FF
      }
      guard count &- index >= length, second.contains(bytes[index &+ 1]) else { return false }
      for offset in 2..<length where bytes[index &+ offset] & 0xC0 != 0x80 { return false }
      index &+= length
    }
    return true
  }
}
