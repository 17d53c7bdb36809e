import Fetch
import FoundationEssentials
import GTFSRealtime
import TransitModel

/// A feed as `feeds add` is asked for it: the texts as given (URLs or paths, `Name: value`
/// headers), checked and made into a `FeedDefinition` by `FeedAccess.add`.
public struct FeedSetup: Sendable {
  public var name: String
  public var gtfs: String?
  public var tripUpdates: String?
  public var vehiclePositions: String?
  public var alerts: String?
  /// `Name: value`, `$VARIABLES` unexpanded.
  public var headers: [String]
  public var pollSeconds: Int?

  public init(
    name: String, gtfs: String?, tripUpdates: String?, vehiclePositions: String?, alerts: String?, headers: [String],
    pollSeconds: Int?
  ) {
    self.name = name
    self.gtfs = gtfs
    self.tripUpdates = tripUpdates
    self.vehiclePositions = vehiclePositions
    self.alerts = alerts
    self.headers = headers
    self.pollSeconds = pollSeconds
  }

  /// One of a feed's URLs.
  public enum Field: Sendable, Hashable {
    case gtfs, tripUpdates, vehiclePositions, alerts
  }

  /// Why a setup is refused; the command line names the option.
  public enum Problem: Error, Sendable, Equatable {
    /// The name is not a valid feed name (`FeedName.rule`).
    case invalidName(String)
    /// A URL holds a control character (a CR or LF would end the request line).
    case controlCharacter(Field)
    /// A URL of another scheme than http, https or file (shown with any key masked).
    case unsupportedScheme(Field, shown: String)
    /// A header holds a line break, which would send a header of its own.
    case headerLineBreak
    /// A header without a name, colon or value.
    case malformedHeader
    /// No URL at all.
    case noURL
  }
}

/// A configured feed as it may be shown: URLs with any key in them masked, headers as
/// `displayed` (secrets masked). Its `Encodable` form is `feeds list --json`'s object.
public struct ConfiguredFeed: Sendable, Equatable {
  public var name: String
  public var gtfs: String?
  /// The realtime URLs by kind (`trip-updates`, `vehicle-positions`, `alerts`), in that order.
  public var realtime: [Realtime]
  public var headers: [String]
  /// The realtime period: `--poll`, else 30 s.
  public var periodSeconds: Int

  /// One realtime URL.
  public struct Realtime: Sendable, Equatable {
    public var kind: String
    public var url: String
  }

  init(_ feed: FeedDefinition) {
    name = feed.name
    gtfs = feed.gtfs.map(Redactor.redactURL)
    realtime = feed.realtimeURLs.map { Realtime(kind: $0.kind, url: Redactor.redactURL($0.url)) }
    headers = feed.headers.map(\.displayed)
    periodSeconds = feed.periodSeconds
  }

  /// The kinds of URL it has: `gtfs`, then the realtime ones.
  public var kinds: [String] { (gtfs == nil ? [] : ["gtfs"]) + realtime.map(\.kind) }
}

extension ConfiguredFeed: Encodable {
  /// `{name, gtfs, trip_updates, vehicle_positions, alerts, headers, poll_seconds}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    func url(_ kind: String) -> String? { realtime.first { $0.kind == kind }?.url }
    try members.encode(name, forKey: "name")
    try members.encode(gtfs, forKey: "gtfs")
    try members.encode(url("trip-updates"), forKey: "trip_updates")
    try members.encode(url("vehicle-positions"), forKey: "vehicle_positions")
    try members.encode(url("alerts"), forKey: "alerts")
    try members.encode(headers, forKey: "headers")
    try members.encode(periodSeconds, forKey: "poll_seconds")
  }
}

/// What `feeds add` did: added or replaced the feed, and which variables its headers name that
/// are not set here.
public struct FeedAddAnswer: Sendable, Equatable {
  public var feed: ConfiguredFeed
  public var isReplacement: Bool
  /// Variables the headers name, sorted, that this environment does not set.
  public var missingVariables: [String]
}

extension FeedAccess {
  /// The configured feeds as they may be shown.
  /// - Throws: `FeedConfigError` when the file cannot be read.
  public func configuredFeeds() throws -> [ConfiguredFeed] { try configuration().feeds.map(ConfiguredFeed.init) }

  /// Adds the feed `setup` describes (replacing one of the same name) and saves.
  /// - Parameter absolutePath: a plain path made absolute (it is kept as a `file://` URL).
  /// - Throws: `FeedSetup.Problem`; `FeedConfigError`, `FeedKeepingError.cannotSave`.
  public func add(_ setup: FeedSetup) throws -> FeedAddAnswer {
    guard FeedName.isValid(setup.name) else { throw FeedSetup.Problem.invalidName(setup.name) }
    func url(_ text: String?, _ field: FeedSetup.Field) throws(FeedSetup.Problem) -> String? {
      guard let text else { return nil }
      if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw .controlCharacter(field) }
      let lowered = text.lowercased()
      if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://") { return text }
      if text.contains("://") { throw .unsupportedScheme(field, shown: Redactor.redactURL(text)) }
      return "file://" + absolutePath(text)  // a plain path
    }
    var headers: [HeaderTemplate] = []
    for text in setup.headers {
      if text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) { throw FeedSetup.Problem.headerLineBreak }
      guard let header = HeaderTemplate.parse(text) else { throw FeedSetup.Problem.malformedHeader }
      headers.append(header)
    }
    let feed = FeedDefinition(
      name: setup.name, gtfs: try url(setup.gtfs, .gtfs), tripUpdates: try url(setup.tripUpdates, .tripUpdates),
      vehiclePositions: try url(setup.vehiclePositions, .vehiclePositions), alerts: try url(setup.alerts, .alerts),
      headers: headers, pollSeconds: setup.pollSeconds)
    guard feed.gtfs != nil || !feed.realtimeURLs.isEmpty else { throw FeedSetup.Problem.noURL }
    var configuration = try self.configuration()
    let replaced = configuration.feeds.contains { $0.name == setup.name }
    configuration.feeds.removeAll { $0.name == setup.name }
    configuration.feeds.append(feed)
    try save(configuration)
    let missing = Set(feed.headers.flatMap { EnvironmentExpansion.variables(in: $0.value) }).sorted()
      .filter { (environment[$0] ?? "").isEmpty }
    return FeedAddAnswer(feed: ConfiguredFeed(feed), isReplacement: replaced, missingVariables: missing)
  }

  /// Forgets the configured feed `name` and saves.
  /// - Throws: `FeedKeepingError.notConfigured`, `.cannotSave`; `FeedConfigError`.
  public func remove(_ name: String) throws {
    var configuration = try self.configuration()
    _ = try feed(named: name, in: configuration)
    configuration.feeds.removeAll { $0.name == name }
    try save(configuration)
  }

  /// The realtime feed at `url` through the snapshot cache, with the headers of the configured
  /// feed that lists it (`rt dump URL`), and what went wrong when a fallback stood in.
  /// - Throws: `FeedKeepingError.download` when nothing could be fetched or is cached.
  public func realtime(
    at url: String, refresh: Bool
  ) throws -> (feed: FeedMessage, problem: RealtimeProblem?) {
    let feed = try configuration().feeds.first { $0.realtimeURLs.contains { $0.url == url } }
    let request = try resolve(url, feed: feed)
    let (snapshot, problem) = ConfiguredRealtime.snapshot(
      request, periodSeconds: feed?.periodSeconds ?? 30, fetcher: try fetcher(budgetSeconds: nil), refresh: refresh,
      clock: clock)
    guard let snapshot else { throw FeedKeepingError.download(problem?.failure ?? request.shownURL) }
    return (snapshot.feed, problem)
  }
}
