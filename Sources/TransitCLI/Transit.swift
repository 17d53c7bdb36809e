import FoundationEssentials
import Glibc
import Services
import TransitModel

/// The `transit` command line: dispatch, help, and the one place errors become messages and
/// exit codes.
public enum Transit {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// Every command, in the order `transit --help` lists them.
  static let commands: [any TransitCommand.Type] = [
    IngestCommand.self,
    StopsNearCommand.self,
    StopsSearchCommand.self,
    StopsShowCommand.self,
    RoutesCommand.self,
    RouteShowCommand.self,
    DeparturesCommand.self,
    TimetableCommand.self,
    TripShowCommand.self,
    PlanCommand.self,
    RtDumpCommand.self,
    RtCheckCommand.self,
    AlertsCommand.self,
    StatusCommand.self,
    FeedsAddCommand.self,
    FeedsListCommand.self,
    FeedsRemoveCommand.self,
    FeedsCheckCommand.self,
    FavAddCommand.self,
    FavListCommand.self,
    FavRemoveCommand.self,
    ConfigListCommand.self,
    ConfigGetCommand.self,
    ConfigSetCommand.self,
    PlacesAddCommand.self,
    PlacesListCommand.self,
    PlacesRemoveCommand.self,
    CommuteCommand.self,
    CommuteAddCommand.self,
    CommuteListCommand.self,
    CommuteRemoveCommand.self,
    VehiclesCommand.self,
    FollowCommand.self,
    RecordCommand.self,
    HistoryCommand.self,
    HistoryRouteCommand.self,
    HistoryCommuteCommand.self,
    HistoryImportCommand.self,
    CompletionsCommand.self,
  ]

  /// Commands for the completion scripts and the man page script, not listed in help.
  static let hiddenCommands: [any TransitCommand.Type] = [
    CompleteValuesCommand.self,
    ManPageCommand.self,
  ]

  /// Runs `transit` with `arguments` (without the program name); returns the exit code.
  public static func main(_ arguments: some Collection<String>, context: CommandContext) -> Int32 {
    let words = Array(arguments)
    do {
      return try dispatch(words, context: context)
    } catch {
      return report(error, words: words, context: context)
    }
  }

  // MARK: - Dispatch

  static func dispatch(_ words: [String], context: CommandContext) throws -> Int32 {
    let words = hoistingGlobalOptions(words)
    // No command, only options (`transit`, `transit --from work`): the favourites view.
    if words.isEmpty || isHomeInvocation(words) {
      if !words.contains("--help") && !words.contains("-h") && !words.contains("--version") {
        let invocation = try parse(words, for: HomeCommand.spec, context: context)
        usePlainSymbols(invocation)
        return try HomeCommand.run(invocation)
      }
    }
    // `transit --help`, `transit help`, with any global options (`--json` for the JSON form).
    let rest = words.first == "help" ? Array(words.dropFirst()) : words
    let asksHelp = words.first == "help" || words.contains("--help") || words.contains("-h")
    if asksHelp && (rest.isEmpty || isHomeInvocation(rest)) {
      if words.contains("--json") {
        context.stdout.line(HelpJSON.overview().serialized(pretty: true))
      } else {
        context.stdout.write(overview())
      }
      return 0
    }
    if words.contains("--version"), words.allSatisfy({ ["--version", "--json", "--no-color"].contains($0) }) {
      if words.contains("--json") {
        context.stdout.line(
          JSON.object([
            ("transit", .string(version)), ("sqlite", .string(LibraryVersions.sqlite)),
            ("libcurl", .string(LibraryVersions.curl)), ("zlib", .string(LibraryVersions.zlib)),
          ]).serialized(pretty: true))
      } else {
        context.stdout.line(versionText())
      }
      return 0
    }
    if words.first == "help" {
      return try dispatch(Array(words.dropFirst()) + ["--help"], context: context)
    }
    guard let command = command(named: words) else {
      return try unknownCommand(words, leading: Array(words.prefix { !$0.hasPrefix("-") }), context: context)
    }
    let invocation = try parse(words, for: command.spec, context: context)
    usePlainSymbols(invocation)
    if invocation.global.help {
      if invocation.global.json {
        context.stdout.line(HelpJSON.command(command.spec).serialized(pretty: true))
      } else {
        context.stdout.write(help(for: command.spec))
      }
      return 0
    }
    return try command.run(invocation)
  }

  /// The command `words` (global options moved after the command) name: the longest run of
  /// leading words that is a command's path ("stops near" before "stops").
  static func command(named words: [String]) -> (any TransitCommand.Type)? {
    let leading = words.prefix { !$0.hasPrefix("-") }
    return (commands + hiddenCommands).filter { leading.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
  }

  /// Global options given before the command (`transit --json departures X`, `transit
  /// --data-dir D ingest F`, `transit --help departures`, as git and gh accept them) moved
  /// after it, where the command's parser takes them. Words that are only options (the
  /// no-argument view, `transit --help`) stay as they are.
  static func hoistingGlobalOptions(_ words: [String]) -> [String] {
    var leading: [String] = []
    var index = 0
    while index < words.count {
      let word = words[index]
      let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
      guard let option = GlobalOptions.specs.first(where: { $0.name == name || $0.shortName == name }) else { break }
      let width = option.takesValue && !word.contains("=") ? 2 : 1
      guard index + width <= words.count else { break }
      leading += words[index..<index + width]
      index += width
    }
    guard !leading.isEmpty, index < words.count, !words[index].hasPrefix("-") else { return words }
    return Array(words[index...]) + leading
  }

  /// Turns the streams to plain ASCII symbols where the terminal or locale cannot show others
  /// (never for JSON).
  static func usePlainSymbols(_ invocation: Invocation) {
    // Text output is stripped of control characters; our own colour passes where colour is on.
    // JSON escapes controls itself and is written as is.
    invocation.context.stdout.allowance =
      invocation.global.json ? nil : TerminalText.Allowance(colour: invocation.useColor, lineErase: false)
    guard invocation.usesPlainSymbols && !invocation.global.json else { return }
    invocation.context.stdout.plainSymbols = true
    invocation.context.stderr.plainSymbols = true
  }

  /// Whether `words` are only the no-argument view's options and their values
  /// (`--from home --now 2026-12-01T07:40:00Z`).
  static func isHomeInvocation(_ words: [String]) -> Bool {
    // A command's name first: not the home view (and its spec need not be built).
    guard let first = words.first, first.hasPrefix("-") else { return false }
    let options = HomeCommand.spec.options + GlobalOptions.specs
    var index = 0
    while index < words.count {
      let word = words[index]
      let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
      guard let option = options.first(where: { $0.name == name || $0.shortName == name }) else { return false }
      index += option.valueName != nil && !word.contains("=") ? 2 : 1
    }
    return true
  }

  /// A group's help ("transit stops"), or a usage error with a suggestion.
  static func unknownCommand(_ words: [String], leading: [String], context: CommandContext) throws(UsageError) -> Int32 {
    let inGroup = commands.contains { !leading.isEmpty && $0.spec.path[0] == leading[0] }
    if inGroup && (leading.count == 1 || words.contains("--help")) {
      if words.contains("--json") {
        context.stdout.line(HelpJSON.group(leading[0]).serialized(pretty: true))
      } else {
        context.stdout.write(groupHelp(leading[0]))
      }
      return leading.count == 1 && !words.contains("--help") ? 2 : 0
    }
    // Name only the words that are wrong: 'departurs', or 'stops naer' within a known group.
    let depth = inGroup ? 2 : 1
    let name = leading.prefix(depth).joined(separator: " ")
    let candidates = Set(commands.map { $0.spec.path.prefix(depth).joined(separator: " ") })
    var message = "unknown command '\(name.isEmpty ? words[0] : name)'"
    if let suggestion = Suggestion.nearest(to: name, among: Array(candidates).sorted()) {
      message += "; did you mean '\(suggestion)'?"
    }
    throw UsageError(message)
  }

  /// Splits the words after the command's own against its options and the global ones.
  static func parse(_ words: [String], for spec: CommandSpec, context: CommandContext) throws(UsageError) -> Invocation {
    let rest = Array(words.dropFirst(spec.path.count))
    var parsed = try ParsedArguments(rest, options: spec.options + GlobalOptions.specs)
    let global = try GlobalOptions(parsed)
    parsed.remove(GlobalOptions.specs)
    // Every typed option's value is read once before the command runs: a bad value is a usage
    // error before any file is opened or fetched.
    try parsed.validate(spec.options)
    return Invocation(arguments: parsed, global: global, context: context, spec: spec)
  }

  // MARK: - Errors

  /// Prints `error` on stderr as one line and returns its exit code (DESIGN.md: 1 runtime,
  /// 2 usage, 3 not found, 70 a bug).
  static func report(_ error: any Error, words: [String], context: CommandContext) -> Int32 {
    guard let error = userFacing(error) else {
      context.stderr.line(
        "transit: internal error: \(error) (this is a bug in transit; please report it with the command that caused it)")
      return 70
    }
    guard error is UsageError else {
      context.stderr.line("transit: \(error.oneLine)")
      return error.exitCode
    }
    // A usage error names the usage and where the help is, on the same line.
    if let command = command(named: hoistingGlobalOptions(words)) {
      context.stderr.line("transit: \(error.oneLine) (usage: \(command.spec.usage); see '\(command.spec.name) --help')")
    } else {
      context.stderr.line("transit: \(error.oneLine) (see 'transit --help')")
    }
    return error.exitCode
  }

  // MARK: - Help

  /// `transit 0.1.0`, then the C libraries it runs on (their run-time versions, which may be
  /// newer than the headers it was built with).
  static func versionText() -> String {
    """
    transit \(version)
    SQLite \(LibraryVersions.sqlite), libcurl \(LibraryVersions.curl), zlib \(LibraryVersions.zlib)
    """
  }

  static func overview() -> String {
    var text = """
      transit: live departures from GTFS timetables and GTFS-Realtime feeds

      usage: transit COMMAND [options]

      commands:

      """
    let width = commands.map { $0.spec.path.joined(separator: " ").count }.max() ?? 0
    for command in commands {
      let name = command.spec.path.joined(separator: " ")
      text += "  \(Format.padded(name, toLength: width + 2))\(command.spec.summary)\n"
    }
    text += """

      global options:
      \(optionLines(GlobalOptions.specs))
      'transit' alone lists your favourite stops with their next departures.
      See 'transit COMMAND --help' (or 'transit help COMMAND') for a command's options and
      examples, 'man transit' for the manual, 'transit completions SHELL' for tab completion.
      Exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 not found.

      """
    return text
  }

  static func groupHelp(_ group: String) -> String {
    var text = "usage: transit \(group) SUBCOMMAND [options]\n\nsubcommands:\n"
    for command in commands where command.spec.path.first == group {
      text += "  \(command.spec.usage)\n      \(command.spec.summary)\n"
    }
    return text
  }

  /// The help screen of one command, built from its spec.
  static func help(for spec: CommandSpec) -> String {
    var text = "\(spec.summary)\n\nusage: \(spec.usage)\n"
    if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
    if !spec.arguments.isEmpty {
      text += "\narguments:\n"
      for argument in spec.arguments {
        text += column(argument.name, argument.help)
      }
    }
    if !spec.options.isEmpty {
      text += "\noptions:\n" + optionLines(spec.options)
    }
    text += "\nglobal options:\n" + optionLines(GlobalOptions.specs)
    if !spec.examples.isEmpty {
      text += "\nexamples:\n" + spec.examples.map { "  \($0)\n" }.joined()
    }
    return text
  }

  static func optionLines(_ options: [OptionSpec]) -> String {
    options.map { option in
      var left = option.name
      if let short = option.shortName { left = "\(short), \(left)" }
      if let value = option.valueName { left += " \(value)" }
      var right = option.help
      if let value = option.defaultValue { right += " (default: \(value))" }
      if option.isRepeatable { right += " (repeatable)" }
      return column(left, right)
    }.joined()
  }

  /// One line of a two-column list; a left side too long for its column gets a line of its own.
  static func column(_ left: String, _ right: String) -> String {
    let width = 22
    if left.count >= width - 1 {
      return "  \(left)\n  \(String(repeating: " ", count: width))\(right)\n"
    }
    return "  \(Format.padded(left, toLength: width))\(right)\n"
  }
}
