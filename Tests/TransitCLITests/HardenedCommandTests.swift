import Foundation
import GTFSRealtime
import TestSupport
import Testing

@testable import TransitCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 23 through `transit` itself: hostile files built here, a misbehaving server on
/// 127.0.0.1, and the real executable's peak memory read with /usr/bin/time.
@Suite struct HardenedCommandTests {
  static let now = "2026-12-01T07:40:00Z"

  /// The built executable, when there is one.
  static let executable: String? = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundle.appendingPathComponent("transit").path, packageRoot + "/.build/debug/transit"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    return nil
  }()

  static var canMeasure: Bool { executable != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/time") }

  /// Runs the executable under /usr/bin/time: exit code, stderr, and peak resident memory in MB.
  static func measure(_ arguments: [String]) throws -> (code: Int32, stderr: String, peakMB: Double, seconds: Double) {
    let report = TemporaryFolder()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M", "-o", report.path + "/peak", executable!] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["TRANSIT_FETCH_RETRIES"] = "0"
    process.environment = environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let started = Date()
    try process.run()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let kilobytes =
      try String(contentsOfFile: report.path + "/peak", encoding: .utf8)
      .split(separator: "\n").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? .infinity
    return (process.terminationStatus, String(decoding: stderr, as: UTF8.self), kilobytes / 1024, Date().timeIntervalSince(started))
  }

  /// `count` empty entities (`entity {}` is 0x12 0x00).
  static func emptyEntities(_ count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: 2 * count) { buffer, initialized in
      for index in 0..<count {
        buffer[2 * index] = 0x12
        buffer[2 * index + 1] = 0
      }
      initialized = 2 * count
    }
  }

  // MARK: - Case 2: realtime within a memory budget, measured

  @Test(.enabled(if: canMeasure)) func hostileRealtimeFilesAreRefusedWithinTheMemoryBudget() throws {
    let home = try DemoHomeFolder()
    let folder = TemporaryFolder()
    // 96 MiB of entities in about 600 kB of gzip (today: gigabytes and half a minute).
    let bomb = folder.path + "/bomb.pb.gz"
    _ = FileManager.default.createFile(atPath: bomb, contents: Data(DeflateBomb.gzip(repeating: [0x12, 0x00], count: 48 << 20)))
    // 60 MiB of protobuf, within the byte cap: 31 million empty entities, over the entity cap.
    let many = folder.path + "/many.pb"
    _ = FileManager.default.createFile(atPath: many, contents: Data(Self.emptyEntities(30 << 20)))

    let gunzip = try Self.measure(["departures", "TINT", "--now", Self.now, "--realtime", bomb, "--data-dir", home.path])
    #expect(gunzip.code == 1)
    #expect(
      gunzip.stderr
        == "transit: \(bomb): the gzip data decompresses to more than the 64 MiB allowed (the realtime-max-mb setting)\n")
    #expect(gunzip.peakMB < 150, "peak \(gunzip.peakMB) MB")

    let decode = try Self.measure(["rt", "dump", many, "--data-dir", home.path])
    #expect(decode.code == 1)
    #expect(
      decode.stderr
        == "transit: \(many): more than 100000 entity elements at byte 0 (the realtime-max-entities setting)\n"
    )
    #expect(decode.peakMB < 150, "peak \(decode.peakMB) MB")
    print(
      "peak memory: gzip bomb \(Int(gunzip.peakMB)) MB in \(gunzip.seconds) s; 60 MiB of entities \(Int(decode.peakMB)) MB in \(decode.seconds) s"
    )
  }

  @Test(.enabled(if: canMeasure)) func hostileRealtimeOverHTTPIsRefusedWithinTheMemoryBudget() throws {
    let bomb = DeflateBomb.gzip(repeating: [0x12, 0x00], count: 48 << 20)
    let piece = [UInt8](repeating: 0x12, count: 1 << 20)
    let server = try TestHTTPServer { request, _ in
      request.path == "/encoded"
        ? .init(headers: [("Content-Encoding", "gzip")], body: bomb)
        : .init(body: piece, chunkSize: 1 << 16, repeats: 1126)  // 1.1 GiB, chunked
    }
    defer { server.stop() }
    let home = TemporaryFolder()
    for path in ["/encoded", "/chunked"] {
      let run = try Self.measure(["rt", "dump", server.baseURL + path, "--data-dir", home.path])
      #expect(run.code == 1)
      #expect(run.stderr == "transit: \(server.baseURL)\(path): the body is larger than the 64 MiB allowed\n")
      #expect(run.peakMB < 150, "peak \(run.peakMB) MB")
      print("peak memory: \(path) \(Int(run.peakMB)) MB in \(run.seconds) s")
    }
  }

  @Test func theLimitsAreSettings() throws {
    let home = try DemoHomeFolder()
    let folder = TemporaryFolder()
    let feed = folder.path + "/small.pb"
    _ = FileManager.default.createFile(atPath: feed, contents: Data(Self.emptyEntities(50)))
    #expect(transit(["rt", "dump", feed, "--summary", "--data-dir", home.path]).code == 0)
    #expect(transit(["config", "set", "realtime-max-entities", "10", "--data-dir", home.path]).code == 0)
    let refused = transit(["rt", "dump", feed, "--data-dir", home.path])
    #expect(refused.code == 1)
    #expect(refused.stderr.contains("more than 10 entity elements") && refused.stderr.contains("realtime-max-entities"))
    let list = transit(["config", "list", "--data-dir", home.path]).stdout
    for name in [
      "realtime-max-mb", "realtime-max-download-mb", "realtime-max-entities", "realtime-max-stop-updates",
      "realtime-budget", "feed-max-unzipped-mb",
    ] {
      #expect(list.contains(name), "\(name)")
    }
  }

  // MARK: - Case 3: a feed with no timestamp is of unknown age

  @Test func aFeedWithoutTimestampsIsOfUnknownAgeNeverFresh() throws {
    var feed = try FeedMessage(decoding: demoTripUpdates())
    feed.header = nil
    for index in feed.entities.indices { feed.entities[index].tripUpdate?.timestamp = nil }
    let body = feed.encoded()
    let server = try TestHTTPServer { _, _ in .init(body: body) }
    defer { server.stop() }
    let home = try DemoHomeFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    #expect(run(["feeds", "add", "demo", "--trip-updates", server.baseURL + "/tu"]).code == 0)
    let text = run(["departures", "TINT", "--now", Self.now])
    #expect(text.code == 0)
    #expect(text.stdout.contains("realtime: unknown age (the feed gives no timestamp)"), "\(text.stdout)")
    let json = run(["departures", "TINT", "--now", Self.now, "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let realtime = try #require(object["realtime"] as? [String: Any])
    #expect(realtime["status"] as? String == "unknown")
    #expect(realtime["feed_timestamp"] is NSNull)
  }

  @Test func anEmptyAnswerKeepsTheLastGoodSnapshot() throws {
    let empty = Flag()
    let tripUpdates = demoTripUpdates()
    let server = try TestHTTPServer { _, _ in .init(body: empty.value == 0 ? tripUpdates : []) }
    defer { server.stop() }
    let home = try DemoHomeFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    #expect(run(["feeds", "add", "demo", "--trip-updates", server.baseURL + "/tu"]).code == 0)
    #expect(run(["departures", "TINT", "--now", Self.now]).stdout.contains("live"))
    empty.value = 1
    let after = run(["departures", "TINT", "--now", Self.now, "--refresh"])
    #expect(after.code == 0)
    #expect(after.stdout.contains("realtime: fresh"))
    #expect(after.stdout.contains("live"))
    #expect(after.stderr.hasPrefix("transit: \(server.baseURL)/tu: not used: the feed has no header timestamp; using the snapshot from "))
  }

  // MARK: - Case 6: a stalled server and the realtime budget

  @Test func aStalledServerHoldsDeparturesOnlyForTheBudget() throws {
    let stalled = Flag()
    let tripUpdates = demoTripUpdates()
    let server = try TestHTTPServer { _, _ in .init(body: tripUpdates, delaySeconds: stalled.value == 0 ? 0 : 60) }
    defer { server.stop() }
    let home = try DemoHomeFolder()
    // The full timeouts and retries of a run by hand: three attempts of 60 s.
    let environment = ["TRANSIT_FETCH_TIMEOUT": "60", "TRANSIT_FETCH_RETRIES": "2"]
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path], environment: environment) }
    #expect(run(["feeds", "add", "demo", "--trip-updates", server.baseURL + "/tu"]).code == 0)
    #expect(run(["config", "set", "realtime-budget", "2"]).code == 0)
    #expect(run(["departures", "TINT", "--now", Self.now]).stdout.contains("live"))
    stalled.value = 1
    let started = Date()
    let result = run(["departures", "TINT", "--now", Self.now, "--refresh"])
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed < 4, "took \(elapsed) s")
    #expect(result.code == 0)
    #expect(result.stdout.contains("live"))
    #expect(
      result.stderr.hasPrefix(
        "transit: \(server.baseURL)/tu: no complete answer in 2 s in total, 1 attempt (the realtime budget); using the snapshot from "),
      "\(result.stderr)")
  }

  @Test func ingestKeepsItsLongerTimeouts() throws {
    let zip = try demoZip()
    let server = try TestHTTPServer { _, _ in .init(headers: [("Content-Type", "application/zip")], body: zip, delaySeconds: 1.5) }
    defer { server.stop() }
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult {
      transit(arguments + ["--data-dir", home.path], environment: ["TRANSIT_FETCH_TIMEOUT": "60"])
    }
    #expect(run(["config", "set", "realtime-budget", "1"]).code == 0)
    let result = run(["ingest", server.baseURL + "/gtfs.zip", "--quiet"])
    #expect(result.code == 0, "\(result.stderr)")
  }

  // MARK: - Case 7: the minor list

  @Test func anHTMLPageGivenAsAFeedIsCalledOne() throws {
    let folder = TemporaryFolder()
    let page = folder.path + "/tripupdates.pb"
    _ = FileManager.default.createFile(atPath: page, contents: Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8))
    let result = transit(["rt", "dump", page, "--data-dir", folder.path])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: \(page): looks like an html page, not a gtfs-realtime feed\n")
  }

  /// The demo network's files as a folder, `change` applied to each file's text by name.
  static func demoFolder(_ change: (String, String) throws -> String) throws -> TemporaryFolder {
    let folder = TemporaryFolder()
    let source = packageRoot + "/Data/gtfs"
    for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".txt") {
      let text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
      try change(name, text).write(toFile: folder.path + "/" + name, atomically: true, encoding: .utf8)
    }
    return folder
  }

  @Test(arguments: ["arrival_time", "departure_time"])
  func stopTimesWithoutTimeColumnsAreRefused(column: String) throws {
    let feed = try Self.demoFolder { name, text in
      guard name == "stop_times.txt" else { return text }
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.split(separator: ",", omittingEmptySubsequences: false)
      }
      let index = try #require(lines[0].firstIndex { $0.trimmingCharacters(in: .whitespacesAndNewlines) == column })
      return lines.map { fields in fields.enumerated().filter { $0.offset != index }.map(\.element).joined(separator: ",") }
        .joined(separator: "\n")
    }
    let home = TemporaryFolder()
    let result = transit(["ingest", feed.path, "--data-dir", home.path])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: stop_times.txt:1: required column \(column) is missing from the header\n")
  }

  @Test func aCorruptEntryIsNamedOnce() throws {
    var files: [(String, [UInt8])] = []
    let source = packageRoot + "/Data/gtfs"
    for name in try FileManager.default.contentsOfDirectory(atPath: source).sorted() where name.hasSuffix(".txt") {
      files.append((name, [UInt8](FileManager.default.contents(atPath: source + "/" + name)!)))
    }
    var zip = storedZip(files)
    // Flip a byte inside stops.txt's data: its CRC-32 no longer matches.
    let marker = Array("TINT,,Tallaght".utf8)
    let at = try #require((0..<(zip.count - marker.count)).first { Array(zip[$0..<$0 + marker.count]) == marker })
    zip[at] = UInt8(ascii: "X")
    let folder = TemporaryFolder()
    let path = folder.path + "/feed.zip"
    _ = FileManager.default.createFile(atPath: path, contents: Data(zip))
    let result = transit(["ingest", path, "--data-dir", folder.path])
    #expect(result.code == 1)
    #expect(result.stderr.hasPrefix("transit: stops.txt: CRC-32 mismatch (expected "), "\(result.stderr)")
    #expect(result.stderr.components(separatedBy: "stops.txt").count == 2, "\(result.stderr)")
  }

  @Test func aDownloadedZipsErrorNamesTheURL() throws {
    let server = try TestHTTPServer { _, _ in
      .init(headers: [("Content-Type", "application/zip")], body: Array("PK\u{3}\u{4}not really a zip at all".utf8))
    }
    defer { server.stop() }
    let home = TemporaryFolder()
    let result = transit(["ingest", server.baseURL + "/feed.zip", "--data-dir", home.path])
    #expect(result.code == 1)
    #expect(result.stderr.hasPrefix("transit: \(server.baseURL)/feed.zip: "), "\(result.stderr)")
    #expect(!result.stderr.contains(home.path) && !result.stderr.contains("downloads"), "\(result.stderr)")
  }

  /// A ZIP of the demo files (stored) and one deflate entry that declares `declared` bytes
  /// unzipped from `compressed` bytes (never read: the budget refuses it first).
  static func zipDeclaring(_ name: String, declared: UInt64, compressed: Int) throws -> [UInt8] {
    func le(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
    var files: [(String, [UInt8])] = []
    let source = packageRoot + "/Data/gtfs"
    for file in try FileManager.default.contentsOfDirectory(atPath: source).sorted() where file.hasSuffix(".txt") {
      files.append((file, [UInt8](FileManager.default.contents(atPath: source + "/" + file)!)))
    }
    var out: [UInt8] = []
    var central: [UInt8] = []
    var entries: [(name: String, data: [UInt8], method: UInt64, size: UInt64, crc: UInt64)] = files.map {
      ($0.0, $0.1, 0, UInt64($0.1.count), UInt64(FeedGzip.crc32($0.1)))
    }
    entries.append((name, [UInt8](repeating: 0, count: compressed), 8, declared, 0))
    for entry in entries {
      let nameBytes = Array(entry.name.utf8)
      let offset = UInt64(out.count)
      out +=
        [0x50, 0x4B, 3, 4] + le(20, 2) + le(0, 2) + le(entry.method, 2) + le(0, 2) + le(0x21, 2) + le(entry.crc, 4)
        + le(UInt64(entry.data.count), 4) + le(entry.size, 4) + le(UInt64(nameBytes.count), 2) + le(0, 2) + nameBytes + entry.data
      central +=
        [0x50, 0x4B, 1, 2] + le(20, 2) + le(20, 2) + le(0, 2) + le(entry.method, 2) + le(0, 2) + le(0x21, 2)
        + le(entry.crc, 4) + le(UInt64(entry.data.count), 4) + le(entry.size, 4) + le(UInt64(nameBytes.count), 2)
        + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(offset, 4) + nameBytes
    }
    let centralOffset = UInt64(out.count)
    out += central
    out +=
      [0x50, 0x4B, 5, 6] + le(0, 2) + le(0, 2) + le(UInt64(entries.count), 2) + le(UInt64(entries.count), 2)
      + le(UInt64(central.count), 4) + le(centralOffset, 4) + le(0, 2)
    return out
  }

  @Test func aFeedUnzippingPastItsBudgetIsRefusedAtOnce() throws {
    // 3.7 MB declaring 2 GiB - 1 of transfers (blank lines, say): within the 1000:1 ratio cap.
    let declared: UInt64 = (2 << 30) - 1
    let zip = try Self.zipDeclaring("transfers.txt", declared: declared, compressed: 3_700_000)
    let folder = TemporaryFolder()
    let path = folder.path + "/bomb.zip"
    _ = FileManager.default.createFile(atPath: path, contents: Data(zip))
    let demoBytes = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Data/gtfs").filter { $0.hasSuffix(".txt") }
      .reduce(UInt64(0)) { $0 + UInt64(FileManager.default.contents(atPath: packageRoot + "/Data/gtfs/" + $1)!.count) }
    let started = Date()
    let result = transit(["ingest", path, "--data-dir", folder.path])
    #expect(Date().timeIntervalSince(started) < 20)  // before: inflating it all, 124 s of CPU
    #expect(result.code == 1)
    #expect(
      result.stderr
        == "transit: bomb.zip: the feed's files unzip to \((declared + demoBytes) >> 20) MiB, more than the 1536 MiB allowed (the feed-max-unzipped-mb setting)\n"
    )
    // The budget is a setting: raised, the same archive gets past it (and fails on its bogus data).
    #expect(transit(["config", "set", "feed-max-unzipped-mb", "4096", "--data-dir", folder.path]).code == 0)
    let raised = transit(["ingest", path, "--data-dir", folder.path])
    #expect(raised.code == 1)
    #expect(!raised.stderr.contains("feed-max-unzipped-mb"), "\(raised.stderr)")
  }

  @Test func userDataIsReadableByItsOwnerOnly() throws {
    let home = try DemoHomeFolder()
    #expect(transit(["fav", "add", "TINT", "--data-dir", home.path]).code == 0)
    let mode = try FileManager.default.attributesOfItem(atPath: home.path + "/user.sqlite")[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }
}

/// A fresh data folder holding the demo network as the feed `demo`.
final class DemoHomeFolder: Sendable {
  private let folder = TemporaryFolder()
  var path: String { folder.path }

  init() throws {
    let result = transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", folder.path])
    guard result.code == 0 else { throw FixtureError(result.stderr) }
  }
}
