import Fetch
import Foundation
import GTFSRealtime
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 23, cases 2, 3, 4 and 6, against a misbehaving server on 127.0.0.1.
@Suite struct RealtimeHardeningTests {
  typealias Clock = RealtimeFetcherTests.Clock

  static func feed(_ stamp: UInt64) -> [UInt8] { RealtimeFetcherTests.feed(stamp) }

  /// A feed with a header timestamp and a feed_version.
  static func feed(_ stamp: UInt64, version: String) -> [UInt8] {
    let plain = RealtimeFetcherTests.feed(stamp)
    let header = Array(plain[2...]) + [0x22, UInt8(version.utf8.count)] + Array(version.utf8)
    return [0x0A, UInt8(header.count)] + header
  }

  static func request(_ url: String) throws -> ResolvedRequest {
    try EnvironmentExpansion.resolve(url: url, headers: [], feed: "", environment: [:])
  }

  // MARK: - Case 2: a memory budget over HTTP

  @Test func aGzipEncodedBombIsRefusedAsItInflates() throws {
    // 96 MiB of empty entities in about 600 kB: under the client's 1 GiB cap, over realtime's 64 MiB.
    let bomb = DeflateBomb.gzip(repeating: [0x12, 0x00], count: 48 << 20)
    #expect(bomb.count < 1 << 20)
    let server = try TestHTTPServer { _, _ in .init(headers: [("Content-Encoding", "gzip")], body: bomb) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { 1_000_000 }
    let error = #expect(throws: FetchError.self) {
      try fetcher.snapshot(try Self.request(server.baseURL + "/tu"), periodSeconds: 30, refresh: false) { _ in FeedMessage() }
    }
    #expect(error?.reason == .tooLarge(limitBytes: 64 << 20))
    #expect(error?.description == "\(server.baseURL)/tu: the body is larger than the 64 MiB allowed")
  }

  @Test func aHugeChunkedBodyIsRefusedAtTheLimitNotAtItsEnd() throws {
    // 1.1 GiB announced by nothing (chunked), never held by the server either.
    let piece = [UInt8](repeating: 0, count: 1 << 20)
    let server = try TestHTTPServer { _, _ in .init(body: piece, chunkSize: 1 << 16, repeats: 1126) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let limits = RealtimeLimits(maxDecompressedBytes: 8 << 20)
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path, limits: limits) {
      1_000_000
    }
    let started = Date()
    let error = #expect(throws: FetchError.self) {
      try fetcher.snapshot(try Self.request(server.baseURL + "/vp"), periodSeconds: 30, refresh: false) { _ in FeedMessage() }
    }
    #expect(error?.reason == .tooLarge(limitBytes: 8 << 20))
    #expect(Date().timeIntervalSince(started) < 10)
  }

  // MARK: - Case 3: only a valid, newer feed replaces the last good snapshot

  @Test(
    arguments: [
      ("an empty body", [UInt8](), "not used: the feed has no header timestamp"),
      ("a header without a timestamp", [0x0A, 0x05, 0x0A, 0x03, 0x32, 0x2E, 0x30], "not used: the feed has no header timestamp"),
      ("no header at all", [0x12, 0x03, 0x0A, 0x01, 0x61], "not used: the feed has no header timestamp"),
      (
        "an older timestamp", RealtimeFetcherTests.feed(600),
        "not used: its header timestamp 1970-01-01T00:10:00Z is older than the cached snapshot's (1970-01-01T00:11:40Z)"
      ),
    ] as [(String, [UInt8], String)])
  func aBadBodyKeepsTheLastGoodSnapshot(_ what: String, body: [UInt8], message: String) throws {
    let server = try TestHTTPServer { _, hit in .init(body: hit == 1 ? Self.feed(700) : body) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let clock = Clock()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try Self.request(server.baseURL + "/tu")
    let decode = { (bytes: [UInt8]) throws -> FeedMessage in try FeedMessage(decoding: bytes) }
    _ = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: decode)
    clock.now += 100
    let second = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: decode)
    #expect(second.origin == .fallback, "\(what)")
    #expect(second.feed.header?.timestamp == 700)
    #expect(second.fetchedAt == 1_000_000)
    #expect(second.failure?.description == "\(server.baseURL)/tu: \(message)")
    // The cache still holds the good one: the next read within the period is it.
    clock.now += 10
    let third = try fetcher.snapshot(request, periodSeconds: 300, refresh: false, decode: decode)
    #expect(third.feed.header?.timestamp == 700)
  }

  @Test func anOlderFeedIsTakenWhenTheFeedRestarted() throws {
    let server = try TestHTTPServer { _, hit in .init(body: hit == 1 ? Self.feed(700, version: "a") : Self.feed(600, version: "b")) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let clock = Clock()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { clock.now }
    let request = try Self.request(server.baseURL + "/tu")
    _ = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: RealtimeFetcherTests.decode)
    clock.now += 100
    let second = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: RealtimeFetcherTests.decode)
    #expect(second.origin == .network)
    #expect(second.feed.header?.timestamp == 600)
  }

  @Test func withNothingCachedAFeedWithoutTimestampIsUsedButNotCached() throws {
    let server = try TestHTTPServer { _, _ in .init(body: [0x12, 0x03, 0x0A, 0x01, 0x61]) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let fetcher = RealtimeFetcher(client: try HTTPClient(options: options()), cacheDirectory: folder.path) { 1_000_000 }
    let request = try Self.request(server.baseURL + "/tu")
    let first = try fetcher.snapshot(request, periodSeconds: 30, refresh: false, decode: RealtimeFetcherTests.decode)
    #expect(first.origin == .network)
    #expect(first.feed.entities.count == 1)
    #expect(fetcher.cachedSize(request.url) == nil)
  }

  // MARK: - Case 6: a total time budget

  @Test func aStalledServerGetsTheBudgetNotThreeFullAttempts() throws {
    let server = try TestHTTPServer { _, _ in .init(body: Self.feed(700), delaySeconds: 30) }
    defer { server.stop() }
    var settings = options(retries: 2, timeout: 60)
    settings.budgetSeconds = 1.5
    settings.sleep = { usleep(UInt32($0 * 1_000_000)) }
    let client = try HTTPClient(options: settings)
    let started = Date()
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/tu", expecting: .protobuf) }
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed >= 1.3 && elapsed < 3, "took \(elapsed) s")
    #expect(error?.reason == .outOfTime(budgetSeconds: 1.5, attempts: 1))
    #expect(
      error?.description == "\(server.baseURL)/tu: no complete answer in 1.5 s in total, 1 attempt (the realtime budget)")
  }

  @Test func aFailingServerIsRetriedWithinTheBudgetAndTheAttemptsCounted() throws {
    let server = try TestHTTPServer { _, _ in .init(status: 503) }
    defer { server.stop() }
    var settings = options(retries: 50, timeout: 60)
    settings.budgetSeconds = 1
    settings.backoffSeconds = 0.2
    settings.sleep = { usleep(UInt32($0 * 1_000_000)) }
    let client = try HTTPClient(options: settings)
    let started = Date()
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/tu", expecting: .protobuf) }
    #expect(Date().timeIntervalSince(started) < 2)
    guard case .outOfTime(1, let attempts)? = error?.reason else {
      Issue.record("expected the budget to run out, got \(String(describing: error))")
      return
    }
    #expect(attempts >= 2 && attempts == server.requests.count)
  }

  // MARK: - Case 4: partial downloads left by a killed process

  @Test func staleDownloadsAreCleanedAtTheStartOfTheNext() throws {
    let zip = try demoZip()
    let server = try TestHTTPServer { _, _ in .init(body: zip) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let deadPID = Self.unusedPID()
    let dead = folder.path + "/feed.zip.\(deadPID).part"  // its process is gone
    let old = folder.path + "/other.zip.part"  // no process id, two hours old
    let live = folder.path + "/other.zip.\(getppid()).part"  // a running process, fresh: kept
    let unrelated = folder.path + "/notes.txt"
    for path in [dead, old, live, unrelated] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 100)))
    }
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: old)
    let client = try HTTPClient(options: options())
    _ = try client.get(server.baseURL + "/feed.zip", expecting: .zip, destination: folder.path + "/feed.zip")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["feed.zip", "notes.txt", "other.zip.\(getppid()).part"])
  }

  /// A process id no process has now.
  static func unusedPID() -> Int32 {
    var pid: Int32 = 4_000_000
    while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
    return pid
  }
}
