import Foundation
import GTFSRealtime
import TestSupport
import Testing
import TransitCLI

/// Runs `transit` in-process with captured output.
struct CLIResult {
  var code: Int32
  var stdout: String
  var stderr: String
}

func transit(_ arguments: [String], environment: [String: String] = [:], directory: String = "/") -> CLIResult {
  let context = CommandContext.capturing(environment: environment, currentDirectory: directory)
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
/// ingested once per test process into a template, and each home copies it (milliseconds,
/// where an ingest of a real feed takes seconds). A failed ingest fails the tests that ask.
final class RealHome: @unchecked Sendable {
  let folder = TemporaryFolder()
  var path: String { folder.path }
  private static let templates = OncePerKey<TemporaryFolder>()

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
    let template = try Self.template(source, as: feed)
    let files = FileManager.default
    for name in try files.contentsOfDirectory(atPath: template.path) {
      try files.copyItem(atPath: template.path + "/" + name, toPath: folder.path + "/" + name)
    }
  }

  private static func template(_ source: String, as feed: String?) throws -> TemporaryFolder {
    try templates.value(source + "\u{0}" + (feed ?? "")) {
      let folder = TemporaryFolder()
      let result = transit(["ingest", source, "--quiet", "--data-dir", folder.path] + (feed.map { ["--feed", $0] } ?? []))
      guard result.code == 0 else { throw SetUpError(description: "ingest of \(source) failed: \(result.stderr)") }
      return folder
    }
  }
}

/// A fresh data folder holding the demo network (`Data/gtfs`) as the feed `demo`.
final class DemoHome: @unchecked Sendable {
  private let folder = TemporaryFolder()
  var path: String { folder.path }

  /// The demo ingested once per test process, as `transit ingest` writes it; every home starts
  /// as a copy of it (a copy takes milliseconds, an ingest most of a second).
  private static let template: Result<TemporaryFolder, TemplateError> = {
    let folder = TemporaryFolder()
    let result = transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", folder.path])
    return result.code == 0 ? .success(folder) : .failure(TemplateError(message: "demo ingest failed: \(result.stderr)"))
  }()

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
      let template = try Self.template.get()
      let files = FileManager.default
      for name in try files.contentsOfDirectory(atPath: template.path) {
        try files.copyItem(atPath: template.path + "/" + name, toPath: folder.path + "/" + name)
      }
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
