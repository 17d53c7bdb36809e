import Fetch
import FoundationEssentials
import GTFSRealtime
import Glibc
import TransitModel

/// How one configured URL answered `feeds check`: ok or the error, its size, its age (the
/// feed header's timestamp for realtime, Last-Modified for a ZIP) and, for realtime, the
/// publish period learned so far.
public struct FeedURLCheck: Sendable, Equatable {
  public var feed: String
  /// `gtfs`, `trip-updates`, `vehicle-positions` or `alerts`.
  public var kind: String
  /// The URL as configured, any key in it masked.
  public var url: String
  /// What went wrong (any key redacted); nil: ok.
  public var problem: String?
  public var bytes: Int?
  /// Seconds since the feed was made (negative: ahead of this clock).
  public var ageSeconds: Int64?
  /// The period learned from the timestamps seen so far (realtime only).
  public var learnedPeriodSeconds: Int64?
  /// The period configured (`--poll`, else 30 s).
  public var configuredPeriodSeconds: Int

  public var isGTFS: Bool { kind == "gtfs" }
}

extension FeedURLCheck: Encodable {
  /// `{feed, kind, url, ok, error, bytes, age_seconds, period_seconds}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(feed, forKey: "feed")
    try members.encode(kind, forKey: "kind")
    try members.encode(url, forKey: "url")
    try members.encode(problem == nil, forKey: "ok")
    try members.encode(problem, forKey: "error")
    try members.encode(bytes, forKey: "bytes")
    try members.encode(ageSeconds, forKey: "age_seconds")
    try members.encode(learnedPeriodSeconds, forKey: "period_seconds")
  }
}

/// A request `feeds check` is about to send, fit to print: the URL and each header, secrets
/// masked.
public struct FeedCheckRequest: Sendable {
  public var shownURL: String
  public var headers: [(name: String, shown: String)]
}

/// A check's own failure, in one line.
struct CheckFailure: Error, CustomStringConvertible {
  var description: String
}

extension FeedAccess {
  /// Fetches every URL of `feeds` once, bypassing the cache (a ZIP is downloaded into the
  /// cache folder, checked to start like a ZIP, and deleted).
  /// - Parameters:
  ///   - willFetch: told of each request before it is sent.
  ///   - progress: told before each URL: how many are done, of how many, and which.
  /// - Throws: what making the HTTP client or reading the settings throws; a URL's own failure
  ///   is its check's `problem`.
  public func check(
    _ feeds: [FeedDefinition], willFetch: (FeedCheckRequest) -> Void = { _ in },
    progress: (_ done: Int, _ total: Int, _ label: String) -> Void = { _, _, _ in }
  ) throws -> [FeedURLCheck] {
    let client = try client()
    let limits = try realtimeSettings().caps.realtimeLimits
    let fetcher = RealtimeFetcher(client: client, cacheDirectory: cacheDirectory, limits: limits, clock: clock)
    let now = clock()
    let total = feeds.reduce(0) { $0 + ($1.gtfs == nil ? 0 : 1) + $1.realtimeURLs.count }
    var checked = 0
    var results: [FeedURLCheck] = []
    for feed in feeds {
      let urls = (feed.gtfs.map { [("gtfs", $0)] } ?? []) + feed.realtimeURLs.map { ($0.kind, $0.url) }
      for (kind, template) in urls {
        progress(checked, total, "\(feed.name) \(kind)")
        defer { checked += 1 }
        var check = FeedURLCheck(
          feed: feed.name, kind: kind, url: Redactor.redactURL(template), configuredPeriodSeconds: feed.periodSeconds)
        do {
          let request = try resolve(template, feed: feed)
          willFetch(
            FeedCheckRequest(
              shownURL: request.shownURL,
              headers: zip(feed.headers, request.headers).map { template, header in
                (header.0, template.isSecret ? Redactor.mask : request.redactor.redact(header.1))
              }))
          if kind == "gtfs" {
            (check.bytes, check.ageSeconds) = try checkZip(request, client: client, now: now)
          } else {
            let snapshot = try fetcher.snapshot(request, periodSeconds: feed.periodSeconds, refresh: true) { bytes in
              try RealtimeCapture.decode(bytes, source: request.shownURL, limits: limits)
            }
            if let failure = snapshot.failure { throw CheckFailure(description: request.redactor.redact(failure.description)) }
            check.bytes = fetcher.cachedSize(request.url)
            check.ageSeconds = snapshot.feed.header?.timestamp.map { now - Int64(clamping: $0) }
            check.learnedPeriodSeconds = fetcher.learnedPeriod(request.url)
          }
        } catch {
          check.problem = (error as? FetchError)?.description ?? "\(error)"
        }
        results.append(check)
      }
    }
    return results
  }

  /// Downloads the ZIP into the cache folder, checks it starts like a ZIP, and deletes it: its
  /// size and age (from Last-Modified), nil for both on a 304.
  func checkZip(_ request: ResolvedRequest, client: HTTPClient, now: Int64) throws -> (Int?, Int64?) {
    let folder = cacheDirectory + "/downloads"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/check-\(getpid()).zip"
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard
      case .body(let body) = try client.get(
        request.url, headers: request.headers, expecting: .zip, destination: path, redactor: request.redactor)
    else { return (nil, nil) }
    let head = FileManager.default.contents(atPath: path)?.prefix(4) ?? Data()
    guard head.starts(with: [0x50, 0x4B]) else { throw CheckFailure(description: "\(request.shownURL): not a zip file") }
    let age = body.validators.lastModified.flatMap(HTTPDateText.parse).map { now - $0 }
    return (body.byteCount, age)
  }
}
