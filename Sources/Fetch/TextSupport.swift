/// `%41` escapes in `file://` URLs, decoded as `removingPercentEncoding` did.
enum PercentEncoding {
  /// `text` with each `%XX` replaced by its byte; nil when an escape is malformed or the bytes
  /// are not UTF-8.
  static func decode(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}

/// A JSON decoding failure in the words Foundation's `localizedDescription` used for it.
enum DecodingProblem {
  static func text(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound, DecodingError.valueNotFound:
      return "The data couldn’t be read because it is missing."
    default:
      return "The data couldn’t be read because it isn’t in the correct format."
    }
  }
}
