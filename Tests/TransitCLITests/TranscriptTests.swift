import Foundation
import TestSupport
import Testing

/// Prints a whole session against the test server, for reading (TRANSIT_FETCH_TRANSCRIPT=1).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TRANSIT_FETCH_TRANSCRIPT"] != nil))
struct TranscriptTests {
  @Test func session() throws {
    let failing = Flag()
    let server = try FeedsCommandTests.demoServer(failing: failing)
    defer { server.stop() }
    let home = TemporaryFolder()
    let env = ["MTA_KEY": FeedsCommandTests.secret]
    func run(_ arguments: [String]) {
      let result = transit(arguments + ["--data-dir", home.path], environment: env)
      let shown = arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
      print("$ transit \(shown)\n\(result.stdout)\(result.stderr.isEmpty ? "" : "[stderr] " + result.stderr)[exit \(result.code)]\n")
    }
    let base = server.baseURL
    run([
      "feeds", "add", "demo", "--gtfs", base + "/gtfs.zip", "--trip-updates", base + "/tu", "--header", "x-api-key: $MTA_KEY", "--poll",
      "15",
    ])
    run(["feeds", "list"])
    run(["feeds", "check", "--verbose"])
    run(["ingest", "--if-changed"])
    run(["ingest", "--if-changed"])
    run(["departures", "TINT", "--now", FeedsCommandTests.now, "--limit", "4"])
    failing.value = 1
    run(["departures", "TINT", "--now", FeedsCommandTests.now, "--limit", "4", "--refresh"])
    run(["rt", "dump", base + "/tu?key=$MTA_KEY", "--summary"])
    run(["ingest", base + "/missing.zip", "--feed", "demo"])
    run(["ingest", "--list"])
  }
}
