import TestSupport
import Testing
import ZIP

/// Every real feed in `shared/data` (skipped when that folder is absent).
@Suite(.enabled(if: SharedData.root != nil, "needs shared/data (or TRANSIT_SHARED_DATA)"))
struct SharedDataZipTests {
  static let badArchives: Set<String> = ["not-a-zip.zip", "transitfeed-unknown_format.zip"]

  static var staticFeeds: [String] { SharedData.files(in: "static", withExtension: "zip") }
  /// The archives in bad/ whose faults are in their GTFS content, not their ZIP structure.
  static var soundBadFeeds: [String] {
    SharedData.files(in: "bad", withExtension: "zip").filter { !badArchives.contains(fileName($0)) }
  }

  static func fileName(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

  /// Reads every entry with a 64 KiB buffer; checks each against its declared size.
  static func readEveryEntry(_ path: String) throws {
    let archive = try ZipArchive(path: path)
    #expect(!archive.entries.isEmpty, "\(path)")
    var total: UInt64 = 0
    for entry in archive.entries {
      let reader = try archive.reader(for: entry)
      let count = try reader.forEachChunk(bufferSize: 64 << 10)
      #expect(count == entry.uncompressedSize, "\(path): \(entry.name)")
      #expect(reader.compressedBytesRead <= entry.compressedSize, "\(path): \(entry.name)")
      total += count
    }
    #expect(total == archive.entries.reduce(0) { $0 + $1.uncompressedSize }, "\(path)")
  }

  @Test func findsTheFeeds() {
    #expect(Self.staticFeeds.count >= 10)
    #expect(SharedData.path("static/caltrain-2023.zip") != nil)
    #expect(SharedData.path("static/no-such-feed.zip") == nil)
  }

  @Test(arguments: staticFeeds)
  func readsStaticFeed(path: String) throws {
    try Self.readEveryEntry(path)
  }

  @Test(arguments: soundBadFeeds)
  func readsArchivesWithBadContent(path: String) throws {
    try Self.readEveryEntry(path)
  }

  @Test(arguments: badArchives.sorted())
  func rejectsFilesThatAreNotArchives(name: String) throws {
    let path = try #require(SharedData.path("bad/" + name))
    #expect(throws: ZipError.notAZip(archive: path)) { try ZipArchive(path: path) }
  }

  @Test func readsCaltrainStopTimes() throws {
    let path = try #require(SharedData.path("static/caltrain-2023.zip"))
    let archive = try ZipArchive(path: path)
    let bytes = try archive.contents(of: "stop_times.txt")
    let lines = bytes.split(separator: UInt8(ascii: "\n"))  // CRLF or LF
    #expect(lines.count == 3_498 + 1)  // PROVENANCE.md: 3,498 rows, plus the header
    #expect(String(decoding: lines[0], as: UTF8.self).contains("trip_id"))
  }
}
