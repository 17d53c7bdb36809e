import TransitModel

/// One command of `transit`: its description, and what it does with a parsed invocation.
///
/// Commands only interpret arguments and render results; the work is in the libraries.
public protocol TransitCommand: SendableMetatype {
  /// The command's words (`["stops", "near"]`), which its spec takes: dispatch finds the
  /// command by them without building every command's spec and help text.
  static var path: [String] { get }
  /// The command's words, options and help text.
  static var spec: CommandSpec { get }
  /// Runs the command; returns the exit code (0 unless the command has a reason).
  /// - Throws: `UsageError` (exit 2), `NotFoundError` (exit 3), or any error the libraries
  ///   throw (exit 1); `Transit.main` renders them.
  static func run(_ invocation: Invocation) throws -> Int32
}

/// Everything a command runs with: its parsed arguments, the global options and the context.
public struct Invocation {
  public var arguments: ParsedArguments
  public var global: GlobalOptions
  public var context: CommandContext
  public var spec: CommandSpec

  /// The data, config and cache folders for this run.
  public var paths: Paths {
    Paths.resolve(
      dataDir: global.dataDir, environment: context.environment,
      currentDirectory: context.currentDirectory)
  }

  /// The current time: `--now` if given, else the context's clock.
  public var now: UnixTime { global.now ?? context.clock.now() }

  /// Whether to colour output: a terminal, and neither `--no-color`, `NO_COLOR` nor `TERM=dumb`.
  public var useColor: Bool {
    context.stdoutIsTerminal && !global.noColor && context.environment["NO_COLOR"] == nil
      && context.environment["TERM"] != "dumb"
  }

  /// Whether to draw with plain ASCII instead of Unicode symbols: on a terminal that cannot
  /// show them (`TERM=dumb`) or under a locale that is set and is not UTF-8 (`LC_ALL=C`).
  /// JSON is never changed.
  public var usesPlainSymbols: Bool {
    let environment = context.environment
    if environment["TERM"] == "dumb" { return true }
    guard let locale = LocaleEnvironment.name(.characters, in: environment) else { return false }
    return !LocaleEnvironment.isUTF8(locale)
  }

  /// Whether to draw progress bars on stderr: it is a terminal that can move the cursor
  /// (not `TERM=dumb`), and the output is not JSON. Pipes and cron get only a final line.
  public var showsProgress: Bool {
    context.stderrIsTerminal && context.environment["TERM"] != "dumb" && !global.json
  }

  /// The positional argument at `index`, or a usage error naming it.
  public func argument(_ index: Int) throws(UsageError) -> String {
    guard index < arguments.positionals.count else {
      let name = index < spec.arguments.count ? spec.arguments[index].name : "argument"
      throw UsageError("missing \(name)")
    }
    return arguments.positionals[index]
  }

  /// Refuses positionals beyond what the command takes.
  public func expectPositionals(atMost count: Int) throws(UsageError) {
    if arguments.positionals.count > count {
      throw UsageError("unexpected argument '\(arguments.positionals[count])'")
    }
  }

  /// A path argument made absolute against the current directory.
  public func absolutePath(_ path: String) -> String {
    Paths.absolute(path, from: context.currentDirectory)
  }
}

/// Options every command accepts.
public struct GlobalOptions: Sendable {
  public var json = false
  public var dataDir: String?
  public var now: UnixTime?
  public var noColor = false
  /// Local `.pb` captures to use instead of configured realtime URLs.
  public var realtimeFiles: [String] = []
  public var help = false

  public init() {}

  /// The global options, declared once.
  static let json = Option.flag("--json", help: "Print one JSON document instead of text")
  static let dataDirOption = Option.text(
    "--data-dir", value: "DIR", help: "Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)")
  static let nowOption = Option<UnixTime?>.single(
    OptionSpec("--now", value: "TIME", help: "Pretend the time is TIME (ISO 8601, or @unix-seconds)")
  ) { text, _ throws(UsageError) in
    guard let time = ISOTime.parse(text) else {
      if ISOTime.isOutOfRange(text) { throw UsageError("--now '\(text)' is outside the years 1900 to 9999") }
      throw UsageError("--now '\(text)' is not an ISO 8601 time (2024-05-01T08:30:00+01:00) or @unix-seconds")
    }
    return time
  }
  static let noColorOption = Option.flag("--no-color", help: "No colours (also NO_COLOR=1 or TERM=dumb)")
  static let realtime = Option.repeated(
    "--realtime", value: "FILE", help: "Use a GTFS-Realtime capture instead of the configured feeds")
  static let helpOption = Option.flag("--help", short: "-h", help: "Show help for this command")

  static let specs: [OptionSpec] = [
    json.spec, dataDirOption.spec, nowOption.spec, noColorOption.spec, realtime.spec, helpOption.spec,
  ]

  /// The global options given in `parsed`.
  init(_ parsed: ParsedArguments) throws(UsageError) {
    json = parsed.isSet(Self.json)
    dataDir = try parsed.read(Self.dataDirOption)
    now = try parsed.read(Self.nowOption)
    noColor = parsed.isSet(Self.noColorOption)
    realtimeFiles = try parsed.read(Self.realtime)
    help = parsed.isSet(Self.helpOption)
  }
}
