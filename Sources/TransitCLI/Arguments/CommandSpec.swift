/// What a command accepts, and the help text built from it: the one place a command is described
/// (help, usage errors, and later completions and the man page all read it).
public struct CommandSpec: Sendable {
  /// The words that select the command: `["stops", "near"]`.
  public var path: [String]
  /// One line for `transit --help`.
  public var summary: String
  /// Positional arguments, in order.
  public var arguments: [ArgumentSpec]
  /// Options of this command (the global ones are added by the dispatcher).
  public var options: [OptionSpec]
  /// Paragraphs shown after the usage line.
  public var discussion: String
  /// Whole example command lines.
  public var examples: [String]

  public init(
    path: [String], summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
    discussion: String = "", examples: [String] = []
  ) {
    self.path = path
    self.summary = summary
    self.arguments = arguments
    self.options = options
    self.discussion = discussion
    self.examples = examples
  }

  /// `transit stops near`.
  public var name: String { (["transit"] + path).joined(separator: " ") }

  /// `transit stops near [LAT,LON] [options]`.
  public var usage: String {
    var parts = [name]
    for argument in arguments {
      let name = argument.name + (argument.isVariadic ? "..." : "")
      parts.append(argument.isOptional ? "[\(name)]" : name)
    }
    if !options.isEmpty { parts.append("[options]") }
    return parts.joined(separator: " ")
  }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
  public var name: String
  public var help: String
  public var isOptional: Bool
  /// Whether the argument takes every remaining word (`rt dump FILE...`).
  public var isVariadic: Bool
  /// What a shell completes it with; inferred from the name when not given (FILE, DIR, PATH).
  public var completion: ValueCompletion

  public init(
    _ name: String, help: String, optional: Bool = false, variadic: Bool = false,
    complete completion: ValueCompletion? = nil
  ) {
    self.name = name
    self.help = help
    self.isOptional = optional
    self.isVariadic = variadic
    self.completion = completion ?? ValueCompletion.inferred(from: name)
  }
}

/// A `--name` option: a flag, or one that takes a value.
public struct OptionSpec: Sendable {
  /// The long name with its dashes: `--radius`.
  public var name: String
  /// A one-letter alias with its dash: `-n`.
  public var shortName: String?
  /// The value's placeholder (`M`), or nil for a flag.
  public var valueName: String?
  public var help: String
  /// The default, as help shows it.
  public var defaultValue: String?
  /// Whether the option may be given more than once.
  public var isRepeatable: Bool
  /// What a shell completes the value with; inferred from `valueName` when not given.
  public var completion: ValueCompletion
  /// Reads the option's value as its declared type, throwing for a bad one; set by `Option`,
  /// run for every option before the command runs. Every option a command reads is declared
  /// with `Option`, so this is set on all of them.
  public var validate: (@Sendable (GivenOption) throws(UsageError) -> Void)?

  public init(
    _ name: String, short: String? = nil, value: String? = nil, help: String,
    default defaultValue: String? = nil, repeatable: Bool = false, complete completion: ValueCompletion? = nil
  ) {
    self.name = name
    self.shortName = short
    self.valueName = value
    self.help = help
    self.defaultValue = defaultValue
    self.isRepeatable = repeatable
    self.completion = value == nil ? .none : completion ?? ValueCompletion.inferred(from: value!)
  }

  var takesValue: Bool { valueName != nil }
}

/// What a shell offers for an option's value or a positional argument.
public enum ValueCompletion: Sendable, Equatable {
  /// Free text: nothing to offer.
  case none
  /// One of a fixed list of words.
  case choices([String])
  /// A file (or folder) path.
  case file
  /// A folder path.
  case directory
  /// Names from the user's own data, listed by `transit __complete KIND`.
  case dynamic(DynamicValues)

  /// FILE and PATH complete files, DIR folders; anything else is free text.
  static func inferred(from name: String) -> ValueCompletion {
    // Every command's spec is built at start-up: ASCII names are split on bytes (splitting on
    // `Character.isLetter` cost a process some 300,000 instructions).
    let words: [String]
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      words = name.utf8.split { !((0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)) }.map { String(decoding: $0, as: UTF8.self) }
    } else {
      words = name.split { !$0.isLetter }.map(String.init)
    }
    if words.contains("DIR") { return .directory }
    if words.contains("FILE") || words.contains("PATH") { return .file }
    return .none
  }
}

/// The kinds of names `transit __complete KIND` lists, one a line.
public enum DynamicValues: String, Sendable, CaseIterable {
  /// Configured feeds and the feeds whose timetables are held.
  case feeds
  /// Saved places (`transit places`).
  case places
  /// Favourite stops, by stop code (else stop_id).
  case favourites
  /// Route short names from the timetables.
  case routes
  /// Saved commutes.
  case commutes
  /// Setting names (`transit config`).
  case settings
}
