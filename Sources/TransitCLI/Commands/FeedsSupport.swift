import GTFSRealtime
import Services
import TransitModel

/// What the commands share for the configured feeds: the access of this run (`FeedAccess`:
/// the feed configuration, the HTTP client's tuning, realtime through the snapshot cache), and
/// how what went wrong reading realtime is said.
enum FeedsSupport {

  /// Whether `--refresh` was given, in a command that declares it (`stops search` and the
  /// other answers that read configured realtime without offering it never refresh).
  static func asksToRefresh(_ invocation: Invocation) -> Bool {
    invocation.spec.options.contains { $0.name == RealtimeOptions.refresh.spec.name } && invocation.arguments.isSet(RealtimeOptions.refresh)
  }

  /// The feed access of `invocation`: its folders and environment, transit's User-Agent, and
  /// the settings' deadline (a settings file that does not parse leaves the default here; the
  /// realtime settings are read when realtime is fetched).
  static func access(_ invocation: Invocation) -> FeedAccess {
    let context = invocation.context
    return FeedAccess(
      configDirectory: invocation.paths.config, cacheDirectory: invocation.paths.cache, environment: context.environment,
      userAgent: "transit/\(Transit.version)",
      deadlineSeconds: Double((try? invocation.settings())?.fetchDeadlineSeconds ?? Settings().fetchDeadlineSeconds),
      realtimeSettings: {
        let settings = try invocation.settings()
        return RealtimeSettings(budgetSeconds: Double(settings.realtimeBudgetSeconds), caps: settings.realtimeCaps)
      }, sleep: context.sleep, elapsed: context.elapsed, clock: { context.clock.now().seconds },
      absolutePath: invocation.absolutePath)
  }

  /// The configured feeds (none when there is no configuration file).
  static func configuration(_ invocation: Invocation) throws -> FeedConfiguration {
    try access(invocation).configuration()
  }

  /// The configured feed `name`, or exit 3 naming the ones there are.
  static func feed(named name: String, in configuration: FeedConfiguration) throws -> FeedDefinition {
    guard let feed = configuration.feed(named: name) else {
      throw FeedKeepingError.notConfigured(name, configured: configuration.feeds.map(\.name)).phrased
    }
    return feed
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
      return FixedRealtime(try localFeeds(invocation))
    }
    return try access(invocation).realtimeSource(
      budgetSeconds: budgetSeconds, refresh: refresh ?? asksToRefresh(invocation), skipsUnresolved: skipsUnresolved)
  }

  /// The feeds of the `--realtime` files, in order.
  static func localFeeds(_ invocation: Invocation) throws -> [FeedMessage] {
    try invocation.global.realtimeFiles.map { try capture($0, invocation: invocation) }
  }

  /// One feed, read (a file or `file://` URL, un-gzipped, within the caps) or fetched through
  /// the realtime cache (an http(s) URL, with the headers of the configured feed that lists
  /// it); errors name `source` as the user wrote it (with any key redacted).
  static func capture(_ source: String, invocation: Invocation) throws -> FeedMessage {
    let lowered = source.lowercased()
    if isURL(source) && !lowered.hasPrefix("file://") {
      let (feed, problem) = try access(invocation).realtime(at: source, refresh: invocation.arguments.isSet(RealtimeOptions.refresh))
      if let problem { report([problem], invocation: invocation) }
      return feed
    }
    let path = RealtimeFiles.fileURLPath(source) ?? invocation.absolutePath(source)
    return try RealtimeFiles.read(path, shownAs: source, caps: try invocation.settings().realtimeCaps)
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
