import FoundationEssentials
import TransitModel

/// An option declared once, with the type its value is read as: the command lists its `spec`
/// (help, completion, man page) and reads it with `arguments.read(option)`. The option's name is
/// written in one place, so a typo cannot compile into an option that silently reads nil (the
/// lookup by name is private to `ParsedArguments`), and its value is parsed by one of the shared
/// parsers (`ValueParser`), checked before the command runs.
///
/// As swift-argument-parser's `@Option`: the declaration carries the parsing.
public struct Option<Value>: Sendable {
  /// What help, completion and the parser see.
  public let spec: OptionSpec
  /// Reads the value from what the command line gave.
  let parse: @Sendable (GivenOption) throws(UsageError) -> Value

  init(_ spec: OptionSpec, parse: @escaping @Sendable (GivenOption) throws(UsageError) -> Value) {
    var checked = spec
    checked.validate = { given throws(UsageError) in _ = try parse(given) }
    self.spec = checked
    self.parse = parse
  }

  /// Reads the given option's single value with `parser`; nil when it was not given.
  static func single<Parsed>(
    _ spec: OptionSpec, _ parser: @escaping @Sendable (String, String) throws(UsageError) -> Parsed
  ) -> Option where Value == Parsed? {
    Option(spec) { given throws(UsageError) in
      guard let text = given.value else { return nil }
      return try parser(text, given.name)
    }
  }
}

extension Option {
  /// This option, read as `value` when it is not given; help shows the default as `shown`. The
  /// default is declared once, here: what help says and what the command reads cannot disagree.
  func defaulting<Wrapped: Sendable>(to value: Wrapped, shown: String) -> Option<Wrapped> where Value == Wrapped? {
    var spec = self.spec
    spec.defaultValue = shown
    let parse = self.parse
    return Option<Wrapped>(spec) { given throws(UsageError) in try parse(given) ?? value }
  }
}

extension Option where Value == Int? {
  /// This option, read as `value` when it is not given (help shows it).
  func defaulting(to value: Int) -> Option<Int> { defaulting(to: value, shown: "\(value)") }
}

extension Option where Value == Double? {
  /// This option, read as `value` when it is not given (help shows it: "1", "0.5").
  func defaulting(to value: Double) -> Option<Double> {
    defaulting(to: value, shown: value == value.rounded() ? "\(Int(value))" : "\(value)")
  }
}

extension Option where Value == Bool {
  /// A flag: true when given.
  static func flag(_ name: String, short: String? = nil, help: String) -> Option {
    Option(OptionSpec(name, short: short, help: help)) { given in given.isFlagged }
  }
}

extension Option where Value == String? {
  /// Free text (a stop, a name, a URL, a file), as given.
  static func text(
    _ name: String, short: String? = nil, value: String, help: String, default defaultValue: String? = nil,
    complete: ValueCompletion? = nil
  ) -> Option {
    Option(OptionSpec(name, short: short, value: value, help: help, default: defaultValue, complete: complete)) { given in given.value }
  }

  /// A language tag (BCP 47: en, fr, es-MX), checked for its characters.
  static func language(_ name: String, value: String, help: String) -> Option {
    single(OptionSpec(name, value: value, help: help), ValueParser.languageTag)
  }

  /// A feed name: checked against `FeedName.rule` before any path is built from it.
  static func feedName(_ name: String, value: String, help: String) -> Option {
    single(OptionSpec(name, value: value, help: help, complete: .dynamic(.feeds)), ValueParser.feedName)
  }
}

extension Option where Value == [String] {
  /// Text that may be given more than once, in order.
  static func repeated(_ name: String, value: String, help: String, complete: ValueCompletion? = nil) -> Option {
    Option(OptionSpec(name, value: value, help: help, repeatable: true, complete: complete)) { given in given.values }
  }
}

extension Option where Value == Int? {
  /// A whole number within `range`.
  static func integer(
    _ name: String, short: String? = nil, value: String, in range: ClosedRange<Int>, help: String, default defaultValue: String? = nil,
    complete: ValueCompletion? = nil
  ) -> Option {
    let spec = OptionSpec(name, short: short, value: value, help: help, default: defaultValue, complete: complete)
    return single(spec) { text, option throws(UsageError) in
      try ValueParser.integer(text, option: option, in: range)
    }
  }

  /// A wall-clock time `HH:MM`, in minutes after midnight.
  static func clockTime(_ name: String, help: String) -> Option {
    single(OptionSpec(name, value: "HH:MM", help: help), ValueParser.clockMinutes)
  }

}

extension Option where Value == Int {
  /// Days of the week: "mon-fri", "sat,sun", "daily", as a mask (bit 0 Monday … bit 6 Sunday);
  /// `defaultDays` when not given (help shows it as days: "mon-fri").
  static func weekdays(
    _ name: String, value: String, help: String, default defaultDays: Int, complete: ValueCompletion? = nil
  ) -> Option {
    Option<Int?>.single(OptionSpec(name, value: value, help: help, complete: complete), ValueParser.weekdays)
      .defaulting(to: defaultDays, shown: SavedCommute.daysText(defaultDays))
  }
}

extension Option where Value == Double? {
  /// A number (seconds, a speed) that `accepts` takes; otherwise "NAME 'TEXT' is not
  /// `described`".
  static func number(
    _ name: String, value: String, help: String, default defaultValue: String? = nil, described: String,
    accepts: @escaping @Sendable (Double) -> Bool
  ) -> Option {
    single(OptionSpec(name, value: value, help: help, default: defaultValue)) { text, option throws(UsageError) in
      guard let number = Double(text), number.isFinite, accepts(number) else {
        throw UsageError("\(option) '\(text)' is not \(described)")
      }
      return number
    }
  }
}

extension Option where Value == ServiceDate? {
  /// A date `YYYY-MM-DD`.
  static func date(_ name: String, help: String, default defaultValue: String? = nil) -> Option {
    single(OptionSpec(name, value: "YYYY-MM-DD", help: help, default: defaultValue), ValueParser.date)
  }
}

extension Option where Value == TimeArgument? {
  /// A time `HH:MM` (on the agency's clock) or ISO 8601 (read in the agency's zone when it
  /// has no offset).
  static func time(_ name: String, value: String = "TIME", help: String, default defaultValue: String? = nil) -> Option {
    single(OptionSpec(name, value: value, help: help, default: defaultValue), ValueParser.time)
  }
}

extension Option where Value == Int64? {
  /// A duration in seconds: "90", "90s", "15m", "2h".
  static func duration(_ name: String, value: String, help: String) -> Option {
    single(OptionSpec(name, value: value, help: help), ValueParser.duration)
  }
}

extension Option where Value == PlaceArgument? {
  /// A position `LAT,LON` or the name of a saved place ('home'); the name is looked up when the
  /// command runs (`StopCommandSupport.location`).
  static func place(_ name: String, help: String) -> Option {
    single(OptionSpec(name, value: "LAT,LON", help: help, complete: .dynamic(.places)), ValueParser.place)
  }
}

extension Option where Value == Set<TransitMode> {
  /// Transport modes by name (bus, tram, rail, ...), comma-separated; repeatable unless said.
  static func modes(_ name: String, value: String, help: String, repeatable: Bool = true) -> Option {
    let spec = OptionSpec(name, value: value, help: help, repeatable: repeatable, complete: .choices(ValueParser.modeNames))
    return Option(spec) { given throws(UsageError) in try ValueParser.modes(given.values, option: given.name) }
  }
}
