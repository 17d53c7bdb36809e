import Testing

@testable import GTFS

/// The reader skips ordinary bytes eight at a time: commas, line breaks, quotes, NUL bytes and
/// invalid UTF-8 must be found at every offset within a word and across refills. Expected
/// fields come from splitting the text with the standard library.
@Suite struct CSVWordScanTests {
  /// Rows of fields of every length from 0 to 19, so each separator falls at every offset.
  static func text(lineBreak: String) -> String {
    var lines = ["a,b,c"]
    for length in 0..<20 {
      let field = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
      lines.append([field, String(field.reversed()), "é" + field].joined(separator: ","))
    }
    return lines.joined(separator: lineBreak) + lineBreak
  }

  @Test(arguments: ["\n", "\r\n", "\r"])
  func findsSeparatorsAtEveryOffset(lineBreak: String) throws {
    let text = Self.text(lineBreak: lineBreak)
    let expected = text.split(separator: Character(lineBreak), omittingEmptySubsequences: true).map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    for chunk in [5, 8, 13, 1 << 20] {
      #expect(try records(text, chunk: chunk).map(\.fields) == expected, "chunk \(chunk)")
    }
  }

  @Test func findsQuotedFieldsAtEveryOffset() throws {
    for offset in 0..<12 {
      let plain = String(repeating: "x", count: offset)
      let text = "a,b\n\(plain),\"q,\"\"r\"\"\"\n"
      #expect(try records(text, chunk: 1 << 20).last?.fields == [plain, "q,\"r\""], "offset \(offset)")
    }
  }

  @Test func findsANulByteAtEveryOffset() {
    for offset in 0..<12 {
      let bytes = Array("a,b\n1,2\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: offset) + [0] + Array("yyyyyyyyyy,3\n".utf8)
      let error = #expect(throws: GTFSError.self) {
        let reader = try CSVReader(source: ChunkedSource(bytes: bytes, chunk: 1 << 20), file: "x.txt")
        while try reader.next() {}
      }
      #expect(error == GTFSError(file: "x.txt", line: 3, .nulByte), "offset \(offset)")
    }
  }

  @Test func findsInvalidUTF8AtEveryOffset() {
    for offset in 0..<12 {
      let bytes =
        Array("a,b\n1,2\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: offset) + [0xC3, 0x28] + Array("yyyyyyyyyy,3\n4,5\n".utf8)
      let error = #expect(throws: GTFSError.self) {
        let reader = try CSVReader(source: ChunkedSource(bytes: bytes, chunk: 1 << 20), file: "x.txt")
        while try reader.next() {}
      }
      #expect(error == GTFSError(file: "x.txt", line: 3, .invalidUTF8), "offset \(offset)")
    }
  }
}
