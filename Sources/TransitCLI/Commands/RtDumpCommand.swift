import Fetch
import Foundation
import GTFSRealtime
import TransitModel
import ZIP

/// `transit rt dump FILE...`: decodes GTFS-Realtime captures and shows them, for people or as
/// JSON (DESIGN.md, "JSON shapes").
public enum RtDumpCommand: TransitCommand {
  public static let spec = CommandSpec(
    path: ["rt", "dump"],
    summary: "Decode a GTFS-Realtime feed and show it",
    arguments: [
      ArgumentSpec(
        "FILE|URL",
        help: "A .pb capture (gzip-compressed is fine) or an http(s) URL; several are shown in turn",
        variadic: true)
    ],
    options: [
      OptionSpec("--summary", help: "Only the header line and the entity counts"),
      FeedsSupport.refreshOption,
    ],
    discussion: """
      Decodes any FeedMessage: trip updates, vehicle positions, alerts, or a mix. The text shows
      the header (version, incrementality, timestamp and its age), the entity counts by kind, then
      one line per entity; vehicle ages count back from the feed's own timestamp. Fields the feed
      leaves unset are not shown, even where the proto gives a default.

      With --json, prints the whole FeedMessage in protobuf's JSON mapping with the .proto's own
      field names (trip_update, stop_time_update), enums by name (an unknown value as its
      number), 64-bit integers as numbers, and unset fields, unknown fields and extensions left
      out. Given several files, --json prints an array with one FeedMessage per file, in order.
      """,
    examples: [
      "transit rt dump Data/realtime/demo-vehiclepositions.pb",
      "transit rt dump Data/realtime/demo-tripupdates.pb --json",
      "transit rt dump Data/realtime/demo-alerts.pb Data/realtime/demo-tripupdates.pb --summary",
      "transit rt dump https://example.org/gtfs-rt/vehicle-positions --refresh",
    ])

  public static func run(_ invocation: Invocation) throws -> Int32 {
    let sources = invocation.arguments.positionals
    guard !sources.isEmpty else {
      _ = try invocation.argument(0)
      return 2
    }
    let summaryOnly = invocation.arguments.flag("--summary")
    var feeds: [FeedMessage] = []
    for source in sources {
      feeds.append(try load(source, invocation: invocation))
    }
    let out = invocation.context.stdout
    if invocation.global.json {
      let json = feeds.count == 1 ? feeds[0].json : .array(feeds.map(\.json))
      out.line(json.serialized(pretty: true))
      return 0
    }
    for (index, (source, feed)) in zip(sources, feeds).enumerated() {
      if sources.count > 1 {
        if index > 0 { out.line() }
        out.line("== \(source) ==")
      }
      for line in feed.textLines(now: invocation.now, summaryOnly: summaryOnly) {
        out.line(line)
      }
    }
    return 0
  }

  /// Reads (or fetches), un-gzips and decodes one feed; errors name `source` as the user wrote
  /// it (with any key redacted).
  static func load(_ source: String, invocation: Invocation) throws -> FeedMessage {
    if FeedsSupport.isURL(source) && !source.lowercased().hasPrefix("file://") {
      return try fetch(source, invocation: invocation)
    }
    let path = source.lowercased().hasPrefix("file://") ? (HTTPClient.localPath(source) ?? source) : invocation.absolutePath(source)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RuntimeError("\(source): no such file")
    }
    guard !isDirectory.boolValue else { throw RuntimeError("\(source): is a folder, not a feed") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RuntimeError("\(source): cannot be read")
    }
    return try decode([UInt8](data), source: source)
  }

  /// Un-gzips (when the bytes are gzip) and decodes a FeedMessage.
  static func decode(_ bytes: [UInt8], source: String) throws -> FeedMessage {
    var bytes = bytes
    if source.lowercased().hasSuffix(".gz") || Gzip.isGzip(bytes) {
      do {
        bytes = try Gzip.decompress(bytes)
      } catch {
        throw RuntimeError("\(source): \(error)")
      }
    }
    do {
      return try FeedMessage(decoding: bytes)
    } catch {
      throw RuntimeError("\(source): \(error)")
    }
  }

  /// Fetches `url` through the realtime cache, with the headers of the configured feed that
  /// lists this URL.
  static func fetch(_ url: String, invocation: Invocation) throws -> FeedMessage {
    let configuration = try FeedsSupport.configuration(invocation)
    let feed = configuration.feeds.first { $0.realtimeURLs.contains { $0.url == url } }
    let request = try FeedsSupport.resolve(url, feed: feed, invocation: invocation)
    let fetcher = RealtimeFetcher(
      client: try FeedsSupport.client(invocation), cacheDirectory: invocation.paths.cache,
      clock: { invocation.context.clock.now().seconds })
    return try FeedsSupport.snapshot(request, feed: feed, fetcher: fetcher, invocation: invocation, reportFailure: false).feed
  }
}
