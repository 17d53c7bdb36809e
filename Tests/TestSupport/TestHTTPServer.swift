import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the fetch tests: plain sockets, one thread, an
/// ephemeral port, one request per connection. It answers through a handler, so a test can
/// send ETag/Last-Modified/304, gzip bodies, slow or truncated bodies, redirects, errors and
/// HTML pages on demand.
///
/// Bounded: it serves at most `maxRequests`, and stops by itself after `lifetimeSeconds` (or
/// when released or `stop()` is called).
package final class TestHTTPServer: @unchecked Sendable {
  /// One request as received.
  package struct Request: Sendable {
    package var method: String
    /// The path with its query.
    package var path: String
    /// Header names lower-cased.
    package var headers: [String: String]
  }

  /// What to answer.
  package struct Response: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]
    /// Wait this long after the headers, before the body.
    package var delaySeconds: Double
    /// Send only this many body bytes (Content-Length still says all), then close.
    package var truncateAfter: Int?
    /// Send the body with `Transfer-Encoding: chunked` in pieces of this many bytes, so its
    /// length is not declared up front.
    package var chunkSize: Int?
    /// With `chunkSize`: send the body this many times over (a body of gigabytes without
    /// holding it), stopping early when the client hangs up.
    package var repeats: Int

    package init(
      status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], delaySeconds: Double = 0,
      truncateAfter: Int? = nil, chunkSize: Int? = nil, repeats: Int = 1
    ) {
      self.chunkSize = chunkSize
      self.repeats = repeats
      self.status = status
      self.headers = headers
      self.body = body
      self.delaySeconds = delaySeconds
      self.truncateAfter = truncateAfter
    }

    /// An HTML error page, as a misconfigured portal sends.
    package static func html(status: Int = 200) -> Response {
      Response(
        status: status, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Array("<!DOCTYPE html><html><head><title>Sign in</title></head><body>Please sign in</body></html>".utf8))
    }

    /// A redirect to `location`.
    package static func redirect(_ location: String, status: Int = 302) -> Response {
      Response(status: status, headers: [("Location", location)])
    }
  }

  /// The handler: the request, and how many times its path (without query) has been asked for,
  /// counting this one.
  package typealias Handler = @Sendable (Request, Int) -> Response

  package let port: UInt16
  private let listener: Int32
  private let handler: Handler
  private let lock = NSLock()
  private var received: [Request] = []
  private var isStopped = false
  private let done = DispatchSemaphore(value: 0)

  /// `http://127.0.0.1:PORT`.
  package var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Starts listening on 127.0.0.1 at an ephemeral port.
  package init(lifetimeSeconds: Double = 60, maxRequests: Int = 200, handler: @escaping Handler) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerError("socket: \(errno)") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw ServerError("bind/listen: \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    listener = fd
    self.handler = handler
    let deadline = Date().addingTimeInterval(lifetimeSeconds)
    let thread = Thread { [self] in
      serve(until: deadline, maxRequests: maxRequests)
      done.signal()
    }
    thread.start()
  }

  deinit { stop() }

  /// Every request received so far.
  package var requests: [Request] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  /// Stops accepting and waits for the thread to finish.
  package func stop() {
    lock.lock()
    let wasStopped = isStopped
    isStopped = true
    lock.unlock()
    guard !wasStopped else { return }
    done.wait()
  }

  private var stopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return isStopped
  }

  // MARK: - Serving

  private func serve(until deadline: Date, maxRequests: Int) {
    var served = 0
    while !stopped && Date() < deadline && served < maxRequests {
      var pollFD = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&pollFD, 1, 50) > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      served += 1
      handle(connection)
      close(connection)
    }
    close(listener)  // from now on, connecting is refused
    lock.lock()
    isStopped = true
    lock.unlock()
  }

  private func handle(_ connection: Int32) {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while data.count < 65_536 {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return }
      data += buffer[0..<count]
      if data.count >= 4, data.suffix(4) == [13, 10, 13, 10] { break }
      if let _ = String(decoding: data, as: UTF8.self).range(of: "\r\n\r\n") { break }
    }
    let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2 else { return }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let request = Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
    let pathOnly = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    lock.lock()
    received.append(request)
    let hits = received.filter {
      $0.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) == pathOnly
    }.count
    lock.unlock()
    let response = handler(request, hits)
    let reasons = [
      200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 404: "Not Found", 429: "Too Many Requests",
      500: "Internal Server Error", 503: "Service Unavailable",
    ]
    var head = "HTTP/1.1 \(response.status) \(reasons[response.status] ?? "Status")\r\n"
    var names = Set<String>()
    for (name, value) in response.headers {
      head += "\(name): \(value)\r\n"
      names.insert(name.lowercased())
    }
    if response.chunkSize != nil {
      head += "Transfer-Encoding: chunked\r\n"
    } else if !names.contains("content-length") && response.status != 304 {
      head += "Content-Length: \(response.body.count)\r\n"
    }
    head += "Connection: close\r\n\r\n"
    guard send(connection, Array(head.utf8)) else { return }
    if response.delaySeconds > 0 {
      let end = Date().addingTimeInterval(response.delaySeconds)
      while Date() < end && !stopped { usleep(20_000) }
    }
    if request.method == "HEAD" || response.status == 304 { return }
    let body = response.truncateAfter.map { Array(response.body.prefix($0)) } ?? response.body
    guard let size = response.chunkSize, size > 0 else {
      _ = send(connection, body)
      return
    }
    for _ in 0..<max(1, response.repeats) {
      var start = 0
      while start < body.count {
        let piece = Array(body[start..<min(body.count, start + size)])
        guard send(connection, Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8)) else { return }
        start += size
      }
    }
    _ = send(connection, Array("0\r\n\r\n".utf8))
  }

  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }
}

/// The test server could not start.
package struct ServerError: Error, CustomStringConvertible {
  package var description: String
  init(_ description: String) { self.description = description }
}
