import FoundationEssentials
import GTFS
import Services
import TransitModel

/// `transit route show R`: a route's stop sequences, first and last departures, headways, and
/// its drawing as GeoJSON or a terminal map.
enum RouteShowCommand: TransitCommand {
  static let direction = Option.integer(
    "--direction", value: "0|1", in: 0...1, help: "Only this direction_id", complete: .choices(["0", "1"]))
  static let date = Option.date("--date", help: "Departures and headways on this date (default: today in the feed's zone)")
  static let geojson = Option.flag("--geojson", help: "Print the route's shapes and stops as a GeoJSON FeatureCollection (RFC 7946)")

  static let path = ["route", "show"]
  static let spec = CommandSpec(
    path: path,
    summary: "A route: its stops in order, first and last departures, headways; --geojson, --map",
    arguments: [ArgumentSpec("ROUTE", help: "A route_id, short name or long name", complete: .dynamic(.routes))],
    options: [
      direction.spec, date.spec, geojson.spec,
      MapSupport.map.spec,
      MapSupport.ascii.spec,
    ],
    discussion: """
      Trips are grouped by their exact stop sequence into patterns, per direction. The main
      pattern is the one most trips follow; its stops are listed, and the other patterns are
      listed as variants with their trip counts. First and last departures count every trip
      running that day (frequency-based trips expanded). The typical headway is the median
      gap between departures from the main pattern's first stop within each part of the day:
      early 05:00-07:00, AM peak 07:00-09:30, midday 09:30-16:00, PM peak 16:00-19:00,
      evening 19:00-24:00, night 00:00-05:00 (and times past 24:00). ♿ (W in plain ASCII)
      marks a stop with wheelchair boarding (a platform without a value inherits its
      station's).

      --geojson prints a LineString per distinct shape (shapes.txt), or per pattern through its
      stops when the route has no shapes, with route_id, names, color and direction_id as
      properties, and a Point per stop; it opens in geojson.io or QGIS. --map draws the same in
      the terminal, fitted to its size (60x20 when not a terminal; COLUMNS and LINES override),
      with the main patterns' first and last stops named where there is room.
      """,
    examples: [
      "transit route show 27",
      "transit route show Red --direction 0 --date 2026-12-05",
      "transit route show 77X --geojson > 77x.geojson",
      "transit route show 27 --map",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let arguments = invocation.arguments
    let text = try invocation.argument(0)
    let direction = try arguments.read(Self.direction)
    try MapSupport.validate(invocation)
    let geojson = arguments.isSet(Self.geojson)
    if geojson && arguments.isSet(MapSupport.map) { throw UsageError("--geojson and --map each draw the route; give one") }
    let date = try arguments.read(Self.date)
    let store = try StopCommandSupport.openStore(invocation)
    let route = try RouteCommandSupport.resolveRoute(text, in: store, context: invocation.context)
    let day = date ?? store.localDate(of: invocation.now, feed: route.feed)
    guard let details = try store.routeDetails(route, on: day, directionID: direction) else {
      throw NotFoundError("no route '\(text)'")
    }
    if let direction, details.directions.isEmpty {
      throw NotFoundError("route \(route.shortName) has no trips in direction \(direction)")
    }
    let manyFeeds = store.feedNames.count > 1
    let zone = store.timeZone(of: route.feed)
    if geojson {
      let document = GeoJSON.route(details, lines: try MapSupport.routeLines(details, store: store))
      invocation.context.stdout.line(document.serialized())
      return 0
    }
    if invocation.global.json {
      invocation.context.stdout.line(json(details, store: store, zone: zone, manyFeeds: manyFeeds).serialized(pretty: true))
      return 0
    }
    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation)
    /// "06:00"; a time on the next calendar day (a trip past 24:00:00) says so: "01:05 (next day)".
    func clock(_ seconds: Int32) -> String {
      let time = store.time(seconds, on: day, feed: route.feed)
      let text = StopCommandSupport.clock(time, zone: zone, twelveHour: twelve)
      return store.localDate(of: time, feed: route.feed) > day ? text + " (next day)" : text
    }
    let listing = details.listing
    let swatch = RouteCommandSupport.swatch(route.color, environment: invocation.context.environment, enabled: invocation.useColor)
    out.line((swatch.isEmpty ? "" : swatch + " ") + route.shortName.shown + (route.longName.map { "  \($0.shown)" } ?? ""))
    var facts = [route.mode.rawValue]
    if let agency = listing.agencyName { facts.append(agency.shown) }
    facts.append("route_id " + (manyFeeds ? "\(route.feed):" : "") + route.id.rawValue)
    facts.append("\(listing.tripCount) trip\(listing.tripCount == 1 ? "" : "s")")
    if let hex = RouteCommandSupport.hexColor(route.color) { facts.append("colour \(hex)") }
    out.line(facts.joined(separator: " · "))

    if arguments.isSet(MapSupport.map) {
      let lines = try MapSupport.routeLines(details, store: store)
      var renderer = MapRenderer()
      renderer.lines = lines.map(\.points)
      renderer.stops = Array(Set(details.directions.flatMap { $0.patterns.flatMap(\.stops) }).compactMap(\.coordinate))
        .sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }
      renderer.names = MapRenderer.termini(details)
      let size = MapSupport.size(invocation, reserved: 4)
      let ascii = MapSupport.isASCII(invocation)
      out.line()
      out.write(MapSupport.trimmed(renderer.render(columns: size.columns, rows: size.rows - 1, ascii: ascii)))
      out.line(
        "\(MapRenderer.stopMark(ascii: ascii)) stops\(MapSupport.separator(ascii: ascii))\(lines.count) line\(lines.count == 1 ? "" : "s")"
          + (lines.contains { $0.shapeID == nil } ? " (through the stops where shapes.txt has none)" : ""))
      return 0
    }

    let dayName = Self.dayName(day)
    if details.directions.isEmpty {
      out.line()
      out.line("no trips")
    }
    for direction in details.directions {
      let main = direction.main
      let trips = direction.patterns.reduce(0) { $0 + $1.tripCount }
      let today = direction.patterns.reduce(0) { $0 + $1.tripsOnDate }
      out.line()
      let name = direction.directionID.map { "direction \($0)" } ?? "no direction_id"
      out.line(
        "\(name.shown) → \(main.headsign.shown): \(trips) trip\(trips == 1 ? "" : "s") in \(direction.patterns.count) pattern\(direction.patterns.count == 1 ? "" : "s")"
      )
      if let first = direction.firstDeparture, let last = direction.lastDeparture {
        out.line("  \(dayName): \(today) trip\(today == 1 ? "" : "s"), first \(clock(first)), last \(clock(last))")
      } else {
        out.line("  \(dayName): no service")
      }
      if !direction.headways.isEmpty {
        out.line("  typical headway at \(main.stops.first?.name.shown ?? "the first stop"):")
        let rows = direction.headways.map { band -> [String] in
          let every = band.medianSeconds.map { "every \(Self.minutes($0))" } ?? ""
          return [
            "    " + band.name, "\(Self.hhmm(band.start))-\(Self.hhmm(band.end))",
            "\(band.departures) departure\(band.departures == 1 ? "" : "s")", every,
          ]
        }
        out.write(StopCommandSupport.table(rows, rightAligned: [2]))
      }
      out.line("  stops of the main pattern (\(main.tripCount) trip\(main.tripCount == 1 ? "" : "s")):")
      let rows = try main.stops.enumerated().map { index, stop in
        let mark = RiderMarks.wheelchair(try Accessibility.stop(stop, in: store), plain: invocation.usesPlainSymbols)
        return ["    \(index + 1)", stop.name.shown + (mark.isEmpty ? "" : " " + mark), stop.code?.shown ?? "", stop.id.rawValue.shown]
      }
      out.write(StopCommandSupport.table(rows, rightAligned: [0]))
      if direction.patterns.count > 1 {
        out.line("  variants:")
        let rows = direction.patterns.dropFirst().map { pattern in
          [
            "    \(pattern.tripCount) trip\(pattern.tripCount == 1 ? "" : "s")", "→ \(pattern.headsign.shown)",
            "\(pattern.stops.count) stops", Self.difference(pattern, from: main),
          ]
        }
        out.write(StopCommandSupport.table(rows))
      }
    }
    if details.tripsWithoutStops > 0 {
      out.line()
      out.line("\(details.tripsWithoutStops) trip\(details.tripsWithoutStops == 1 ? " has" : "s have") no stop times")
    }
    return 0
  }

  /// "Tue 2026-12-01".
  static func dayName(_ date: ServiceDate) -> String {
    date.weekdayName.prefix(3) + " " + date.dashed
  }

  /// "05:30" from seconds since the service day's start (24:00 stays 24:00).
  static func hhmm(_ seconds: Int32) -> String {
    Format.zeroPadded(seconds / 3600, width: 2) + ":" + Format.zeroPadded(seconds % 3600 / 60, width: 2)
  }

  /// "10 min", "1 h 5 min", "45 s".
  static func minutes(_ seconds: Int32) -> String {
    seconds < 60 ? Format.duration(seconds: Int64(seconds)) : Format.duration(minutes: Int64((Double(seconds) / 60).rounded()))
  }

  /// How a variant differs from the main pattern: "from X", "to Y", "via A, B", "skips N stops".
  static func difference(_ variant: RoutePattern, from main: RoutePattern) -> String {
    var parts: [String] = []
    if let first = variant.stops.first, first.id != main.stops.first?.id { parts.append("from \(first.name.shown)") }
    if let last = variant.stops.last, last.id != main.stops.last?.id { parts.append("to \(last.name.shown)") }
    // Stops off the main pattern, the variant's own ends (already named) left out.
    let mainIDs = Set(main.stops.map(\.id))
    let ends = Set([variant.stops.first?.id, variant.stops.last?.id].compactMap { $0 })
    let extra = variant.stops.filter { !mainIDs.contains($0.id) && !ends.contains($0.id) }
    if !extra.isEmpty {
      parts.append(
        "via " + extra.prefix(2).map(\.name.shown).joined(separator: ", ") + (extra.count > 2 ? " and \(extra.count - 2) more" : ""))
    }
    // Main stops the variant passes without calling, between its first and last shared stop.
    let variantIDs = Set(variant.stops.map(\.id))
    let shared = main.stops.indices.filter { variantIDs.contains(main.stops[$0].id) }
    if let low = shared.first, let high = shared.last {
      let skipped = main.stops[low...high].filter { !variantIDs.contains($0.id) }.count
      if skipped > 0 { parts.append("skips \(skipped) stop\(skipped == 1 ? "" : "s")") }
    }
    if parts.isEmpty { parts.append(variant.stops.count == main.stops.count ? "same stops, other order" : "other stop sequence") }
    return parts.joined(separator: ", ")
  }

  /// The `route show --json` document.
  static func json(_ details: RouteDetails, store: Store, zone: LocalZone, manyFeeds: Bool) -> JSON {
    let route = details.route
    func time(_ seconds: Int32?) -> JSON {
      .optional(seconds.map { ISOTime.format(store.time($0, on: details.date, feed: route.feed), zone: zone) })
    }
    return .object([
      ("route", .object(RouteCommandSupport.routeJSON(details.listing, manyFeeds: manyFeeds))),
      (
        "date",
        .string(details.date.dashed)
      ),
      (
        "directions",
        .array(
          details.directions.map { direction in
            .object([
              ("direction_id", .optional(direction.directionID)),
              ("headsign", .string(direction.main.headsign)),
              ("trips_on_date", .number(direction.patterns.reduce(0) { $0 + $1.tripsOnDate })),
              ("first_departure", time(direction.firstDeparture)),
              ("last_departure", time(direction.lastDeparture)),
              (
                "headways",
                .array(
                  direction.headways.map { band in
                    .object([
                      ("band", .string(band.name)), ("start", .string(hhmm(band.start))), ("end", .string(hhmm(band.end))),
                      ("departures", .number(band.departures)), ("median_headway_seconds", .optional(band.medianSeconds)),
                    ])
                  })
              ),
              (
                "patterns",
                .array(
                  direction.patterns.enumerated().map { index, pattern in
                    .object([
                      ("main", .bool(index == 0)), ("headsign", .string(pattern.headsign)), ("trips", .number(pattern.tripCount)),
                      ("trips_on_date", .number(pattern.tripsOnDate)), ("shape_ids", .array(pattern.shapeIDs.map(JSON.string))),
                      ("stops", .array(pattern.stops.map { .object(StopCommandSupport.stopJSON($0, manyFeeds: false)) })),
                    ])
                  })
              ),
            ])
          })
      ),
      ("trips_without_stops", .number(details.tripsWithoutStops)),
    ])
  }
}
