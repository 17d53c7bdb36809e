import FoundationEssentials
import GTFS
import UserData

/// `transit completions bash|zsh|fish`: a completion script built from the command table.
enum CompletionsCommand: TransitCommand {
  static let path = ["completions"]
  static let spec = CommandSpec(
    path: path,
    summary: "Print a shell completion script (bash, zsh or fish)",
    arguments: [ArgumentSpec("SHELL", help: "bash, zsh or fish", complete: .choices(CompletionScript.Shell.names))],
    discussion: """
      The script completes command words, each command's options, the values of options that
      take one of a few words (--mode), file and folder names where a path is asked for, and,
      by asking transit itself, your configured feeds, saved places, favourite stops, commutes
      and the route short names of the timetables held. It is generated from the same command
      table as this help, so it always matches the transit that printed it.

      To install for yourself:
        bash  transit completions bash > ~/.local/share/bash-completion/completions/transit
        zsh   transit completions zsh > ~/.zfunc/_transit  (with fpath+=(~/.zfunc) before compinit)
        fish  transit completions fish > ~/.config/fish/completions/transit.fish
      or, for the current shell only: source <(transit completions bash).
      """,
    examples: [
      "transit completions bash > ~/.local/share/bash-completion/completions/transit",
      "transit completions zsh > ~/.zfunc/_transit",
      "transit completions fish > ~/.config/fish/completions/transit.fish",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0)
    guard let shell = CompletionScript.Shell(rawValue: name) else {
      var message = "unknown shell '\(name)'; completions are for \(CompletionScript.Shell.names.joined(separator: ", "))"
      if let suggestion = Suggestion.nearest(to: name, among: CompletionScript.Shell.names) {
        message += "; did you mean '\(suggestion)'?"
      }
      throw UsageError(message)
    }
    let script = CompletionScript.script(for: shell, model: .current)
    if invocation.global.json {
      invocation.context.stdout.line(
        JSON.object([("shell", .string(shell.rawValue)), ("script", .string(script))]).serialized(pretty: true))
    } else {
      invocation.context.stdout.write(script)
    }
    return 0
  }
}

/// `transit __complete KIND`: the names the completion scripts offer, one a line. Not listed in
/// help; quiet and exit 0 when there is nothing (no timetable, no user data), so a completion
/// never prints an error into the user's command line.
enum CompleteValuesCommand: TransitCommand {
  static let path = ["__complete"]
  static let spec = CommandSpec(
    path: path,
    summary: "List names for the completion scripts, one a line",
    arguments: [
      ArgumentSpec("KIND", help: DynamicValues.allCases.map(\.rawValue).joined(separator: ", "))
    ],
    examples: ["transit __complete places", "transit __complete routes"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0)
    guard let kind = DynamicValues(rawValue: name) else {
      throw UsageError("unknown kind '\(name)'; one of \(DynamicValues.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let values = (try? self.values(kind, invocation)) ?? []
    var seen = Set<String>()
    let unique = values.filter { !$0.isEmpty && !$0.contains("\n") && seen.insert($0).inserted }
    if invocation.global.json {
      invocation.context.stdout.line(JSON.array(unique.map(JSON.string)).serialized(pretty: true))
    } else {
      for value in unique { invocation.context.stdout.line(value) }
    }
    return 0
  }

  static func values(_ kind: DynamicValues, _ invocation: Invocation) throws -> [String] {
    let data = invocation.paths.data
    // Completing must not create files: the user's database is read only when it exists.
    let hasUserData = FileManager.default.fileExists(atPath: data + "/user.sqlite")
    switch kind {
    case .feeds:
      let configured = (try? FeedsSupport.configuration(invocation).feeds.map(\.name)) ?? []
      let held = (try? Timetables(directory: data).list().map(\.name)) ?? []
      return configured + held
    case .places:
      guard hasUserData else { return [] }
      return try UserStore(directory: data).places().map(\.name)
    case .favourites:
      guard hasUserData else { return [] }
      let favourites = try UserStore(directory: data).favourites()
      let manyFeeds = Set(favourites.map(\.feed)).count > 1
      return favourites.map { FavSupport.id(feed: $0.feed, stopID: $0.stopID, manyFeeds: manyFeeds) }
    case .commutes:
      guard hasUserData else { return [] }
      return try UserStore(directory: data).commutes().map(\.name)
    case .routes:
      let store = try Store(directory: data)
      return try store.agencyRoutes().map(\.route.shortName)
    case .settings:
      return Settings.keys.map(\.name)
    }
  }
}
