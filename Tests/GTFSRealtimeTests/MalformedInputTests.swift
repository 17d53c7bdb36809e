import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// Malformed bytes as a table, in the manner of swift-protobuf's Test_Unknown_proto3: each must
/// throw the right error, naming the right field and byte, and never crash.
@Suite struct MalformedInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var expected: WireError
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "truncated tag", bytes: [0x80], expected: .truncated(offset: 0)),
    Case(
      name: "truncated varint", bytes: [0x0A, 0x02, 0x18, 0x80],
      expected: WireError(.truncated(offset: 3), path: ["header", "timestamp"])),
    Case(
      name: "varint of 11 bytes",
      bytes: [0x0A, 0x0C, 0x18] + Array(repeating: 0xFF, count: 10) + [0x01],
      expected: WireError(.malformedVarint(offset: 3), path: ["header", "timestamp"])),
    Case(
      name: "varint over 64 bits",
      bytes: [0x0A, 0x0B, 0x18] + Array(repeating: 0xFF, count: 9) + [0x02],
      expected: WireError(.malformedVarint(offset: 3), path: ["header", "timestamp"])),
    Case(
      name: "length past end", bytes: [0x0A, 0x05, 0x0A, 0x01],
      expected: WireError(.lengthPastEnd(length: 5, offset: 1), path: ["header"])),
    Case(
      name: "string length past its message",
      bytes: [0x12, 0x02, 0x0A, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65],
      expected: WireError(.lengthPastEnd(length: 5, offset: 3), path: ["entity[0]", "id"])),
    Case(
      name: "sub-message ends inside a string", bytes: [0x12, 0x03, 0x0A, 0x02, 0x61, 0x62],
      expected: WireError(.lengthPastEnd(length: 2, offset: 3), path: ["entity[0]", "id"])),
    Case(
      name: "sub-message ends inside a varint", bytes: [0x12, 0x02, 0x10, 0x81, 0x01],
      expected: WireError(.truncated(offset: 3), path: ["entity[0]", "is_deleted"])),
    Case(
      name: "length near 2^64", bytes: [0x0A] + Array(repeating: 0xFF, count: 9) + [0x01],
      expected: WireError(.lengthPastEnd(length: .max, offset: 1), path: ["header"])),
    Case(
      name: "wrong wire type for a message", bytes: [0x08, 0x01],
      expected: WireError(
        .wrongWireType(field: 1, found: .varint, expected: .lengthDelimited, offset: 0),
        path: ["header"])),
    Case(
      name: "wrong wire type for a scalar", bytes: [0x0A, 0x03, 0x1A, 0x01, 0x31],
      expected: WireError(
        .wrongWireType(field: 3, found: .lengthDelimited, expected: .varint, offset: 2),
        path: ["header", "timestamp"])),
    Case(
      name: "float as varint", bytes: [0x12, 0x06, 0x22, 0x04, 0x12, 0x02, 0x08, 0x01],
      expected: WireError(
        .wrongWireType(field: 1, found: .varint, expected: .fixed32, offset: 6),
        path: ["entity[0]", "vehicle", "position", "latitude"])),
    Case(
      name: "truncated float", bytes: [0x12, 0x07, 0x22, 0x05, 0x12, 0x03, 0x0D, 0x00, 0x00],
      expected: WireError(
        .truncated(offset: 7), path: ["entity[0]", "vehicle", "position", "latitude"])),
    Case(
      name: "truncated double",
      bytes: [0x12, 0x08, 0x22, 0x06, 0x12, 0x04, 0x21, 0x00, 0x00, 0x00],
      expected: WireError(
        .truncated(offset: 7), path: ["entity[0]", "vehicle", "position", "odometer"])),
    Case(name: "field number 0", bytes: [0x00], expected: .invalidFieldNumber(0, offset: 0)),
    Case(
      name: "field number 0 in a sub-message", bytes: [0x0A, 0x02, 0x02, 0x00],
      expected: WireError(.invalidFieldNumber(0, offset: 2), path: ["header"])),
    Case(
      name: "field number above 2^29-1", bytes: [0x80, 0x80, 0x80, 0x80, 0x10],
      expected: .invalidFieldNumber(1 << 29, offset: 0)),
    Case(name: "start group", bytes: [0x0B], expected: .groupsNotSupported(field: 1, offset: 0)),
    Case(name: "end group", bytes: [0x0C], expected: .groupsNotSupported(field: 1, offset: 0)),
    Case(
      name: "group in an unknown field", bytes: [0xA3, 0x06, 0xA4, 0x06],
      expected: .groupsNotSupported(field: 100, offset: 0)),
    Case(name: "wire type 6", bytes: [0x0E], expected: .invalidWireType(6, field: 1, offset: 0)),
    Case(name: "wire type 7", bytes: [0x6F], expected: .invalidWireType(7, field: 13, offset: 0)),
    Case(
      name: "invalid UTF-8", bytes: [0x0A, 0x03, 0x0A, 0x01, 0xFF],
      expected: WireError(.invalidUTF8(offset: 4), path: ["header", "gtfs_realtime_version"])),
    Case(
      name: "overlong UTF-8", bytes: [0x12, 0x04, 0x0A, 0x02, 0xC0, 0xAF],
      expected: WireError(.invalidUTF8(offset: 4), path: ["entity[0]", "id"])),
    Case(
      name: "UTF-16 surrogate in UTF-8", bytes: [0x12, 0x05, 0x0A, 0x03, 0xED, 0xA0, 0x80],
      expected: WireError(.invalidUTF8(offset: 4), path: ["entity[0]", "id"])),
    Case(
      name: "unknown field length past end", bytes: [0xA2, 0x06, 0x05, 0x01],
      expected: .lengthPastEnd(length: 5, offset: 2)),
    Case(
      name: "unknown fixed64 truncated", bytes: [0xA1, 0x06, 0x01, 0x02],
      expected: .truncated(offset: 2)),
    Case(
      name: "unknown fixed32 truncated", bytes: [0xA5, 0x06, 0x01], expected: .truncated(offset: 2)),
    Case(
      name: "the shared not-protobuf.pb", bytes: Array("not valid pb data".utf8),
      expected: .invalidWireType(6, field: 13, offset: 0)),
  ]

  @Test(arguments: cases)
  func throwsTheRightError(_ testCase: Case) {
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: testCase.bytes) }
    #expect(error == testCase.expected)
  }

  @Test func nestingTooDeepThrows() {
    // gtfs-realtime.proto nests 5 levels at most, within the default budget; a smaller budget
    // shows the check (see DecodingTests.nestingBeyondTheBudgetThrows for the path).
    let bytes: [UInt8] = [0x12, 0x04, 0x1A, 0x02, 0x0A, 0x00]  // entity { trip_update { trip {} } }
    var reader = WireReader(bytes, maxDepth: 2)
    var feed = FeedMessage()
    let error = #expect(throws: WireError.self) { try feed.merge(from: &reader) }
    #expect(
      error == WireError(.tooDeep(limit: 2, offset: 4), path: ["entity[0]", "trip_update", "trip"]))
  }

  @Test func everyPrefixOfTheSampleDecodesOrThrows() {
    let bytes = FeedMessage.sample.encoded()
    for length in 0..<bytes.count {
      _ = try? FeedMessage(decoding: Array(bytes[..<length]))
    }
  }

  @Test(
    .enabled(if: SharedData.root != nil), arguments: SharedData.files(in: "rt", withExtension: "pb")
  )
  func everyPrefixOfACaptureDecodesOrThrows(path: String) throws {
    let bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
    let full = try FeedMessage(decoding: bytes)
    // Every prefix of the small captures; about 400 cuts through each larger one.
    let step = bytes.count <= 8_192 ? 1 : bytes.count / 400
    for length in stride(from: 0, to: bytes.count, by: step) {
      do {
        let prefix = try FeedMessage(decoding: bytes, range: 0..<length)
        #expect(prefix.entities.count <= full.entities.count)
      } catch {
        #expect(error.offset <= length)
      }
    }
  }
}

/// Inputs that once broke the decoder, kept as regression tests (swift-protobuf's
/// Test_FuzzTests). Fuzz/run reports new ones; add them here as byte tables.
@Suite struct FuzzRegressionTests {
  static let inputs: [[UInt8]] = [
    [0x12, 0x80, 0x80, 0x80, 0x80, 0x08],  // a length of 2^31
    [0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],  // a length of Int64.max
    [0x12, 0x00, 0x12, 0x00, 0x12, 0x00],  // empty entities
  ]

  @Test(arguments: inputs)
  func decodesOrThrows(bytes: [UInt8]) {
    do {
      let feed = try FeedMessage(decoding: bytes)
      #expect(try FeedMessage(decoding: feed.encoded()) == feed)
    } catch {
      #expect(!error.description.isEmpty)
    }
  }
}
