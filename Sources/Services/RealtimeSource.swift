import Fetch
import GTFSRealtime
import TransitModel

/// Where a session's realtime comes from, injected so the answers take the capability and not
/// a global (as GRDB's `DatabaseReader`): feeds already in hand (`FixedRealtime`: decoded
/// `--realtime` files, a test's own messages) or the configured feeds through the snapshot
/// cache (`ConfiguredRealtime`).
public protocol RealtimeSource {
  /// The realtime to answer with: the feeds of `preferred` when it has feeds of its own, else
  /// every feed there is.
  /// - Throws: what the source cannot go on without (a request it cannot make); a failed
  ///   fetch is a problem of the read, not an error.
  func read(preferring preferred: FeedName?) throws -> RealtimeRead
  /// The shortest publish period of what `read(preferring:)` reads, in seconds; nil when it
  /// polls nothing (a watch then follows the feed's own timestamps alone).
  func periodSeconds(preferring preferred: FeedName?) -> Int64?
}

/// What a realtime source read: the decoded feeds and what went wrong on the way.
public struct RealtimeRead: Sendable {
  public var feeds: [FeedMessage]
  public var problems: [RealtimeProblem]

  /// A read of `feeds`.
  public init(feeds: [FeedMessage], problems: [RealtimeProblem] = []) {
    self.feeds = feeds
    self.problems = problems
  }

  /// Whether a fetch failed (a last good snapshot stood in, or the feed was left out).
  public var isOffline: Bool { !problems.isEmpty }
}

/// Why a feed's realtime is old or missing; the text is the library's (any key redacted), the
/// command line says what it means for the rider.
public enum RealtimeProblem: Sendable, Hashable {
  /// The fetch failed (`failure`); the last good snapshot, `ageSeconds` old, is used.
  case fallback(failure: String, ageSeconds: Int64)
  /// The fetch failed and nothing is cached: the feed is left out.
  case failed(String)

  /// What failed, in the library's words.
  public var failure: String {
    switch self {
    case .fallback(let failure, _), .failed(let failure): return failure
    }
  }
}

/// Feeds already in hand.
public struct FixedRealtime: RealtimeSource {
  public var feeds: [FeedMessage]

  /// A source that always reads `feeds`.
  public init(_ feeds: [FeedMessage]) { self.feeds = feeds }

  public func read(preferring preferred: FeedName?) -> RealtimeRead { RealtimeRead(feeds: feeds) }
  public func periodSeconds(preferring preferred: FeedName?) -> Int64? { nil }
}

/// The realtime URLs of the configured feeds, through the snapshot cache: a snapshot younger
/// than the feed's period is reused, else fetched (conditional GET); a failed fetch falls back
/// to the last good snapshot. Only the preferred feed's URLs are read when it has some.
public struct ConfiguredRealtime: RealtimeSource {
  /// The configured feeds that have realtime URLs.
  public var feeds: [FeedDefinition]
  let fetcher: () throws -> RealtimeFetcher
  let refresh: Bool
  let resolve: (_ url: String, _ feed: FeedDefinition) throws -> ResolvedRequest?
  let clock: () -> Int64

  /// - Parameters:
  ///   - fetcher: a fetcher for one read: its client's time budget is for the fetches of one
  ///     read together (a live view reads again and again).
  ///   - refresh: fetch even a snapshot younger than its period.
  ///   - resolve: the request for a URL of a feed (its headers and `$VARIABLES` expanded); nil
  ///     leaves the URL out, an error ends the read.
  ///   - clock: the real time in Unix seconds (snapshot ages are real, whatever `--now` says).
  public init(
    feeds: [FeedDefinition], fetcher: @escaping () throws -> RealtimeFetcher, refresh: Bool,
    resolve: @escaping (_ url: String, _ feed: FeedDefinition) throws -> ResolvedRequest?,
    clock: @escaping () -> Int64
  ) {
    self.feeds = feeds.filter { !$0.realtimeURLs.isEmpty }
    self.fetcher = fetcher
    self.refresh = refresh
    self.resolve = resolve
    self.clock = clock
  }

  /// The feeds read for `preferred`: its own when it has realtime, else all.
  func chosen(_ preferred: FeedName?) -> [FeedDefinition] {
    guard let preferred, feeds.contains(where: { $0.name == preferred.rawValue }) else { return feeds }
    return feeds.filter { $0.name == preferred.rawValue }
  }

  public func read(preferring preferred: FeedName?) throws -> RealtimeRead {
    var read = RealtimeRead(feeds: [])
    let feeds = chosen(preferred)
    guard !feeds.isEmpty else { return read }
    let fetcher = try self.fetcher()
    for feed in feeds {
      for (_, url) in feed.realtimeURLs {
        guard let request = try resolve(url, feed) else { continue }
        let (snapshot, problem) = Self.snapshot(
          request, periodSeconds: feed.periodSeconds, fetcher: fetcher, refresh: refresh, clock: clock)
        if let snapshot { read.feeds.append(snapshot.feed) }
        if let problem { read.problems.append(problem) }
      }
    }
    return read
  }

  /// One snapshot of `request` through `fetcher`, and what went wrong: a fallback says its
  /// age; with nothing cached, no snapshot and the failure (any key redacted).
  public static func snapshot(
    _ request: ResolvedRequest, periodSeconds: Int, fetcher: RealtimeFetcher, refresh: Bool, clock: () -> Int64
  ) -> (RealtimeSnapshot?, RealtimeProblem?) {
    do {
      let snapshot = try fetcher.snapshot(request, periodSeconds: periodSeconds, refresh: refresh) { bytes in
        try RealtimeCapture.decode(bytes, source: request.shownURL, limits: fetcher.limits)
      }
      guard snapshot.origin == .fallback, let failure = snapshot.failure else { return (snapshot, nil) }
      let age = max(0, clock() - snapshot.fetchedAt)
      return (snapshot, .fallback(failure: request.redactor.redact(failure.description), ageSeconds: age))
    } catch {
      return (nil, .failed(request.redactor.redact((error as? FetchError)?.description ?? "\(error)")))
    }
  }

  public func periodSeconds(preferring preferred: FeedName?) -> Int64? {
    chosen(preferred).map { Int64($0.periodSeconds) }.min()
  }
}

/// A snapshot recorded by `transit record`, played back: its files, read as capture files
/// on each read, and the moment it was recorded at.
public struct ReplayRealtime: RealtimeSource {
  /// When the snapshot was recorded (its newest file's time).
  public var time: UnixTime
  /// The snapshot's files, one per kind.
  public var files: [String]
  let caps: RealtimeCaps

  /// A replay of `files`, recorded at `time`, each read within `caps` (`RealtimeFiles`).
  public init(time: UnixTime, files: [String], caps: RealtimeCaps) {
    self.time = time
    self.files = files
    self.caps = caps
  }

  /// The moment a replay answers at: the one asked for (`--now`), else the snapshot's own.
  public func now(asked: UnixTime?) -> UnixTime { asked ?? time }

  public func read(preferring preferred: FeedName?) throws -> RealtimeRead {
    RealtimeRead(feeds: try files.map { try RealtimeFiles.read($0, shownAs: $0, caps: caps) })
  }
  public func periodSeconds(preferring preferred: FeedName?) -> Int64? { nil }
}
