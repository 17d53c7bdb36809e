/// Raw arguments split into options and positionals against a command's spec.
///
/// Splitting comes first and meaning after, as in swift-argument-parser's SplitArguments:
/// `--radius 300`, `--radius=300` and `-n 5` all arrive here as one value.
public struct ParsedArguments: Sendable {
  public private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  /// The options this command line was split against: the only ones a command may read.
  private var declared: Set<String> = []

  /// Splits `words` by `options`; `--` ends option parsing.
  /// - Throws: `UsageError` for an unknown option, a missing value or a repeated one.
  public init(_ words: [String], options: [OptionSpec]) throws(UsageError) {
    var byName: [String: OptionSpec] = [:]
    declared = Set(options.map(\.name))
    for option in options {
      byName[option.name] = option
      if let short = option.shortName { byName[short] = option }
    }
    var index = 0
    var onlyPositionals = false
    while index < words.count {
      let word = words[index]
      index += 1
      if onlyPositionals || !word.hasPrefix("-") || word == "-" || Self.looksNumeric(word) {
        positionals.append(word)
        continue
      }
      if word == "--" {
        onlyPositionals = true
        continue
      }
      var name = word
      var inlineValue: String?
      if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
        name = String(word[..<equals])
        inlineValue = String(word[word.index(after: equals)...])
      }
      guard let option = byName[name] else {
        let known = options.map(\.name)
        var message = "unknown option '\(name)'"
        if let suggestion = Suggestion.nearest(to: name, among: known) {
          message += "; did you mean '\(suggestion)'?"
        }
        throw UsageError(message)
      }
      if option.takesValue {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < words.count else {
            throw UsageError("option '\(option.name)' needs a value (\(option.valueName!))")
          }
          // A value never looks like an option (as swift-argument-parser's SplitArguments):
          // in `--route --json` the route is missing, not '--json'. A negative number is a
          // value; `--route=-x` passes a value that starts with '-'.
          let next = words[index]
          if next.hasPrefix("-") && next != "-" && !Self.looksNumeric(next) {
            let what = next == "--" ? "" : ", not the option '\(next)'"
            throw UsageError("option '\(option.name)' needs a value (\(option.valueName!))\(what)")
          }
          value = next
          index += 1
        }
        if !option.isRepeatable, values[option.name] != nil {
          throw UsageError("option '\(option.name)' was given twice")
        }
        values[option.name, default: []].append(value)
      } else {
        guard inlineValue == nil else {
          throw UsageError("option '\(option.name)' takes no value")
        }
        flags.insert(option.name)
      }
    }
  }

  /// "-6.3" and "-6.3,53.2" are values, not options.
  private static func looksNumeric(_ word: String) -> Bool {
    guard let second = word.dropFirst().first else { return false }
    return second.isNumber || second == "."
  }

  /// What the command line gave for `spec`. The one lookup by name, private to this file:
  /// commands read declared options (`arguments.read(option)`), so a misspelt name cannot
  /// compile into an option that silently reads nil.
  private func given(_ spec: OptionSpec) -> GivenOption {
    // Reading an option the command does not declare is a bug (it could never be given): the
    // debug build, which the tests run, stops on it.
    assert(declared.contains(spec.name), "\(spec.name) is read but not declared in the command's spec")
    return GivenOption(name: spec.name, values: values[spec.name] ?? [], isFlagged: flags.contains(spec.name))
  }

  /// The value of a typed option, parsed by its declaration.
  public func read<Value>(_ option: Option<Value>) throws(UsageError) -> Value { try option.parse(given(option.spec)) }

  /// Whether a flag was given (a flag's value cannot be bad).
  public func isSet(_ option: Option<Bool>) -> Bool { given(option.spec).isFlagged }

  /// Whether an option was given at all, whatever its value (for "--count N goes with --watch").
  public func isGiven<Value>(_ option: Option<Value>) -> Bool { given(option.spec).isPresent }

  /// Parses the value of every option in `specs` that was declared with a type: a bad value
  /// is a usage error before the command runs.
  func validate(_ specs: [OptionSpec]) throws(UsageError) {
    for spec in specs { try spec.validate?(given(spec)) }
  }

  /// Drops the options in `specs` (the dispatcher takes the global ones out).
  mutating func remove(_ specs: [OptionSpec]) {
    for spec in specs {
      values[spec.name] = nil
      flags.remove(spec.name)
    }
  }
}

/// What the command line gave for one option: the values of an option that takes one, in
/// order, or whether a flag was given.
public struct GivenOption: Sendable {
  /// The option's long name, for messages: `--radius`.
  public let name: String
  /// Every value given, in order (empty for a flag).
  public let values: [String]
  /// Whether a flag was given.
  public let isFlagged: Bool

  /// The value of a single-valued option.
  public var value: String? { values.last }
  /// Whether the option was given at all.
  public var isPresent: Bool { isFlagged || !values.isEmpty }
}
