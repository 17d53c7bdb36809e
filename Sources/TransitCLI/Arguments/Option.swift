import TransitModel

/// An option declared once, with the type its value is read as: the command lists its `spec`
/// (help, completion, man page) and reads it with `arguments.read(option)`. The option's name is
/// written in one place, so a typo cannot compile into an option that silently reads nil, and
/// its value is parsed by one of the shared parsers (`ValueParser`), checked before the command
/// runs.
///
/// As swift-argument-parser's `@Option`: the declaration carries the parsing.
public struct Option<Value>: Sendable {
  /// What help, completion and the parser see.
  public let spec: OptionSpec
  private let reader: @Sendable (ParsedArguments, OptionSpec) throws(UsageError) -> Value

  init(_ spec: OptionSpec, read reader: @escaping @Sendable (ParsedArguments, OptionSpec) throws(UsageError) -> Value) {
    let plain = spec
    var checked = spec
    checked.validate = { arguments throws(UsageError) in _ = try reader(arguments, plain) }
    self.spec = checked
    self.reader = reader
  }

  /// The option's value in `arguments`.
  func read(_ arguments: ParsedArguments) throws(UsageError) -> Value { try reader(arguments, spec) }
}

extension Option where Value == Bool {
  /// A flag: true when given.
  static func flag(_ name: String, short: String? = nil, help: String) -> Option {
    Option(OptionSpec(name, short: short, help: help)) { arguments, spec in arguments.flag(spec.name) }
  }
}

extension Option where Value == String? {
  /// Free text (a stop, a name, a URL), as given.
  static func text(
    _ name: String, short: String? = nil, value: String, help: String, default defaultValue: String? = nil,
    complete: ValueCompletion? = nil
  ) -> Option {
    Option(OptionSpec(name, short: short, value: value, help: help, default: defaultValue, complete: complete)) { arguments, spec in
      arguments.value(spec.name)
    }
  }
}

extension Option where Value == [String] {
  /// Text that may be given more than once, in order.
  static func repeated(_ name: String, value: String, help: String, complete: ValueCompletion? = nil) -> Option {
    Option(OptionSpec(name, value: value, help: help, repeatable: true, complete: complete)) { arguments, spec in
      arguments.values(spec.name)
    }
  }
}

extension Option where Value == Int? {
  /// A whole number within `range`.
  static func integer(
    _ name: String, short: String? = nil, value: String, in range: ClosedRange<Int>, help: String, default defaultValue: String? = nil
  ) -> Option {
    Option(OptionSpec(name, short: short, value: value, help: help, default: defaultValue)) { arguments, spec throws(UsageError) in
      try arguments.integer(spec.name, in: range)
    }
  }

  /// A wall-clock time `HH:MM`, in minutes after midnight.
  static func clockTime(_ name: String, help: String) -> Option {
    Option(OptionSpec(name, value: "HH:MM", help: help)) { arguments, spec throws(UsageError) in
      try arguments.clockMinutes(spec.name)
    }
  }
}

extension Option where Value == ServiceDate? {
  /// A date `YYYY-MM-DD`.
  static func date(_ name: String, help: String) -> Option {
    Option(OptionSpec(name, value: "YYYY-MM-DD", help: help)) { arguments, spec throws(UsageError) in
      try arguments.date(spec.name)
    }
  }
}

extension Option where Value == String? {
  /// A language tag (BCP 47: en, fr, es-MX), checked for its characters.
  static func language(_ name: String, value: String, help: String) -> Option {
    Option(OptionSpec(name, value: value, help: help)) { arguments, spec throws(UsageError) in
      guard let text = arguments.value(spec.name) else { return nil }
      guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
        throw UsageError("\(spec.name) '\(text)' is not a language tag (en, fr, es-MX)")
      }
      return text
    }
  }
}

extension Option where Value == Int64? {
  /// A duration in seconds: "90", "90s", "15m", "2h".
  static func duration(_ name: String, value: String, help: String) -> Option {
    Option(OptionSpec(name, value: value, help: help)) { arguments, spec throws(UsageError) in
      try arguments.value(spec.name).map { text throws(UsageError) in try ValueParser.duration(text, option: spec.name) }
    }
  }
}

extension Option where Value == String? {
  /// A feed name: checked against `FeedName.rule` before any path is built from it.
  static func feedName(_ name: String, value: String, help: String) -> Option {
    Option(OptionSpec(name, value: value, help: help, complete: .dynamic(.feeds))) { arguments, spec throws(UsageError) in
      guard let text = arguments.value(spec.name) else { return nil }
      guard FeedName.isValid(text) else { throw UsageError("\(spec.name) '\(text)': a feed name must be \(FeedName.rule)") }
      return text
    }
  }
}

extension ParsedArguments {
  /// The value of a typed option.
  public func read<Value>(_ option: Option<Value>) throws(UsageError) -> Value { try option.read(self) }

  /// Whether a flag was given (a flag's value cannot be bad).
  public func isSet(_ option: Option<Bool>) -> Bool { flag(option.spec.name) }
}
