import Fetch
import FoundationEssentials
import GTFSRealtime
import Services
import TransitModel

/// What the commands share for fetching: the feed configuration, an HTTP client set up for
/// this run, and realtime from the configured feeds through the snapshot cache.
enum FeedsSupport {
  /// `--refresh`, for the commands that fetch realtime.
  static let refresh = Option.flag(
    "--refresh", help: "Fetch realtime now, even if the cached snapshot is younger than the feed's period")

  /// The configured feeds (none when there is no configuration file).
  static func configuration(_ invocation: Invocation) throws -> FeedConfiguration {
    try FeedConfiguration.load(from: invocation.paths.config)
  }

  /// The configured feed `name`, or exit 3 naming the ones there are.
  static func feed(named name: String, in configuration: FeedConfiguration) throws -> FeedDefinition {
    guard let feed = configuration.feed(named: name) else {
      let names = configuration.feeds.map(\.name)
      throw NotFoundError(
        "no feed named '\(name)' is configured"
          + (names.isEmpty ? " (add one with 'transit feeds add')" : "; configured: \(names.joined(separator: ", "))"))
    }
    return feed
  }

  /// An HTTP client with transit's User-Agent. `TRANSIT_FETCH_TIMEOUT` (seconds) and
  /// `TRANSIT_FETCH_RETRIES` tune it, for slow links and for tests; `TRANSIT_CA_BUNDLE` names
  /// a PEM file of certificate authorities to trust instead of the system's.
  ///
  /// - Parameter budgetSeconds: a total time for everything the client fetches (interactive
  ///   commands: the `realtime-budget` setting); nil: the full timeouts and retries.
  static func client(_ invocation: Invocation, budgetSeconds: Double? = nil) throws -> HTTPClient {
    var options = FetchOptions()
    options.budgetSeconds = budgetSeconds
    options.deadlineSeconds = Double((try? invocation.settings())?.fetchDeadlineSeconds ?? Settings().fetchDeadlineSeconds)
    options.userAgent = "transit/\(Transit.version)"
    options.sleep = invocation.context.sleep
    options.elapsed = invocation.context.elapsed
    let environment = invocation.context.environment
    if let text = environment["TRANSIT_FETCH_TIMEOUT"], let seconds = Double(text), seconds > 0 {
      options.totalTimeoutSeconds = seconds
      options.connectTimeoutSeconds = min(options.connectTimeoutSeconds, seconds)
    }
    if let text = environment["TRANSIT_FETCH_RETRIES"], let retries = Int(text), (0...10).contains(retries) {
      options.retries = retries
    }
    if let bundle = environment["TRANSIT_CA_BUNDLE"], !bundle.isEmpty {
      let path = invocation.absolutePath(bundle)
      guard FileManager.default.isReadableFile(atPath: path) else {
        throw RuntimeError("TRANSIT_CA_BUNDLE: \(path) cannot be read")
      }
      options.caBundlePath = path
    }
    return try HTTPClient(options: options)
  }

  /// `template` expanded for `feed` (headers and `$VARIABLES` from the environment).
  static func resolve(_ template: String, feed: FeedDefinition?, invocation: Invocation) throws -> ResolvedRequest {
    try EnvironmentExpansion.resolve(
      url: template, headers: feed?.headers ?? [], feed: feed?.name ?? "", environment: invocation.context.environment)
  }

  /// The realtime source of this run (`RealtimeSource`): the `--realtime FILE`s when given
  /// (decoded now), else the realtime URLs of the configured feeds through the snapshot cache.
  /// All the fetches of a read together get `budgetSeconds` (default: the `realtime-budget`
  /// setting's, 5), so a stalled server never holds an interactive command for long.
  ///
  /// - Parameters:
  ///   - refresh: fetch even a young snapshot (default: `--refresh`).
  ///   - skipsUnresolved: a URL whose request cannot be made (a `$VARIABLE` not set) is left
  ///     out, where otherwise its error ends the command.
  static func realtimeSource(
    _ invocation: Invocation, budgetSeconds: Double? = nil, refresh: Bool? = nil, skipsUnresolved: Bool = false
  ) throws -> any RealtimeSource {
    if !invocation.global.realtimeFiles.isEmpty {
      return FixedRealtime(try invocation.global.realtimeFiles.map { try RtDumpCommand.load($0, invocation: invocation) })
    }
    let feeds = try configuration(invocation).feeds.filter { !$0.realtimeURLs.isEmpty }
    guard !feeds.isEmpty else { return FixedRealtime([]) }
    let settings = try invocation.settings()
    return ConfiguredRealtime(
      feeds: feeds, fetcher: { try fetcher(invocation, budgetSeconds: budgetSeconds ?? Double(settings.realtimeBudgetSeconds)) },
      refresh: refresh ?? invocation.arguments.isSet(Self.refresh),
      resolve: { url, feed in
        skipsUnresolved ? try? resolve(url, feed: feed, invocation: invocation) : try resolve(url, feed: feed, invocation: invocation)
      },
      decode: { try RtDumpCommand.decode($0, source: $1, limits: $2) }, clock: { invocation.context.clock.now().seconds })
  }

  /// A realtime fetcher through the cache, with this run's client and the settings' caps.
  static func fetcher(_ invocation: Invocation, budgetSeconds: Double?) throws -> RealtimeFetcher {
    RealtimeFetcher(
      client: try client(invocation, budgetSeconds: budgetSeconds), cacheDirectory: invocation.paths.cache,
      limits: try invocation.settings().realtimeLimits, clock: { invocation.context.clock.now().seconds })
  }

  /// What went wrong reading realtime, on stderr: a fallback snapshot's age, a feed left out.
  static func report(_ problems: [RealtimeProblem], invocation: Invocation) {
    for problem in problems { invocation.context.stderr.line("transit: " + text(problem)) }
  }

  /// "FAILURE; using the snapshot from 3 min ago", "FAILURE; realtime not used".
  static func text(_ problem: RealtimeProblem) -> String {
    switch problem {
    case .fallback(let failure, let age): return "\(failure); using the snapshot from \(ageText(age)) ago"
    case .failed(let failure): return "\(failure); realtime not used"
    }
  }

  /// The realtime feeds a command merges (`realtimeSource`, every configured feed unless
  /// `preferred` has its own); what went wrong is said on stderr.
  static func realtimeFeeds(_ invocation: Invocation, preferred: String? = nil) throws -> [FeedMessage] {
    let read = try realtimeSource(invocation).read(preferring: preferred.map(FeedName.init))
    report(read.problems, invocation: invocation)
    return read.feeds
  }

  /// One realtime snapshot (`ConfiguredRealtime.snapshot`); reports on stderr when it is a
  /// fallback, and when it failed if `reportFailure`.
  static func snapshot(
    _ request: ResolvedRequest, feed: FeedDefinition?, fetcher: RealtimeFetcher, invocation: Invocation, reportFailure: Bool
  ) throws -> RealtimeSnapshot {
    let (snapshot, problem) = ConfiguredRealtime.snapshot(
      request, periodSeconds: feed?.periodSeconds ?? 30, fetcher: fetcher, refresh: invocation.arguments.isSet(Self.refresh),
      decode: { try RtDumpCommand.decode($0, source: $1, limits: $2) }, clock: { invocation.context.clock.now().seconds })
    guard let snapshot else {
      if reportFailure, let problem { report([problem], invocation: invocation) }
      throw RuntimeError(problem?.failure ?? request.shownURL)
    }
    if let problem { report([problem], invocation: invocation) }
    return snapshot
  }

  /// `45 s`, `3 min`, `2 h 5 min`, `3 days`.
  static func ageText(_ seconds: Int64) -> String { Format.duration(seconds: seconds) }

  /// `12.3 kB`, `4.5 MB`.
  static func sizeText(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) B" }
    if bytes < 1_000_000 { return Format.fixed(Double(bytes) / 1000, decimals: 1) + " kB" }
    return Format.fixed(Double(bytes) / 1_000_000, decimals: 1) + " MB"
  }

  /// Whether `text` is a URL this command line fetches.
  static func isURL(_ text: String) -> Bool {
    let lowered = text.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://")
  }
}
