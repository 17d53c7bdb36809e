import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// Every string field of every real capture, as the decoded model holds it, is exactly the bytes
/// the capture holds at that field: the expected strings are found by a walk over the capture's
/// bytes written here, from gtfs-realtime.proto's and nyct-subway.proto's field tables, without
/// the decoder. This covers strings built in place (1 to 15 bytes, `ShortString`), longer ones,
/// and long ones that are not ASCII, on every capture, for any change to how strings are kept.
/// (No capture holds a short string that is not ASCII; FastPathTests builds those by hand.)
@Suite struct CaptureStringsTests {
  /// How a field of a message is read by the walk: a string, or a message of the named kind.
  enum Field {
    case string
    case message(String)
  }

  /// The string and message fields of the .proto files' messages, by field number (the other
  /// fields are stepped over). `1001` is NYCT's extension of the three messages it extends.
  static let schema: [String: [UInt64: Field]] = [
    "FeedMessage": [1: .message("FeedHeader"), 2: .message("FeedEntity")],
    "FeedHeader": [1: .string, 4: .string, 1001: .message("NyctFeedHeader")],
    "NyctFeedHeader": [1: .string, 2: .message("TripReplacementPeriod")],
    "TripReplacementPeriod": [1: .string],
    "FeedEntity": [
      1: .string, 3: .message("TripUpdate"), 4: .message("VehiclePosition"), 5: .message("Alert"),
      6: .message("Shape"), 7: .message("Stop"), 8: .message("TripModifications"),
    ],
    "TripUpdate": [
      1: .message("TripDescriptor"), 2: .message("StopTimeUpdate"), 3: .message("VehicleDescriptor"),
      6: .message("TripProperties"),
    ],
    "StopTimeUpdate": [4: .string, 6: .message("StopTimeProperties"), 1001: .message("NyctStopTimeUpdate")],
    "StopTimeProperties": [1: .string, 2: .string],
    "NyctStopTimeUpdate": [1: .string, 2: .string],
    "TripProperties": [1: .string, 2: .string, 3: .string, 4: .string, 5: .string, 6: .string],
    "VehiclePosition": [
      1: .message("TripDescriptor"), 7: .string, 8: .message("VehicleDescriptor"),
      11: .message("CarriageDetails"),
    ],
    "CarriageDetails": [1: .string, 2: .string],
    "TripDescriptor": [
      1: .string, 2: .string, 3: .string, 5: .string, 7: .message("ModifiedTripSelector"),
      1001: .message("NyctTripDescriptor"),
    ],
    "ModifiedTripSelector": [1: .string, 2: .string, 3: .string, 4: .string],
    "NyctTripDescriptor": [1: .string],
    "VehicleDescriptor": [1: .string, 2: .string, 3: .string],
    "Alert": [
      5: .message("EntitySelector"), 8: .message("TranslatedString"), 10: .message("TranslatedString"),
      11: .message("TranslatedString"), 12: .message("TranslatedString"), 13: .message("TranslatedString"),
      15: .message("TranslatedImage"), 16: .message("TranslatedString"), 17: .message("TranslatedString"),
      18: .message("TranslatedString"),
    ],
    "EntitySelector": [1: .string, 2: .string, 4: .message("TripDescriptor"), 5: .string],
    "TranslatedString": [1: .message("Translation")],
    "Translation": [1: .string, 2: .string],
    "TranslatedImage": [1: .message("LocalizedImage")],
    "LocalizedImage": [1: .string, 2: .string, 3: .string],
    "Shape": [1: .string, 2: .string],
    "Stop": [
      1: .string, 2: .message("TranslatedString"), 3: .message("TranslatedString"),
      4: .message("TranslatedString"), 5: .message("TranslatedString"), 8: .string,
      9: .message("TranslatedString"), 11: .string, 12: .string, 14: .string,
      15: .message("TranslatedString"),
    ],
    "TripModifications": [
      1: .message("SelectedTrips"), 2: .string, 3: .string, 4: .message("Modification"),
    ],
    "SelectedTrips": [1: .string, 2: .string],
    "Modification": [
      1: .message("StopSelector"), 2: .message("StopSelector"), 4: .message("ReplacementStop"), 5: .string,
    ],
    "StopSelector": [2: .string],
    "ReplacementStop": [2: .string],
  ]

  /// The strings of message `kind` in `bytes[range]`, appended to `strings` under their field
  /// paths ("2.3.1.1": entity, trip_update, trip, trip_id), in the order they appear.
  static func scan(
    _ bytes: [UInt8], _ range: Range<Int>, kind: String, path: String, into strings: inout [String: [[UInt8]]]
  ) throws {
    let fields = try #require(schema[kind], "no schema for \(kind)")
    var index = range.lowerBound
    func varint() throws -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        try #require(index < range.upperBound && shift < 64, "malformed varint in \(kind)")
        let byte = bytes[index]
        index += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
    }
    while index < range.upperBound {
      let key = try varint()
      let number = key >> 3
      switch key & 7 {
      case 0: _ = try varint()
      case 1: index += 8
      case 5: index += 4
      case 2:
        let length = Int(try varint())
        let body = index..<index + length
        try #require(body.upperBound <= range.upperBound, "length past the end in \(kind)")
        index = body.upperBound
        let fieldPath = path.isEmpty ? "\(number)" : "\(path).\(number)"
        switch fields[number] {
        case .string: strings[fieldPath, default: []].append(Array(bytes[body]))
        case .message(let nested): try scan(bytes, body, kind: nested, path: fieldPath, into: &strings)
        case nil: break
        }
      default:
        Issue.record("wire type \(key & 7) in \(kind)")
        return
      }
    }
  }

  /// The decoded model's strings, under the same paths, through the generated traversal.
  struct StringCollector: FieldVisitor {
    var path = ""
    var strings: [String: [[UInt8]]] = [:]

    func child(_ number: Int) -> String { path.isEmpty ? "\(number)" : "\(path).\(number)" }
    mutating func visitSigned(_ value: Int64, number: Int, name: StaticString) {}
    mutating func visitUnsigned(_ value: UInt64, number: Int, name: StaticString) {}
    mutating func visitBool(_ value: Bool, number: Int, name: StaticString) {}
    mutating func visitFloat(_ value: Float, number: Int, name: StaticString) {}
    mutating func visitDouble(_ value: Double, number: Int, name: StaticString) {}
    mutating func visitEnum<E: ProtoEnum>(_ value: E, number: Int, name: StaticString) {}
    mutating func visitString(_ value: String, number: Int, name: StaticString) {
      strings[child(number), default: []].append(Array(value.utf8))
    }
    mutating func visitRepeatedString(_ values: [String], number: Int, name: StaticString) {
      for value in values { visitString(value, number: number, name: name) }
    }
    mutating func visitMessage<M: ProtoMessage>(_ value: M, number: Int, name: StaticString) {
      let outer = path
      path = child(number)
      value.traverse(visitor: &self)
      path = outer
    }
    mutating func visitRepeatedMessage<M: ProtoMessage>(_ values: [M], number: Int, name: StaticString) {
      for value in values { visitMessage(value, number: number, name: name) }
    }
  }

  static func bytes(of path: String) throws -> [UInt8] {
    [UInt8](try #require(FileManager.default.contents(atPath: path)))
  }

  @Test(
    .enabled(if: SharedData.root != nil), arguments: SharedData.files(in: "rt", withExtension: "pb")
  )
  func decodedStringsAreTheCapturesBytes(path: String) throws {
    let bytes = try Self.bytes(of: path)
    var expected: [String: [[UInt8]]] = [:]
    try Self.scan(bytes, 0..<bytes.count, kind: "FeedMessage", path: "", into: &expected)
    var collector = StringCollector()
    try FeedMessage(decoding: bytes).traverse(visitor: &collector)
    #expect(collector.strings.keys.sorted() == expected.keys.sorted())
    for (field, values) in expected.sorted(by: { $0.key < $1.key }) {
      let decoded = collector.strings[field] ?? []
      #expect(decoded.count == values.count, "\(field): \(decoded.count) strings, \(values.count) in the capture")
      for (index, (got, want)) in zip(decoded, values).enumerated() where got != want {
        Issue.record("\(field)[\(index)]: \(String(decoding: got, as: UTF8.self)) != \(String(decoding: want, as: UTF8.self))")
        break
      }
    }
  }

  /// The captures hold every kind of string the decoder builds differently, so the test above
  /// covers each: empty, 1 to 15 bytes, longer, and longer ones that are not ASCII.
  @Test(.enabled(if: SharedData.root != nil))
  func theCapturesHoldEveryKindOfString() throws {
    var all: [[UInt8]] = []
    for path in SharedData.files(in: "rt", withExtension: "pb") {
      let bytes = try Self.bytes(of: path)
      var strings: [String: [[UInt8]]] = [:]
      try Self.scan(bytes, 0..<bytes.count, kind: "FeedMessage", path: "", into: &strings)
      all += strings.values.joined()
    }
    let ascii = { (string: [UInt8]) in string.allSatisfy { $0 < 0x80 } }
    #expect(all.contains { $0.isEmpty })
    #expect(all.contains { (1...15).contains($0.count) && ascii($0) })
    #expect(all.contains { $0.count > 15 && ascii($0) })
    #expect(all.contains { $0.count > 15 && !ascii($0) })
  }
}
