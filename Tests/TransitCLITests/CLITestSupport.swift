import Foundation
import GTFSRealtime
import TestSupport
import Testing
import TransitCLI

/// What a run of `transit` printed and returned.
struct CLIResult {
  var code: Int32
  var stdout: String
  var stderr: String
  /// Both streams, stdout first.
  var all: String { stdout + stderr }
  /// The stdout as a JSON value.
  var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
}

/// Runs `transit` in-process with captured output, in `directory`: the one runner of the CLI's
/// tests. A download is tried once, for at most 5 s, unless `environment` sets
/// `TRANSIT_FETCH_RETRIES` or `TRANSIT_FETCH_TIMEOUT`: a test's server on 127.0.0.1 answers at
/// once or is meant not to.
func transit(_ arguments: [String], environment: [String: String] = [:], directory: String = "/") -> CLIResult {
  var environment = environment
  environment["TRANSIT_FETCH_RETRIES"] = environment["TRANSIT_FETCH_RETRIES"] ?? "0"
  environment["TRANSIT_FETCH_TIMEOUT"] = environment["TRANSIT_FETCH_TIMEOUT"] ?? "5"
  return transit(arguments, context: CommandContext.capturing(environment: environment, currentDirectory: directory))
}

/// Runs `transit` in-process with `context` (a terminal, a stepped clock, a working folder of
/// the test's own), and returns what it captured.
func transit(_ arguments: [String], context: CommandContext) -> CLIResult {
  let code = Transit.main(arguments, context: context)
  return CLIResult(code: code, stdout: context.stdout.text, stderr: context.stderr.text)
}

/// The built `transit` executable beside the test bundle, for tests that run it as a user does.
/// (`TRANSIT_TEST_EXECUTABLE` names another build, to show a test failing on it.)
let transitExecutable: String? = {
  if let other = ProcessInfo.processInfo.environment["TRANSIT_TEST_EXECUTABLE"] { return other }
  let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for candidate in [bundle.appendingPathComponent("transit").path, packageRoot + "/.build/debug/transit"]
  where FileManager.default.isExecutableFile(atPath: candidate) {
    return candidate
  }
  return nil
}()

/// Runs the real executable; returns its exit code, stdout and stderr.
func runExecutable(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: transitExecutable!)
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let out = Pipe(), err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return CLIResult(
    code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
}

/// A timetable in shared/data and a realtime capture of the same agency (PROVENANCE.md).
struct RealPair: CustomStringConvertible, Sendable {
  var feed: String
  var capture: String
  /// The share of the capture's trips that the timetable has and runs that day (PROVENANCE.md).
  var minimumMatchShare: Double
  var description: String { capture }
}

/// A pair loaded as a user would: the timetable ingested as feed `real` into a fresh data
/// folder, and the capture decoded.
struct LoadedPair {
  let home: RealHome
  let capturePath: String
  let message: FeedMessage

  init(_ pair: RealPair) throws {
    home = try RealHome(pair.feed, as: "real")
    capturePath = try #require(SharedData.path("rt/" + pair.capture))
    message = try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: capturePath))))
  }
}

/// A fresh data folder holding a copy of a shared feed's timetable: each (feed file, name) is
/// ingested once per test process into a template (`IngestedFeeds`, by `transit ingest`), and
/// each home copies it (milliseconds, where an ingest of a real feed takes seconds). A failed
/// ingest fails the tests that ask.
final class RealHome: @unchecked Sendable {
  let folder = TemporaryFolder()
  var path: String { folder.path }

  struct SetUpError: Error, CustomStringConvertible {
    var description: String
  }

  /// A home holding shared/data/static/`file`, ingested as `feed` (nil: the name ingest derives).
  convenience init(_ file: String, as feed: String? = nil) throws {
    guard let zip = SharedData.path("static/" + file) else { throw SetUpError(description: "no shared/data/static/\(file)") }
    try self.init(source: zip, as: feed)
  }

  /// A home holding the feed at `source` (a ZIP or a folder), ingested as `feed` (nil: the name
  /// ingest derives).
  init(source: String, as feed: String? = nil) throws {
    try IngestedFeeds.copy(try Self.template(source, as: feed), into: folder.path)
  }

  /// The data folder `transit ingest source --quiet [--feed feed]` made, once per process.
  private static func template(_ source: String, as feed: String?) throws -> String {
    try IngestedFeeds.folder(key: "transit ingest\u{0}" + source + "\u{0}" + (feed ?? "")) { folder in
      let result = transit(["ingest", source, "--quiet", "--data-dir", folder] + (feed.map { ["--feed", $0] } ?? []))
      guard result.code == 0 else { throw SetUpError(description: "ingest of \(source) failed: \(result.stderr)") }
    }
  }
}

/// A data folder holding one shared timetable, ingested once per process and (feed, name) by
/// `transit ingest` (`IngestedFeeds`) and shared, not copied: the tests that ask may add
/// favourites and commutes to it, so it is apart from `RealHome`'s templates.
struct SharedHome: Sendable {
  let path: String

  /// The home holding `feed` (a file in shared/data/static) as feed `name`. Keyed by both: a
  /// test reading the feed by its name must not get a home another test named otherwise
  /// (whichever ran first won, and tests asking for "real" found no feed of that name).
  /// A feed that fails to ingest fails the tests that need it (each time they ask), not the run.
  static func holding(_ feed: String, as name: String = "real") throws -> SharedHome {
    guard let zip = SharedData.path("static/" + feed) else { throw FixtureError("no shared feed \(feed)") }
    let path = try IngestedFeeds.folder(key: "shared home\u{0}" + zip + "\u{0}" + name) { folder in
      let result = transit(["ingest", zip, "--feed", name, "--quiet", "--data-dir", folder])
      guard result.code == 0 else { throw FixtureError("\(feed): \(result.stderr)") }
    }
    return SharedHome(path: path)
  }
}

/// A fresh data folder holding the demo network (`Data/gtfs`) as the feed `demo`.
final class DemoHome: @unchecked Sendable {
  private let folder = TemporaryFolder()
  var path: String { folder.path }

  /// The demo ingested once per test process, as `transit ingest` writes it (`IngestedFeeds`);
  /// every home starts as a copy of it (a copy takes milliseconds, an ingest most of a second).
  private static func template() throws -> String {
    try IngestedFeeds.folder(key: "transit ingest demo") { folder in
      let result = transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", folder])
      guard result.code == 0 else { throw TemplateError(message: "demo ingest failed: \(result.stderr)") }
    }
  }

  struct TemplateError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Why this home holds no timetable (the template's ingest or the copy failed); nil when it
  /// does. Commands run in it then fail with this message, so one test fails, not the run.
  private var setupError: String?

  /// A home holding a copy of the demo timetable.
  init() {
    do {
      try IngestedFeeds.copy(try Self.template(), into: folder.path)
    } catch {
      setupError = "\(error)"
    }
  }

  /// Runs `transit` in-process against this folder.
  func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    if let setupError { return CLIResult(code: 70, stdout: "", stderr: "test set-up: " + setupError) }
    return transit(arguments + ["--data-dir", path], environment: environment)
  }
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

/// Writes `files` as a feed folder in `home` and ingests it.
func ingest(_ files: [String: String], into home: TemporaryFolder) throws {
  let feed = home.path + "/feed"
  try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
  for (name, text) in files { try text.write(toFile: feed + "/" + name, atomically: true, encoding: .utf8) }
  let result = transit(["ingest", feed, "--quiet", "--data-dir", home.path])
  try #require(result.code == 0, "\(result.stderr)")
}
