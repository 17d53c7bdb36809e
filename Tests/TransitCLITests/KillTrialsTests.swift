import Foundation
import SQLite
import TestSupport
import Testing

@testable import TransitCLI

/// `kill -9` at random moments during ingest, rollback and swap (issue 19): the feed always
/// answers with the old or the new timetable whole, and `PRAGMA integrity_check` is ok on
/// every timetable file. CI runs 20 trials; `TRANSIT_KILL_TRIALS=200` runs the full set.
@Suite(.enabled(if: transitExecutable != nil, "needs the built executable"))
struct KillTrialsTests {
  /// The demo network, and a copy where Tallaght Hospital is renamed: which one answers is
  /// told by the name.
  static func variant(in folder: String) throws -> String {
    let source = packageRoot + "/Data/gtfs", target = folder + "/renamed"
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: source) {
      var text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
      if name == "stops.txt" { text = text.replacingOccurrences(of: ",Tallaght Hospital,", with: ",Tallaght University Hospital,") }
      try text.write(toFile: target + "/" + name, atomically: true, encoding: .utf8)
    }
    return target
  }

  @Test func killedAtAnyMomentTheFeedAnswersWhole() throws {
    let trials = Int(ProcessInfo.processInfo.environment["TRANSIT_KILL_TRIALS"] ?? "") ?? 20
    let home = TemporaryFolder(), sources = TemporaryFolder()
    let original = packageRoot + "/Data/gtfs", renamed = try Self.variant(in: sources.path)
    let now = "2026-12-01T12:00:00Z"
    #expect(try runExecutable(["ingest", original, "--feed", "demo", "--now", now, "--data-dir", home.path, "--quiet"]).code == 0)
    #expect(try runExecutable(["ingest", renamed, "--feed", "demo", "--now", now, "--data-dir", home.path, "--quiet"]).code == 0)
    func answer() -> String {
      transit(["stops", "search", "hospital", "--json", "--now", now, "--data-dir", home.path]).stdout
    }
    let renamedAnswer = answer()
    #expect(renamedAnswer.contains("Tallaght University Hospital"))
    #expect(transit(["ingest", "--rollback", "demo", "--quiet", "--data-dir", home.path]).code == 0)
    let originalAnswer = answer()
    #expect(originalAnswer.contains("\"Tallaght Hospital\""))

    var random = SplitMix64(state: 19)
    var finished = 0, killed = 0
    for trial in 0..<trials {
      let operation: [String]
      switch trial % 3 {
      case 0: operation = ["ingest", original, "--feed", "demo", "--force"]
      case 1: operation = ["ingest", renamed, "--feed", "demo", "--force"]
      default: operation = ["ingest", "--rollback", "demo"]
      }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: transitExecutable!)
      process.arguments = operation + ["--now", now, "--data-dir", home.path, "--quiet"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Anywhere from before the first byte to after the swap (an ingest here takes ~0.1-0.4 s).
      Thread.sleep(forTimeInterval: Double(random.next() % 450) / 1000)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killed += 1 } else { finished += 1 }

      let now = answer()
      #expect(now == originalAnswer || now == renamedAnswer, "trial \(trial) (\(operation[1])): \(now.prefix(200))")
      for file in try FileManager.default.contentsOfDirectory(atPath: home.path + "/feeds")
      where file.hasSuffix(".sqlite") || file.hasSuffix(".sqlite.prev") {
        let db = try Connection(path: home.path + "/feeds/" + file, mode: .readOnly)
        #expect(try db.scalarText("PRAGMA integrity_check") == "ok", "trial \(trial): \(file)")
      }
    }
    // No stale lock or half-built file blocks the next ingest.
    let last = try runExecutable(["ingest", original, "--feed", "demo", "--force", "--now", now, "--data-dir", home.path, "--quiet"])
    #expect(last.code == 0, "\(last.stderr)")
    #expect(answer() == originalAnswer)
    #expect(killed > 0, "\(killed) killed, \(finished) finished")
    print("kill trials: \(trials), killed mid-way \(killed), finished first \(finished)")
  }
}
