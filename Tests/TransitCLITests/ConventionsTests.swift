import Foundation
import SQLite
import TestSupport
import Testing

@testable import TransitCLI

/// The conventions every command keeps (issue 12), checked by walking the command table, so a
/// command added later is held to them without anyone writing a test for it: help that names
/// every option, examples that parse, no escape sequences off a terminal, `--json` that parses,
/// suggestions for typos and the exit codes of DESIGN.md.
@Suite struct ConventionsTests {
  static let now = "2026-12-01T07:40:00Z"
  static let realtime = packageRoot + "/Data/realtime"
  static let tripUpdates = realtime + "/demo-tripupdates.pb"
  static let vehiclePositions = realtime + "/demo-vehiclepositions.pb"
  static let alerts = realtime + "/demo-alerts.pb"
  static let addFeed = [
    "feeds", "add", "demo", "--trip-updates", "file://" + tripUpdates, "--vehicle-positions", "file://" + vehiclePositions,
    "--alerts", "file://" + alerts,
  ]
  static let addCommute = ["commute", "add", "work", "--stop", "4530", "--route", "27", "--arrive-by", "08:30", "--walk", "5"]
  static let importReplay = ["history", "import", packageRoot + "/Data/replay"]

  /// A run of each command on the demo network that succeeds (exit 0), with what must be set up
  /// before it. Every command in `Transit.commands` needs an entry: a new command fails
  /// `everyCommandHasADemoRun` until it has one.
  static let demoRuns: [String: (setup: [[String]], arguments: [String])] = [
    "": ([["fav", "add", "TINT"], ["places", "add", "home", "53.2875,-6.3664"]], []),
    "ingest": ([], ["ingest", "--list"]),
    "stops near": ([], ["stops", "near", "53.2875,-6.3664", "--limit", "3"]),
    "stops search": ([], ["stops", "search", "tallaght"]),
    "stops show": ([], ["stops", "show", "TINT"]),
    "departures": ([], ["departures", "TINT", "--limit", "5", "--realtime", tripUpdates, "--realtime", vehiclePositions]),
    "rt dump": ([], ["rt", "dump", tripUpdates]),
    "rt check": ([], ["rt", "check", tripUpdates]),
    "alerts": ([], ["alerts", "--peek", "--realtime", alerts]),
    "status": ([], ["status", "27", "77X", "Red", "--realtime", alerts]),
    "feeds add": ([], addFeed),
    "feeds list": ([addFeed], ["feeds", "list"]),
    "feeds remove": ([addFeed], ["feeds", "remove", "demo"]),
    "feeds check": ([addFeed], ["feeds", "check"]),
    "fav add": ([], ["fav", "add", "4530", "--route", "27"]),
    "fav list": ([["fav", "add", "TINT"]], ["fav", "list"]),
    "fav remove": ([["fav", "add", "TINT"]], ["fav", "remove", "TINT"]),
    "config list": ([], ["config", "list"]),
    "config get": ([], ["config", "get", "late"]),
    "config set": ([], ["config", "set", "late", "180"]),
    "places add": ([], ["places", "add", "work", "53.2941,-6.4010"]),
    "places list": ([["places", "add", "work", "53.2941,-6.4010"]], ["places", "list"]),
    "places remove": ([["places", "add", "gym", "53.29,-6.37"]], ["places", "remove", "gym"]),
    "commute": ([addCommute], ["commute", "work", "--realtime", tripUpdates]),
    "commute add": ([], addCommute),
    "commute list": ([addCommute], ["commute", "list"]),
    "commute remove": ([addCommute], ["commute", "remove", "work"]),
    "vehicles": ([], ["vehicles", "--realtime", vehiclePositions, "--realtime", tripUpdates]),
    "follow": ([], ["follow", "V27-3", "--once", "--realtime", vehiclePositions, "--realtime", tripUpdates]),
    "record": ([addFeed], ["record", "snapshots", "--duration", "1s"]),
    "history": ([importReplay], ["history", "4530"]),
    "history route": ([importReplay], ["history", "route", "27"]),
    "history commute": ([addCommute, importReplay], ["history", "commute", "work"]),
    "history import": ([], importReplay),
    "completions": ([], ["completions", "bash"]),
    "routes": ([], ["routes", "--stop", "TINT"]),
    "route show": ([], ["route", "show", "27", "--date", "2026-12-01"]),
    "plan": ([], ["plan", "Red Cow", "Fettercairn", "--depart", "08:00", "--realtime", tripUpdates]),
    "timetable": ([], ["timetable", "TINT", "--date", "2026-12-01"]),
    "trip show": ([], ["trip", "show", "V27-3", "--realtime", vehiclePositions, "--realtime", tripUpdates]),
  ]

  /// Every command, the no-command view first.
  static var specs: [CommandSpec] { [HomeCommand.spec] + Transit.commands.map { $0.spec } }

  static var names: [String] { specs.map { $0.path.joined(separator: " ") } }

  // MARK: - Help

  @Test func everyCommandHasADemoRun() {
    for name in Self.names { #expect(Self.demoRuns[name] != nil, "add a demo run of '\(name)' to ConventionsTests.demoRuns") }
    for name in Self.demoRuns.keys { #expect(Self.names.contains(name), "demo run of '\(name)', which is not a command") }
  }

  @Test(arguments: Transit.commands.map { $0.spec })
  func helpNamesEveryOptionAndExample(spec: CommandSpec) {
    let help = transit(spec.path + ["--help"])
    #expect(help.code == 0)
    #expect(help.stderr.isEmpty)
    #expect(help.stdout.hasPrefix(spec.summary + "\n\nusage: \(spec.usage)\n"))
    for option in spec.options + GlobalOptions.specs {
      #expect(!option.help.isEmpty, "\(option.name) has no help")
      if let short = option.shortName { #expect(help.stdout.contains(short + ", " + option.name)) }
      if let value = option.defaultValue { #expect(help.stdout.contains("(default: \(value))")) }
    }
    for argument in spec.arguments {
      #expect(!argument.help.isEmpty, "\(argument.name) has no help")
      #expect(help.stdout.contains(argument.name))
    }
    for example in spec.examples { #expect(help.stdout.contains("  " + example + "\n")) }
    #expect(transit(["help"] + spec.path).stdout == help.stdout)
    #expect(transit(spec.path + ["-h"]).stdout == help.stdout)
    #expect(!spec.summary.isEmpty && !spec.summary.hasSuffix("."))
  }

  /// Two or three real examples of the command itself, each of which the parser accepts.
  @Test(arguments: Transit.commands.map { $0.spec })
  func examplesParse(spec: CommandSpec) throws {
    let own = spec.examples.filter { Self.words(of: $0).starts(with: ["transit"] + spec.path) }
    #expect(own.count >= 2, "'\(spec.name)' needs at least two examples of its own")
    for example in own {
      let words = Array(Self.words(of: example).dropFirst())
      #expect(throws: Never.self, "\(example)") {
        _ = try Transit.parse(words, for: spec, context: .capturing())
      }
      // The longest command the words name is this one (the example is not another command's).
      let match = Transit.commands.filter { words.starts(with: $0.spec.path) }.max { $0.spec.path.count < $1.spec.path.count }
      #expect(match?.spec.path == spec.path, "\(example)")
    }
  }

  /// A command line split as a shell would (quotes, no expansion), up to `&&`, `|` or `>`.
  static func words(of line: String) -> [String] {
    var words: [String] = [], word = "", quote: Character?, hasWord = false
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        hasWord = true
      } else if character == " " {
        if hasWord { words.append(word) }
        word = ""
        hasWord = false
      } else {
        word.append(character)
        hasWord = true
      }
    }
    if hasWord { words.append(word) }
    return Array(words.prefix { !["&&", "|", ">", "||", ";"].contains($0) })
  }

  @Test func overviewListsEveryCommandButTheHiddenOnes() {
    let overview = transit(["--help"])
    #expect(overview.code == 0)
    for command in Transit.commands {
      #expect(overview.stdout.contains("  " + command.spec.path.joined(separator: " ") + " "))
    }
    for command in Transit.hiddenCommands { #expect(!overview.stdout.contains(command.spec.path[0])) }
    #expect(transit(["help"]).stdout == overview.stdout)
    #expect(transit(["-h"]).stdout == overview.stdout)
  }

  @Test func groupHelpListsItsCommands() {
    let group = transit(["stops", "--help"])
    #expect(group.code == 0)
    for name in ["stops near", "stops search", "stops show"] { #expect(group.stdout.contains("transit " + name)) }
  }

  @Test func longOptionNamesKeepTheirHelpWhole() {
    let help = transit(["feeds", "add", "--help"]).stdout
    #expect(help.contains("  --vehicle-positions URL\n" + String(repeating: " ", count: 24) + "The GTFS-Realtime vehicle positions feed\n"))
  }

  // MARK: - Version

  @Test func versionNamesTheLibrariesItRunsOn() throws {
    let result = transit(["--version"])
    #expect(result.code == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "transit \(Transit.version)")
    let libraries = try #require(lines.dropFirst().first)
    #expect(libraries.wholeMatch(of: /SQLite 3\.[0-9.]+, libcurl [0-9]+\.[0-9.]+\S*, zlib [0-9]+\.[0-9.]+\S*/) != nil, "\(libraries)")
  }

  // MARK: - Typos and exit codes

  @Test func typosSuggestTheNearestName() {
    let command = transit(["departurs", "TINT"])
    #expect(command.code == 2)
    #expect(command.stderr.hasPrefix("transit: unknown command 'departurs'; did you mean 'departures'? (see 'transit --help')\n"))
    let sub = transit(["stops", "naer"])
    #expect(sub.code == 2)
    #expect(sub.stderr.hasPrefix("transit: unknown command 'stops naer'; did you mean 'stops near'? (see 'transit --help')\n"))
    let option = transit(["departures", "TINT", "--rout", "27"])
    #expect(option.code == 2)
    #expect(option.stderr.hasPrefix("transit: unknown option '--rout'; did you mean '--route'? (usage: "))
    #expect(option.stderr.contains("usage: transit departures STOP... [options]"))
    let global = transit(["stops", "near", "--jsno"])
    #expect(global.stderr.hasPrefix("transit: unknown option '--jsno'; did you mean '--json'? (usage: "))
    let shell = transit(["completions", "bsah"])
    #expect(shell.code == 2)
    #expect(shell.stderr.hasPrefix("transit: unknown shell 'bsah'; completions are for bash, zsh, fish; did you mean 'bash'? (usage: "))
  }

  @Test func exitCodes() {
    let home = DemoHome()
    #expect(home.run(["departures", "TINT", "--now", Self.now]).code == 0)
    let empty = TemporaryFolder()
    let runtime = transit(["departures", "TINT", "--data-dir", empty.path])
    #expect(runtime.code == 1)
    #expect(runtime.stdout.isEmpty && runtime.stderr.hasPrefix("transit: "))
    let usage = home.run(["departures"])
    #expect(usage.code == 2)
    #expect(usage.stdout.isEmpty && usage.stderr.hasPrefix("transit: missing STOP (usage: "))
    let notFound = home.run(["departures", "NOWHERE-AT-ALL"])
    #expect(notFound.code == 3)
    #expect(notFound.stdout.isEmpty)
    #expect(transit(["rt", "dump", empty.path + "/missing.pb"]).code == 1)
  }

  // MARK: - Output off a terminal

  /// Runs `arguments` against `home` with stdout and stderr as terminals or not, on a clock
  /// that starts at `now` and moves as the command sleeps (`record --duration 1s` waits for
  /// nothing real).
  static func run(
    _ arguments: [String], home: DemoHome, environment: [String: String] = [:], terminal: Bool
  ) -> CLIResult {
    let context = CommandContext.stepped(from: ISOTime.parse(now)!, environment: environment, currentDirectory: home.path)
    context.stdoutIsTerminal = terminal
    context.stderrIsTerminal = terminal
    return transit(arguments + ["--now", now, "--data-dir", home.path], context: context)
  }

  /// Each way of asking for plain output, and whether stderr must be plain too (NO_COLOR and
  /// --no-color are about colour; a progress bar on a terminal's stderr may still move the
  /// cursor).
  static let plainWays: [(name: String, environment: [String: String], extra: [String], terminal: Bool, plainStderr: Bool)] = [
    ("piped", [:], [], false, true),
    ("NO_COLOR=1", ["NO_COLOR": "1"], [], true, false),
    ("TERM=dumb", ["TERM": "dumb"], [], true, true),
    ("--no-color", [:], ["--no-color"], true, false),
  ]

  @Test(arguments: names)
  func noEscapeSequencesUnlessATerminalWantsThem(name: String) throws {
    let run = try #require(Self.demoRuns[name])
    let home = DemoHome()
    for way in Self.plainWays {
      for setup in run.setup { #expect(Self.run(setup, home: home, terminal: false).code == 0, "\(setup)") }
      let result = Self.run(run.arguments + way.extra, home: home, environment: way.environment, terminal: way.terminal)
      #expect(result.code == 0, "\(name), \(way.name): \(result.stderr)")
      #expect(!result.stdout.isEmpty, "\(name), \(way.name)")
      #expect(!result.stdout.contains("\u{1B}"), "\(name), \(way.name): escape sequence on stdout")
      if way.plainStderr { #expect(!result.stderr.contains("\u{1B}"), "\(name), \(way.name): escape sequence on stderr") }
    }
  }

  /// Where the terminal (`TERM=dumb`) or the locale (`LC_ALL=C`) cannot show Unicode symbols,
  /// none is drawn: only the data's own names may hold non-ASCII letters.
  @Test(arguments: names)
  func plainASCIISymbolsWhereUnicodeCannotShow(name: String) throws {
    let run = try #require(Self.demoRuns[name])
    let symbols = Set(OutputSink.asciiSymbols.keys)
    for environment in [["TERM": "dumb"], ["LC_ALL": "C"], ["LANG": "en_IE.ISO-8859-1"]] {
      let home = DemoHome()
      for setup in run.setup { #expect(Self.run(setup, home: home, terminal: false).code == 0, "\(setup)") }
      let result = Self.run(run.arguments, home: home, environment: environment, terminal: true)
      #expect(result.code == 0, "\(name), \(environment): \(result.stderr)")
      let drawn = (result.stdout + result.stderr).filter {
        symbols.contains($0) || (0x2800...0x28FF).contains($0.unicodeScalars.first!.value)
      }
      #expect(drawn.isEmpty, "\(name), \(environment): drew \(String(drawn))")
    }
  }

  /// The check above means something: a UTF-8 locale (or none set) keeps the symbols, and
  /// the plain ones keep the table's columns.
  @Test func unicodeSymbolsWhereTheyShow() {
    let home = DemoHome()
    let arguments = ["departures", "TINT", "--limit", "3"]
    let unicode = Self.run(arguments, home: home, environment: ["LANG": "C.UTF-8"], terminal: false)
    #expect(unicode.stdout.hasPrefix("Tallaght Interchange ♿ · station, departures from"))
    #expect(Self.run(arguments, home: home, terminal: false).stdout == unicode.stdout)
    let plain = Self.run(arguments, home: home, environment: ["LC_ALL": "C"], terminal: false)
    #expect(plain.stdout.hasPrefix("Tallaght Interchange W - station, departures from"))
    // The same text symbol for symbol; ♿ takes two columns on screen and its stand-in W one, so
    // the padding may differ by one.
    func words(_ text: String) -> [String] { text.split(whereSeparator: \.isWhitespace).map(String.init) }
    let mapped = String(unicode.stdout.map { $0 == "♿" ? "W" : $0 == "·" ? "-" : $0 })
    #expect(words(plain.stdout) == words(mapped))
  }

  @Test(arguments: names)
  func jsonOutputIsOneJSONDocument(name: String) throws {
    let run = try #require(Self.demoRuns[name])
    let home = DemoHome()
    for setup in run.setup { #expect(Self.run(setup, home: home, terminal: false).code == 0, "\(setup)") }
    let result = Self.run(run.arguments + ["--json"], home: home, terminal: false)
    #expect(result.code == 0, "\(name): \(result.stderr)")
    #expect(!result.stdout.contains("\u{1B}"))
    let document = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    #expect(document is [Any] || document is [String: Any], "\(name) --json printed: \(result.stdout.prefix(200))")
  }

  /// The colour check above means something: on a terminal, without NO_COLOR, colour is used.
  @Test func aTerminalGetsColour() {
    let home = DemoHome()
    let result = Self.run(["stops", "near", "53.2875,-6.3664", "--limit", "5"], home: home, terminal: true)
    #expect(result.code == 0)
    #expect(result.stdout.contains("\u{1B}["))
  }
}

/// Options as people type them (issue 22, "Command line").
@Suite struct OptionPlacementTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"

  /// A value never looks like an option: `--route --json` is a missing route, not the route
  /// '--json' (which printed text and exited 0).
  @Test func anOptionIsNeverTakenAsAValue() {
    let result = home.run(["departures", "TINT", "--route", "--json", "--now", now])
    #expect(result.code == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "transit: option '--route' needs a value (R), not the option '--json'"
        + " (usage: transit departures STOP... [options]; see 'transit departures --help')\n")
    // '--' ends the options: it is not a value either.
    let dashes = home.run(["departures", "TINT", "--at", "--", "--now", now])
    #expect(dashes.code == 2)
    #expect(dashes.stderr.hasPrefix("transit: option '--at' needs a value (TIME) (usage: "))
    #expect(transit(["departures", "--now", now, "--data-dir", home.path, "--", "TINT"]).code == 0)
    // Negative numbers and '=' still pass values that start with '-'.
    #expect(home.run(["stops", "near", "53.2875,-6.3664", "--limit", "1", "--now", now]).code == 0)
    #expect(home.run(["departures", "TINT", "--route=-x", "--now", now]).code == 0)
  }

  /// Global options before the command, as git and gh accept them.
  @Test func globalOptionsGoAnywhere() throws {
    let after = home.run(["departures", "TINT", "--limit", "2", "--now", now, "--json"])
    #expect(after.code == 0)
    let before = transit(["--json", "--data-dir", home.path, "--now", now, "departures", "TINT", "--limit", "2"])
    #expect(before.code == 0, "\(before.stderr)")
    #expect(before.stdout == after.stdout)
    let ingest = TemporaryFolder()
    let loaded = transit(["--data-dir", ingest.path, "ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet"])
    #expect(loaded.code == 0, "\(loaded.stderr)")
    #expect(FileManager.default.fileExists(atPath: ingest.path + "/feeds/demo.sqlite"))
    // --help before the command is the command's help, as 'git --help commit'.
    #expect(transit(["--help", "departures"]).stdout == transit(["departures", "--help"]).stdout)
    #expect(transit(["-h", "stops", "near"]).stdout == transit(["stops", "near", "--help"]).stdout)
    #expect(transit(["--help", "departures"]).stdout.hasPrefix("The next departures at a stop or station:"))
    // The same as a user runs it: the built executable.
    if transitExecutable != nil {
      let real = try runExecutable(["--json", "--data-dir", home.path, "--now", now, "departures", "TINT", "--limit", "2"])
      #expect(real.code == 0, "\(real.stderr)")
      #expect(real.stdout == after.stdout)
      let bad = try runExecutable(["--data-dir", home.path, "departures", "TINT", "--route", "--json"])
      #expect(bad.code == 2)
      #expect(bad.stdout.isEmpty)
    }
    // --version with --json, either way round.
    for words in [["--version", "--json"], ["--json", "--version"]] {
      let version = transit(words)
      #expect(version.code == 0)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(version.stdout.utf8)) as? [String: String])
      #expect(object["transit"] == Transit.version)
      #expect(object["sqlite"]?.hasPrefix("3.") == true)
    }
  }
}

/// Errors a user can act on never come out as "internal error" (issue 22, "Errors").
@Suite struct FileErrorTests {
  @Test func aDataFolderUnderAPlainFileIsAPathAndAReason() throws {
    let folder = TemporaryFolder()
    let plain = folder.path + "/afile"
    #expect(FileManager.default.createFile(atPath: plain, contents: Data()))
    for words in [["ingest", packageRoot + "/Data/gtfs"], ["places", "add", "home", "53.2875,-6.3664"]] {
      let result = transit(words + ["--data-dir", plain + "/x"])
      #expect(result.code == 1, "\(words[0])")
      #expect(result.stderr == "transit: \(plain)/x: not a directory\n", "\(words[0])")
    }
  }

  @Test func aTimetableOfAnotherLayoutAsksForAnIngest() throws {
    let home = DemoHome()
    let path = home.path + "/feeds/demo.sqlite"
    try Connection(path: path, mode: .readWriteCreate).execute("PRAGMA user_version = 1")
    let result = home.run(["stops", "search", "tallaght"])
    #expect(result.code == 1)
    #expect(
      result.stderr.hasPrefix("transit: \(path) was made by another version of transit (layout 1, this one reads "), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("); load the feed again with 'transit ingest'\n"), "\(result.stderr)")
    #expect(!result.stderr.contains("not usable"))
  }
}
