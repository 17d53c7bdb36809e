import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// `transit completions`: the bash script loaded in a real interactive bash and asked for
/// candidates; the zsh and fish scripts parsed by their shells when installed.
@Suite struct CompletionsTests {
  /// A shell's path, if it is installed.
  static func shell(_ name: String) -> String? {
    for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
      return "\(folder)/\(name)"
    }
    return nil
  }

  /// Runs `executable` with `arguments`; its exit code, stdout and stderr.
  static func launch(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil
  )
    throws -> CLIResult
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(
      code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// Asks bash's completion function for the candidates of each command line in `lines` (the
  /// last word is the one being completed; "" for a new word). The bash is interactive, loads
  /// nothing but the script, runs in the package folder, and finds the built `transit` first
  /// on its PATH for the dynamic values.
  static func complete(_ lines: [[String]], dataDir: String) throws -> [[String]] {
    let folder = TemporaryFolder()
    let script = transit(["completions", "bash"])
    try #require(script.code == 0)
    try script.stdout.write(toFile: folder.path + "/transit.bash", atomically: true, encoding: .utf8)
    var driver = """
      source '\(folder.path)/transit.bash' || exit 9
      ask() {
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
        _transit
        printf '%s\\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\\n' ' '; echo '|'
      }

      """
    for line in lines { driver += "ask transit " + line.map(CompletionScript.quote).joined(separator: " ") + "\n" }
    try driver.write(toFile: folder.path + "/driver.bash", atomically: true, encoding: .utf8)
    let executableFolder = try #require(transitExecutable.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
    let result = try launch(
      try #require(shell("bash")), ["--norc", "--noprofile", "-i", folder.path + "/driver.bash"],
      environment: [
        "PATH": executableFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        "TRANSIT_HOME": dataDir, "HOME": folder.path,
      ], directory: packageRoot)
    #expect(result.code == 0, "\(result.stderr)")
    let answers = result.stdout.split(separator: "|\n", omittingEmptySubsequences: false).dropLast()
    try #require(answers.count == lines.count, "\(result.stdout)\n\(result.stderr)")
    return answers.map { $0.split(separator: " ").map(String.init) }
  }

  @Test(.enabled(if: shell("bash") != nil && transitExecutable != nil))
  func bashCompletesCommandsOptionsAndValues() throws {
    let home = DemoHome()
    #expect(home.run(["places", "add", "home", "53.2875,-6.3664"]).code == 0)
    #expect(home.run(["places", "add", "work", "53.2941,-6.4010"]).code == 0)
    #expect(home.run(["fav", "add", "TINT"]).code == 0)
    #expect(home.run(["commute", "add", "school", "--stop", "4530", "--arrive-by", "08:00"]).code == 0)
    let lines: [[String]] = [
      [""], ["st"], ["stops", ""], ["stops", "near", "--ra"], ["stops", "near", "--mode", "t"],
      ["stops", "near", ""], ["departures", ""], ["departures", "TINT", "--route", ""], ["departures", "TINT", "--from", "w"],
      ["commute", ""], ["config", "set", "wa"], ["completions", ""], ["rt", "dump", "Data/realtime/demo-t"],
      ["ingest", "--remove", ""], ["--from", ""], ["departures", "TINT", "--realtime", "Data/realtime/demo-a"],
      ["help", "stops", ""], ["he"],
    ]
    let answers = try Self.complete(lines, dataDir: home.path)
    let topLevel = Set(Transit.commands.map { $0.spec.path[0] })
    #expect(Set(answers[0]) == topLevel.union(["help"]))
    #expect(answers[1] == ["status", "stops"])
    #expect(answers[2] == ["near", "search", "show"])
    #expect(answers[3] == ["--radius"])
    #expect(answers[4] == ["tram", "trolleybus"])
    #expect(answers[5] == ["home", "work"])
    #expect(answers[6] == ["TINT"])
    #expect(answers[7] == ["27", "49", "54A", "77X", "Red"])
    #expect(answers[8] == ["work"])
    #expect(answers[9] == ["add", "list", "remove", "school"])
    #expect(answers[10] == ["walking-speed"])
    #expect(answers[11] == ["bash", "fish", "zsh"])
    #expect(answers[12] == ["Data/realtime/demo-tripupdates.pb"])
    #expect(answers[13] == ["demo"])
    #expect(answers[14] == ["home", "work"])
    #expect(answers[15] == ["Data/realtime/demo-alerts.pb"])
    #expect(answers[16] == ["near", "search", "show"])
    #expect(answers[17] == ["help"])
  }

  /// Every command's options, from the table: a new option is completed without anyone
  /// touching the script.
  @Test(.enabled(if: shell("bash") != nil && transitExecutable != nil))
  func bashCompletesEveryOptionOfEveryCommand() throws {
    let home = DemoHome()
    let specs = Transit.commands.map { $0.spec }
    let answers = try Self.complete(specs.map { $0.path + ["--"] }, dataDir: home.path)
    for (spec, answer) in zip(specs, answers) {
      let expected = Set((spec.options + GlobalOptions.specs).map(\.name))
      #expect(Set(answer) == expected, "\(spec.name)")
    }
  }

  @Test func dynamicValuesComeFromTheDataFolder() {
    let home = DemoHome()
    #expect(home.run(["__complete", "places"]).stdout == "")
    #expect(home.run(["places", "add", "home", "53.2875,-6.3664"]).code == 0)
    #expect(home.run(["fav", "add", "4530"]).code == 0)
    #expect(home.run(["__complete", "places"]).stdout == "home\n")
    #expect(home.run(["__complete", "favourites"]).stdout == "TD4530\n")
    #expect(home.run(["__complete", "routes"]).stdout == "27\n49\n54A\n77X\nRed\n")
    #expect(home.run(["__complete", "feeds"]).stdout == "demo\n")
    #expect(home.run(["__complete", "settings"]).stdout.hasPrefix("clock\nearly\nlate\n"))
    let bad = home.run(["__complete", "planets"])
    #expect(bad.code == 2)
    #expect(bad.stderr.hasPrefix("transit: unknown kind 'planets'"))
  }

  @Test func completingDoesNotCreateFiles() throws {
    let empty = TemporaryFolder()
    for kind in DynamicValues.allCases {
      let result = transit(["__complete", kind.rawValue, "--data-dir", empty.path + "/nothing"])
      #expect(result.code == 0)
      #expect(result.stderr.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: empty.path + "/nothing"))
  }

  @Test(arguments: CompletionScript.Shell.allCases)
  func scriptsNameEveryCommandAndOption(shell: CompletionScript.Shell) {
    let result = transit(["completions", shell.rawValue])
    #expect(result.code == 0)
    for command in Transit.commands {
      #expect(result.stdout.contains(command.spec.path.joined(separator: " ")))
      for option in command.spec.options {
        let name = shell == .fish ? "-l " + option.name.dropFirst(2) : option.name
        #expect(result.stdout.contains(name), "\(shell) \(command.spec.name) \(option.name)")
      }
    }
    for command in Transit.hiddenCommands { #expect(!result.stdout.contains("'\(command.spec.path[0])'")) }
    #expect(!result.stdout.contains("\u{1B}"))
  }

  @Test(.enabled(if: shell("zsh") != nil))
  func zshScriptParses() throws {
    let folder = TemporaryFolder()
    try transit(["completions", "zsh"]).stdout.write(toFile: folder.path + "/_transit", atomically: true, encoding: .utf8)
    let result = try Self.launch(try #require(Self.shell("zsh")), ["-n", folder.path + "/_transit"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
  }

  @Test(.enabled(if: shell("fish") != nil))
  func fishScriptParses() throws {
    let folder = TemporaryFolder()
    try transit(["completions", "fish"]).stdout.write(toFile: folder.path + "/transit.fish", atomically: true, encoding: .utf8)
    let result = try Self.launch(
      try #require(Self.shell("fish")), ["-n", folder.path + "/transit.fish"], environment: ["HOME": folder.path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
  }

  @Test func unknownShellIsAUsageError() {
    let result = transit(["completions", "tcsh"])
    #expect(result.code == 2)
    #expect(result.stderr.hasPrefix("transit: unknown shell 'tcsh'; completions are for bash, zsh, fish"))
    #expect(transit(["completions"]).stderr.hasPrefix("transit: missing SHELL (usage: "))
  }
}

/// fish's own completion engine (`complete -C`) on the fish script, when fish is installed.
@Suite struct FishCompletionTests {
  static func complete(_ line: String, dataDir: String) throws -> [String] {
    let folder = TemporaryFolder()
    try transit(["completions", "fish"]).stdout.write(toFile: folder.path + "/transit.fish", atomically: true, encoding: .utf8)
    let executableFolder = try #require(transitExecutable.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
    let result = try CompletionsTests.launch(
      try #require(CompletionsTests.shell("fish")),
      [
        "--no-config", "-c", "source \(CompletionScript.quote(folder.path + "/transit.fish")); complete -C \(CompletionScript.quote(line))",
      ],
      environment: [
        "PATH": executableFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        "TRANSIT_HOME": dataDir, "HOME": folder.path,
      ], directory: packageRoot)
    #expect(result.code == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
  }

  @Test(.enabled(if: CompletionsTests.shell("fish") != nil && transitExecutable != nil))
  func fishCompletesCommandsOptionsAndValues() throws {
    let home = DemoHome()
    #expect(home.run(["places", "add", "home", "53.2875,-6.3664"]).code == 0)
    #expect(try Self.complete("transit stops ", dataDir: home.path) == ["near", "search", "show"])
    #expect(try Self.complete("transit help stops ", dataDir: home.path) == ["near", "search", "show"])
    #expect(try Self.complete("transit stops near --mode t", dataDir: home.path) == ["tram", "trolleybus"])
    #expect(try Self.complete("transit departures TINT --route ", dataDir: home.path) == ["27", "49", "54A", "77X", "Red"])
    #expect(try Self.complete("transit stops near ", dataDir: home.path) == ["home"])
    let options = try Self.complete("transit departures TINT --", dataDir: home.path)
    #expect(Set(options) == Set((DeparturesCommand.spec.options + GlobalOptions.specs).map(\.name)))
  }
}

/// The zsh script's logic in a real zsh, with the completion system's builtins stubbed to print
/// what they are given (zsh filters by the typed prefix itself, so the answers are unfiltered).
@Suite struct ZshCompletionTests {
  static func complete(_ lines: [[String]], dataDir: String) throws -> [[String]] {
    let folder = TemporaryFolder()
    try transit(["completions", "zsh"]).stdout.write(toFile: folder.path + "/_transit", atomically: true, encoding: .utf8)
    var driver = """
      compdef() { : }
      compadd() {
        while [[ $1 == -* ]]; do
          if [[ $1 == -a ]]; then print -l -- "${(@P)2}"; return; fi
          if [[ $1 == -- ]]; then shift; break; fi
          shift
        done
        print -l -- "$@"
      }
      _describe() { print -l -- "${(@)${(@P)4}%%:*}" }
      _wanted() { shift 3; "$@" }
      _files() { print FILES }
      _directories() { print DIRECTORIES }
      source '\(folder.path)/_transit' || exit 9
      ask() { words=("$@"); CURRENT=${#words}; _transit | LC_ALL=C sort | tr '\\n' ' '; print '|' }

      """
    for line in lines { driver += "ask transit " + line.map(CompletionScript.quote).joined(separator: " ") + "\n" }
    try driver.write(toFile: folder.path + "/driver.zsh", atomically: true, encoding: .utf8)
    let executableFolder = try #require(transitExecutable.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
    let result = try CompletionsTests.launch(
      try #require(CompletionsTests.shell("zsh")), ["-f", folder.path + "/driver.zsh"],
      environment: [
        "PATH": executableFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        "TRANSIT_HOME": dataDir, "HOME": folder.path,
      ], directory: packageRoot)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let answers = result.stdout.split(separator: "|\n", omittingEmptySubsequences: false).dropLast()
    try #require(answers.count == lines.count, "\(result.stdout)\n\(result.stderr)")
    return answers.map { $0.split(separator: " ").map(String.init) }
  }

  @Test(.enabled(if: CompletionsTests.shell("zsh") != nil && transitExecutable != nil))
  func zshCompletesCommandsOptionsAndValues() throws {
    let home = DemoHome()
    #expect(home.run(["places", "add", "home", "53.2875,-6.3664"]).code == 0)
    let answers = try Self.complete(
      [
        ["stops", ""], ["help", "stops", ""], ["stops", "near", "--mode", ""], ["departures", "TINT", "--route", ""],
        ["stops", "near", ""], ["rt", "dump", ""], ["record", ""], ["departures", "TINT", "--"],
      ], dataDir: home.path)
    #expect(answers[0] == ["near", "search", "show"])
    #expect(answers[1] == ["near", "search", "show"])
    #expect(answers[2] == ValueParser.modeNames.sorted())
    #expect(answers[3] == ["27", "49", "54A", "77X", "Red"])
    #expect(answers[4] == ["home"])
    #expect(answers[5] == ["FILES"])
    #expect(answers[6] == ["DIRECTORIES"])
    #expect(Set(answers[7]) == Set((DeparturesCommand.spec.options + GlobalOptions.specs).map(\.name)))
  }
}
