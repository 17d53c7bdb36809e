import FoundationEssentials
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
        "STOP",
        help:
          "A stop_id (FEED:stop_id with several feeds), a stop code, a name matching one stop, or a station complex's name; several make one timetable",
        variadic: true, complete: .dynamic(.favourites))
    ],
    options: [date.spec, route.spec, direction.spec, TripFilterOptions.via.spec],
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
      A station complex ('Times Sq-42 St') or several STOPs make one timetable: each
      block's departures leave from one of its stations or stops, named in the heading where
      the route does not tell.
      Rows wrap to fit the terminal (COLUMNS overrides; 80 when piped). Times are the
      timetable's; configured realtime feeds are not fetched.
      """,
    examples: [
      "transit timetable TINT",
      "transit timetable 4530 --route 27 --direction 0 --date 2026-12-25",
      "transit timetable TINT --json",
      "transit timetable 4530 --via 4521",
      "transit timetable 4529 4530 --route 27",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    _ = try invocation.argument(0)  // a missing STOP is a usage error before any file is read
    let arguments = invocation.arguments
    let direction = try arguments.read(Self.direction)
    let route = try arguments.read(Self.route)
    // Realtime only from --realtime files: a printed timetable does not wait on the network.
    let session = try SessionSupport.session(
      invocation,
      realtime: { FixedRealtime(try FeedsSupport.localFeeds(invocation)) })
    let places = try arguments.positionals.map { text in
      try StopCommandSupport.resolvePlace(text, session: session, context: invocation.context)
    }
    let via = try arguments.read(TripFilterOptions.via).map { text in
      try StopCommandSupport.resolvePlace(
        text, session: session, context: invocation.context, reachableFrom: Board.parts(of: places),
        originName: places.map(\.name).joined(separator: " + "))
    }
    let answer = try session.timetable(
      TimetableRequest(places: places, date: try arguments.read(Self.date), route: route, directionID: direction, via: via),
      now: invocation.now)
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    if let report = answer.report { RealtimeSupport.warn(report, invocation: invocation) }
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    invocation.context.stdout.write(text(answer, columns: TerminalWidth.columns(invocation), colour: invocation.useColor))
    return 0
  }

  /// The timetable as text no wider than `columns`: its heading, why it is empty, the grid.
  static func text(_ answer: TimetableAnswer, columns: Int, colour: Bool) -> String {
    let (places, stop, date, route) = (answer.request.places, answer.stop, answer.date, answer.request.route)
    let single = places.count == 1 && places[0].complex == nil
    let code = single ? stop.code.map { " [\($0)]" } ?? "" : ""
    let kind =
      places.count > 1
      ? "\(places.count) stops, " : places[0].complex.map { StopsSearchCommand.complexKind($0) + ", " } ?? ""
    let viaText = answer.request.via.map { " via " + TerminalText.singleLine($0.name) } ?? ""
    let title = TerminalText.singleLine(places.map(\.name).joined(separator: " + "))
    var output = "\(title)\(code.shown) · \(kind)timetable for \(date.dashed) (\(date.weekdayName))\(viaText)\n"
    if answer.grid.blocks.isEmpty {
      output += "no departures on \(date.dashed)" + (route.map { " on route \($0)" } ?? "") + "\n"
    }
    return output + render(answer.grid, columns: max(columns, 20), colour: colour)
  }

  /// The grid as text no wider than `columns`.
  static func render(_ grid: TimetableGrid, columns: Int, colour: Bool = false) -> String {
    var out = ""
    for block in grid.blocks {
      out += "\n"
      let direction = block.directionID.map { " (direction \($0))" } ?? ""
      out +=
        StopCommandSupport.coloured(block.routeShortName, mode: TransitMode(routeType: block.routeType), enabled: colour)
        + " to \(block.headsign.shown)\(direction)\(block.partLabel.map { " · from " + TerminalText.singleLine($0) } ?? "")"
        + " · \(block.count) departure\(block.count == 1 ? "" : "s")\n"
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
}
