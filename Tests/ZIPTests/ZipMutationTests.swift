import Foundation
import TestSupport
import Testing
import ZIP

/// Thousands of damaged copies of sound fixtures: each must open and read, or throw a
/// `ZipError`, and never crash, hang or produce more than an entry declares.
@Suite struct ZipMutationTests {
  @Test(arguments: ["basic.zip", "zip64.zip", "data-descriptor.zip"])
  func survivesDamage(fixture: String) throws {
    let original = ZipFixtures.bytes(fixture)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("zip-mutation-\(getpid())-\(fixture)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var random = SplitMix64(state: UInt64(original.count))
    for _ in 0..<1000 {
      var bytes = original
      switch random.next() % 4 {
      case 0:  // flip a few bits anywhere
        for _ in 0...(random.next() % 4) {
          bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(1 << (random.next() % 8))
        }
      case 1:  // overwrite a byte of the directory and end records with an extreme value
        let start = bytes.count * 2 / 3
        let index = start + Int(random.next() % UInt64(bytes.count - start))
        bytes[index] = [0x00, 0xFF, 0x7F, 0x80][Int(random.next() % 4)]
      case 2:  // cut the file short
        bytes.removeLast(1 + Int(random.next() % UInt64(bytes.count - 1)))
      default:  // cut out a span from the middle
        let start = Int(random.next() % UInt64(bytes.count))
        let count = min(bytes.count - start, 1 + Int(random.next() % 64))
        bytes.removeSubrange(start..<start + count)
      }
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      do {
        let archive = try ZipArchive(path: path)
        for entry in archive.entries {
          do {
            let count = try archive.reader(for: entry).forEachChunk(bufferSize: 1000)
            #expect(count == entry.uncompressedSize)
          } catch {
            // Any ZipError is fine here.
          }
        }
      } catch {
        // Any ZipError is fine here.
      }
    }
  }
}
