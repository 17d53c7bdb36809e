import Fetch
import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// Issue 38: a feed whose header time is well ahead of the clock cannot poison the snapshot
/// cache (once cached, every true feed after it looked older and was refused).
@Suite struct SnapshotPoisonTests {
  typealias R = RealtimeFetcherTests

  @Test(arguments: [3600, 86_400, 400])
  func aFeedFromTheFutureIsUsedOnceButNotKept(ahead: Int64) throws {
    let clock = R.Clock()
    let server = try TestHTTPServer { _, hit in
      switch hit {
      case 1: return .init(body: R.feed(UInt64(1_000_000 + ahead)))
      case 2: return .init(status: 500)
      default: return .init(body: R.feed(999_990))
      }
    }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/tu", headers: [], feed: "", environment: [:])
    let first = try fetcher.snapshot(request, periodSeconds: 30, refresh: true, decode: R.decode)
    #expect(first.origin == .network)
    #expect(first.feed.header?.timestamp == UInt64(1_000_000 + ahead))
    #expect(fetcher.cachedSize(request.url) == nil, "a feed \(ahead) s ahead of the clock was cached")
    // The server fails: nothing poisoned to fall back on.
    #expect(throws: FetchError.self) { try fetcher.snapshot(request, periodSeconds: 30, refresh: true, decode: R.decode) }
    // Fixed: the true feed is taken and kept.
    let fixed = try fetcher.snapshot(request, periodSeconds: 30, refresh: true, decode: R.decode)
    #expect(fixed.origin == .network)
    #expect(fixed.feed.header?.timestamp == 999_990)
    #expect(fetcher.cachedSize(request.url) != nil)
  }

  @Test func aFeedWithinFiveMinutesAheadIsKept() throws {
    let clock = R.Clock()
    let server = try TestHTTPServer { _, _ in .init(body: R.feed(1_000_000 + 299)) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/tu", headers: [], feed: "", environment: [:])
    _ = try fetcher.snapshot(request, periodSeconds: 30, refresh: true, decode: R.decode)
    #expect(fetcher.cachedSize(request.url) != nil)
  }

  /// A cache poisoned by an older version (a snapshot a day ahead on disk) is replaced by the
  /// next fetch, whatever its time: "older than the cached one" is judged against the clock.
  @Test func aPoisonedCacheIsReplacedByTheNextFetch() throws {
    let clock = R.Clock()
    let server = try TestHTTPServer { _, _ in .init(body: R.feed(999_990)) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/tu", headers: [], feed: "", environment: [:])
    let poisoned = R.feed(1_086_400)
    try SnapshotCache(cacheDirectory: folder.path).store(
      Snapshot(
        bytes: poisoned, fetchedAt: 999_000, headerTimestamp: 1_086_400, validators: Validators(), recentTimestamps: [1_086_400]),
      for: request.url)
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let fetched = try fetcher.snapshot(request, periodSeconds: 30, refresh: true, decode: R.decode)
    #expect(fetched.origin == .network)
    #expect(fetched.feed.header?.timestamp == 999_990)
    #expect(SnapshotCache(cacheDirectory: folder.path).load(request.url)?.headerTimestamp == 999_990)
  }
}
