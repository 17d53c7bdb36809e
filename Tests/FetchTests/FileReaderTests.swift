import Foundation
import HostSystem
import TestSupport
import Testing

/// `FileReader`, the one read(2) loop behind local realtime files, `rt dump` and ingest's
/// fingerprint: every byte, in order, whatever size the caller expected.
@Suite struct FileReaderTests {
  /// 200,003 bytes of a simple pattern (not a multiple of any chunk size).
  static let content: [UInt8] = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }

  @Test func wholeFilesPrefixesAndChunks() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/data.bin"
    try Data(Self.content).write(to: URL(fileURLWithPath: path))
    #expect(FileReader.bytes(path) == Self.content)
    // The size seen before: exact, too small (the file grew), too large (it shrank).
    #expect(FileReader.bytes(path, expected: Self.content.count) == Self.content)
    #expect(FileReader.bytes(path, expected: 1000) == Self.content)
    #expect(FileReader.bytes(path, expected: 500_000) == Self.content)
    // A limit cuts, whether it falls in the expected part or after it.
    #expect(FileReader.bytes(path, limit: 512) == Array(Self.content.prefix(512)))
    #expect(FileReader.bytes(path, limit: 150_000, expected: 100_000) == Array(Self.content.prefix(150_000)))
    #expect(FileReader.bytes(folder.path + "/none.bin") == nil)

    var joined: [UInt8] = []
    var calls = 0
    let reachedEnd = FileReader.forEachChunk(path, chunkSize: 65_536) { chunk in
      #expect(chunk.count <= 65_536)
      joined += chunk
      calls += 1
      return true
    }
    #expect(reachedEnd == true && joined == Self.content && calls >= 4)
    let stopped = FileReader.forEachChunk(path, chunkSize: 1000) { _ in false }
    #expect(stopped == false)
    #expect(FileReader.forEachChunk(folder.path + "/none.bin") { _ in true } == nil)
  }

  @Test func anEmptyFileIsEmpty() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/empty.bin"
    try Data().write(to: URL(fileURLWithPath: path))
    #expect(FileReader.bytes(path) == [])
    #expect(FileReader.bytes(path, expected: 10) == [])
  }
}
