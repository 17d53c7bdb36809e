import FoundationEssentials
import GTFS
import Services
import TransitModel

/// `transit timetable STOP`: a stop's whole day as a printed timetable.
enum TimetableCommand: TransitCommand {
  static let date = Option.date("--date", help: "The service day", default: "today")
  static let route = Option.text("--route", value: "R", help: "Only route R (short name or route_id)", complete: .dynamic(.routes))
  static let direction = Option.integer(
    "--direction", value: "0|1", in: 0...1, help: "Only trips of this direction_id", complete: .choices(["0", "1"]))

  static let path = ["timetable"]
  static let spec = CommandSpec(
    path: path,
    summary: "A stop's whole day as a printed timetable: hours down, minutes across, per route and direction",
    arguments: [
      ArgumentSpec(
        "STOP", help: "A stop_id (FEED:stop_id with several feeds), a stop code, or a name matching one stop",
        complete: .dynamic(.favourites))
    ],
    options: [date.spec, route.spec, direction.spec, DeparturesCommand.Options.via.spec],
    discussion: """
      One block per route and direction (a station: all its platforms), headed by the
      destination most departures show. Each row is an hour of the timetable's clock, with the
      minutes of its departures across; hours after midnight that belong to the day's service
      (GTFS times from 24:00) come last. A letter after a minute points to a footnote under the
      block: a trip going somewhere else ("a: to Millbrae"), one that ends here, one nobody may
      board here, an express ("b: skips Hayward Park and Belmont": stops ahead that the usual
      pattern calls at, the usual pattern being the stop sequence most of the route and
      direction's trips follow that day), or (with --realtime FILE) one the realtime cancels
      or that skips the stop. --via STOP keeps the trips that call at STOP later on.
      Rows wrap to fit the terminal (COLUMNS overrides; 80 when piped). Times are the
      timetable's; configured realtime feeds are not fetched.
      """,
    examples: [
      "transit timetable TINT",
      "transit timetable 4530 --route 27 --direction 0 --date 2026-12-25",
      "transit timetable TINT --json",
      "transit timetable 4530 --via 4521",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let arguments = invocation.arguments
    let direction = try arguments.read(Self.direction)
    let route = try arguments.read(Self.route)
    let store = try StopCommandSupport.openStore(invocation)
    let stop = try StopCommandSupport.resolveStop(text, in: store, context: invocation.context)
    let via = try arguments.read(DeparturesCommand.Options.via).map { text in
      try StopCommandSupport.resolvePlace(text, in: store, context: invocation.context, reachableFrom: [stop])
    }
    let date = try arguments.read(Self.date) ?? store.localDate(of: invocation.now, feed: stop.feed)
    // Realtime only from --realtime files: a printed timetable does not wait on the network.
    var skipped = Set<TripID>()
    if !invocation.global.realtimeFiles.isEmpty {
      let feeds = try invocation.global.realtimeFiles.map { try RtDumpCommand.load($0, invocation: invocation) }
      let live = try RealtimeSupport.live(
        invocation, store: store, feeds: feeds, now: invocation.now,
        options: try RealtimeSupport.options(invocation, settings: try invocation.settings()))
      var stopIDs: Set<StopID> = [stop.id]
      if stop.isStation { for platform in try store.platforms(of: stop) { stopIDs.insert(platform.id) } }
      skipped = TimetableGrid.skippedTrips(live, at: stopIDs, on: date)
    }
    let grid = try TimetableGrid.build(
      stop: stop, date: date, route: route, direction: direction, store: store, skipped: skipped, via: via?.parts ?? [])
    if invocation.global.json {
      invocation.context.stdout.line(json(grid, stop: stop, manyFeeds: store.feedNames.count > 1).serialized(pretty: true))
      return 0
    }
    let columns = TerminalWidth.columns(invocation)
    let code = stop.code.map { " [\($0)]" } ?? ""
    let viaText = via.map { " via " + TerminalText.singleLine($0.name) } ?? ""
    var output = "\(stop.name.shown)\(code.shown) · timetable for \(date.dashed) (\(date.weekdayName))\(viaText)\n"
    if grid.blocks.isEmpty {
      output += "no departures on \(date.dashed)" + (route.map { " on route \($0)" } ?? "") + "\n"
    }
    output += render(grid, columns: max(columns, 20), colour: invocation.useColor)
    invocation.context.stdout.write(output)
    return 0
  }

  /// The grid as text no wider than `columns`.
  static func render(_ grid: TimetableGrid, columns: Int, colour: Bool = false) -> String {
    var out = ""
    for block in grid.blocks {
      out += "\n"
      let direction = block.directionID.map { " (direction \($0))" } ?? ""
      out +=
        StopCommandSupport.coloured(block.routeShortName, mode: TransitMode(routeType: block.routeType), enabled: colour)
        + " to \(block.headsign.shown)\(direction) · \(block.count) departure\(block.count == 1 ? "" : "s")\n"
      let cell = block.hours.flatMap(\.entries).map { 2 + ($0.mark?.count ?? 0) }.max() ?? 2
      let prefix = 5  // "07 │ "
      let perLine = max(1, (columns - prefix + 1) / (cell + 1))
      for hour in block.hours {
        let label = hour.hour < 0 ? "--" : Format.zeroPadded(hour.hour % 24, width: 2)
        let cells = hour.entries.map { Format.pad(Format.zeroPadded($0.minute, width: 2) + ($0.mark ?? ""), cell) }
        var index = 0
        var first = true
        repeat {
          let chunk = cells[index..<min(cells.count, index + perLine)]
          var line = (first ? label : "  ") + " │ " + chunk.joined(separator: " ")
          while line.last == " " { line.removeLast() }
          out += line + "\n"
          index += perLine
          first = false
        } while index < cells.count
      }
      for footnote in block.footnotes { out += "  \(footnote.mark): \(footnote.text)\n" }
    }
    return out
  }

  /// `timetable --json`.
  static func json(_ grid: TimetableGrid, stop: Stop, manyFeeds: Bool) -> JSON {
    .object([
      ("stop", .object(StopCommandSupport.stopJSON(stop, manyFeeds: manyFeeds))),
      ("service_date", .string(grid.serviceDate.description)),
      (
        "blocks",
        .array(
          grid.blocks.map { block in
            .object([
              ("route_id", .string(block.routeID.rawValue)), ("route_short_name", .string(block.routeShortName)),
              ("direction_id", .optional(block.directionID)), ("headsign", .string(block.headsign)),
              (
                "hours",
                .array(
                  block.hours.map { hour in
                    .object([
                      ("hour", .number(hour.hour)),
                      (
                        "departures",
                        .array(
                          hour.entries.map { entry in
                            .object([
                              ("minute", .number(entry.minute)), ("trip_id", .string(entry.tripID.rawValue)),
                              ("stop_id", .string(entry.stopID.rawValue)), ("headsign", .string(entry.headsign)),
                              ("footnote", .optional(entry.mark)),
                            ])
                          })
                      ),
                    ])
                  })
              ),
              ("footnotes", .array(block.footnotes.map { .object([("mark", .string($0.mark)), ("text", .string($0.text))]) })),
            ])
          })
      ),
    ])
  }
}
