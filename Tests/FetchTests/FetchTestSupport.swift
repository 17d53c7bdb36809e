import Foundation
import TestSupport
import TransitCLI

/// Runs `transit` in-process with captured output.
struct CLIRun {
  var code: Int32
  var stdout: String
  var stderr: String
  var all: String { stdout + stderr }
}

func transit(_ arguments: [String], environment: [String: String] = [:]) -> CLIRun {
  var environment = environment
  environment["TRANSIT_FETCH_RETRIES"] = environment["TRANSIT_FETCH_RETRIES"] ?? "0"
  environment["TRANSIT_FETCH_TIMEOUT"] = environment["TRANSIT_FETCH_TIMEOUT"] ?? "5"
  let context = CommandContext.capturing(environment: environment, currentDirectory: "/")
  let code = Transit.main(arguments, context: context)
  return CLIRun(code: code, stdout: context.stdout.text, stderr: context.stderr.text)
}

/// The demo network's GTFS files as a stored (uncompressed) ZIP; `variant` goes into the
/// archive comment, so the bytes (and their hash) differ while the timetable is the same.
func demoZip(variant: Int = 0) throws -> [UInt8] {
  let folder = packageRoot + "/Data/gtfs"
  var files: [(String, [UInt8])] = []
  for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".txt") {
    files.append((name, [UInt8](FileManager.default.contents(atPath: folder + "/" + name)!)))
  }
  return storedZip(files, comment: variant == 0 ? "" : "variant \(variant)")
}

/// A ZIP with every entry stored (method 0).
func storedZip(_ files: [(String, [UInt8])], comment: String = "") -> [UInt8] {
  func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
  var out: [UInt8] = []
  var central: [UInt8] = []
  for (name, data) in files {
    let crc = Int(FeedGzip.crc32(data))
    let nameBytes = Array(name.utf8)
    let offset = out.count
    out +=
      [0x50, 0x4B, 3, 4] + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) + le(crc, 4)
      + le(data.count, 4) + le(data.count, 4) + le(nameBytes.count, 2) + le(0, 2) + nameBytes + data
    central +=
      [0x50, 0x4B, 1, 2] + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) + le(crc, 4)
      + le(data.count, 4) + le(data.count, 4) + le(nameBytes.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2)
      + le(0, 4) + le(offset, 4) + nameBytes
  }
  let centralOffset = out.count
  out += central
  out +=
    [0x50, 0x4B, 5, 6] + le(0, 2) + le(0, 2) + le(files.count, 2) + le(files.count, 2) + le(central.count, 4)
    + le(centralOffset, 4) + le(comment.utf8.count, 2) + Array(comment.utf8)
  return out
}

/// The demo trip updates capture.
func demoTripUpdates() -> [UInt8] {
  [UInt8](FileManager.default.contents(atPath: packageRoot + "/Data/realtime/demo-tripupdates.pb")!)
}

/// A counter shared between a test and its server's handler.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: Int
  init(_ value: Int = 0) { storage = value }
  var value: Int {
    get { lock.lock(); defer { lock.unlock() }; return storage }
    set { lock.lock(); storage = newValue; lock.unlock() }
  }
}
