import Testing
import ZIP

/// Sound archives: listing entries and reading them back.
@Suite struct ZipArchiveTests {
  @Test func listsEntriesInCentralDirectoryOrder() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    #expect(
      archive.entries.map(\.name) == [
        "agency.txt", "stop_times.txt", "feed/", "feed/stops.txt", "empty.txt",
        "empty-deflated.txt",
        "café/arrêt.txt",
      ])
    #expect(archive.path == ZipFixtures.path("basic.zip"))
    let stopTimes = try #require(archive.entry(named: "stop_times.txt"))
    #expect(stopTimes.method == 8)
    #expect(stopTimes.uncompressedSize == UInt64(ZipFixtures.stopTimes.count))
    #expect(stopTimes.compressedSize < stopTimes.uncompressedSize)
    #expect(!stopTimes.isDirectory)
    #expect(archive.entry(named: "agency.txt")?.method == 0)
    #expect(archive.entry(named: "feed/")?.isDirectory == true)
    #expect(archive.entry(named: "feed/") != nil)
    #expect(archive.entry(named: "missing.txt") == nil)
    #expect(archive.entry(named: "café/arrêt.txt")?.flags == 0x0800)  // bit 11: UTF-8 name
  }

  @Test func readsStoredEntry() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    #expect(try archive.contents(of: "agency.txt") == ZipFixtures.agency)
  }

  @Test func readsDeflatedEntry() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    let entry = try #require(archive.entry(named: "stop_times.txt"))
    let reader = try archive.reader(for: entry)
    #expect(reader.entryName == "stop_times.txt")
    #expect(try reader.readToEnd() == ZipFixtures.stopTimes)
    #expect(reader.bytesRead == entry.uncompressedSize)
    #expect(reader.compressedBytesRead == entry.compressedSize)
  }

  @Test func readsEntryInSubfolder() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    #expect(
      try archive.contents(of: "feed/stops.txt")
        == Array("stop_id,stop_name\nS1,Gare Centrale\n".utf8))
    #expect(try archive.contents(of: "café/arrêt.txt") == Array("Arrêt Saint-Éloi\n".utf8))
  }

  @Test(arguments: ["empty.txt", "empty-deflated.txt", "feed/"])
  func readsEmptyEntry(name: String) throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    #expect(try archive.contents(of: name) == [])
  }

  /// Output sizes that split the content anywhere, including one byte at a time.
  @Test(arguments: [1, 7, 100, 4096, 1 << 20])
  func readsWithAnyBufferSize(bufferSize: Int) throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    #expect(
      try archive.contents(of: "stop_times.txt", bufferSize: bufferSize) == ZipFixtures.stopTimes)
    #expect(try archive.contents(of: "agency.txt", bufferSize: bufferSize) == ZipFixtures.agency)
  }

  @Test func keepsReturningZeroAtTheEnd() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    let reader = try archive.reader(for: try #require(archive.entry(named: "stop_times.txt")))
    _ = try reader.readToEnd()
    var buffer = [UInt8](repeating: 0, count: 16)
    #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
    #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
  }

  @Test func readersAreIndependentAndOutliveTheirArchive() throws {
    var archive: ZipArchive? = try ZipArchive(path: ZipFixtures.path("basic.zip"))
    let first = try archive!.reader(for: try #require(archive!.entry(named: "stop_times.txt")))
    let second = try archive!.reader(for: try #require(archive!.entry(named: "stop_times.txt")))
    archive = nil
    var buffer = [UInt8](repeating: 0, count: 10)
    let count = try buffer.withUnsafeMutableBytes { try first.read(into: $0) }
    #expect(count == 10)
    #expect(try second.readToEnd() == ZipFixtures.stopTimes)
    #expect(try first.readToEnd() == Array(ZipFixtures.stopTimes.dropFirst(10)))
  }

  @Test func readsZip64Archive() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("zip64.zip"))
    #expect(archive.entries.map(\.name) == ["stop_times.txt", "agency.txt"])
    #expect(archive.entries[1].localHeaderOffset > 0)
    #expect(archive.entries[1].uncompressedSize == UInt64(ZipFixtures.agency.count))
    #expect(try archive.contents(of: "stop_times.txt") == ZipFixtures.stopTimes)
    #expect(try archive.contents(of: "agency.txt") == ZipFixtures.agency)
  }

  @Test func readsZip64LocalHeaders() throws {
    // zipfile's force_zip64 puts ZIP64 extra fields in the local headers only: the data starts
    // after the local header's own extra field.
    let archive = try ZipArchive(path: ZipFixtures.path("zip64-local.zip"))
    #expect(try archive.contents(of: "stop_times.txt") == ZipFixtures.stopTimes)
    #expect(try archive.contents(of: "agency.txt") == ZipFixtures.agency)
  }

  @Test func readsEntriesWithDataDescriptors() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("data-descriptor.zip"))
    #expect(archive.entries.allSatisfy { $0.flags & 0x0008 != 0 })
    #expect(
      archive.entry(named: "stop_times.txt")?.uncompressedSize
        == UInt64(ZipFixtures.stopTimes.count))
    #expect(try archive.contents(of: "stop_times.txt") == ZipFixtures.stopTimes)
    #expect(try archive.contents(of: "agency.txt") == ZipFixtures.agency)
  }

  @Test func findsEndRecordBeforeArchiveComment() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("with-comment.zip"))
    #expect(try archive.contents(of: "agency.txt") == ZipFixtures.agency)
  }

  @Test func opensArchiveWithoutEntries() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("empty-archive.zip"))
    #expect(archive.entries.isEmpty)
  }

  @Test func mapsNonUTF8NamesByteForByte() throws {
    let archive = try ZipArchive(path: ZipFixtures.path("cp437-name.zip"))
    #expect(archive.entries.map(\.name) == ["caf\u{82}.txt"])
    #expect(try archive.contents(of: "caf\u{82}.txt") == Array("hello\n".utf8))
  }

  @Test func listsEntriesItCannotRead() throws {
    let unsupported = try ZipArchive(path: ZipFixtures.path("unsupported-method.zip"))
    #expect(unsupported.entry(named: "stop_times.txt")?.method == 12)
    #expect(try unsupported.contents(of: "agency.txt") == ZipFixtures.agency)
    let encrypted = try ZipArchive(path: ZipFixtures.path("encrypted.zip"))
    #expect(encrypted.entry(named: "stop_times.txt")?.isEncrypted == true)
    #expect(try encrypted.contents(of: "agency.txt") == ZipFixtures.agency)
  }

  @Test func defaultLimits() {
    let limits = ZipLimits.default
    #expect(limits.maxEntryUncompressedSize == 4 << 30)
    #expect(limits.maxCompressionRatio == 1000)
    #expect(limits.compressionRatioMinimumSize == 1 << 20)
    #expect(limits.maxEntries == 65_536)
  }
}
