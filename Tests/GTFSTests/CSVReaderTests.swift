import Testing

@testable import GTFS

/// Serves bytes `chunk` at a time, so records straddle buffer refills.
final class ChunkedSource: ByteSource {
  private let bytes: [UInt8]
  private var offset = 0
  private let chunk: Int

  init(_ text: String, chunk: Int = 1) {
    self.bytes = Array(text.utf8)
    self.chunk = chunk
  }

  init(bytes: [UInt8], chunk: Int = 1) {
    self.bytes = bytes
    self.chunk = chunk
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = min(chunk, buffer.count, bytes.count - offset)
    for index in 0..<count { buffer[index] = bytes[offset + index] }
    offset += count
    return count
  }
}

/// Reads every record of `text` as arrays of strings (header first), with each record's line.
func records(_ text: String, chunk: Int = 1) throws -> [(line: Int, fields: [String])] {
  let reader = try CSVReader(source: ChunkedSource(text, chunk: chunk), file: "test.txt")
  var result = [(1, reader.header)]
  while try reader.next() {
    result.append((reader.line, (0..<reader.fieldCount).map { reader.string($0) }))
  }
  return result
}

@Suite struct CSVReaderTests {
  static let cases: [(String, [[String]])] = [
    ("a,b\n1,2\n", [["a", "b"], ["1", "2"]]),
    ("a,b\r\n1,2\r\n", [["a", "b"], ["1", "2"]]),
    ("a,b\r1,2\r", [["a", "b"], ["1", "2"]]),  // bare CR between records
    ("a,b\n1,2", [["a", "b"], ["1", "2"]]),  // no final line break
    ("\u{FEFF}a,b\n1,2\n", [["a", "b"], ["1", "2"]]),  // byte-order mark
    (" A , b \n1,2\n", [["a", "b"], ["1", "2"]]),  // header names trimmed (and lower-cased)
    ("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n", [["a", "b"], ["x,y", "say \"hi\""]]),
    ("a,b\n\"line\nbreak\",2\n", [["a", "b"], ["line\nbreak", "2"]]),
    ("a,b\n1,2\n\n3,4\n", [["a", "b"], ["1", "2"], ["3", "4"]]),  // blank line skipped
    ("a,b\n,\n", [["a", "b"], ["", ""]]),
    ("a,b,c\n1\n", [["a", "b", "c"], ["1"]]),  // ragged: fewer fields
    ("a\n\"\"\n", [["a"], [""]]),
    ("a,b\n x , y \n", [["a", "b"], ["x", "y"]]),  // values trimmed
    ("a,b\nsay \"hi\",2\n", [["a", "b"], ["say \"hi\"", "2"]]),  // stray quotes inside a field
    ("name\nSráid an Mhuilinn\n", [["name"], ["Sráid an Mhuilinn"]]),
  ]

  @Test(arguments: cases)
  func parses(text: String, expected: [[String]]) throws {
    for chunk in [1, 2, 3, 7, 1 << 20] {
      let parsed = try records(text, chunk: chunk).map(\.fields)
      #expect(parsed == expected, "chunk \(chunk)")
    }
  }

  @Test func countsLinesAcrossQuotedBreaks() throws {
    let parsed = try records("a,b\n\"1\n2\n3\",x\ny,z\n")
    #expect(parsed.map(\.line) == [1, 2, 5])
  }

  @Test func reportsRaggedRows() throws {
    let reader = try CSVReader(source: ChunkedSource("a,b\n1,2\n1\n1,2,3\n", chunk: 64), file: "routes.txt")
    while try reader.next() {}
    #expect(reader.raggedRowCount == 2)
    #expect(reader.raggedRows.map(\.line) == [3, 4])
  }

  static let failures: [(String, [UInt8], GTFSError)] = [
    ("empty", [], GTFSError(file: "x.txt", .emptyFile)),
    ("utf16", [0xFF, 0xFE, 0x61, 0x00], GTFSError(file: "x.txt", line: 1, .utf16)),
    ("nul", Array("a,b\n1,\u{0}\n".utf8), GTFSError(file: "x.txt", line: 2, .nulByte)),
    ("bad utf8", Array("a,b\n1,2\n3,".utf8) + [0xC3, 0x28, 0x0A], GTFSError(file: "x.txt", line: 3, .invalidUTF8)),
    ("open quote", Array("a,b\n1,2\n\"3,4\n".utf8), GTFSError(file: "x.txt", line: 3, .unterminatedQuote)),
  ]

  @Test(arguments: failures)
  func refuses(name: String, bytes: [UInt8], expected: GTFSError) {
    let error = #expect(throws: GTFSError.self, "\(name)") {
      let reader = try CSVReader(source: ChunkedSource(bytes: bytes, chunk: 3), file: "x.txt")
      while try reader.next() {}
    }
    #expect(error == expected)
  }

  @Test func readsRecordsLongerThanTheBuffer() throws {
    let long = String(repeating: "x", count: 3 << 20)
    let parsed = try records("a,b\n\(long),2\n", chunk: 1 << 16)
    #expect(parsed[1].fields == [long, "2"])
  }
}
