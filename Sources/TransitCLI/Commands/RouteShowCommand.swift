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
    let drawsMap = arguments.isSet(MapSupport.map)
    if geojson && drawsMap { throw UsageError("--geojson and --map each draw the route; give one") }
    let date = try arguments.read(Self.date)
    let session = try SessionSupport.session(invocation, realtime: { FixedRealtime([]) })
    let route = try RouteCommandSupport.resolveRoute(text, session: session, context: invocation.context)
    let answer: RouteDetailsAnswer
    do {
      answer = try session.routeDetails(
        RouteDetailsRequest(route: route, date: date, directionID: direction, includesMap: geojson || drawsMap), now: invocation.now)
    } catch RouteDetailsFailure.noRoute {
      throw NotFoundError("no route '\(text)'")
    } catch RouteDetailsFailure.noTrips(let route, let direction) {
      throw NotFoundError("route \(route.shortName) has no trips in direction \(direction)")
    }
    let out = invocation.context.stdout
    if geojson, let map = answer.map {
      out.line(GeoJSON.route(answer, lines: map.lines).serialized())
      return 0
    }
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return 0
    }
    RouteShowText.header(answer, invocation: invocation)
    if drawsMap, let map = answer.map {
      var renderer = MapRenderer()
      renderer.lines = map.lines.map(\.points)
      renderer.stops = map.stops
      renderer.names = MapRenderer.termini(map.termini)
      let size = MapSupport.size(invocation, reserved: 4)
      let ascii = MapSupport.isASCII(invocation)
      out.line()
      out.write(MapSupport.trimmed(renderer.render(columns: size.columns, rows: size.rows - 1, ascii: ascii)))
      let lines = map.lines
      out.line(
        "\(MapRenderer.stopMark(ascii: ascii)) stops\(MapSupport.separator(ascii: ascii))\(lines.count) line\(lines.count == 1 ? "" : "s")"
          + (lines.contains { $0.shapeID == nil } ? " (through the stops where shapes.txt has none)" : ""))
      return 0
    }
    RouteShowText.directions(answer, invocation: invocation)
    return 0
  }
}
