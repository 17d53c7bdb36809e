import Fetch
import FoundationEssentials
import GTFSRealtime
import Glibc
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
    default: "\(PollSchedule.defaultPeriodSeconds)")

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
    let name = try invocation.argument(0)
    guard FeedName.isValid(name) else { throw UsageError("feed name '\(name)' must be \(FeedName.rule)") }
    let arguments = invocation.arguments
    func url(_ option: Option<String?>) throws(UsageError) -> String? {
      guard let text = try arguments.read(option) else { return nil }
      if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw UsageError("\(option.spec.name) holds a control character (a CR or LF would end the request line)")
      }
      if FeedsSupport.isURL(text) { return text }
      if text.contains("://") { throw UsageError("\(option.spec.name) '\(Redactor.redactURL(text))' is not an http, https or file url") }
      return "file://" + invocation.absolutePath(text)  // a plain path
    }
    var headers: [HeaderTemplate] = []
    for text in try arguments.read(header) {
      if text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
        throw UsageError("--header holds a line break (CR or LF), which would send a header of its own")
      }
      guard let header = HeaderTemplate.parse(text) else {
        throw UsageError("--header wants 'Name: value' (got something without a name, colon or value)")
      }
      headers.append(header)
    }
    let feed = FeedDefinition(
      name: name, gtfs: try url(gtfs), tripUpdates: try url(tripUpdates),
      vehiclePositions: try url(vehiclePositions), alerts: try url(alerts), headers: headers,
      pollSeconds: try arguments.read(poll))
    guard feed.gtfs != nil || !feed.realtimeURLs.isEmpty else {
      throw UsageError("give at least one of --gtfs, --trip-updates, --vehicle-positions, --alerts")
    }
    var configuration = try FeedsSupport.configuration(invocation)
    let replaced = configuration.feeds.contains { $0.name == name }
    configuration.feeds.removeAll { $0.name == name }
    configuration.feeds.append(feed)
    try save(configuration, invocation)
    if !invocation.global.json {
      let kinds = (feed.gtfs == nil ? [] : ["gtfs"]) + feed.realtimeURLs.map(\.kind)
      invocation.context.stdout.line("\(replaced ? "replaced" : "added") feed \(name): \(kinds.joined(separator: ", "))")
      let missing = Set(feed.headers.flatMap { EnvironmentExpansion.variables(in: $0.value) }).sorted()
        .filter { (invocation.context.environment[$0] ?? "").isEmpty }
      for variable in missing {
        invocation.context.stderr.line("note: $\(variable) is not set here; fetching needs it in the environment")
      }
    } else {
      invocation.context.stdout.line(FeedsListCommand.json(feed).serialized(pretty: true))
    }
    return 0
  }

  static func save(_ configuration: FeedConfiguration, _ invocation: Invocation) throws {
    do {
      try configuration.save(to: invocation.paths.config)
    } catch {
      throw RuntimeError("cannot save the feed configuration: \(error)")
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
    let configuration = try FeedsSupport.configuration(invocation)
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSON.array(configuration.feeds.map(json)).serialized(pretty: true))
      return 0
    }
    guard !configuration.feeds.isEmpty else {
      out.line("no feeds configured; add one with 'transit feeds add NAME --gtfs URL'")
      return 0
    }
    for (index, feed) in configuration.feeds.enumerated() {
      if index > 0 { out.line() }
      out.line("\(feed.name)  (realtime period \(feed.periodSeconds) s)")
      if let gtfs = feed.gtfs { out.line("  gtfs               \(shown(gtfs))") }
      for (kind, url) in feed.realtimeURLs { out.line("  \(Format.padded(kind, toLength: 19))\(shown(url))") }
      for header in feed.headers { out.line("  header             \(header.displayed)") }
    }
    return 0
  }

  /// A URL as configured, fit to print: variables stay as written, keys in it are masked.
  static func shown(_ url: String) -> String { Redactor.redactURL(url) }

  static func json(_ feed: FeedDefinition) -> JSON {
    .object([
      ("name", .string(feed.name)), ("gtfs", .optional(feed.gtfs.map(shown))),
      ("trip_updates", .optional(feed.tripUpdates.map(shown))),
      ("vehicle_positions", .optional(feed.vehiclePositions.map(shown))), ("alerts", .optional(feed.alerts.map(shown))),
      ("headers", .array(feed.headers.map { .string($0.displayed) })), ("poll_seconds", .number(feed.periodSeconds)),
    ])
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
    var configuration = try FeedsSupport.configuration(invocation)
    _ = try FeedsSupport.feed(named: name, in: configuration)
    configuration.feeds.removeAll { $0.name == name }
    try FeedsAddCommand.save(configuration, invocation)
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
    let client = try FeedsSupport.client(invocation)
    let limits = try invocation.settings().realtimeLimits
    let fetcher = RealtimeFetcher(
      client: client, cacheDirectory: invocation.paths.cache, limits: limits, clock: { invocation.context.clock.now().seconds })
    let now = invocation.context.clock.now().seconds
    var rows: [[String]] = [["FEED", "URL", "STATUS", "SIZE", "AGE", "PERIOD"]]
    var results: [JSON] = []
    var failed = false
    // The bar shares stderr with --verbose's request lines, so it is one or the other.
    let verbose = invocation.arguments.isSet(Self.verbose)
    let bar = ProgressBar(sink: invocation.context.stderr, enabled: invocation.showsProgress && !verbose, unit: "URLs")
    let total = feeds.reduce(0) { $0 + ($1.gtfs == nil ? 0 : 1) + $1.realtimeURLs.count }
    var checked = 0
    for feed in feeds {
      let urls = (feed.gtfs.map { [("gtfs", $0)] } ?? []) + feed.realtimeURLs.map { ($0.kind, $0.url) }
      for (kind, template) in urls {
        bar.update(fraction: Double(checked) / Double(max(total, 1)), label: "\(feed.name) \(kind)", count: checked)
        defer { checked += 1 }
        var status = "ok", size: Int?, age: Int64?, period: Int64?, problem: String?
        do {
          let request = try FeedsSupport.resolve(template, feed: feed, invocation: invocation)
          if verbose {
            let log = invocation.context.stderr
            log.line("> GET \(request.shownURL)")
            log.line("> User-Agent: transit/\(Transit.version)")
            for (template, (name, value)) in zip(feed.headers, request.headers) {
              log.line("> \(name): \(template.isSecret ? Redactor.mask : request.redactor.redact(value))")
            }
          }
          if kind == "gtfs" {
            (size, age) = try checkZip(request, client: client, invocation: invocation, now: now)
          } else {
            let snapshot = try fetcher.snapshot(request, periodSeconds: feed.periodSeconds, refresh: true) { bytes in
              try RtDumpCommand.decode(bytes, source: request.shownURL, limits: limits)
            }
            if let failure = snapshot.failure { throw RuntimeError(request.redactor.redact(failure.description)) }
            size = fetcher.cachedSize(request.url)
            age = snapshot.feed.header?.timestamp.map { now - Int64(clamping: $0) }
            period = fetcher.learnedPeriod(request.url)
          }
        } catch {
          failed = true
          status = "failed"
          problem = (error as? RuntimeError)?.message ?? (error as? FetchError)?.description ?? "\(error)"
        }
        rows.append([
          feed.name, kind, problem.map { "failed: \($0)" } ?? status, size.map(FeedsSupport.sizeText) ?? "-",
          age.map { $0 < 0 ? FeedsSupport.ageText(-$0) + " ahead" : FeedsSupport.ageText($0) } ?? "-",
          kind == "gtfs" ? "-" : period.map { "\($0) s" } ?? "\(feed.periodSeconds) s?",
        ])
        results.append(
          .object([
            ("feed", .string(feed.name)), ("kind", .string(kind)), ("url", .string(FeedsListCommand.shown(template))),
            ("ok", .bool(problem == nil)), ("error", .optional(problem)), ("bytes", .optional(size)),
            ("age_seconds", .optional(age)), ("period_seconds", .optional(period)),
          ]))
      }
    }
    bar.finish()
    if invocation.global.json {
      invocation.context.stdout.line(JSON.array(results).serialized(pretty: true))
    } else {
      invocation.context.stdout.write(Format.table(rows, rightAligned: [3]))
    }
    return failed ? 1 : 0
  }

  /// Downloads the ZIP into the cache folder, checks it starts like a ZIP, and deletes it.
  static func checkZip(_ request: ResolvedRequest, client: HTTPClient, invocation: Invocation, now: Int64) throws -> (Int?, Int64?) {
    let folder = invocation.paths.cache + "/downloads"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/check-\(getpid()).zip"
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard
      case .body(let body) = try client.get(
        request.url, headers: request.headers, expecting: .zip, destination: path, redactor: request.redactor)
    else { return (nil, nil) }
    let head = FileManager.default.contents(atPath: path)?.prefix(4) ?? Data()
    guard head.starts(with: [0x50, 0x4B]) else { throw RuntimeError("\(request.shownURL): not a zip file") }
    let age = body.validators.lastModified.flatMap(HTTPDateText.parse).map { now - $0 }
    return (body.byteCount, age)
  }
}
