import Fetch
import FoundationEssentials
import GTFSRealtime
import TransitModel

/// How a run reaches the configured feeds (issue 33): their configuration (`feeds.json` in the
/// config folder), the HTTP client set up for this run, and realtime from their URLs through the
/// snapshot cache. The command line builds one from its folders, environment and settings, and
/// never fetches on its own.
public struct FeedAccess {
  /// The config folder (`feeds.json`).
  public var configDirectory: String
  /// The cache folder (realtime snapshots, validators, downloads).
  public var cacheDirectory: String
  /// The environment `$VARIABLES` in URLs and headers are read from, and the client's tuning
  /// (`TRANSIT_FETCH_TIMEOUT`, `TRANSIT_FETCH_RETRIES`, `TRANSIT_CA_BUNDLE`).
  public var environment: [String: String]
  /// `transit/VERSION`.
  public var userAgent: String
  /// The longest one fetch may take in all, retries included (`fetch-deadline`).
  public var deadlineSeconds: Double
  /// The realtime settings (`realtime-budget`, the caps), read only when realtime is fetched.
  public var realtimeSettings: () throws -> RealtimeSettings
  /// The only sleeper (retries, waits).
  public var sleep: @Sendable (Double) -> Void
  /// Seconds on a clock that never jumps.
  public var elapsed: @Sendable () -> Double
  /// The real time in Unix seconds (snapshot ages are real, whatever `--now` says).
  public var clock: () -> Int64
  /// A path as the user wrote it, made absolute (`TRANSIT_CA_BUNDLE`).
  public var absolutePath: (String) -> String

  /// Access from these folders, environment and settings.
  public init(
    configDirectory: String, cacheDirectory: String, environment: [String: String], userAgent: String,
    deadlineSeconds: Double, realtimeSettings: @escaping () throws -> RealtimeSettings, sleep: @escaping @Sendable (Double) -> Void,
    elapsed: @escaping @Sendable () -> Double, clock: @escaping () -> Int64, absolutePath: @escaping (String) -> String
  ) {
    self.configDirectory = configDirectory
    self.cacheDirectory = cacheDirectory
    self.environment = environment
    self.userAgent = userAgent
    self.deadlineSeconds = deadlineSeconds
    self.realtimeSettings = realtimeSettings
    self.sleep = sleep
    self.elapsed = elapsed
    self.clock = clock
    self.absolutePath = absolutePath
  }

  // MARK: - Configuration

  /// The configured feeds (none when there is no configuration file).
  /// - Throws: `FeedConfigError` when the file cannot be read.
  public func configuration() throws -> FeedConfiguration {
    try FeedConfiguration.load(from: configDirectory)
  }

  /// How often the configured feed `name` publishes its realtime, in seconds (the shortest
  /// period of the feeds of that name with realtime URLs); nil when none is configured, and a
  /// watch of it then follows the feeds' own timestamps alone.
  /// - Throws: what reading the configuration throws.
  public func realtimePeriodSeconds(ofFeed name: String) throws -> Int64? {
    try configuration().feeds.filter { $0.name == name && !$0.realtimeURLs.isEmpty }.map { Int64($0.periodSeconds) }.min()
  }

  /// The configured feed `name`.
  /// - Throws: `FeedKeepingError.notConfigured`, with the names there are.
  public func feed(named name: String, in configuration: FeedConfiguration) throws(FeedKeepingError) -> FeedDefinition {
    guard let feed = configuration.feed(named: name) else { throw .notConfigured(name, configured: configuration.feeds.map(\.name)) }
    return feed
  }

  /// Writes `configuration` (atomically, mode 0600).
  /// - Throws: `FeedKeepingError.cannotSave`.
  public func save(_ configuration: FeedConfiguration) throws(FeedKeepingError) {
    do {
      try configuration.save(to: configDirectory)
    } catch {
      throw .cannotSave("\(error)")
    }
  }

  // MARK: - Fetching

  /// `template` expanded for `feed` (headers and `$VARIABLES` from the environment).
  func resolve(_ template: String, feed: FeedDefinition?) throws(FeedConfigError) -> ResolvedRequest {
    try EnvironmentExpansion.resolve(url: template, headers: feed?.headers ?? [], feed: feed?.name ?? "", environment: environment)
  }

  /// An HTTP client with this run's User-Agent and tuning. `TRANSIT_FETCH_TIMEOUT` (seconds)
  /// and `TRANSIT_FETCH_RETRIES` tune it, for slow links and for tests; `TRANSIT_CA_BUNDLE`
  /// names a PEM file of certificate authorities to trust instead of the system's.
  /// - Parameter budgetSeconds: a total time for everything the client fetches; nil: the full
  ///   timeouts and retries.
  /// - Throws: `FeedKeepingError.unreadableCABundle`, or what libcurl's start throws.
  func client(budgetSeconds: Double? = nil) throws -> HTTPClient {
    var options = FetchOptions()
    options.budgetSeconds = budgetSeconds
    options.deadlineSeconds = deadlineSeconds
    options.userAgent = userAgent
    options.sleep = sleep
    options.elapsed = elapsed
    if let text = environment["TRANSIT_FETCH_TIMEOUT"], let seconds = Double(text), seconds > 0 {
      options.totalTimeoutSeconds = seconds
      options.connectTimeoutSeconds = min(options.connectTimeoutSeconds, seconds)
    }
    if let text = environment["TRANSIT_FETCH_RETRIES"], let retries = Int(text), (0...10).contains(retries) {
      options.retries = retries
    }
    if let bundle = environment["TRANSIT_CA_BUNDLE"], !bundle.isEmpty {
      let path = absolutePath(bundle)
      guard FileManager.default.isReadableFile(atPath: path) else { throw FeedKeepingError.unreadableCABundle(path) }
      options.caBundlePath = path
    }
    return try HTTPClient(options: options)
  }

  /// A realtime fetcher through the cache, with a client of its own and the caps.
  func fetcher(budgetSeconds: Double?) throws -> RealtimeFetcher {
    RealtimeFetcher(
      client: try client(budgetSeconds: budgetSeconds), cacheDirectory: cacheDirectory,
      limits: try realtimeSettings().caps.realtimeLimits, clock: clock)
  }

  /// The realtime of the configured feeds that have realtime URLs, through the snapshot cache
  /// (`ConfiguredRealtime`); none configured reads nothing. All the fetches of a read together
  /// get `budgetSeconds` (default: the `realtime-budget` setting's), so a stalled server never holds an
  /// interactive command for long.
  /// - Parameters:
  ///   - refresh: fetch even a young snapshot (asked only when some feed has realtime).
  ///   - skipsUnresolved: a URL whose request cannot be made (a `$VARIABLE` not set) is left
  ///     out, where otherwise its error ends the read.
  public func realtimeSource(
    budgetSeconds: Double? = nil, refresh: @autoclosure () -> Bool, skipsUnresolved: Bool = false
  ) throws -> any RealtimeSource {
    let feeds = try configuration().feeds.filter { !$0.realtimeURLs.isEmpty }
    guard !feeds.isEmpty else { return FixedRealtime([]) }
    let access = self
    let settings = try realtimeSettings()
    let budget = budgetSeconds ?? settings.budgetSeconds
    return ConfiguredRealtime(
      feeds: feeds, fetcher: { try access.fetcher(budgetSeconds: budget) },
      refresh: refresh(),
      resolve: { url, feed in skipsUnresolved ? try? access.resolve(url, feed: feed) : try access.resolve(url, feed: feed) },
      clock: clock)
  }
}

/// What the settings say of realtime: the time all the fetches of one read get, and the caps.
public struct RealtimeSettings: Sendable, Hashable {
  public var budgetSeconds: Double
  public var caps: RealtimeCaps

  public init(budgetSeconds: Double, caps: RealtimeCaps) {
    self.budgetSeconds = budgetSeconds
    self.caps = caps
  }
}

/// Realtime's memory budget as the settings give it, in MiB and counts.
public struct RealtimeCaps: Sendable, Hashable {
  public var maxDownloadMegabytes: Int
  public var maxMegabytes: Int
  public var maxEntities: Int
  public var maxStopUpdates: Int

  /// Caps of these sizes.
  public init(maxDownloadMegabytes: Int, maxMegabytes: Int, maxEntities: Int, maxStopUpdates: Int) {
    self.maxDownloadMegabytes = maxDownloadMegabytes
    self.maxMegabytes = maxMegabytes
    self.maxEntities = maxEntities
    self.maxStopUpdates = maxStopUpdates
  }

  /// The fetcher's and decoder's limits: the sizes in bytes, the decoder's repeated messages
  /// at least its default and at least the entities and stop updates together.
  public var realtimeLimits: RealtimeLimits {
    RealtimeLimits(
      maxCompressedBytes: maxDownloadMegabytes << 20, maxDecompressedBytes: maxMegabytes << 20,
      decoding: DecodingLimits(
        maxEntities: maxEntities, maxStopTimeUpdates: maxStopUpdates,
        maxMessages: max(DecodingLimits.default.maxMessages, maxEntities + maxStopUpdates)))
  }
}

/// Why keeping the feeds or their timetables could not go on: the library's typed reason; the
/// command line phrases it, adding the advice that names a command.
public enum FeedKeepingError: Error {
  /// No timetable named so is held.
  case notHeld(String)
  /// No feed named so is configured (`configured`: the names there are).
  case notConfigured(String, configured: [String])
  /// The configured feed has no GTFS URL to download.
  case noGTFSURL(String)
  /// Nothing was named to ingest and no configured feed has a GTFS URL.
  case nothingToIngest
  /// No configured feed has a realtime URL.
  case noRealtimeFeeds
  /// A folder could not be made (`underlying`: the system's error).
  case cannotCreate(String, underlying: any Error)
  /// `TRANSIT_CA_BUNDLE` names a file that cannot be read.
  case unreadableCABundle(String)
  /// The feed configuration could not be written.
  case cannotSave(String)
  /// A download failed (any key redacted).
  case download(String)
  /// A downloaded archive is bad: its error, naming the URL instead of the cache file.
  case badDownload(String)
}
