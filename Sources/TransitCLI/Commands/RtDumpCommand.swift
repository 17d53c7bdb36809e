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
        help: "A .pb capture (gzip-compressed is fine); several files are shown in turn",
        variadic: true)
    ],
    options: [
      OptionSpec("--summary", help: "Only the header line and the entity counts")
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
      "transit rt dump vehicle-positions.pb",
      "transit rt dump trip-updates.pb.gz --json",
      "transit rt dump alerts.pb trip-updates.pb --summary",
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

  /// Reads, un-gzips and decodes one feed; errors name `source` as the user wrote it.
  static func load(_ source: String, invocation: Invocation) throws -> FeedMessage {
    let lowered = source.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      throw RuntimeError(
        "fetching URLs arrives with the fetch work; save the feed to a file and pass its path")
    }
    let path = invocation.absolutePath(source)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RuntimeError("\(source): no such file")
    }
    guard !isDirectory.boolValue else { throw RuntimeError("\(source): is a folder, not a feed") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RuntimeError("\(source): cannot be read")
    }
    var bytes = [UInt8](data)
    if lowered.hasSuffix(".gz") || Gzip.isGzip(bytes) {
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
}
