/// Raw arguments split into options and positionals against a command's spec.
///
/// Splitting comes first and meaning after, as in swift-argument-parser's SplitArguments:
/// `--radius 300`, `--radius=300` and `-n 5` all arrive here as one value.
public struct ParsedArguments: Sendable {
  public private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Splits `words` by `options`; `--` ends option parsing.
  /// - Throws: `UsageError` for an unknown option, a missing value or a repeated one.
  public init(_ words: [String], options: [OptionSpec]) throws(UsageError) {
    var byName: [String: OptionSpec] = [:]
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
            throw UsageError("option '\(option.name)' needs a value (\(option.valueName!)), not the option '\(next)'")
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

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of a single-valued option.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option, in order.
  public func values(_ name: String) -> [String] { values[name] ?? [] }

  /// Drops the options in `names` (the dispatcher takes the global ones out).
  mutating func remove(_ names: [String]) {
    for name in names {
      values[name] = nil
      flags.remove(name)
    }
  }

  /// A value parsed as an integer within `range`.
  public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        "option '\(name)' takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
    }
    return number
  }
}
