import CCurl
import FoundationEssentials
import Glibc
import HostSystem
import TransitModel

/// What a fetch should bring back, so an HTML error page is caught at the door.
public enum ExpectedContent: Sendable {
  /// A GTFS ZIP.
  case zip
  /// A GTFS-Realtime protobuf.
  case protobuf
  /// Anything.
  case any

  var description: String {
    switch self {
    case .zip: return "a zip"
    case .protobuf: return "a protobuf feed"
    case .any: return "data"
    }
  }
}

/// Cache validators from an earlier answer (RFC 9110 section 8.8).
public struct Validators: Codable, Equatable, Sendable {
  /// The `ETag` header, sent back as `If-None-Match`.
  public var etag: String?
  /// The `Last-Modified` header, sent back as `If-Modified-Since`.
  public var lastModified: String?

  /// Validators from a response's headers.
  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }

  /// Whether there is anything to send.
  public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// The outcome of a fetch: a body (in memory or written to the destination file), or "not
/// modified" after a conditional request.
public enum FetchResult: Sendable {
  case body(FetchedBody)
  case notModified
}

/// A successful answer.
public struct FetchedBody: Sendable {
  /// The body, unless it was written to a file.
  public var bytes: [UInt8]
  /// The number of bytes received (after content decoding).
  public var byteCount: Int
  /// The validators the server sent, for the next conditional request.
  public var validators: Validators
  /// The `Content-Type` header.
  public var contentType: String?
  /// The HTTP version used: 20 for HTTP/2, 11 for HTTP/1.1, 10 for HTTP/1.0, 0 for a local file.
  public var httpVersion: Int
  /// The final URL after redirects (redacted).
  public var effectiveURL: String
}

/// Tuning for `HTTPClient`; the defaults suit a command line run by hand or by cron.
public struct FetchOptions: Sendable {
  /// The longest wait for a connection.
  public var connectTimeoutSeconds: Double = 10
  /// The longest a whole attempt may take, redirects included.
  public var totalTimeoutSeconds: Double = 60
  /// Redirects followed before giving up.
  public var maxRedirects = 5
  /// The largest body accepted (GTFS ZIPs of big cities run to a few hundred MB).
  public var maxBodyBytes = 1 << 30
  /// Further attempts after a timeout or a 5xx.
  public var retries = 2
  /// The first backoff; each retry doubles it, plus up to 50 % jitter.
  public var backoffSeconds: Double = 0.5
  /// Sleeps between attempts; tests pass one that records and returns at once.
  public var sleep: @Sendable (Double) -> Void = { seconds in usleep(UInt32(max(0, seconds) * 1_000_000)) }
  /// Seconds on a clock that never jumps, for timeouts and the budget; injectable for tests.
  public var elapsed: @Sendable () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }
  /// Jitter in 0..<1; injectable for tests.
  public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
  /// `transit/VERSION`.
  public var userAgent = "transit"
  /// A PEM file of certificate authorities to trust instead of the system's (a private CA, a
  /// company proxy); nil uses libcurl's default bundle.
  public var caBundlePath: String?
  /// A total time for everything this client fetches, counted from its creation: attempts,
  /// retries and backoff together. Interactive commands set it (a stalled server must not hold
  /// the rider for minutes); nil: each request gets its attempts in full.
  public var budgetSeconds: Double?
  /// The longest one fetch may take in all, its retries and backoff included (the
  /// `fetch-deadline` setting): a stalled server costs this, not attempts × the timeout.
  public var deadlineSeconds: Double = 60

  /// The defaults.
  public init() {}
}

/// GET over libcurl, with redirects, gzip, conditional requests, retries and a size cap;
/// `file://` URLs and plain paths are read from disk.
///
/// One easy handle per client, owned here and cleaned up in `deinit`; not Sendable.
public final class HTTPClient {
  /// The timeouts, limits and retry policy.
  public let options: FetchOptions
  private let handle: UnsafeMutableRawPointer
  /// When `options.budgetSeconds` runs out.
  private let deadline: Double?

  /// - Throws: `FetchError` if libcurl cannot be loaded or cannot make a handle.
  public init(options: FetchOptions = FetchOptions()) throws(FetchError) {
    try CurlLibrary.load()
    guard let handle = curl_easy_init() else { throw FetchError(url: "", .transfer("libcurl could not start")) }
    self.handle = handle
    self.options = options
    deadline = options.budgetSeconds.map { options.elapsed() + max(0, $0) }
  }

  deinit { curl_easy_cleanup(handle) }

  /// Fetches `url`, retrying timeouts and 5xx with exponential backoff and jitter.
  ///
  /// - Parameters:
  ///   - headers: extra request headers (values may be secrets; they are never printed).
  ///   - validators: sent as If-None-Match / If-Modified-Since; a 304 returns `.notModified`.
  ///   - destination: write the body to this file (created 0600, replaced whole) instead of memory.
  ///   - redactor: masks secrets in the URL when it appears in an error.
  ///   - progress: called as the body arrives with the bytes received so far and the body's
  ///     length when the server declares it (and does not compress it).
  ///   - maxBodyBytes: a lower size cap for this request (after content decoding), e.g.
  ///     realtime's; nil: `options.maxBodyBytes`.
  /// - Throws: `FetchError`; `.outOfTime` when `options.budgetSeconds` ran out.
  public func get(
    _ url: String, headers: [(String, String)] = [], validators: Validators? = nil, expecting: ExpectedContent = .any,
    destination: String? = nil, redactor: Redactor = Redactor(), progress: ((_ received: Int, _ total: Int?) -> Void)? = nil,
    maxBodyBytes: Int? = nil
  ) throws(FetchError) -> FetchResult {
    let shown = redactor.redact(url: url)
    let limit = min(maxBodyBytes ?? options.maxBodyBytes, options.maxBodyBytes)
    if let path = Self.localPath(url) {
      return try readFile(path, shown: shown, expecting: expecting, destination: destination, limit: limit)
    }
    let lowered = url.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { throw FetchError(url: shown, .unsupportedURL) }
    if let destination { PartialDownloads.clean(besides: destination) }
    // The sooner of the client's budget and this fetch's own deadline; `outOfTime` says which.
    let ownDeadline = options.elapsed() + max(0, options.deadlineSeconds)
    let isBudget = deadline.map { $0 <= ownDeadline } ?? false
    let deadline = min(self.deadline ?? .infinity, ownDeadline)
    func outOfTime(_ attempts: Int) -> FetchError {
      isBudget
        ? self.outOfTime(shown, attempts: attempts)
        : FetchError(url: shown, .deadline(seconds: options.deadlineSeconds, attempts: attempts))
    }
    var attempt = 0
    while true {
      let left = deadline - options.elapsed()
      if left <= 0 { throw outOfTime(attempt) }
      do {
        return try once(
          url, shown: shown, headers: headers, validators: validators, expecting: expecting, destination: destination,
          progress: progress, limit: limit, timeoutSeconds: min(options.totalTimeoutSeconds, left))
      } catch {
        if deadline - options.elapsed() <= 0.05, error.reason.isTimeout { throw outOfTime(attempt + 1) }
        guard error.isTransient, attempt < options.retries else { throw error }
        var delay = options.backoffSeconds * Double(1 << attempt) * (1 + 0.5 * options.random())
        do {
          let left = deadline - options.elapsed()
          guard left > 0.05 else { throw outOfTime(attempt + 1) }
          delay = min(delay, left / 2)
        }
        options.sleep(delay)
        attempt += 1
      }
    }
  }

  private func outOfTime(_ shown: String, attempts: Int) -> FetchError {
    FetchError(url: shown, .outOfTime(budgetSeconds: options.budgetSeconds ?? 0, attempts: attempts))
  }

  /// The path a `file://` URL or a plain path names; nil for other URLs.
  public static func localPath(_ url: String) -> String? {
    if url.lowercased().hasPrefix("file://") {
      let rest = url.dropFirst(7)
      let path = rest.hasPrefix("/") ? String(rest) : String(rest.drop { $0 != "/" })  // file://host/path
      return PercentEncoding.decode(path) ?? path
    }
    return url.contains("://") ? nil : url
  }

  // MARK: - One attempt

  /// One attempt, following redirects itself: libcurl would forward our custom headers (API
  /// keys) to whatever host a redirect names, so headers go only to the URL's own origin.
  private func once(
    _ url: String, shown: String, headers: [(String, String)], validators: Validators?, expecting: ExpectedContent,
    destination: String?, progress: ((Int, Int?) -> Void)?, limit: Int, timeoutSeconds: Double
  ) throws(FetchError) -> FetchResult {
    let start = options.elapsed()
    var current = url
    var hops = 0
    var isMovedIntoPlace = false
    let partial = destination.map(PartialDownloads.partialPath)
    defer { if let partial, !isMovedIntoPlace { unlink(partial) } }
    while true {
      let remaining = timeoutSeconds - (options.elapsed() - start)
      guard remaining > 0 else { throw FetchError(url: shown, .timeout(seconds: options.totalTimeoutSeconds)) }
      let sameOrigin = Self.origin(of: current) == Self.origin(of: url)
      let sink = try transfer(
        current, shown: shown, headers: sameOrigin ? headers : [], validators: validators, partial: partial,
        timeoutSeconds: remaining, progress: progress, limit: limit)
      defer { if sink.fd >= 0 { close(sink.fd) } }
      if [301, 302, 303, 307, 308].contains(sink.status), let location = sink.redirectURL {
        guard hops < options.maxRedirects else { throw FetchError(url: shown, .tooManyRedirects(options.maxRedirects)) }
        let lowered = location.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
          throw FetchError(url: shown, .transfer("redirected to a url that is not http or https"))
        }
        hops += 1
        current = location
        continue
      }
      if sink.status == 304 { return .notModified }
      guard (200..<300).contains(sink.status) else { throw FetchError(url: shown, .httpStatus(sink.status)) }
      if sink.fd >= 0 {
        let failed = fsync(sink.fd) != 0
        let failure = errno
        close(sink.fd)
        sink.fd = -1
        if failed { throw FetchError(url: shown, .file("cannot write \(destination ?? ""): " + Self.writeFailure(failure))) }
      }
      let head = headBytes(sink, partial: partial)
      if Self.looksLikeHTML(head, contentType: sink.contentType, expecting: expecting) {
        throw FetchError(url: shown, .htmlInsteadOf(expecting.description))
      }
      if let destination, let partial {
        guard rename(partial, destination) == 0 else {
          throw FetchError(url: shown, .file("cannot move the download to \(destination)"))
        }
        isMovedIntoPlace = true
      }
      return .body(
        FetchedBody(
          bytes: sink.bytes, byteCount: sink.count,
          validators: Validators(etag: sink.etag, lastModified: sink.lastModified), contentType: sink.contentType,
          httpVersion: sink.httpVersion, effectiveURL: Redactor().redact(url: current)))
    }
  }

  /// One request and response, no redirects followed; the body goes to memory or to the
  /// `partial` file (truncated first, mode 0600).
  private func transfer(
    _ url: String, shown: String, headers: [(String, String)], validators: Validators?, partial: String?,
    timeoutSeconds: Double, progress: ((Int, Int?) -> Void)?, limit: Int
  ) throws(FetchError) -> BodySink {
    curl_easy_reset(handle)
    let sink = BodySink(limit: limit)
    sink.progress = progress
    if let partial {
      let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw FetchError(url: shown, .file("cannot write \(partial): \(String(cString: strerror(errno)))")) }
      sink.fd = fd
    }
    var list: UnsafeMutablePointer<curl_slist>? = nil
    var requestHeaders = headers.map { "\($0.0): \($0.1)" }
    if let etag = validators?.etag { requestHeaders.append("If-None-Match: \(etag)") }
    if let modified = validators?.lastModified { requestHeaders.append("If-Modified-Since: \(modified)") }
    for header in requestHeaders { list = curl_slist_append(list, header) }
    defer { curl_slist_free_all(list) }

    let box = Unmanaged.passRetained(sink)
    defer { box.release() }
    let context = box.toOpaque()
    set(CURLOPT_URL, url)
    set(CURLOPT_USERAGENT, options.userAgent)
    set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes: gzip, deflate (and br, zstd if built in)
    set(CURLOPT_PROTOCOLS_STR, "http,https")
    set(CURLOPT_FOLLOWLOCATION, 0)  // followed in `once`, so keys stay with their origin
    set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
    set(CURLOPT_SSL_VERIFYPEER, 1)
    set(CURLOPT_SSL_VERIFYHOST, 2)
    if let bundle = options.caBundlePath { set(CURLOPT_CAINFO, bundle) }
    set(CURLOPT_NOSIGNAL, 1)
    set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(options.connectTimeoutSeconds, timeoutSeconds) * 1000)))
    set(CURLOPT_TIMEOUT_MS, max(1, Int(timeoutSeconds * 1000)))
    set(CURLOPT_MAXFILESIZE_LARGE, limit)
    check(transit_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
    check(transit_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, bodyCallback))
    check(transit_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
    check(transit_curl_setopt_header(handle, CURLOPT_HEADERFUNCTION, headerCallback))
    check(transit_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))

    let code = curl_easy_perform(handle)
    if code != CURLE_OK {
      if sink.fd >= 0 {
        close(sink.fd)
        sink.fd = -1
      }
      throw FetchError(url: shown, reason(for: code, url: url, sink: sink))
    }
    var value = 0
    if transit_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &value) == CURLE_OK { sink.status = value }
    var version = 0
    if transit_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version) == CURLE_OK {
      sink.httpVersion = version == CURL_HTTP_VERSION_2_0 ? 20 : version == CURL_HTTP_VERSION_1_0 ? 10 : 11
    }
    var redirect: UnsafeMutablePointer<CChar>? = nil
    if transit_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK, let redirect {
      sink.redirectURL = String(cString: redirect)
    }
    return sink
  }

  /// `scheme://host:port`, lower-cased, with the default port filled in.
  static func origin(of url: String) -> String {
    let lowered = url.lowercased()
    guard let scheme = lowered.firstRange(of: "://") else { return lowered }
    let name = String(lowered[..<scheme.lowerBound])
    var authority = lowered[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    let hasPort = authority.hasPrefix("[") ? authority.contains("]:") : authority.contains(":")
    let port = hasPort ? "" : (name == "https" ? ":443" : ":80")
    return "\(name)://\(authority)\(port)"
  }

  private func reason(for code: CURLcode, url: String, sink: BodySink) -> FetchError.Reason {
    switch code {
    case CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound(Self.host(of: url))
    case CURLE_COULDNT_CONNECT: return .connectionRefused
    case CURLE_OPERATION_TIMEDOUT: return .timeout(seconds: options.totalTimeoutSeconds)
    case CURLE_PARTIAL_FILE: return .truncatedBody
    case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(options.maxRedirects)
    case CURLE_FILESIZE_EXCEEDED: return .tooLarge(limitBytes: sink.limit)
    case CURLE_WRITE_ERROR where sink.isOverLimit: return .tooLarge(limitBytes: sink.limit)
    case CURLE_WRITE_ERROR where sink.writeErrno != 0: return .file(Self.writeFailure(sink.writeErrno))
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE:
      return .tls(String(cString: curl_easy_strerror(code)))
    case CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
      return sink.count > 0 ? .truncatedBody : .transfer(String(cString: curl_easy_strerror(code)))
    default: return .transfer(String(cString: curl_easy_strerror(code)))
    }
  }

  /// Why a write failed, as the user needs it: "the disk is full" for ENOSPC (and EDQUOT).
  static func writeFailure(_ code: Int32) -> String {
    code == ENOSPC || code == EDQUOT
      ? "the disk is full (no space left on device); free some space and try again"
      : "cannot write the download: " + String(cString: strerror(code)).lowercased()
  }

  private func headBytes(_ sink: BodySink, partial: String?) -> [UInt8] {
    guard let partial else { return Array(sink.bytes.prefix(512)) }
    return FileReader.bytes(partial, limit: 512) ?? []
  }

  // MARK: - Local files

  private func readFile(
    _ path: String, shown: String, expecting: ExpectedContent, destination: String?, limit: Int
  )
    throws(FetchError) -> FetchResult
  {
    let isDirectory = FileInfo.isDirectory(path)
    guard isDirectory == false else {
      throw FetchError(url: shown, .file(isDirectory == true ? "is a folder, not a file" : "no such file"))
    }
    let size = Int(FileInfo.size(path) ?? 0)
    guard size <= limit else { throw FetchError(url: shown, .tooLarge(limitBytes: limit)) }
    if let destination {
      try? FileManager.default.removeItem(atPath: destination)
      do { try FileManager.default.copyItem(atPath: path, toPath: destination) } catch {
        throw FetchError(url: shown, .file("cannot copy to \(destination)"))
      }
      return .body(FetchedBody(bytes: [], byteCount: size, validators: Validators(), contentType: nil, httpVersion: 0, effectiveURL: shown))
    }
    guard let bytes = FileReader.bytes(path, limit: limit < .max ? limit + 1 : limit, expected: size) else {
      throw FetchError(url: shown, .file("cannot be read"))
    }
    // A file that grew past the limit since its size was read.
    guard bytes.count <= limit else { throw FetchError(url: shown, .tooLarge(limitBytes: limit)) }
    if Self.looksLikeHTML(Array(bytes.prefix(512)), contentType: nil, expecting: expecting) {
      throw FetchError(url: shown, .htmlInsteadOf(expecting.description))
    }
    return .body(
      FetchedBody(bytes: bytes, byteCount: bytes.count, validators: Validators(), contentType: nil, httpVersion: 0, effectiveURL: shown))
  }

  // MARK: - Helpers

  /// Whether `head`, the first bytes of what should be a feed, begin an HTML page.
  public static func looksLikeHTML(_ head: [UInt8]) -> Bool {
    looksLikeHTML(head, contentType: nil, expecting: .protobuf)
  }

  /// Whether a body that should be a feed is an HTML page (by its type or its first bytes).
  static func looksLikeHTML(_ head: [UInt8], contentType: String?, expecting: ExpectedContent) -> Bool {
    guard expecting != .any else { return false }
    if expecting == .zip && head.starts(with: [0x50, 0x4B]) { return false }
    if let type = contentType?.lowercased(), type.contains("text/html") || type.contains("application/xhtml") { return true }
    let text = String(
      decoding: head.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }, as: UTF8.self
    )
    .lowercased()
    return text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head") || text.hasPrefix("<body")
  }

  static func host(of url: String) -> String {
    guard let scheme = url.firstRange(of: "://") else { return url }
    let rest = url[scheme.upperBound...]
    var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    if authority.hasPrefix("[") { return String(authority.prefix { $0 != "]" }) + "]" }
    return String(authority.prefix { $0 != ":" })
  }

  private func set(_ option: CURLoption, _ value: String) {
    check(transit_curl_setopt_string(handle, option, value))
  }

  private func set(_ option: CURLoption, _ value: Int) {
    check(transit_curl_setopt_long(handle, option, value))
  }

  /// A setopt can only fail for an unknown option or out of memory: a bug or a dying process.
  private func check(_ code: CURLcode) {
    precondition(code == CURLE_OK, "curl_easy_setopt failed: \(String(cString: curl_easy_strerror(code)))")
  }
}

@available(*, unavailable)
extension HTTPClient: Sendable {}

/// Where the body and headers of one transfer go; reached from the C callbacks.
final class BodySink {
  let limit: Int
  var bytes: [UInt8] = []
  var count = 0
  var fd: Int32 = -1
  var isOverLimit = false
  /// The errno of a failed write to the file (ENOSPC: the disk is full), else 0.
  var writeErrno: Int32 = 0
  var status = 0
  var httpVersion = 11
  var redirectURL: String?
  var etag: String?
  var lastModified: String?
  var contentType: String?
  /// `Content-Length`, unless a `Content-Encoding` makes it the compressed size.
  var declaredLength: Int?
  var isEncoded = false
  /// Told the bytes received so far and the declared length, as the body arrives.
  var progress: ((Int, Int?) -> Void)?

  init(limit: Int) { self.limit = limit }

  func append(_ data: UnsafeRawBufferPointer) -> Bool {
    count += data.count
    if count > limit {
      isOverLimit = true
      return false
    }
    progress?(count, isEncoded ? nil : declaredLength)
    if fd >= 0 {
      var offset = 0
      while offset < data.count {
        let written = write(fd, data.baseAddress! + offset, data.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          writeErrno = errno
          return false
        }
        offset += written
      }
      return true
    }
    if bytes.isEmpty {
      // Room for the whole allowed body up front (only written pages count against memory):
      // growing by doubling would briefly hold one and a half times the body.
      bytes.reserveCapacity(min(limit, 256 << 20))
    }
    bytes.append(contentsOf: data)
    return true
  }

  func header(_ line: String) {
    let trimmed = line.trimmingSpacesAndNewlines()
    if trimmed.hasPrefix("HTTP/") {  // a new response (after a redirect): forget the last one's headers
      etag = nil
      lastModified = nil
      contentType = nil
      declaredLength = nil
      isEncoded = false
      return
    }
    guard let colon = trimmed.firstIndex(of: ":") else { return }
    let name = trimmed[..<colon].lowercased()
    let value = trimmed[trimmed.index(after: colon)...].trimmingSpaces()
    switch name {
    case "etag": etag = value
    case "last-modified": lastModified = value
    case "content-type": contentType = value
    case "content-length": declaredLength = Int(value)
    case "content-encoding": isEncoded = value.lowercased() != "identity"
    default: break
    }
  }
}

private let bodyCallback: transit_curl_write_fn = { data, size, count, context in
  let sink = Unmanaged<BodySink>.fromOpaque(context!).takeUnretainedValue()
  let total = size * count
  guard total > 0, let data else { return total }
  return sink.append(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

private let headerCallback: transit_curl_write_fn = { data, size, count, context in
  let sink = Unmanaged<BodySink>.fromOpaque(context!).takeUnretainedValue()
  let total = size * count
  guard total > 0, let data else { return total }
  sink.header(String(decoding: UnsafeRawBufferPointer(start: data, count: total), as: UTF8.self))
  return total
}
