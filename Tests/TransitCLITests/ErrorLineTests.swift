import Foundation
import GTFS
import Testing

@testable import TransitCLI

/// Every error is one line on stderr with the exit code DESIGN.md gives it, and help comes as
/// JSON too (issue 22, "Errors" and "Command line").
@Suite struct ErrorLineTests {
  /// Usage errors: one line that names the usage and where the help is; exit 2.
  @Test(
    arguments: [
      (["departures", "TINT", "--rout", "27"], "unknown option '--rout'; did you mean '--route'?", "transit departures STOP... [options]"),
      (["departures"], "missing STOP", "transit departures STOP... [options]"),
      (["departures", "TINT", "--limit", "zero"], "--limit", "transit departures STOP... [options]"),
      (["stops", "near", "91,0", "--limit", "-3"], "--limit", "transit stops near [LAT,LON] [options]"),
      // The usage is the longest command named (not 'commute'), and global options before the
      // command do not hide it.
      (["commute", "add"], "missing NAME", "transit commute add NAME [options]"),
      (["--data-dir", "/nonexistent", "departures"], "missing STOP", "transit departures STOP... [options]"),
      (["departurs", "TINT"], "unknown command 'departurs'; did you mean 'departures'?", nil),
      (["stops", "naer"], "unknown command 'stops naer'; did you mean 'stops near'?", nil),
    ] as [([String], String, String?)])
  func aUsageErrorIsOneLine(words: [String], fragment: String, usage: String?) {
    let result = transit(words)
    #expect(result.code == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("transit: "), "\(result.stderr)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    #expect(result.stderr.hasSuffix("\n"))
    #expect(result.stderr.contains(fragment), "\(result.stderr)")
    if let usage {
      let command = usage.components(separatedBy: " ").prefix { $0.first?.isLowercase == true }.joined(separator: " ")
      #expect(result.stderr.hasSuffix(" (usage: \(usage); see '\(command) --help')\n"), "\(result.stderr)")
    } else {
      #expect(result.stderr.hasSuffix(" (see 'transit --help')\n"), "\(result.stderr)")
    }
  }

  /// The renderer: each kind of error its code and its one line; anything outside the closed
  /// list is a bug, said as such, exit 70.
  @Test func eachErrorItsExitCode() {
    struct Unexpected: Error {}
    let cases: [(any Error, Int32, String)] = [
      (UsageError("missing STOP"), 2, "transit: missing STOP (see 'transit --help')\n"),
      (NotFoundError("no stop 'X'"), 3, "transit: no stop 'X'\n"),
      (RuntimeError("it broke"), 1, "transit: it broke\n"),
      (
        GTFSError(file: "stops.txt", line: 42, .invalidValue(column: "stop_lat", value: "abc", expected: "a latitude")), 1,
        "transit: stops.txt:42: stop_lat 'abc' is not a latitude\n"
      ),
      (
        IngestError.refused(
          feed: "demo",
          checks: [
            SwapCheck(name: "same-agency", passed: true, detail: "Dublin Bus"),
            SwapCheck(name: "stops", passed: false, detail: "stops 2,349 -> 9 (-99.6 %, at most -50 %)"),
          ]), 4,
        "transit: refused to replace the timetable of demo: stops: stops 2,349 -> 9 (-99.6 %, at most -50 %); the current one is kept (--force swaps anyway)\n"
      ),
      (IngestError.noPrevious("demo"), 1, "transit: no previous timetable of demo is kept; nothing to roll back to\n"),
      (SettingsError("config.toml:3: clock '25' is not 12 or 24"), 1, "transit: config.toml:3: clock '25' is not 12 or 24\n"),
      (
        Unexpected(), 70,
        "transit: internal error: Unexpected() (this is a bug in transit; please report it with the command that caused it)\n"
      ),
    ]
    for (error, code, line) in cases {
      let context = CommandContext.capturing(environment: [:], currentDirectory: "/")
      #expect(Transit.report(error, words: [], context: context) == code, "\(error)")
      #expect(context.stderr.text == line)
      #expect(context.stdout.text.isEmpty)
    }
  }

  /// `transit --json help` lists the commands the help screen lists, in its order; global
  /// options before or after give the same.
  @Test func helpAsJSONListsWhatTheScreenLists() throws {
    let screen = transit(["--help"])
    #expect(screen.code == 0)
    // The screen's command column: the lines between "commands:" and "global options:",
    // each "  NAME  summary" (a name is one or two words).
    let lines = screen.stdout.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "commands:")) + 1
    let end = try #require(lines.firstIndex(of: "global options:"))
    let names = lines[start..<end].filter { !$0.isEmpty }.map { line in
      line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
    }
    #expect(names.count >= 30)
    for words in [["--json", "help"], ["help", "--json"], ["--help", "--json"], ["--json", "--help"]] {
      let result = transit(words)
      #expect(result.code == 0, "\(words)")
      let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let commands = try #require(object["commands"] as? [[String: Any]])
      #expect(commands.compactMap { $0["command"] as? String } == names, "\(words)")
      #expect(object["transit"] as? String == Transit.version)
    }
  }

  /// The overview comes with any global options, before or after `--help`.
  @Test func helpWithOtherGlobalOptions() {
    let overview = transit(["--help"])
    for words in [["--data-dir", "/nonexistent", "--help"], ["--help", "--now", "2026-12-01T07:40:00Z"], ["help", "--no-color"]] {
      let result = transit(words)
      #expect(result.code == 0, "\(words): \(result.stderr)")
      #expect(result.stdout == overview.stdout, "\(words)")
    }
  }

  /// A command's help as JSON holds the options its help screen lists, and nothing else.
  @Test(arguments: [["departures"], ["stops", "near"], ["plan"], ["ingest"]])
  func aCommandsHelpAsJSON(path: [String]) throws {
    let screen = transit(path + ["--help"])
    // The screen's options: the lines of the "options:" section that start with "  -".
    let lines = screen.stdout.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "options:")) + 1
    let end = try #require(lines[start...].firstIndex(of: ""))
    let shown = lines[start..<end].filter { $0.hasPrefix("  -") }.map { line -> String in
      // "  -n, --limit N   help" or "  --json   help": the long name.
      let words = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " ")
      return (words.first { $0.hasPrefix("--") } ?? words[0]).trimmingCharacters(in: CharacterSet(charactersIn: ","))
    }
    for words in [["help"] + path + ["--json"], ["--json"] + path + ["--help"]] {
      let result = transit(words)
      #expect(result.code == 0, "\(words)")
      let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect(object["command"] as? String == path.joined(separator: " "))
      let options = try #require(object["options"] as? [[String: Any]])
      #expect(options.compactMap { $0["name"] as? String } == shown, "\(words)")
      #expect((object["global_options"] as? [[String: Any]])?.contains { $0["name"] as? String == "--json" } == true)
    }
  }
}
