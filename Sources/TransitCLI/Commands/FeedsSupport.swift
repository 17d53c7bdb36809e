import Fetch
import FoundationEssentials
import GTFSRealtime

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

  /// The realtime feeds a command merges: `--realtime FILE`s when given; otherwise every
  /// realtime URL of the configured feeds (those named `preferred`, when any is), through the
  /// snapshot cache. A failed fetch falls back to the last good snapshot, saying its age on
  /// stderr; with nothing cached the feed is left out and the failure said. All the fetches
  /// together get the `realtime-budget` setting's seconds (default 5), so a stalled server
  /// never holds an interactive command for long.
  static func realtimeFeeds(_ invocation: Invocation, preferred: String? = nil) throws -> [FeedMessage] {
    if !invocation.global.realtimeFiles.isEmpty {
      return try invocation.global.realtimeFiles.map { try RtDumpCommand.load($0, invocation: invocation) }
    }
    let configuration = try configuration(invocation)
    var feeds = configuration.feeds.filter { !$0.realtimeURLs.isEmpty }
    if let preferred, feeds.contains(where: { $0.name == preferred }) { feeds = feeds.filter { $0.name == preferred } }
    guard !feeds.isEmpty else { return [] }
    let settings = try invocation.settings()
    let fetcher = RealtimeFetcher(
      client: try client(invocation, budgetSeconds: Double(settings.realtimeBudgetSeconds)),
      cacheDirectory: invocation.paths.cache, limits: settings.realtimeLimits, clock: { invocation.context.clock.now().seconds })
    var messages: [FeedMessage] = []
    for feed in feeds {
      for (_, url) in feed.realtimeURLs {
        let request: ResolvedRequest
        do {
          request = try resolve(url, feed: feed, invocation: invocation)
        } catch let error as RuntimeError {
          invocation.context.stderr.line("transit: \(error.message); realtime not used")
          continue
        }
        if let snapshot = try? snapshot(request, feed: feed, fetcher: fetcher, invocation: invocation, reportFailure: true) {
          messages.append(snapshot.feed)
        }
      }
    }
    return messages
  }

  /// One realtime snapshot; reports on stderr when it is a fallback or when it failed.
  static func snapshot(
    _ request: ResolvedRequest, feed: FeedDefinition?, fetcher: RealtimeFetcher, invocation: Invocation, reportFailure: Bool
  ) throws -> RealtimeSnapshot {
    let refresh = invocation.arguments.isSet(Self.refresh)
    do {
      let snapshot = try fetcher.snapshot(request, periodSeconds: feed?.periodSeconds ?? 30, refresh: refresh) { bytes in
        try RtDumpCommand.decode(bytes, source: request.shownURL, limits: fetcher.limits)
      }
      if snapshot.origin == .fallback, let failure = snapshot.failure {
        let age = max(0, invocation.context.clock.now().seconds - snapshot.fetchedAt)
        invocation.context.stderr.line(
          "transit: \(request.redactor.redact(failure.description)); using the snapshot from \(ageText(age)) ago")
      }
      return snapshot
    } catch {
      let message = request.redactor.redact((error as? FetchError)?.description ?? "\(error)")
      if reportFailure { invocation.context.stderr.line("transit: \(message); realtime not used") }
      throw RuntimeError(message)
    }
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
