/// Why a fetch failed: one line, lower case, naming the URL with its secrets redacted.
public struct FetchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The URL as it may be shown (credentials and API keys replaced by `<redacted>`).
  public var url: String
  /// What went wrong.
  public var reason: Reason

  /// An error for `url` (already redacted).
  public init(url: String, _ reason: Reason) {
    self.url = url
    self.reason = reason
  }

  /// What went wrong.
  public enum Reason: Equatable, Sendable {
    /// The host name did not resolve.
    case hostNotFound(String)
    /// Nothing listens there.
    case connectionRefused
    /// The server answered with an error status.
    case httpStatus(Int)
    /// No complete answer within the time allowed.
    case timeout(seconds: Double)
    /// The client's total time budget ran out (interactive commands), after `attempts` tries.
    case outOfTime(budgetSeconds: Double, attempts: Int)
    /// One fetch's own deadline (`FetchOptions.deadlineSeconds`) ran out, over `attempts`.
    case deadline(seconds: Double, attempts: Int)
    /// The body ended before its declared length.
    case truncatedBody
    /// An HTML page came where a feed was expected (a login or error page, usually).
    case htmlInsteadOf(String)
    /// The body passed the size cap.
    case tooLarge(limitBytes: Int)
    /// More redirects than allowed.
    case tooManyRedirects(Int)
    /// The TLS handshake or certificate check failed.
    case tls(String)
    /// A `file://` URL or plain path that cannot be read.
    case file(String)
    /// A URL this client does not fetch.
    case unsupportedURL
    /// Anything else libcurl reports.
    case transfer(String)
    /// The body arrived but may not replace the last good snapshot (why, as a fragment).
    case rejected(String)
  }

  /// `URL: what went wrong`, one lower-case line.
  public var description: String {
    let detail: String
    switch reason {
    case .hostNotFound(let host): detail = "cannot resolve host '\(host)' (dns lookup failed)"
    case .connectionRefused: detail = "connection refused"
    case .httpStatus(let code):
      let name = [
        400: "bad request", 401: "unauthorized (check the feed's api key)", 403: "forbidden (check the feed's api key)",
        404: "not found", 410: "gone", 429: "too many requests (rate limited; poll less often)",
        500: "internal server error", 502: "bad gateway", 503: "service unavailable", 504: "gateway timeout",
      ][code]
      detail = "http \(code)" + (name.map { " \($0)" } ?? "")
    case .timeout(let seconds): detail = "timed out after \(Self.seconds(seconds))"
    case .outOfTime(let budget, let attempts):
      detail =
        "no complete answer in \(Self.seconds(budget)) in total, \(attempts) attempt\(attempts == 1 ? "" : "s") (the realtime budget)"
    case .deadline(let seconds, let attempts):
      detail =
        "no complete answer in \(Self.seconds(seconds)) in total, \(attempts) attempt\(attempts == 1 ? "" : "s") (the fetch-deadline setting)"
    case .truncatedBody: detail = "the body ended early (truncated transfer)"
    case .htmlInsteadOf(let expected): detail = "got an html page where \(expected) was expected"
    case .tooLarge(let limit):
      detail = "the body is larger than the " + (limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes") + " allowed"
    case .tooManyRedirects(let count): detail = "more than \(count) redirects"
    case .tls(let message): detail = "tls failure: \(message.lowercased())"
    case .file(let message): detail = message
    case .unsupportedURL: detail = "not an http, https or file url"
    case .transfer(let message): detail = message.lowercased()
    case .rejected(let why): detail = "not used: \(why)"

    }
    return url.isEmpty ? detail : "\(url): \(detail)"  // (no URL yet: libcurl itself failed)
  }

  /// Whether trying again later may help (timeouts and 5xx; not a spent budget).
  public var isTransient: Bool {
    switch reason {
    case .timeout: return true
    case .httpStatus(let code): return code >= 500
    default: return false
    }
  }

  static func seconds(_ value: Double) -> String {
    let value = (value * 100).rounded() / 100
    return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}

extension FetchError.Reason {
  /// Whether the attempt ran out of time.
  var isTimeout: Bool {
    if case .timeout = self { return true }
    return false
  }
}
