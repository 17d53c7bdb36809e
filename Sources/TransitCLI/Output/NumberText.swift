import Glibc

/// Numbers as `String(format:)` wrote them, without Foundation: fixed decimals (printf's own
/// rounding, through `vsnprintf`), zero padding and hexadecimal.
extension Format {
  /// `value` with `decimals` digits after the point, as `%.Nf` writes it: 2.25 → "2.2" (an
  /// exact tie, rounded to even), 0.05 → "0.1" (its binary value is just over), -0.04 → "-0.0".
  static func fixed(_ value: Double, decimals: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = withVaList([Int32(decimals), value]) { arguments in
      buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
    }
    if count >= buffer.count {
      // Beyond 1e60 or so: a buffer of the size printf asked for.
      buffer = [CChar](repeating: 0, count: Int(count) + 1)
      _ = withVaList([Int32(decimals), value]) { arguments in
        buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
      }
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `value` in at least `width` digits, zeros in front (`%02d`): 7 → "07", -7 → "-7" at width 2.
  static func zeroPadded(_ value: some BinaryInteger, width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    let zeros = max(0, width - sign.count - digits.count)
    return sign + String(repeating: "0", count: zeros) + digits
  }

  /// `value` in hexadecimal, at least `width` digits (`%02x`, `%04X`).
  static func hex(_ value: some BinaryInteger, width: Int, uppercase: Bool = false) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// `text` padded with spaces, or cut, to `length` UTF-16 units (NSString's
  /// `padding(toLength:withPad:startingAt:)`, which names in help are padded with).
  static func padded(_ text: String, toLength length: Int) -> String {
    let units = text.utf16.count
    if units >= length { return units == length ? text : String(decoding: Array(text.utf16.prefix(length)), as: UTF16.self) }
    return text + String(repeating: " ", count: length - units)
  }
}
