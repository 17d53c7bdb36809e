import Testing
import ZIP

@Suite struct GzipTests {
  static let compressed = ZipFixtures.bytes("stop_times.txt.gz")

  @Test func recognisesGzipMagic() {
    #expect(Gzip.isGzip(Self.compressed))
    #expect(!Gzip.isGzip(ZipFixtures.stopTimes))
    #expect(!Gzip.isGzip([0x1F]))
    #expect(!Gzip.isGzip([]))
  }

  @Test func roundTrip() throws {
    #expect(try Gzip.decompress(Self.compressed) == ZipFixtures.stopTimes)
  }

  @Test func decompressesConcatenatedMembers() throws {
    #expect(
      try Gzip.decompress(Self.compressed + Self.compressed) == ZipFixtures.stopTimes
        + ZipFixtures.stopTimes)
  }

  @Test(arguments: [0, 2, 10, 100])
  func rejectsTruncatedData(keeping: Int) {
    #expect(throws: ZipError.truncatedGzip) {
      try Gzip.decompress(Array(Self.compressed.prefix(keeping)))
    }
  }

  @Test func rejectsDataMissingItsTrailer() {
    #expect(throws: ZipError.truncatedGzip) {
      try Gzip.decompress(Array(Self.compressed.dropLast(4)))
    }
  }

  @Test func rejectsCorruptData() {
    var corrupt = Self.compressed
    corrupt[corrupt.count - 8] ^= 0xFF  // the CRC-32 in the trailer
    #expect(throws: ZipError.corruptGzip(detail: "incorrect data check")) {
      try Gzip.decompress(corrupt)
    }
    #expect(throws: ZipError.self) {
      try Gzip.decompress([0x1F, 0x8B, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }
  }

  @Test func rejectsTrailingData() {
    let error = #expect(throws: ZipError.self) {
      try Gzip.decompress(Self.compressed + [0x00, 0x01])
    }
    guard case .corruptGzip = error else {
      Issue.record("expected corruptGzip, got \(String(describing: error))")
      return
    }
  }

  @Test func boundsTheOutput() throws {
    #expect(throws: ZipError.gzipTooLarge(limit: 100)) {
      try Gzip.decompress(Self.compressed, maxOutput: 100)
    }
    let exact = ZipFixtures.stopTimes.count
    #expect(try Gzip.decompress(Self.compressed, maxOutput: exact).count == exact)
    #expect(throws: ZipError.self) { try Gzip.decompress(Self.compressed, maxOutput: exact - 1) }
  }
}
