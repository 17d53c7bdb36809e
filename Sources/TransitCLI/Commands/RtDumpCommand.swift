import FoundationEssentials
import GTFSRealtime
import TransitModel

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
      RealtimeOptions.refresh.spec,
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
      feeds.append(try FeedsSupport.capture(source, invocation: invocation))
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
}
