/// Help as JSON (`transit --json help`, `transit departures --help --json`): the same specs the
/// help screens are built from, for scripts, editors and shells that want the commands and
/// their options without parsing text.
enum HelpJSON {
  /// Every command (its path, summary and usage) and the global options.
  static func overview() -> JSON {
    .object([
      ("transit", .string(Transit.version)),
      ("usage", .string("transit COMMAND [options]")),
      ("commands", .array(Transit.commands.map { summary($0.spec) })),
      ("global_options", .array(GlobalOptions.specs.map(option))),
    ])
  }

  /// A group's subcommands (`transit stops --help --json`).
  static func group(_ name: String) -> JSON {
    .object([
      ("usage", .string("transit \(name) SUBCOMMAND [options]")),
      ("commands", .array(Transit.commands.filter { $0.spec.path.first == name }.map { summary($0.spec) })),
    ])
  }

  /// A command's path, summary and usage.
  static func summary(_ spec: CommandSpec) -> JSON {
    .object([
      ("command", .string(spec.path.joined(separator: " "))),
      ("summary", .string(spec.summary)),
      ("usage", .string(spec.usage)),
    ])
  }

  /// One command's help: summary, usage, arguments, options, global options and examples.
  static func command(_ spec: CommandSpec) -> JSON {
    .object([
      ("command", .string(spec.path.joined(separator: " "))),
      ("summary", .string(spec.summary)),
      ("usage", .string(spec.usage)),
      ("discussion", .optional(spec.discussion.isEmpty ? nil : spec.discussion)),
      (
        "arguments",
        .array(
          spec.arguments.map { argument in
            .object([
              ("name", .string(argument.name)),
              ("help", .string(argument.help)),
              ("optional", .bool(argument.isOptional)),
              ("repeatable", .bool(argument.isVariadic)),
            ])
          })
      ),
      ("options", .array(spec.options.map(option))),
      ("global_options", .array(GlobalOptions.specs.map(option))),
      ("examples", .array(spec.examples.map(JSON.string))),
    ])
  }

  /// An option: its names, the value it takes (null for a flag), help, default, repeatability.
  static func option(_ option: OptionSpec) -> JSON {
    .object([
      ("name", .string(option.name)),
      ("short", .optional(option.shortName)),
      ("value", .optional(option.valueName)),
      ("help", .string(option.help)),
      ("default", .optional(option.defaultValue)),
      ("repeatable", .bool(option.isRepeatable)),
    ])
  }
}
