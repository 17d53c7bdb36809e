import Testing

@testable import GTFS

/// Issue 23, case 7: the field limit is reported as a field limit, not a byte length.
@Suite struct CSVLimitTests {
  @Test func aRecordWithTooManyFieldsSaysFields() {
    let row = Array(repeating: "x", count: 5000).joined(separator: ",")
    let error = #expect(throws: GTFSError.self) { try records("a,b\n1,2\n" + row + "\n", chunk: 4096) }
    #expect(error?.reason == .tooManyFields(limit: 4096))
    #expect(error?.description == "test.txt:3: record has more than 4096 fields")
  }

  @Test func fourThousandNinetySixFieldsAreFine() throws {
    let row = Array(repeating: "x", count: 4096).joined(separator: ",")
    #expect(try records("a\n" + row + "\n", chunk: 4096).last?.fields.count == 4096)
  }
}
