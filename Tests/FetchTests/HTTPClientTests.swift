import Fetch
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Records the backoff sleeps instead of sleeping.
final class SleepLog: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Double] = []
  var delays: [Double] { lock.lock(); defer { lock.unlock() }; return storage }
  func record(_ seconds: Double) { lock.lock(); storage.append(seconds); lock.unlock() }
}

func options(retries: Int = 0, timeout: Double = 5, log: SleepLog? = nil, maxBody: Int = 1 << 30) -> FetchOptions {
  var options = FetchOptions()
  options.retries = retries
  options.totalTimeoutSeconds = timeout
  options.connectTimeoutSeconds = min(timeout, 5)
  options.maxBodyBytes = maxBody
  options.userAgent = "transit/test"
  options.random = { 0.5 }
  options.sleep = { seconds in log?.record(seconds) }
  return options
}

func body(_ result: FetchResult, sourceLocation: SourceLocation = #_sourceLocation) -> FetchedBody? {
  guard case .body(let body) = result else {
    Issue.record("expected a body, got not modified", sourceLocation: sourceLocation)
    return nil
  }
  return body
}

@Suite struct HTTPClientTests {
  @Test func getsABodyWithUserAgentAndAcceptEncoding() throws {
    let server = try TestHTTPServer { _, _ in .init(body: Array("hello".utf8)) }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let result = try body(client.get(server.baseURL + "/feed.pb"))
    #expect(result?.bytes == Array("hello".utf8))
    let request = try #require(server.requests.first)
    #expect(request.headers["user-agent"] == "transit/test")
    #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
    #expect(request.headers["accept-encoding"]?.contains("deflate") == true)
  }

  @Test func decodesGzipContentEncoding() throws {
    let payload = Array(repeating: Array("stop_id,stop_name\n".utf8), count: 50).flatMap { $0 }
    let server = try TestHTTPServer { _, _ in .init(headers: [("Content-Encoding", "gzip")], body: FeedGzip.wrap(payload)) }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    #expect(try body(client.get(server.baseURL + "/x"))?.bytes == payload)
  }

  @Test func conditionalGetSendsValidatorsAndHandles304() throws {
    let etag = "\"v1\"", modified = "Sun, 29 Nov 2026 04:00:00 GMT"
    let server = try TestHTTPServer { request, _ in
      if request.headers["if-none-match"] == etag { return .init(status: 304, headers: [("ETag", etag)]) }
      return .init(headers: [("ETag", etag), ("Last-Modified", modified)], body: [1, 2, 3])
    }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let first = try body(client.get(server.baseURL + "/gtfs.zip"))
    #expect(first?.validators == Validators(etag: etag, lastModified: modified))
    let second = try client.get(server.baseURL + "/gtfs.zip", validators: first?.validators)
    guard case .notModified = second else {
      Issue.record("expected 304 to be not modified")
      return
    }
    #expect(server.requests.last?.headers["if-modified-since"] == modified)
  }

  @Test func validatorsAreRememberedPerURL() throws {
    let folder = TemporaryFolder()
    let store = ValidatorStore(cacheDirectory: folder.path)
    try store.remember(Validators(etag: "\"a\""), for: "https://example.org/a?key=SECRET1234")
    try store.remember(Validators(lastModified: "yesterday"), for: "https://example.org/b")
    #expect(store.validators(for: "https://example.org/a?key=SECRET1234") == Validators(etag: "\"a\""))
    #expect(store.validators(for: "https://example.org/b") == Validators(lastModified: "yesterday"))
    #expect(store.validators(for: "https://example.org/c") == nil)
    let text = String(decoding: FileManager.default.contents(atPath: store.path)!, as: UTF8.self)
    #expect(!text.contains("SECRET1234"))
  }

  @Test func followsRedirectsButNotForever() throws {
    let server = try TestHTTPServer { request, _ in
      switch request.path {
      case "/old": return .redirect("/new")
      case "/new": return .init(body: [42])
      default: return .redirect("/loop")
      }
    }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let moved = try body(client.get(server.baseURL + "/old"))
    #expect(moved?.bytes == [42])
    #expect(moved?.effectiveURL == server.baseURL + "/new")
    #expect(moved?.httpVersion == 11)
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/loop") }
    #expect(error?.reason == .tooManyRedirects(5))
    #expect(error?.description == "\(server.baseURL)/loop: more than 5 redirects")
  }

  @Test func keysGoOnlyToTheURLsOwnOrigin() throws {
    let other = try TestHTTPServer { _, _ in .init(body: [2]) }
    defer { other.stop() }
    let server = try TestHTTPServer { request, _ in
      switch request.path {
      case "/away": return .redirect(other.baseURL + "/cdn", status: 307)
      case "/here": return .redirect("/final", status: 301)
      default: return .init(body: [1])
      }
    }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let headers = [("x-api-key", "key-abc-123")]
    #expect(try body(client.get(server.baseURL + "/here", headers: headers))?.bytes == [1])
    #expect(server.requests.allSatisfy { $0.headers["x-api-key"] == "key-abc-123" })
    #expect(try body(client.get(server.baseURL + "/away", headers: headers))?.bytes == [2])
    #expect(other.requests.count == 1)
    #expect(other.requests.first?.headers["x-api-key"] == nil)
    #expect(other.requests.first?.headers["user-agent"] == "transit/test")
  }

  @Test(arguments: [
    (404, "http 404 not found"), (429, "http 429 too many requests (rate limited; poll less often)"),
    (500, "http 500 internal server error"),
  ])
  func httpErrorsAreOneLine(status: Int, message: String) throws {
    let server = try TestHTTPServer { _, _ in .init(status: status, body: Array("nope".utf8)) }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/feed.pb") }
    #expect(error?.description == "\(server.baseURL)/feed.pb: \(message)")
  }

  @Test func retries5xxWithBackoffThenSucceeds() throws {
    let server = try TestHTTPServer { _, hit in hit < 3 ? .init(status: 503) : .init(body: [7]) }
    defer { server.stop() }
    let log = SleepLog()
    let client = try HTTPClient(options: options(retries: 3, log: log))
    #expect(try body(client.get(server.baseURL + "/rt"))?.bytes == [7])
    #expect(server.requests.count == 3)
    // 0.5 s, then 1 s, each with the (fixed) jitter of 25 %.
    #expect(log.delays == [0.625, 1.25])
  }

  @Test func retriesAreBoundedAndClientErrorsAreNotRetried() throws {
    let server = try TestHTTPServer { request, _ in .init(status: request.path == "/500" ? 500 : 404) }
    defer { server.stop() }
    let log = SleepLog()
    let client = try HTTPClient(options: options(retries: 2, log: log))
    #expect(throws: FetchError.self) { try client.get(server.baseURL + "/500") }
    #expect(server.requests.count == 3)
    #expect(log.delays.count == 2)
    #expect(throws: FetchError.self) { try client.get(server.baseURL + "/404") }
    #expect(server.requests.count == 4)
  }

  @Test func slowBodyTimesOutAndIsRetried() throws {
    let server = try TestHTTPServer { _, _ in .init(body: Array(repeating: 1, count: 100), delaySeconds: 1.5) }
    defer { server.stop() }
    let log = SleepLog()
    let client = try HTTPClient(options: options(retries: 1, timeout: 0.4, log: log))
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/slow") }
    #expect(error?.reason == .timeout(seconds: 0.4))
    #expect(error?.description == "\(server.baseURL)/slow: timed out after 0.4 s")
    #expect(log.delays.count == 1)
  }

  @Test func truncatedBodyIsAnError() throws {
    let server = try TestHTTPServer { _, _ in .init(body: Array(repeating: 9, count: 1000), truncateAfter: 300) }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/cut") }
    #expect(error?.reason == .truncatedBody)
    #expect(error?.description == "\(server.baseURL)/cut: the body ended early (truncated transfer)")
  }

  @Test func htmlWhereAFeedWasExpected() throws {
    let server = try TestHTTPServer { request, _ in
      request.path == "/untyped" ? .init(body: Array("\n<!doctype html><p>login".utf8)) : .html()
    }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let zip = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/gtfs.zip", expecting: .zip) }
    #expect(zip?.description == "\(server.baseURL)/gtfs.zip: got an html page where a zip was expected")
    let pb = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/untyped", expecting: .protobuf) }
    #expect(pb?.reason == .htmlInsteadOf("a protobuf feed"))
    // Without an expectation HTML is just data.
    #expect(try body(client.get(server.baseURL + "/page"))?.bytes.isEmpty == false)
  }

  @Test func bodySizeIsCapped() throws {
    let server = try TestHTTPServer { _, _ in .init(body: Array(repeating: 1, count: 5000)) }
    defer { server.stop() }
    let client = try HTTPClient(options: options(maxBody: 1024))
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/declared") }
    #expect(error?.reason == .tooLarge(limitBytes: 1024))
    #expect(error?.description == "\(server.baseURL)/declared: the body is larger than the 1024 bytes allowed")
  }

  @Test func bodySizeIsCappedWhenItsLengthIsNotDeclared() throws {
    // Chunked: no Content-Length to refuse up front, so the cap stops the download midway.
    let server = try TestHTTPServer { request, _ in
      .init(body: Array(repeating: 1, count: request.path == "/small" ? 1000 : 50_000), chunkSize: 700)
    }
    defer { server.stop() }
    let client = try HTTPClient(options: options(maxBody: 1024))
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/chunked") }
    #expect(error?.reason == .tooLarge(limitBytes: 1024))
    // A chunked body within the cap arrives whole.
    #expect(try body(client.get(server.baseURL + "/small"))?.bytes == Array(repeating: 1, count: 1000))
  }

  @Test func testServerStopsByItself() throws {
    let server = try TestHTTPServer(lifetimeSeconds: 0.2) { _, _ in .init(body: [1]) }
    usleep(600_000)
    let client = try HTTPClient(options: options())
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/late") }
    #expect(error?.reason == .connectionRefused)
    server.stop()
  }

  @Test func connectionRefused() throws {
    // Bind a port without listening: connecting to it is refused, and nothing leaves 127.0.0.1.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    let port = UInt16(bigEndian: address.sin_port)
    let client = try HTTPClient(options: options(retries: 2))
    let error = #expect(throws: FetchError.self) { try client.get("http://127.0.0.1:\(port)/feed.pb") }
    #expect(error?.description == "http://127.0.0.1:\(port)/feed.pb: connection refused")
  }

  @Test func dnsFailureNamesTheHost() throws {
    let host = "transit-test.invalid"
    var info: UnsafeMutablePointer<addrinfo>?
    if getaddrinfo(host, nil, nil, &info) == 0 {
      freeaddrinfo(info)
      return  // a resolver that answers for .invalid: nothing to test here
    }
    let client = try HTTPClient(options: options())
    let error = #expect(throws: FetchError.self) { try client.get("http://\(host)/feed.pb") }
    #expect(error?.description == "http://\(host)/feed.pb: cannot resolve host '\(host)' (dns lookup failed)")
  }

  @Test func secretsInTheURLAreRedactedInErrors() throws {
    let server = try TestHTTPServer { _, _ in .init(status: 404) }
    defer { server.stop() }
    let client = try HTTPClient(options: options())
    let redactor = Redactor(secrets: ["hunter2-secret"])
    let error = #expect(throws: FetchError.self) {
      try client.get(server.baseURL + "/feed?api_key=abcd1234&route=27&x=hunter2-secret", redactor: redactor)
    }
    #expect(error?.description == "\(server.baseURL)/feed?api_key=<redacted>&route=27&x=<redacted>: http 404 not found")
  }

  @Test func fileURLsAndPlainPaths() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/feed.pb"
    #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
    let client = try HTTPClient(options: options())
    #expect(try body(client.get("file://" + path))?.bytes == [1, 2, 3])
    #expect(try body(client.get(path))?.bytes == [1, 2, 3])
    let missing = #expect(throws: FetchError.self) { try client.get(folder.path + "/none.pb") }
    #expect(missing?.description == "\(folder.path)/none.pb: no such file")
    #expect(throws: FetchError.self) { try client.get("ftp://example.org/feed.pb") }
  }

  @Test func downloadsToAFileWithMode0600AndLeavesNothingOnFailure() throws {
    let zip = try demoZip()
    let server = try TestHTTPServer { request, _ in request.path == "/ok.zip" ? .init(body: zip) : .init(status: 500) }
    defer { server.stop() }
    let folder = TemporaryFolder()
    let client = try HTTPClient(options: options())
    let destination = folder.path + "/download.zip"
    let result = try body(client.get(server.baseURL + "/ok.zip", expecting: .zip, destination: destination))
    #expect(result?.byteCount == zip.count)
    #expect(FileManager.default.contents(atPath: destination).map { [UInt8]($0) } == zip)
    let mode = try FileManager.default.attributesOfItem(atPath: destination)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let other = folder.path + "/failed.zip"
    #expect(throws: FetchError.self) { try client.get(server.baseURL + "/bad.zip", expecting: .zip, destination: other) }
    #expect(!FileManager.default.fileExists(atPath: other))
    #expect(!FileManager.default.fileExists(atPath: other + ".part"))
    // No partial file of any name is left behind (they are NAME.PID.part).
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") } == [])
  }
}
