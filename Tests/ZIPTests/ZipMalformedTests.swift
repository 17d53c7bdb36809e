import Glibc
import Testing
import ZIP

/// Broken, hostile and unsupported archives: each fails with an error that names the archive
/// and the entry.
@Suite struct ZipMalformedTests {
  // MARK: - Not an archive at all

  @Test(arguments: ["not-a-zip.zip", "empty.zip"])
  func rejectsFilesThatAreNotArchives(name: String) {
    let path = ZipFixtures.path(name)
    #expect(throws: ZipError.notAZip(archive: path)) { try ZipArchive(path: path) }
    #expect(
      ZipError.notAZip(archive: "feed.zip").description
        == "feed.zip: not a ZIP archive (no end of central directory record)")
  }

  @Test func reportsMissingFilesAndFolders() {
    let missing = ZipFixtures.path("missing.zip")
    #expect(throws: ZipError.cannotOpen(archive: missing, errno: ENOENT)) {
      try ZipArchive(path: missing)
    }
    #expect(throws: ZipError.cannotOpen(archive: ZipFixtures.folder, errno: EISDIR)) {
      try ZipArchive(path: ZipFixtures.folder)
    }
    #expect(
      ZipError.cannotOpen(archive: "feed.zip", errno: ENOENT).description
        == "feed.zip: cannot open (no such file or directory)")
  }

  // MARK: - Truncated and corrupt

  @Test func rejectsArchiveCutShort() throws {
    let path = ZipFixtures.path("truncated.zip")
    let error = #expect(throws: ZipError.self) { try ZipArchive(path: path) }
    guard case .truncatedArchive(path, _) = error else {
      Issue.record("expected truncatedArchive, got \(String(describing: error))")
      return
    }
    #expect(error?.description.hasPrefix("\(path): truncated (") == true)
  }

  @Test func rejectsDataRunningPastTheEndOfTheFile() {
    let path = ZipFixtures.path("past-end.zip")
    #expect(throws: ZipError.truncatedEntry(archive: path, entry: "stop_times.txt")) {
      try ZipArchive(path: path)
    }
  }

  @Test func rejectsDeflateStreamCutShort() throws {
    let path = ZipFixtures.path("truncated-deflate.zip")
    let archive = try ZipArchive(path: path)
    #expect(throws: ZipError.truncatedEntry(archive: path, entry: "stop_times.txt")) {
      try archive.contents(of: "stop_times.txt")
    }
    #expect(
      ZipError.truncatedEntry(archive: "feed.zip", entry: "stop_times.txt").description
        == "feed.zip: stop_times.txt: truncated")
  }

  @Test func rejectsCorruptDeflateData() throws {
    let path = ZipFixtures.path("corrupt-deflate.zip")
    let archive = try ZipArchive(path: path)
    let error = #expect(throws: ZipError.self) { try archive.contents(of: "stop_times.txt") }
    #expect(
      error == .corruptEntry(archive: path, entry: "stop_times.txt", detail: "invalid block type"))
  }

  @Test func rejectsCRCMismatch() throws {
    let path = ZipFixtures.path("crc-mismatch.zip")
    let archive = try ZipArchive(path: path)
    let expected = ZipError.crcMismatch(
      archive: path, entry: "agency.txt", expected: 0x0A14_9BFC, actual: 0x704F_96B7)
    #expect(throws: expected) { try archive.contents(of: "agency.txt") }
    #expect(
      expected.description
        == "\(path): agency.txt: CRC-32 mismatch (expected 0a149bfc, got 704f96b7)")
  }

  @Test func reportsTheEndOnlyAfterChecking() throws {
    // All 105 bytes come out; the CRC-32 is checked at the call that would return 0.
    let path = ZipFixtures.path("crc-mismatch.zip")
    let archive = try ZipArchive(path: path)
    let reader = try archive.reader(for: try #require(archive.entry(named: "agency.txt")))
    var buffer = [UInt8](repeating: 0, count: 200)
    #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 105)
    #expect(throws: ZipError.self) {
      try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
    }
    // And it keeps failing.
    #expect(throws: ZipError.self) {
      try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
    }
  }

  @Test func rejectsEntryInflatingPastItsDeclaredSize() throws {
    let path = ZipFixtures.path("inflates-past.zip")
    let archive = try ZipArchive(path: path)
    let reader = try archive.reader(for: try #require(archive.entry(named: "stop_times.txt")))
    var produced: [UInt8] = []
    #expect(
      throws: ZipError.inflatesPastDeclaredSize(
        archive: path, entry: "stop_times.txt", declaredSize: 100)
    ) {
      try reader.forEachChunk(bufferSize: 4096) { produced.append(contentsOf: $0) }
    }
    #expect(produced == Array(ZipFixtures.stopTimes.prefix(100)))  // never more than declared
    #expect(reader.bytesRead == 100)
  }

  @Test func rejectsEntryEndingShortOfItsDeclaredSize() throws {
    let path = ZipFixtures.path("inflates-short.zip")
    let archive = try ZipArchive(path: path)
    let size = UInt64(ZipFixtures.stopTimes.count)
    #expect(
      throws: ZipError.sizeMismatch(
        archive: path, entry: "stop_times.txt", declaredSize: size + 10, actualSize: size)
    ) { try archive.contents(of: "stop_times.txt") }
  }

  @Test func rejectsNamesWithNUL() {
    let path = ZipFixtures.path("nul-name.zip")
    #expect(throws: ZipError.invalidEntryName(archive: path, name: "stops.txt\u{0}.exe")) {
      try ZipArchive(path: path)
    }
  }

  // MARK: - Unsupported

  @Test func rejectsUnsupportedMethod() throws {
    let path = ZipFixtures.path("unsupported-method.zip")
    let archive = try ZipArchive(path: path)
    let expected = ZipError.unsupportedCompression(
      archive: path, entry: "stop_times.txt", method: 12)
    #expect(throws: expected) { try archive.reader(for: archive.entries[0]) }
    #expect(
      expected.description.hasSuffix(
        ": stop_times.txt: unsupported compression method 12 (only stored and deflate)"))
  }

  @Test func rejectsEncryptedEntries() throws {
    let path = ZipFixtures.path("encrypted.zip")
    let archive = try ZipArchive(path: path)
    let expected = ZipError.encryptedEntry(archive: path, entry: "stop_times.txt")
    #expect(throws: expected) { try archive.reader(for: archive.entries[0]) }
    #expect(expected.description == "\(path): stop_times.txt: encrypted entries are not supported")
  }

  // MARK: - Limits (zip bombs)

  @Test func rejectsHugeDeclaredSizeOnOpen() {
    let path = ZipFixtures.path("bomb-size.zip")
    let expected = ZipError.entryTooLarge(
      archive: path, entry: "stop_times.txt", declaredSize: 10_000_000_000, limit: 4 << 30)
    #expect(throws: expected) { try ZipArchive(path: path) }
    #expect(
      expected.description
        == "\(path): stop_times.txt: declared 10 GB uncompressed, over the 4 GiB limit (zip bomb?)")
  }

  @Test func rejectsSizesOverACustomLimit() {
    let path = ZipFixtures.path("basic.zip")
    var limits = ZipLimits.default
    limits.maxEntryUncompressedSize = 1000
    #expect(
      throws: ZipError.entryTooLarge(
        archive: path, entry: "stop_times.txt", declaredSize: 3364, limit: 1000)
    ) { try ZipArchive(path: path, limits: limits) }
  }

  @Test func rejectsHighCompressionRatioOnOpen() {
    let path = ZipFixtures.path("bomb-ratio.zip")  // 4 MiB of zeros in 4080 bytes
    let expected = ZipError.compressionRatioTooHigh(
      archive: path, entry: "zeros.txt", ratio: 1028, limit: 1000)
    #expect(throws: expected) { try ZipArchive(path: path) }
    #expect(
      expected.description
        == "\(path): zeros.txt: compression ratio 1028:1 is over the 1000:1 limit (zip bomb?)")
    var strict = ZipLimits.default
    strict.maxCompressionRatio = 10
    #expect(
      throws: ZipError.compressionRatioTooHigh(
        archive: path, entry: "zeros.txt", ratio: 1028, limit: 10)
    ) {
      try ZipArchive(path: path, limits: strict)
    }
  }

  @Test func streamsHighRatioEntryWhenAllowed() throws {
    var limits = ZipLimits.default
    limits.maxCompressionRatio = 2000
    let archive = try ZipArchive(path: ZipFixtures.path("bomb-ratio.zip"), limits: limits)
    let reader = try archive.reader(for: archive.entries[0])
    var allZero = true
    let count = try reader.forEachChunk(bufferSize: 64 << 10) { chunk in
      if chunk.contains(where: { $0 != 0 }) { allZero = false }
    }
    #expect(count == 4 << 20)
    #expect(allZero)
    #expect(reader.compressedBytesRead == archive.entries[0].compressedSize)
  }

  @Test func skipsRatioCheckForSmallEntries() throws {
    var limits = ZipLimits.default
    limits.maxCompressionRatio = 2  // stop_times.txt is 3364 bytes in 577, but under 1 MiB
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"), limits: limits)
    #expect(try archive.contents(of: "stop_times.txt") == ZipFixtures.stopTimes)
  }

  @Test func rejectsTooManyEntries() {
    let path = ZipFixtures.path("basic.zip")
    var limits = ZipLimits.default
    limits.maxEntries = 3
    let expected = ZipError.tooManyEntries(archive: path, count: 7, limit: 3)
    #expect(throws: expected) { try ZipArchive(path: path, limits: limits) }
    #expect(expected.description == "\(path): 7 entries, over the limit of 3 (zip bomb?)")
  }

  // MARK: - Error values

  @Test func formatsSizesForPeople() {
    func declared(_ size: UInt64, limit: UInt64) -> String {
      ZipError.entryTooLarge(archive: "f.zip", entry: "e", declaredSize: size, limit: limit)
        .description
    }
    #expect(
      declared(9_300_000_000, limit: 4 << 30)
        == "f.zip: e: declared 9.3 GB uncompressed, over the 4 GiB limit (zip bomb?)")
    #expect(
      declared(5 << 30, limit: 1 << 20)
        == "f.zip: e: declared 5 GiB uncompressed, over the 1 MiB limit (zip bomb?)")
    #expect(
      declared(2_048_000, limit: 1000)
        == "f.zip: e: declared 2 MB uncompressed, over the 1 kB limit (zip bomb?)")
    #expect(
      declared(1001, limit: 1)
        == "f.zip: e: declared 1 kB uncompressed, over the 1 byte limit (zip bomb?)")
    #expect(
      declared(999, limit: 10)
        == "f.zip: e: declared 999 bytes uncompressed, over the 10 bytes limit (zip bomb?)")
    #expect(
      ZipError.gzipTooLarge(limit: 256 << 20).description
        == "gzip data: decompresses to more than 256 MiB (gzip bomb?)")
  }

  @Test func errorsNameTheirArchiveAndEntry() {
    let error = ZipError.truncatedEntry(archive: "feed.zip", entry: "stops.txt")
    #expect(error.archivePath == "feed.zip")
    #expect(error.entryName == "stops.txt")
    #expect(ZipError.notAZip(archive: "feed.zip").entryName == nil)
    #expect(ZipError.truncatedGzip.archivePath == nil)
  }
}
