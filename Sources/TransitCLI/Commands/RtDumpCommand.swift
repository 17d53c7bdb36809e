import Fetch
import FoundationEssentials
import GTFSRealtime
import Glibc
import HostSystem
import TransitModel
import ZIP

/// `transit rt dump FILE...`: decodes GTFS-Realtime captures and shows them, for people or as
/// JSON (DESIGN.md, "JSON shapes").
public enum RtDumpCommand: TransitCommand {
  static let summaryOnly = Option.flag("--summary", help: "Only the header line and the entity counts")

  public static let path = ["rt", "dump"]
  public static let spec = CommandSpec(
    path: path,
    summary: "Decode a GTFS-Realtime feed and show it",
    arguments: [
      ArgumentSpec(
        "FILE|URL",
        help: "A .pb capture (gzip-compressed is fine) or an http(s) URL; several are shown in turn",
        variadic: true)
    ],
    options: [
      summaryOnly.spec,
      FeedsSupport.refresh.spec,
    ],
    discussion: """
      Decodes any FeedMessage: trip updates, vehicle positions, alerts, or a mix. The text shows
      the header (version, incrementality, timestamp and its age), the entity counts by kind, then
      one line per entity; vehicle ages count back from the feed's own timestamp. Fields the feed
      leaves unset are not shown, even where the proto gives a default.

      With --json, prints the whole FeedMessage in protobuf's JSON mapping with the .proto's own
      field names (trip_update, stop_time_update), enums by name (an unknown value as its
      number), 64-bit integers as numbers, and unset fields, unknown fields and extensions left
      out, but NYCT's extension (field 1001), shown under its bracketed name as in protobuf's
      JSON mapping ([nyct_trip_descriptor]). Given several files, --json prints an array with
      one FeedMessage per file, in order.
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
    let summaryOnly = invocation.arguments.isSet(summaryOnly)
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
    guard let isDirectory = FileInfo.isDirectory(path) else {
      throw RuntimeError("\(source): no such file")
    }
    guard !isDirectory else { throw RuntimeError("\(source): is a folder, not a feed") }
    let limits = try invocation.settings().realtimeCaps.realtimeLimits
    // Refused before it is read: no feed file is larger than both caps.
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let cap = max(limits.maxCompressedBytes, limits.maxDecompressedBytes)
    guard size <= cap else {
      throw RuntimeError(
        "\(source): \(size >> 20) MiB is more than the \(cap >> 20) MiB a realtime feed may hold (the realtime-max-mb setting)")
    }
    guard let bytes = readBytes(path, size: size) else { throw RuntimeError("\(source): cannot be read") }
    return try decode(bytes, source: source, limits: limits)
  }

  /// The file's bytes read straight into one array (no `Data` copy beside it: a feed near the
  /// size cap is held once).
  static func readBytes(_ path: String, size: Int) -> [UInt8]? {
    // A file that grew since its size was read: the rest too, within the caps checked later.
    FileReader.bytes(path, limit: size + (64 << 20), expected: size)
  }

  /// Un-gzips (when the bytes are gzip) and decodes a FeedMessage within `limits`.
  static func decode(_ bytes: [UInt8], source: String, limits: RealtimeLimits) throws -> FeedMessage {
    let bytes = try payload(bytes, source: source, limits: limits)
    do {
      return try FeedMessage(decoding: bytes, limits: limits.decoding)
    } catch {
      throw failure(error, source: source)
    }
  }

  /// The header of the feed in `bytes` (un-gzipped first when they are gzip), its entities
  /// stepped over: what `history import` sorts a folder by before decoding any file whole.
  static func header(_ bytes: [UInt8], source: String, limits: RealtimeLimits) throws -> FeedHeader? {
    let bytes = try payload(bytes, source: source, limits: limits)
    do {
      return try FeedMessage.header(decoding: bytes)
    } catch {
      throw failure(error, source: source)
    }
  }

  /// A decoding error as the user reads it: the source first, the setting that raises a limit.
  private static func failure(_ error: WireError, source: String) -> RuntimeError {
    var message = "\(source): \(error)"
    if let setting = Self.setting(raising: error) {
      message = message.replacing("(a decoding limit)", with: "(the \(setting) setting)")
    }
    return RuntimeError(message)
  }

  /// The protobuf bytes of a feed: `bytes` un-gzipped when they are gzip, within `limits`'
  /// caps, and not an HTML page.
  private static func payload(_ bytes: [UInt8], source: String, limits: RealtimeLimits) throws -> [UInt8] {
    var bytes = bytes
    if source.lowercased().hasSuffix(".gz") || Gzip.isGzip(bytes) {
      guard bytes.count <= limits.maxCompressedBytes else {
        throw RuntimeError(
          "\(source): the gzip data is larger than the \(limits.maxCompressedBytes >> 20) MiB allowed (the realtime-max-download-mb setting)"
        )
      }
      do {
        bytes = try Gzip.decompress(bytes, maxOutput: limits.maxDecompressedBytes)
      } catch ZipError.gzipTooLarge(let limit) {
        throw RuntimeError(
          "\(source): the gzip data decompresses to more than the \(limit >> 20) MiB allowed (the realtime-max-mb setting)")
      } catch {
        throw RuntimeError("\(source): \(error)")
      }
    }
    guard bytes.count <= limits.maxDecompressedBytes else {
      throw RuntimeError(
        "\(source): the feed is larger than the \(limits.maxDecompressedBytes >> 20) MiB allowed (the realtime-max-mb setting)")
    }
    if HTTPClient.looksLikeHTML(Array(bytes.prefix(512))) {
      throw RuntimeError("\(source): looks like an html page, not a gtfs-realtime feed")
    }
    return bytes
  }

  /// The setting that raises the limit a decoding error names, if it names one.
  static func setting(raising error: WireError) -> String? {
    guard case .tooMany(let what, _, _) = error.reason else { return nil }
    switch what {
    case "entity": return "realtime-max-entities"
    case "stop_time_update": return "realtime-max-stop-updates"
    default: return nil
    }
  }

  /// Fetches `url` through the realtime cache, with the headers of the configured feed that
  /// lists this URL.
  static func fetch(_ url: String, invocation: Invocation) throws -> FeedMessage {
    let (feed, problem) = try FeedsSupport.access(invocation).realtime(
      at: url, refresh: invocation.arguments.isSet(FeedsSupport.refresh), decode: { try decode($0, source: $1, limits: $2) })
    if let problem { FeedsSupport.report([problem], invocation: invocation) }
    return feed
  }

}
