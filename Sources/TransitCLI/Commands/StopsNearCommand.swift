import FoundationEssentials
import Services
import TransitModel

/// `transit stops near [LAT,LON]`: the nearest stops, nearest first.
enum StopsNearCommand: TransitCommand {
  static let radius = Option.integer(
    "--radius", value: "M", in: 1...NearbyRequest.maximumRadiusMeters,
    help: "Only stops within M metres, 1 to 100000 (default: the nearest, however far, up to 100 km)")
  static let limit = Option.integer("--limit", short: "-n", value: "N", in: 1...10_000, help: "Show at most N stops").defaulting(to: 10)
  static let mode = Option.modes(
    "--mode", value: "MODE",
    help: "Only stops served by MODE: \(ValueParser.modeNames.joined(separator: ", ")) (comma-separated or repeated)")
  static let stations = Option.flag("--stations", help: "List a station once, with its platforms under it, instead of each platform")
  static let accessible = Option.flag(
    "--accessible",
    help:
      "Only stops with wheelchair boarding (wheelchair_boarding 1, a platform inheriting its station's); a stop the feed says nothing about counts as not accessible"
  )

  static let path = ["stops", "near"]
  static let spec = CommandSpec(
    path: path,
    summary: "The stops nearest a position, with the routes serving them and wheelchair access (--accessible)",
    arguments: [
      ArgumentSpec(
        "LAT,LON",
        help: "Where to look from, or a saved place (default: saved place 'home', else TRANSIT_LOCATION, else the network's middle)",
        optional: true, complete: .dynamic(.places))
    ],
    options: [
      radius.spec, limit.spec, mode.spec, stations.spec, accessible.spec,
      MapSupport.map.spec,
      MapSupport.ascii.spec,
    ],
    discussion: """
      Without LAT,LON it uses your saved place 'home' (user.sqlite), else the TRANSIT_LOCATION
      environment variable (LAT,LON), else the middle of the network, and says which on stderr.
      Extended route types (100-1799) count as their basic mode: 700-799 bus, 900-999 tram, ...
      ♿ (W in plain ASCII) marks a stop with wheelchair boarding. A station complex (stations
      of one name within 400 m, across the feeds held too) is one line, at the walk to its
      nearest entrance (else its nearest stop).
      """,
    examples: [
      "transit stops near 53.2875,-6.3664",
      "transit stops near --radius 300 --mode tram",
      "transit stops near --stations --json",
      "transit stops near 53.2875,-6.3664 --radius 800 --map",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let arguments = invocation.arguments
    try MapSupport.validate(invocation)
    let session = try SessionSupport.session(invocation)
    let point: Coordinate
    if let text = arguments.positionals.first {
      point = try StopCommandSupport.location(try ValueParser.place(text, option: "LAT,LON"), invocation: invocation)
    } else {
      guard let (fallback, source) = try StopCommandSupport.fallbackLocation(invocation, session: session) else {
        throw RuntimeError("no position to look from: give LAT,LON or set TRANSIT_LOCATION")
      }
      point = fallback
      if !invocation.global.json { invocation.context.stderr.line("near \(StopCommandSupport.describe(point)): \(source)") }
    }
    let answer = try session.nearby(
      NearbyRequest(
        point: point, radiusMeters: try arguments.read(radius).map(Double.init), limit: try arguments.read(limit),
        modes: try arguments.read(mode), stations: arguments.isSet(stations), accessibleOnly: arguments.isSet(accessible)))
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let out = invocation.context.stdout
    guard !answer.entries.isEmpty else {
      out.line("no stops within \(answer.request.radiusMeters.map { "\(Int($0)) m" } ?? "100 km") of \(StopCommandSupport.describe(point))")
      return 0
    }
    let rows = try rows(answer, invocation: invocation)
    out.write(StopCommandSupport.table(rows, rightAligned: [0]))
    if arguments.isSet(MapSupport.map) {
      var renderer = MapRenderer()
      renderer.stops = answer.entries.compactMap(\.stop.coordinate)
      renderer.location = point
      renderer.locationName = "you"
      let ascii = MapSupport.isASCII(invocation)
      let size = MapSupport.size(invocation, reserved: rows.count + 3)
      out.line()
      out.write(MapSupport.trimmed(renderer.render(columns: size.columns, rows: size.rows - 1, ascii: ascii)))
      out.line("@ you are here\(MapSupport.separator(ascii: ascii))\(MapRenderer.stopMark(ascii: ascii)) stops")
    }
    return 0
  }

  /// The table's rows: distance, walk, code, name (kind, label, access), id, routes; a
  /// complex once, where its nearest stop was; a station's platforms under it.
  static func rows(_ answer: NearbyAnswer, invocation: Invocation) throws -> [[String]] {
    let colour = invocation.useColor
    func routeList(_ routes: [RouteSummary]) -> String {
      routes.map { StopCommandSupport.coloured($0.shortName.shown, mode: $0.mode, enabled: colour) }.joined(separator: " ")
    }
    func wheelchair(_ access: WheelchairAccess) -> String {
      let mark = RiderMarks.wheelchair(access, plain: invocation.usesPlainSymbols)
      return mark.isEmpty ? "" : " " + mark
    }
    var rows: [[String]] = []
    let walking = try StopCommandSupport.walkingModel(invocation)
    var listed: Set<StopComplex> = []
    for entry in answer.entries {
      if let complex = entry.complex {
        guard listed.insert(complex.complex).inserted else { continue }
        rows.append([
          StopCommandSupport.distance(complex.meters), StopCommandSupport.walkText(complex.meters, walking), "",
          complex.complex.name.shown + " (\(StopsSearchCommand.complexKind(complex.complex)))", "complex", routeList(complex.routes),
        ])
        continue
      }
      let kind = StopCommandSupport.kind(of: entry.stop)
      let label = entry.label?.shown
      rows.append([
        StopCommandSupport.distance(entry.distanceMeters), StopCommandSupport.walkText(entry.distanceMeters, walking),
        entry.stop.code ?? "",
        entry.stop.name.shown + (kind.isEmpty ? "" : " (\(kind))") + (label.flatMap { kind.contains($0) ? nil : " · " + $0 } ?? "")
          + wheelchair(entry.access),
        (answer.namesFeed ? "\(entry.stop.feed):" : "") + entry.stop.id.rawValue,
        routeList(entry.routes),
      ])
      for platform in entry.platforms {
        let kind = StopCommandSupport.kind(of: platform.stop)
        rows.append([
          "", "", platform.stop.code ?? "", "  " + (kind.isEmpty ? platform.stop.name.shown : kind) + wheelchair(platform.access),
          platform.stop.id.rawValue, routeList(platform.routes),
        ])
      }
    }
    return rows
  }
}
