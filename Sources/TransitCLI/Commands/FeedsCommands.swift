import Services
import TransitModel

/// `transit feeds add NAME --gtfs URL ...`: configure an agency's feeds.
enum FeedsAddCommand: TransitCommand {
  static let gtfs = Option.text("--gtfs", value: "URL", help: "The GTFS ZIP (http, https, file URL or path)")
  static let tripUpdates = Option.text("--trip-updates", value: "URL", help: "The GTFS-Realtime trip updates feed")
  static let vehiclePositions = Option.text("--vehicle-positions", value: "URL", help: "The GTFS-Realtime vehicle positions feed")
  static let alerts = Option.text("--alerts", value: "URL", help: "The GTFS-Realtime service alerts feed")
  static let header = Option.repeated(
    "--header", value: "'NAME: VALUE'", help: "Send this header; $VAR in VALUE is read from the environment when fetching")
  static let poll = Option.integer(
    "--poll", value: "SECONDS", in: 5...3600, help: "How often the agency publishes realtime (5 to 3600)",
    default: "\(FeedDefinition.defaultPeriodSeconds)")

  static let path = ["feeds", "add"]
  static let spec = CommandSpec(
    path: path,
    summary: "Configure a feed: its GTFS ZIP URL, realtime URLs and request headers",
    arguments: [ArgumentSpec("NAME", help: "The feed's name (letters, digits, - and _); ingest holds its timetable under it")],
    options: [gtfs.spec, tripUpdates.spec, vehiclePositions.spec, alerts.spec, header.spec, poll.spec],
    discussion: """
      The configuration is kept in feeds.json in the config folder ($XDG_CONFIG_HOME/transit),
      written atomically with mode 0600. Keep API keys out of it: write the header as
      'x-api-key: $MTA_KEY' and export MTA_KEY; the variable is read only when fetching, and
      keys are never printed (list, errors and check show them as <redacted>). URLs may name
      variables the same way. Adding a name that exists replaces that feed.
      """,
    examples: [
      "transit feeds add dublin --gtfs https://example.org/gtfs.zip --trip-updates https://example.org/rt/trip-updates",
      "transit feeds add mta --gtfs https://example.org/mta.zip --vehicle-positions https://example.org/vp --header 'x-api-key: $MTA_KEY'",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let arguments = invocation.arguments
    let setup = FeedSetup(
      name: try invocation.argument(0), gtfs: try arguments.read(gtfs), tripUpdates: try arguments.read(tripUpdates),
      vehiclePositions: try arguments.read(vehiclePositions), alerts: try arguments.read(alerts), headers: try arguments.read(header),
      pollSeconds: try arguments.read(poll))
    let answer = try FeedsSupport.access(invocation).add(setup)
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer.feed))
      return 0
    }
    invocation.context.stdout.line(
      "\(answer.isReplacement ? "replaced" : "added") feed \(setup.name): \(answer.feed.kinds.joined(separator: ", "))")
    for variable in answer.missingVariables {
      invocation.context.stderr.line("note: $\(variable) is not set here; fetching needs it in the environment")
    }
    return 0
  }

  /// The option each URL of a setup comes from.
  static func option(_ field: FeedSetup.Field) -> Option<String?> {
    switch field {
    case .gtfs: return gtfs
    case .tripUpdates: return tripUpdates
    case .vehiclePositions: return vehiclePositions
    case .alerts: return alerts
    }
  }
}

extension FeedSetup.Problem {
  /// The problem as `feeds add` says it, naming the option.
  var phrased: UsageError {
    switch self {
    case .invalidName(let name): return UsageError("feed name '\(name)' must be \(FeedName.rule)")
    case .controlCharacter(let field):
      return UsageError("\(FeedsAddCommand.option(field).spec.name) holds a control character (a CR or LF would end the request line)")
    case .unsupportedScheme(let field, let shown):
      return UsageError("\(FeedsAddCommand.option(field).spec.name) '\(shown)' is not an http, https or file url")
    case .headerLineBreak: return UsageError("--header holds a line break (CR or LF), which would send a header of its own")
    case .malformedHeader: return UsageError("--header wants 'Name: value' (got something without a name, colon or value)")
    case .noURL: return UsageError("give at least one of --gtfs, --trip-updates, --vehicle-positions, --alerts")
    }
  }
}

/// `transit feeds list`: the configured feeds, keys redacted.
enum FeedsListCommand: TransitCommand {
  static let path = ["feeds", "list"]
  static let spec = CommandSpec(
    path: path,
    summary: "List the configured feeds (API keys are never shown)",
    examples: ["transit feeds list", "transit feeds list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let feeds = try FeedsSupport.access(invocation).configuredFeeds()
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(feeds))
      return 0
    }
    guard !feeds.isEmpty else {
      out.line("no feeds configured; add one with 'transit feeds add NAME --gtfs URL'")
      return 0
    }
    for (index, feed) in feeds.enumerated() {
      if index > 0 { out.line() }
      out.line("\(feed.name)  (realtime period \(feed.periodSeconds) s)")
      if let gtfs = feed.gtfs { out.line("  gtfs               \(gtfs)") }
      for realtime in feed.realtime { out.line("  \(Format.padded(realtime.kind, toLength: 19))\(realtime.url)") }
      for header in feed.headers { out.line("  header             \(header)") }
    }
    return 0
  }
}

/// `transit feeds remove NAME`.
enum FeedsRemoveCommand: TransitCommand {
  static let path = ["feeds", "remove"]
  static let spec = CommandSpec(
    path: path,
    summary: "Forget a configured feed (its timetable stays until 'transit ingest --remove NAME')",
    arguments: [ArgumentSpec("NAME", help: "The feed to forget", complete: .dynamic(.feeds))],
    examples: ["transit feeds remove dublin", "transit feeds remove dublin && transit ingest --remove dublin"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0)
    try FeedsSupport.access(invocation).remove(name)
    if invocation.global.json {
      invocation.context.stdout.line(JSON.object([("removed", .string(name))]).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("removed feed \(name)")
    }
    return 0
  }
}

/// `transit feeds check`: fetch every configured URL once and say how it went.
enum FeedsCheckCommand: TransitCommand {
  static let verbose = Option.flag("--verbose", short: "-v", help: "Also show each request and its headers on stderr (keys redacted)")

  static let path = ["feeds", "check"]
  static let spec = CommandSpec(
    path: path,
    summary: "Fetch each configured URL once: status, size, age and publish period",
    arguments: [ArgumentSpec("NAME", help: "Only this feed", optional: true, complete: .dynamic(.feeds))],
    options: [verbose.spec],
    discussion: """
      Downloads each GTFS ZIP (then discards it) and fetches each realtime feed, bypassing the
      cache, then prints one line per URL: ok or the error, the size, the age (the feed header's
      timestamp for realtime, Last-Modified for a ZIP) and, for realtime, the publish period
      learned from the timestamps seen so far. Exits 1 if any URL failed.
      """,
    examples: ["transit feeds check", "transit feeds check mta --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let configuration = try FeedsSupport.configuration(invocation)
    var feeds = configuration.feeds
    if let name = invocation.arguments.positionals.first { feeds = [try FeedsSupport.feed(named: name, in: configuration)] }
    guard !feeds.isEmpty else {
      invocation.context.stdout.line("no feeds configured; add one with 'transit feeds add NAME --gtfs URL'")
      return 0
    }
    // The bar shares stderr with --verbose's request lines, so it is one or the other.
    let verbose = invocation.arguments.isSet(Self.verbose)
    let bar = ProgressBar(sink: invocation.context.stderr, enabled: invocation.showsProgress && !verbose, unit: "URLs")
    let access = FeedsSupport.access(invocation)
    let checks = try access.check(
      feeds,
      willFetch: { request in
        guard verbose else { return }
        let log = invocation.context.stderr
        log.line("> GET \(request.shownURL)")
        log.line("> User-Agent: \(access.userAgent)")
        for (name, value) in request.headers { log.line("> \(name): \(value)") }
      },
      progress: { done, total, label in bar.update(fraction: Double(done) / Double(max(total, 1)), label: label, count: done) })
    bar.finish()
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(checks))
    } else {
      var rows: [[String]] = [["FEED", "URL", "STATUS", "SIZE", "AGE", "PERIOD"]]
      for check in checks {
        rows.append([
          check.feed, check.kind, check.problem.map { "failed: \($0)" } ?? "ok", check.bytes.map(FeedsSupport.sizeText) ?? "-",
          check.ageSeconds.map { $0 < 0 ? FeedsSupport.ageText(-$0) + " ahead" : FeedsSupport.ageText($0) } ?? "-",
          check.isGTFS ? "-" : check.learnedPeriodSeconds.map { "\($0) s" } ?? "\(check.configuredPeriodSeconds) s?",
        ])
      }
      invocation.context.stdout.write(Format.table(rows, rightAligned: [3]))
    }
    return checks.contains { $0.problem != nil } ? 1 : 0
  }
}
