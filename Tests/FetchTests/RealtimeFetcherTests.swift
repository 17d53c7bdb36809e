import Fetch
import Foundation
import GTFSRealtime
import TestSupport
import Testing

@Suite struct RealtimeFetcherTests {
  /// A feed whose header timestamp is `stamp`.
  static func feed(_ stamp: UInt64) -> [UInt8] { headerOnlyFeed(stamp) }

  static func decode(_ bytes: [UInt8]) throws -> FeedMessage { try FeedMessage(decoding: bytes) }

  final class Clock: @unchecked Sendable {
    var now: Int64 = 1_000_000
  }

  @Test func reusesASnapshotWithinThePeriodAndRefreshForcesAFetch() throws {
    let server = try TestHTTPServer { _, hit in .init(headers: [("ETag", "\"\(hit)\"")], body: Self.feed(UInt64(999_990 + hit * 30))) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let clock = Clock()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/tu", headers: [], feed: "", environment: [:])
    let first = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode)
    #expect(first.origin == .network)
    clock.now += 10
    let second = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode)
    #expect(second.origin == .fresh)
    #expect(second.fetchedAt == 1_000_000)
    #expect(server.requests.count == 1)
    let third = try fetcher.snapshot(request, periodSeconds: 30, refresh: true, decode: Self.decode)
    #expect(third.origin == .network)
    #expect(server.requests.count == 2)
    #expect(server.requests.last?.headers["if-none-match"] == "\"1\"")
    #expect(third.feed.header?.timestamp == 1_000_050)
    #expect(fetcher.learnedPeriod(request.url) == 30)
  }

  @Test func notModifiedKeepsTheCachedSnapshot() throws {
    let server = try TestHTTPServer { request, _ in
      request.headers["if-none-match"] == "\"a\"" ? .init(status: 304) : .init(headers: [("ETag", "\"a\"")], body: Self.feed(500))
    }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let clock = Clock()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/vp", headers: [], feed: "", environment: [:])
    _ = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode)
    clock.now += 60
    let again = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode)
    #expect(again.origin == .notModified)
    #expect(again.fetchedAt == clock.now)
    #expect(again.feed.header?.timestamp == 500)
  }

  @Test func aFailedFetchFallsBackToTheLastGoodSnapshot() throws {
    let server = try TestHTTPServer { _, hit in
      switch hit {
      case 1: return .init(body: Self.feed(700))
      case 2: return .init(status: 500)
      case 3: return .html()
      default: return .init(body: [0xFF, 0xFF])  // not a protobuf
      }
    }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let clock = Clock()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/al", headers: [], feed: "", environment: [:])
    _ = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode)
    for expected in ["http 500 internal server error", "got an html page where a protobuf feed was expected", "not a gtfs-realtime feed"] {
      clock.now += 100
      let snapshot = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode)
      #expect(snapshot.origin == .fallback)
      #expect(snapshot.fetchedAt == 1_000_000)
      #expect(snapshot.feed.header?.timestamp == 700)
      #expect(snapshot.failure?.description.contains(expected) == true, "\(String(describing: snapshot.failure))")
    }
  }

  @Test func withNothingCachedAFailureIsThrown() throws {
    let server = try TestHTTPServer { _, _ in .init(status: 404) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { 0 }
    let request = try EnvironmentExpansion.resolve(url: server.baseURL + "/tu", headers: [], feed: "", environment: [:])
    #expect(throws: FetchError.self) { try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: Self.decode) }
  }
}
