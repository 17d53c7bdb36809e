import Foundation
import TestSupport
import Testing

@testable import ZIP

/// Issue 38: inflating has a CPU-time budget as it has a size budget (a 16.8 MB ZIP of 1.45 GiB
/// of blank lines cost 38.6 s).
@Suite struct InflateBudgetTests {
  /// A ZIP of one deflated entry: `unit` repeated `count` times (the CRC-32 left 0: a reader
  /// that gets to the end fails on it, so reaching the end is seen).
  static func deflatedZip(name: String, repeating unit: [UInt8], count: Int) -> [UInt8] {
    let gzip = DeflateBomb.gzip(repeating: unit, count: count)
    let deflated = Array(gzip[10..<(gzip.count - 8)])  // the raw deflate stream inside
    func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    let nameBytes = Array(name.utf8), size = unit.count * count
    var out: [UInt8] =
      [0x50, 0x4B, 3, 4] + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 2) + le(0x21, 2) + le(0, 4)
      + le(deflated.count, 4) + le(size, 4) + le(nameBytes.count, 2) + le(0, 2) + nameBytes + deflated
    let central: [UInt8] =
      [0x50, 0x4B, 1, 2] + le(20, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 2) + le(0x21, 2) + le(0, 4)
      + le(deflated.count, 4) + le(size, 4) + le(nameBytes.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2)
      + le(0, 4) + le(0, 4) + nameBytes
    let centralOffset = out.count
    out += central
    out += [0x50, 0x4B, 5, 6] + le(0, 2) + le(0, 2) + le(1, 2) + le(1, 2) + le(central.count, 4) + le(centralOffset, 4) + le(0, 2)
    return out
  }

  static func write(_ bytes: [UInt8]) -> (path: String, folder: TemporaryFolder) {
    let folder = TemporaryFolder()
    let path = folder.path + "/blank.zip"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return (path, folder)
  }

  /// Reads the entry to its end in 1 MiB steps, returning the error it stops with.
  static func drain(_ path: String, limits: ZipLimits) -> ZipError? {
    do {
      let archive = try ZipArchive(path: path, limits: limits)
      let reader = try archive.reader(for: archive.entries[0])
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
      defer { buffer.deallocate() }
      while try reader.read(into: buffer) > 0 {}
      return nil
    } catch {
      return error
    }
  }

  @Test func anEntryThatInflatesPastItsTimeBudgetIsRefused() {
    // 200 MiB of newlines (1.3 MiB compressed: 160 to 1, inside the ratio cap).
    let zip = Self.write(Self.deflatedZip(name: "stop_times.txt", repeating: [0x0A], count: 200 << 20))
    var limits = ZipLimits.default
    limits.maxInflateSeconds = 0.005
    let error = Self.drain(zip.path, limits: limits)
    #expect(error == .inflateTooSlow(archive: zip.path, entry: "stop_times.txt", limitSeconds: 0.005))
    #expect(error?.description == "\(zip.path): stop_times.txt: inflating took more than 0.005 s of cpu time (zip bomb?)")
  }

  @Test func withinTheBudgetTheEntryIsReadToItsEnd() {
    let zip = Self.write(Self.deflatedZip(name: "stop_times.txt", repeating: [0x0A], count: 1 << 20))
    // Read whole, the entry fails only on the CRC-32 this test left out.
    guard case .crcMismatch? = Self.drain(zip.path, limits: .default) else {
      Issue.record("expected the read to reach the CRC check")
      return
    }
    #expect(ZipLimits.default.maxInflateSeconds == 120)
  }
}
