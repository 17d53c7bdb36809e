import FoundationEssentials
import GTFS
import Services
import TransitModel

/// `transit stops near [LAT,LON]`: the nearest stops, nearest first.
enum StopsNearCommand: TransitCommand {
  static let radius = Option.integer(
    "--radius", value: "M", in: 1...Int(Store.nearbyLimitMeters),
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
    let limit = try arguments.read(Self.limit)
    let radius = try arguments.read(Self.radius).map(Double.init)
    let modes = try arguments.read(mode)
    let stations = arguments.isSet(Self.stations)
    try MapSupport.validate(invocation)
    let store = try StopCommandSupport.openStore(invocation)
    let point: Coordinate
    if let text = arguments.positionals.first {
      point = try StopCommandSupport.location(try ValueParser.place(text, option: "LAT,LON"), invocation: invocation)
    } else {
      guard let (fallback, source) = try StopCommandSupport.fallbackLocation(invocation, store: store) else {
        throw RuntimeError("no position to look from: give LAT,LON or set TRANSIT_LOCATION")
      }
      point = fallback
      if !invocation.global.json {
        invocation.context.stderr.line("near \(StopCommandSupport.describe(point)): \(source)")
      }
    }
    let accessibleOnly = arguments.isSet(accessible)
    var found = try store.nearby(
      point, radiusMeters: radius, limit: accessibleOnly ? min(10_000, limit * 20) : limit, modes: modes, stations: stations)
    var access: [StopID: (WheelchairAccess, Int?)] = [:]
    for entry in found {
      let attributes = try store.attributes(ofStop: entry.stop.id, feed: entry.stop.feed)
      access[entry.stop.id] = (
        Accessibility.stop(own: attributes?.wheelchairBoarding, parent: attributes?.parentWheelchairBoarding),
        attributes?.wheelchairBoarding
      )
    }
    if accessibleOnly {
      found = Array(found.filter { access[$0.stop.id]?.0.passesFilter ?? false }.prefix(limit))
    }
    var platforms: [StopID: [Stop]] = [:]
    if stations {
      for entry in found where entry.stop.isStation { platforms[entry.stop.id] = try store.platforms(of: entry.stop) }
    }
    let manyFeeds = store.feedNames.count > 1
    // The complex each stop found is part of (itself, or its station): one line for all of them.
    var complexes: [Stop: StopComplex] = [:]
    let places = try store.places(grouping: found.map(\.stop))
    for entry in found {
      let member = try store.member(of: entry.stop)
      complexes[entry.stop] = places.lazy.compactMap(\.complex).first { $0.parts.contains(member) }
    }

    if invocation.global.json {
      let json = JSON.array(
        found.map { entry in
          var members = StopCommandSupport.stopJSON(entry.stop, manyFeeds: manyFeeds)
          members += [
            ("distance_m", .double((entry.distanceMeters * 10).rounded() / 10)),
            ("location_type", .number(entry.stop.locationType)),
            ("parent_station", .optional(entry.stop.parentStation?.rawValue)),
            ("routes", .array(entry.routes.map { .string($0.shortName) })),
            ("wheelchair_boarding", .optional(access[entry.stop.id]?.1)),
            ("wheelchair_access", .string((access[entry.stop.id]?.0 ?? .unknown).rawValue)),
          ]
          if stations && entry.stop.isStation {
            members.append(("platforms", .array((platforms[entry.stop.id] ?? []).map { .string($0.id.rawValue) })))
          }
          if let complex = complexes[entry.stop] { members.append(("complex", StopCommandSupport.complexJSON(complex))) }
          return .object(members)
        })
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }

    let out = invocation.context.stdout
    guard !found.isEmpty else {
      out.line("no stops within \(radius.map { "\(Int($0)) m" } ?? "100 km") of \(StopCommandSupport.describe(point))")
      return 0
    }
    let colour = invocation.useColor
    func routeList(_ routes: [RouteSummary]) -> String {
      routes.map { StopCommandSupport.coloured($0.shortName.shown, mode: $0.mode, enabled: colour) }.joined(separator: " ")
    }
    func wheelchair(_ access: WheelchairAccess) -> String {
      let mark = RiderMarks.wheelchair(access, plain: invocation.usesPlainSymbols)
      return mark.isEmpty ? "" : " " + mark
    }
    var rows: [[String]] = []
    let labels = try store.distinguishingLabels(found.map(\.stop)).map { $0?.shown }
    let walking = try StopCommandSupport.walkingModel(invocation)
    var listed: Set<StopComplex> = []
    for (entry, label) in zip(found, labels) {
      if let complex = complexes[entry.stop] {
        // One line where its nearest stop was, at the walk to its nearest entrance.
        guard listed.insert(complex).inserted else { continue }
        let meters = try store.nearestEntranceMeters(of: complex, from: point) ?? entry.distanceMeters
        var routes: [RouteSummary] = []
        for part in complex.parts { routes += try store.routes(at: part).filter { !routes.contains($0) } }
        rows.append([
          StopCommandSupport.distance(meters), StopCommandSupport.walkText(meters, walking), "",
          complex.name.shown + " (\(StopsSearchCommand.complexKind(complex)))", "complex", routeList(routes),
        ])
        continue
      }
      let kind = StopCommandSupport.kind(of: entry.stop)
      rows.append([
        StopCommandSupport.distance(entry.distanceMeters), StopCommandSupport.walkText(entry.distanceMeters, walking),
        entry.stop.code ?? "",
        entry.stop.name.shown + (kind.isEmpty ? "" : " (\(kind))") + (label.flatMap { kind.contains($0) ? nil : " · " + $0 } ?? "")
          + wheelchair(access[entry.stop.id]?.0 ?? .unknown),
        (manyFeeds ? "\(entry.stop.feed):" : "") + entry.stop.id.rawValue,
        routeList(entry.routes),
      ])
      for platform in platforms[entry.stop.id] ?? [] {
        rows.append([
          "", "", platform.code ?? "",
          "  " + (StopCommandSupport.kind(of: platform).isEmpty ? platform.name.shown : StopCommandSupport.kind(of: platform))
            + wheelchair(try Accessibility.stop(platform, in: store)),
          platform.id.rawValue, routeList(try store.routes(at: platform)),
        ])
      }
    }
    out.write(StopCommandSupport.table(rows, rightAligned: [0]))
    if arguments.isSet(MapSupport.map) {
      var renderer = MapRenderer()
      renderer.stops = found.compactMap(\.stop.coordinate)
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
}
