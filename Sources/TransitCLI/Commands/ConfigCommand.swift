import FoundationEssentials

/// What the `config` commands share.
enum ConfigSupport {
  // (Not `padding(toLength:)`: every command builds this help while looking for its own spec,
  // and the first NSString call costs a process some 600,000 instructions.)
  static let keysHelp = Settings.keys.map { "  \($0.name + String(repeating: " ", count: max(0, 15 - $0.name.count)))\($0.help)" }
    .joined(separator: "\n")

  /// The setting named `name`, or a usage error listing them.
  static func key(_ name: String) throws(UsageError) -> Settings.Key {
    guard let key = Settings.key(named: name) else {
      var message = "unknown setting '\(name)'"
      if let suggestion = Suggestion.nearest(to: name, among: Settings.keys.map(\.name)) {
        message += "; did you mean '\(suggestion)'?"
      } else {
        message += " (settings: \(Settings.keys.map(\.name).joined(separator: ", ")))"
      }
      throw UsageError(message)
    }
    return key
  }

  /// `{key, value, default, is_default}` for one setting.
  static func json(_ key: Settings.Key, _ settings: Settings) -> JSON {
    let value = key.read(settings)
    let standard = key.read(Settings())
    return .object([
      ("key", .string(key.name)), ("value", .optional(value)), ("default", .optional(standard)),
      ("is_default", .bool(value == standard)),
    ])
  }
}

/// `transit config list`: every setting, its value and whether it is the default.
enum ConfigListCommand: TransitCommand {
  static let path = ["config", "list"]
  static let spec = CommandSpec(
    path: path,
    summary: "Every setting and its value",
    discussion: """
      Settings live in config.toml in the config folder (TRANSIT_HOME, or $XDG_CONFIG_HOME/transit).
      Environment variables (TRANSIT_CLOCK) and command-line options override them.

      settings:
      \(ConfigSupport.keysHelp)
      """,
    examples: ["transit config list", "transit config list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let settings = try invocation.settings()
    if invocation.global.json {
      invocation.context.stdout.line(JSON.array(Settings.keys.map { ConfigSupport.json($0, settings) }).serialized(pretty: true))
      return 0
    }
    let defaults = Settings()
    let rows = Settings.keys.map { key -> [String] in
      let value = key.read(settings)
      return [key.name, value ?? "(unset)", value == key.read(defaults) ? "default" : "set"]
    }
    invocation.context.stdout.write(StopCommandSupport.table(rows))
    return 0
  }
}

/// `transit config get KEY`: one setting's value.
enum ConfigGetCommand: TransitCommand {
  static let path = ["config", "get"]
  static let spec = CommandSpec(
    path: path,
    summary: "One setting's value",
    arguments: [
      ArgumentSpec(
        "KEY", help: "The setting: \(Settings.keys.map(\.name).joined(separator: ", "))", complete: .choices(Settings.keys.map { $0.name }))
    ],
    discussion: "Prints the value alone (empty when the setting is unset), for scripts.",
    examples: ["transit config get late", "transit config get walking-speed", "transit config get clock --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let key = try ConfigSupport.key(try invocation.argument(0))
    let settings = try invocation.settings()
    if invocation.global.json {
      invocation.context.stdout.line(ConfigSupport.json(key, settings).serialized(pretty: true))
    } else {
      invocation.context.stdout.line(key.read(settings) ?? "")
    }
    return 0
  }
}

/// `transit config set KEY VALUE`: changes a setting (`default` puts it back).
enum ConfigSetCommand: TransitCommand {
  static let path = ["config", "set"]
  static let spec = CommandSpec(
    path: path,
    summary: "Change a setting ('default' resets it)",
    arguments: [
      ArgumentSpec(
        "KEY", help: "The setting: \(Settings.keys.map(\.name).joined(separator: ", "))", complete: .choices(Settings.keys.map { $0.name })),
      ArgumentSpec("VALUE", help: "Its new value, or 'default'"),
    ],
    discussion: """
      settings:
      \(ConfigSupport.keysHelp)
      """,
    examples: [
      "transit config set clock 12", "transit config set late 180", "transit config set walking-speed 1.1",
      "transit config set language fr", "transit config set late default",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 2)
    let key = try ConfigSupport.key(try invocation.argument(0))
    let value = try invocation.argument(1).trimmingSpaces()
    var settings = try invocation.settings()
    if value == "default" || value.isEmpty {
      key.reset(&settings)
    } else if !key.write(&settings, value) {
      throw UsageError("\(key.name) '\(value)' is not \(key.expected)")
    }
    try settings.save(to: invocation.paths.config)
    if invocation.global.json {
      invocation.context.stdout.line(ConfigSupport.json(key, settings).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("\(key.name) = \(key.read(settings) ?? "(unset)")")
    }
    return 0
  }
}
