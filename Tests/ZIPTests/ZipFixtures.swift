import Foundation
import Testing
import ZIP

/// The fixtures written by `Fixtures/make-fixtures.py`, found beside this file.
enum ZipFixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  static func path(_ name: String) -> String { folder + "/" + name }

  /// The fixture's bytes; empty, and a failure of the test that asked, when it is missing.
  static func bytes(_ name: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path(name)) else {
      Issue.record("missing fixture \(name); run Fixtures/make-fixtures.py")
      return []
    }
    return [UInt8](data)
  }

  /// The content of `stop_times.txt` in most fixtures (and `Fixtures/stop_times.txt`).
  static var stopTimes: [UInt8] { bytes("stop_times.txt") }

  /// The content of `agency.txt` in most fixtures.
  static let agency = Array(
    "agency_id,agency_name,agency_url,agency_timezone\nDTA,Demo Transit,http://example.com,America/Los_Angeles\n"
      .utf8)
}

extension ZipArchive {
  /// The whole content of the entry named `name`, read `bufferSize` bytes at a time.
  func contents(of name: String, bufferSize: Int = 64 << 10) throws -> [UInt8] {
    guard let entry = entry(named: name) else { throw MissingEntry(name: name) }
    return try reader(for: entry).readToEnd(bufferSize: bufferSize)
  }
}

struct MissingEntry: Error {
  var name: String
}

extension ZipEntryReader {
  /// Reads until `read` returns 0 and returns everything read.
  func readToEnd(bufferSize: Int = 64 << 10) throws(ZipError) -> [UInt8] {
    var result: [UInt8] = []
    try forEachChunk(bufferSize: bufferSize) { result.append(contentsOf: $0) }
    return result
  }

  /// Reads until `read` returns 0, handing each chunk to `body`; returns the byte count.
  @discardableResult
  func forEachChunk(
    bufferSize: Int = 64 << 10, _ body: (UnsafeRawBufferPointer) -> Void = { _ in }
  )
    throws(ZipError) -> UInt64
  {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    var total: UInt64 = 0
    while true {
      let count = try read(into: buffer)
      if count == 0 { return total }
      guard count <= bufferSize else {
        Issue.record("read(into:) said \(count) bytes into a buffer of \(bufferSize)")
        return total
      }
      body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      total += UInt64(count)
    }
  }
}
