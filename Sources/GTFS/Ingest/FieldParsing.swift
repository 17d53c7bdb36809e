import TransitModel

#if canImport(Glibc)
  import Glibc
#endif

/// Parsing field bytes into values without making Strings on the hot path.
enum FieldParsing {
  /// A non-negative or negative decimal integer; nil for anything else (including empty).
  @inline(__always)
  static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
    guard !bytes.isEmpty else { return nil }
    var index = 0
    var negative = false
    if bytes[0] == 45 {  // '-'
      negative = true
      index = 1
    } else if bytes[0] == 43 {
      index = 1
    }
    guard index < bytes.count, bytes.count - index <= 18 else { return nil }
    var value = 0
    while index < bytes.count {
      let digit = bytes[index] &- 48
      guard digit < 10 else {
        // "3.0" and "10.000" are integers written loosely; accept zeros after a point.
        if bytes[index] == 46, bytes[(index + 1)...].allSatisfy({ $0 == 48 }) { break }
        return nil
      }
      value = value * 10 + Int(digit)
      index += 1
    }
    return negative ? -value : value
  }

  /// A decimal number; nil for anything else (including empty).
  ///
  /// Plain decimals of up to 15 significant digits (every coordinate and distance in GTFS)
  /// take Clinger's fast path: the digits are an exact integer below 2^53 and the scale an
  /// exact power of ten, so one IEEE division gives the correctly rounded value, the same
  /// double strtod returns. Anything else goes to the standard library's parser.
  @inline(__always)
  static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
    guard !bytes.isEmpty, bytes.count < 64 else { return nil }
    var index = 0
    var negative = false
    if bytes[0] == 45 || bytes[0] == 43 {
      negative = bytes[0] == 45
      index = 1
    }
    var mantissa: Int64 = 0
    var digits = 0, fractionDigits = 0
    var seenPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 46 && !seenPoint {
        seenPoint = true
      } else {
        let digit = byte &- 48
        guard digit < 10 else { return slowDouble(bytes) }
        if mantissa == 0 && digit == 0 && !seenPoint {
          // leading zeros are free
        } else {
          digits += 1
          if digits > 15 { return slowDouble(bytes) }
          mantissa = mantissa * 10 + Int64(digit)
        }
        if seenPoint { fractionDigits += 1 }
      }
      index += 1
    }
    guard digits > 0 || bytes.contains(48) else { return nil }  // ".", "-", "+"
    guard fractionDigits <= 22 else { return slowDouble(bytes) }
    let value = Double(mantissa) / powersOfTen[fractionDigits]
    return negative ? -value : value
  }

  /// strtod on a NUL-terminated copy on the stack (no String made).
  private static func slowDouble(_ bytes: UnsafeRawBufferPointer) -> Double? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text in
      for index in 0..<bytes.count { text[index] = CChar(bitPattern: bytes[index]) }
      text[bytes.count] = 0
      var end: UnsafeMutablePointer<CChar>?
      let value = strtod(text.baseAddress!, &end)
      return end == text.baseAddress! + bytes.count ? value : nil
    }
  }

  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }  // exact: every power up to 10^22 is a double
    return value
  }

  /// A GTFS time (`H:MM:SS`, hours may pass 24) as seconds from the service day's start.
  @inline(__always)
  static func time(_ bytes: UnsafeRawBufferPointer) -> Int32? {
    let count = bytes.count
    guard count >= 7, count <= 9 else { return nil }
    let hourDigits = count - 6
    var hours: Int32 = 0
    for index in 0..<hourDigits {
      let digit = bytes[index] &- 48
      guard digit < 10 else { return nil }
      hours = hours * 10 + Int32(digit)
    }
    let m1 = bytes[hourDigits + 1] &- 48, m2 = bytes[hourDigits + 2] &- 48
    let s1 = bytes[hourDigits + 4] &- 48, s2 = bytes[hourDigits + 5] &- 48
    guard bytes[hourDigits] == 58, bytes[hourDigits + 3] == 58, m1 < 6, m2 < 10, s1 < 6, s2 < 10 else { return nil }
    let total = hours * 3600 + Int32(m1 * 10 + m2) * 60 + Int32(s1 * 10 + s2)
    return total <= ServiceTime.maximumSeconds ? total : nil
  }

  /// A GTFS date (`YYYYMMDD`) as the integer yyyymmdd, when it is a real day.
  static func date(_ bytes: UnsafeRawBufferPointer) -> Int? {
    ServiceDate(gtfs: String(decoding: bytes, as: UTF8.self))?.yyyymmdd
  }

  /// Whether a field's bytes equal `array` (one memcmp).
  @inline(__always)
  static func equal(_ bytes: UnsafeRawBufferPointer, _ array: [UInt8]) -> Bool {
    guard bytes.count == array.count else { return false }
    if bytes.isEmpty { return true }
    return array.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
  }

  static func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
  }
}
