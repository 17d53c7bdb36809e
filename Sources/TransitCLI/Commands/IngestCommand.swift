import Foundation
import GTFS

/// `transit ingest`: load a GTFS feed into the timetable database.
enum IngestCommand: TransitCommand {
  static let spec = CommandSpec(
    path: ["ingest"],
    summary: "Load a GTFS feed (ZIP, folder of .txt files, or stops.json) into the timetables",
    arguments: [ArgumentSpec("PATH", help: "A GTFS .zip, a folder of GTFS .txt files, or a stops.json list", optional: true)],
    options: [
      OptionSpec("--feed", value: "NAME", help: "Hold the feed under NAME (default: from its agency, else the file name)"),
      OptionSpec("--list", help: "List the feeds held, with their service dates and when each was loaded"),
      OptionSpec("--remove", value: "NAME", help: "Drop the feed NAME"),
      OptionSpec("--quiet", short: "-q", help: "Print nothing but errors"),
    ],
    discussion: """
      Each feed is held in its own timetable file and replaced whole: the new timetable is built
      beside the current one, checked, and swapped in atomically, keeping the previous one as
      NAME.sqlite.prev. If anything goes wrong the current timetable stays as it was.
      Queries span every feed held.
      """,
    examples: [
      "transit ingest Data/gtfs",
      "transit ingest ~/Downloads/google_transit.zip --feed dublin-bus",
      "transit ingest --list",
      "transit ingest --remove dublin-bus",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    let arguments = invocation.arguments
    let context = invocation.context
    let timetables = Timetables(directory: invocation.paths.data)
    if arguments.flag("--list") {
      try invocation.expectPositionals(atMost: 0)
      return try list(timetables, invocation)
    }
    if let name = arguments.value("--remove") {
      try invocation.expectPositionals(atMost: 0)
      guard try timetables.remove(name) else { throw NotFoundError("no feed named '\(name)' is held (see 'transit ingest --list')") }
      if !arguments.flag("--quiet") { context.stdout.line("removed feed \(name)") }
      return 0
    }
    try invocation.expectPositionals(atMost: 1)
    let target = try invocation.argument(0)
    if target.hasPrefix("http://") || target.hasPrefix("https://") {
      throw RuntimeError("ingesting from a URL needs the fetch support that is still to come; download the feed and pass its path")
    }
    let path = invocation.absolutePath(target)
    let quiet = arguments.flag("--quiet")
    let bar = ProgressBar(sink: context.stderr, enabled: context.stderrIsTerminal && !quiet && !invocation.global.json)
    let result: (feed: String, summary: IngestSummary)
    do {
      result = try timetables.ingest(path, as: arguments.value("--feed"), now: invocation.now.seconds) { progress in
        if progress.isIndexing {
          bar.update(fraction: 1, label: "building indexes")
        } else {
          let fraction = progress.bytesTotal == 0 ? 0 : Double(progress.bytesDone) / Double(progress.bytesTotal)
          bar.update(fraction: fraction, label: "\(progress.file) \(Format.thousands(progress.rows)) rows")
        }
      }
    } catch {
      bar.finish()
      throw error
    }
    bar.finish()
    let summary = result.summary
    if invocation.global.json {
      let json = JSON.object([
        ("feed", .string(result.feed)), ("source", .string(path)), ("seconds", .double(summary.seconds)),
        ("rows", .object(summary.rows.map { ($0.file, .number($0.count)) })),
        ("interpolated_stop_times", .number(summary.interpolatedStopTimes)),
        ("warnings", .array(summary.warnings.map(JSON.string))),
      ])
      context.stdout.line(json.serialized(pretty: true))
      return 0
    }
    if quiet { return 0 }
    let counts = summary.rows.map { "\(Format.thousands($0.count)) \($0.file.replacingOccurrences(of: ".txt", with: ""))" }
    var line = "ingested \(result.feed) in \(Format.seconds(summary.seconds)): " + counts.joined(separator: ", ")
    if summary.interpolatedStopTimes > 0 { line += " (\(Format.thousands(summary.interpolatedStopTimes)) untimed stop times interpolated)" }
    if !summary.warnings.isEmpty { line += "; \(summary.warnings.count) warning\(summary.warnings.count == 1 ? "" : "s")" }
    context.stdout.line(line)
    for warning in summary.warnings.prefix(10) { context.stderr.line("warning: \(warning)") }
    if summary.warnings.count > 10 { context.stderr.line("warning: … and \(summary.warnings.count - 10) more") }
    return 0
  }

  static func list(_ timetables: Timetables, _ invocation: Invocation) throws -> Int32 {
    let feeds = try timetables.list()
    if invocation.global.json {
      let json = JSON.array(feeds.map { feed in
        .object([
          ("name", .string(feed.name)), ("source", .optional(feed.meta["source"])),
          ("service_start", .optional(feed.meta["service_start"])), ("service_end", .optional(feed.meta["service_end"])),
          ("loaded_at", .optional(feed.meta["loaded_at"].flatMap { Int64($0) }.map { ISOTime.format(.init($0)) })),
          ("stops", .number(feed.rows("stops.txt") + feed.rows("stops.json"))), ("routes", .number(feed.rows("routes.txt"))),
          ("trips", .number(feed.rows("trips.txt"))), ("stop_times", .number(feed.rows("stop_times.txt"))),
        ])
      })
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }
    if feeds.isEmpty {
      invocation.context.stdout.line("no feeds held yet; load one with 'transit ingest PATH'")
      return 0
    }
    func day(_ text: String?) -> String {
      guard let text, text.count == 8 else { return "?" }
      return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
    }
    var rows = [["FEED", "SERVICE", "LOADED", "STOPS", "ROUTES", "TRIPS", "SOURCE"]]
    for feed in feeds {
      let loaded = feed.meta["loaded_at"].flatMap { Int64($0) }.map { String(ISOTime.format(.init($0)).prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "?"
      rows.append([
        feed.name, "\(day(feed.meta["service_start"])) to \(day(feed.meta["service_end"]))", loaded,
        Format.thousands(feed.rows("stops.txt") + feed.rows("stops.json")), Format.thousands(feed.rows("routes.txt")),
        Format.thousands(feed.rows("trips.txt")), feed.meta["source"].map { ($0 as NSString).lastPathComponent } ?? "",
      ])
    }
    invocation.context.stdout.write(Format.table(rows, rightAligned: [3, 4, 5]))
    return 0
  }
}
