import FoundationEssentials
import GTFSRealtime
import TransitModel

/// A realtime feed as a command gets it: decoded, with where it came from and how old it is.
public struct RealtimeSnapshot: Sendable {
  /// The decoded feed.
  public var feed: FeedMessage
  /// When the bytes were fetched from the server (Unix seconds).
  public var fetchedAt: Int64
  /// Where it came from.
  public var origin: Origin
  /// Why the network was not used although it should have been (the fetch error), if so.
  public var failure: FetchError?

  /// Where the snapshot came from.
  public enum Origin: Sendable, Equatable {
    /// Fetched now.
    case network
    /// The server said 304: the cached copy is current.
    case notModified
    /// Cached, and still within the feed's period: no request made.
    case fresh
    /// Cached, used because the fetch failed.
    case fallback
  }
}

/// Fetches realtime feeds through the snapshot cache: a copy younger than the feed's period is
/// used as is; otherwise a conditional GET; when that fails, the last good copy.
public final class RealtimeFetcher {
  let client: HTTPClient
  let cache: SnapshotCache
  let clock: () -> Int64
  /// The size caps; the body is refused as it arrives once it passes `maxDecompressedBytes`.
  public let limits: RealtimeLimits

  /// - Parameters:
  ///   - clock: the real time in Unix seconds (cache ages are real, whatever `--now` says).
  ///   - limits: realtime's size caps (the decoder's counts are the `decode` closure's to apply).
  public init(
    client: HTTPClient, cacheDirectory: String, limits: RealtimeLimits = RealtimeLimits(), clock: @escaping () -> Int64
  ) {
    self.client = client
    cache = SnapshotCache(cacheDirectory: cacheDirectory)
    self.clock = clock
    self.limits = limits
  }

  /// The feed at `request`, fresh enough for `periodSeconds`.
  ///
  /// - Parameters:
  ///   - refresh: fetch even when the cached copy is young.
  ///   - decode: turns bytes into a FeedMessage (un-gzipping if needed); a body that does not
  ///     decode counts as a failed fetch.
  /// - Throws: the fetch or decode error when it fails and nothing is cached.
  public func snapshot(
    _ request: ResolvedRequest, periodSeconds: Int, refresh: Bool, decode: ([UInt8]) throws -> FeedMessage
  ) throws -> RealtimeSnapshot {
    let key = request.url
    let cached = cache.load(key)
    let now = clock()
    if !refresh, let cached, now - cached.fetchedAt < Int64(periodSeconds), now >= cached.fetchedAt,
      let feed = try? decode(cached.bytes)
    {
      return RealtimeSnapshot(feed: feed, fetchedAt: cached.fetchedAt, origin: .fresh)
    }
    do {
      let result = try client.get(
        request.url, headers: request.headers, validators: cached?.validators, expecting: .protobuf,
        redactor: request.redactor, maxBodyBytes: limits.maxDecompressedBytes)
      switch result {
      case .notModified:
        if let cached, let feed = try? decode(cached.bytes) {
          try? cache.touch(key, at: now)
          return RealtimeSnapshot(feed: feed, fetchedAt: now, origin: .notModified)
        }
        // A 304 with nothing cached: ask again without validators.
        guard
          case .body(let body) = try client.get(
            request.url, headers: request.headers, expecting: .protobuf, redactor: request.redactor,
            maxBodyBytes: limits.maxDecompressedBytes)
        else { throw FetchError(url: request.shownURL, .transfer("not modified, but nothing is cached")) }
        return try store(body, key: key, previous: nil, now: now, decode: decode, request: request)
      case .body(let body):
        return try store(body, key: key, previous: cached, now: now, decode: decode, request: request)
      }
    } catch {
      let failure = (error as? FetchError) ?? FetchError(url: request.shownURL, .transfer("\(error)"))
      guard let cached, let feed = try? decode(cached.bytes) else { throw failure }
      return RealtimeSnapshot(feed: feed, fetchedAt: cached.fetchedAt, origin: .fallback, failure: failure)
    }
  }

  private func store(
    _ body: FetchedBody, key: String, previous: Snapshot?, now: Int64, decode: ([UInt8]) throws -> FeedMessage,
    request: ResolvedRequest
  ) throws -> RealtimeSnapshot {
    let feed: FeedMessage
    do {
      feed = try decode(body.bytes)
    } catch {
      throw FetchError(url: request.shownURL, .transfer("not a gtfs-realtime feed (\(request.redactor.redact("\(error)")))"))
    }
    // A timestamp past year 9999 is no time at all.
    let stamp = feed.header?.timestamp.flatMap { UnixTime(checked: $0)?.seconds }
    // Validated before it replaces anything: a body with no header timestamp (an empty 200, a
    // half-built feed) or older than the cached one would pass itself off as the newest news.
    guard let stamp, stamp > 0 else {
      guard previous == nil else {
        throw FetchError(url: request.shownURL, .rejected("the feed has no header timestamp"))
      }
      // Nothing better is cached: used for this run (of unknown age), never cached.
      return RealtimeSnapshot(feed: feed, fetchedAt: now, origin: .network)
    }
    // A header time more than five minutes ahead of the clock is used for this run, never
    // kept: cached, it would make every true feed after it look older, and be refused.
    if stamp > now + Self.futureMarginSeconds { return RealtimeSnapshot(feed: feed, fetchedAt: now, origin: .network) }
    if let previous, let older = previous.headerTimestamp, stamp < older,
      !Self.restarted(feed, previous: previous, now: now)
    {
      throw FetchError(
        url: request.shownURL,
        .rejected("its header timestamp \(Self.iso(stamp)) is older than the cached snapshot's (\(Self.iso(older)))"))
    }
    var history = previous?.recentTimestamps ?? []
    if history.last != stamp { history.append(stamp) }
    let snapshot = Snapshot(
      bytes: body.bytes, fetchedAt: now, headerTimestamp: stamp, validators: body.validators,
      recentTimestamps: Array(history.suffix(SnapshotCache.historyLength)), feedVersion: feed.header?.feedVersion)
    try? cache.store(snapshot, for: key)
    return RealtimeSnapshot(feed: feed, fetchedAt: now, origin: .network)
  }

  /// Whether a feed older than the cached snapshot says it started again: its `feed_version`
  /// changed (a new timetable), or the cached timestamp lies more than five minutes ahead of the
  /// real clock (a server whose clock was wrong, since put right).
  static func restarted(_ feed: FeedMessage, previous: Snapshot, now: Int64) -> Bool {
    if let version = feed.header?.feedVersion, let old = previous.feedVersion, version != old { return true }
    if let older = previous.headerTimestamp, older > now + futureMarginSeconds { return true }
    return false
  }

  /// How far ahead of the clock a feed's header time may be and still be cached.
  static let futureMarginSeconds: Int64 = 300

  static func iso(_ seconds: Int64) -> String { UnixTime.wallClockText(localSeconds: seconds) + "Z" }

  /// The publish period learned from the header timestamps cached for `url`, if any.
  public func learnedPeriod(_ url: String) -> Int64? {
    cache.load(url).flatMap { PollSchedule.learnedPeriod(from: $0.recentTimestamps) }
  }
}

@available(*, unavailable)
extension RealtimeFetcher: Sendable {}

extension RealtimeFetcher {
  /// The size of the snapshot cached for `url`, in bytes.
  public func cachedSize(_ url: String) -> Int? { cache.load(url)?.bytes.count }
}
