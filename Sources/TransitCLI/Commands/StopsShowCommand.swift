import FoundationEssentials
import GTFS
import Services
import TransitModel

/// `transit stops show STOP`: one stop in full.
enum StopsShowCommand: TransitCommand {
  /// Departures listed under the stop.
  static let departureCount = 5

  static let path = ["stops", "show"]
  static let spec = CommandSpec(
    path: path,
    summary: "A stop in full: code, position, station and platforms, routes, next departures",
    arguments: [
      ArgumentSpec(
        "STOP", help: "A stop_id (FEED:stop_id with several feeds), a stop code, or a name matching one stop",
        complete: .dynamic(.favourites))
    ],
    options: [],
    discussion: """
      Lists every route calling at the stop (at any platform, for a station) with the
      destinations shown there, and the next \(departureCount) scheduled departures within two hours.
      ♿ (W in plain ASCII) marks wheelchair boarding (a platform without a value inherits
      its station's).
      """,
    examples: ["transit stops show TINT", "transit stops show 4530 --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let store = try StopCommandSupport.openStore(invocation)
    let place = try StopCommandSupport.resolvePlace(text, in: store, context: invocation.context)
    guard case .stop(let stop) = place else {
      return try showComplex(place.complex!, store: store, invocation: invocation)
    }
    let parent = try store.parent(of: stop)
    let platforms = stop.isStation ? try store.platforms(of: stop) : []
    let routes = try store.routesWithDestinations(at: stop)
    let zone = store.timeZone(of: stop.feed)
    let now = invocation.now
    // The departure board's rule (a half-open window), on the timetable alone.
    let calls = try DepartureBoard.departures(
      store: store, stop: stop, platforms: platforms, live: .none(now: now),
      query: BoardQuery(start: now, windowMinutes: 120, limit: departureCount)
    ).map(\.call)
    let manyFeeds = store.feedNames.count > 1

    if invocation.global.json {
      func stopObject(_ stop: Stop) -> JSON {
        .object(
          StopCommandSupport.stopJSON(stop, manyFeeds: manyFeeds) + [
            ("location_type", .number(stop.locationType)), ("parent_station", .optional(stop.parentStation?.rawValue)),
            ("platform_code", .optional(stop.platformCode)),
          ])
      }
      let json = JSON.object([
        ("stop", stopObject(stop)),
        ("parent_station", parent.map(stopObject) ?? .null),
        ("platforms", .array(platforms.map(stopObject))),
        (
          "routes",
          .array(
            routes.map { entry in
              .object([
                ("route_id", .string(entry.route.id.rawValue)), ("route_short_name", .string(entry.route.shortName)),
                ("route_long_name", .optional(entry.route.longName)), ("route_type", .number(entry.route.routeType)),
                ("mode", .string(entry.route.mode.rawValue)), ("destinations", .array(entry.destinations.map(JSON.string))),
              ])
            })
        ),
        ("now", .string(ISOTime.format(now, zone: zone))),
        ("departures", .array(calls.map { DeparturesCommand.departureJSON($0, zone: zone, reachable: nil) })),
      ])
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }

    let out = invocation.context.stdout
    let colour = invocation.useColor
    let kind = StopCommandSupport.kind(of: stop)
    let plain = invocation.usesPlainSymbols
    func wheelchair(_ stop: Stop) throws -> String {
      let mark = RiderMarks.wheelchair(try Accessibility.stop(stop, in: store), plain: plain)
      return mark.isEmpty ? "" : " " + mark
    }
    out.line(TerminalText.singleLine(stop.name) + (kind.isEmpty ? "" : " (\(kind))") + (try wheelchair(stop)))
    var facts = ["id \((manyFeeds ? "\(stop.feed):" : "") + stop.id.rawValue)"]
    if let code = stop.code { facts.append("code \(code)") }
    if let position = stop.coordinate { facts.append(StopCommandSupport.describe(position)) }
    out.line("  " + facts.joined(separator: " · "))
    if let parent { out.line("  in station \(TerminalText.singleLine(parent.name)) (\(parent.id))") }
    if !platforms.isEmpty {
      out.line("platforms:")
      var rows: [[String]] = []
      for platform in platforms {
        let routes = try store.routes(at: platform).map { StopCommandSupport.coloured($0.shortName, mode: $0.mode, enabled: colour) }
        rows.append([
          "  " + StopCommandSupport.kind(of: platform) + (try wheelchair(platform)), platform.id.rawValue, platform.code ?? "",
          routes.joined(separator: " "),
        ])
      }
      out.write(StopCommandSupport.table(rows))
    }
    out.line("routes:")
    if routes.isEmpty {
      out.line("  none call here")
    } else {
      let rows = routes.map { entry in
        [
          "  " + StopCommandSupport.coloured(entry.route.shortName, mode: entry.route.mode, enabled: colour),
          entry.route.mode.rawValue,
          entry.destinations.isEmpty ? "(trips end here)" : "to " + entry.destinations.map(\.shown).joined(separator: " / "),
        ]
      }
      out.write(StopCommandSupport.table(rows))
    }
    out.line("next departures:")
    if calls.isEmpty {
      let reason = DepartureBoard.emptyReason(store: store, stop: stop, start: now)?.warning(feed: stop.feed.rawValue)
      out.line(reason.map { "  none: " + $0 } ?? "  none in the next two hours")
    } else {
      let twelve = StopCommandSupport.uses12HourClock(invocation)
      let rows = calls.map { call -> [String] in
        let time = call.scheduledTime ?? now
        return [
          "  " + call.routeShortName.shown, call.headsign.shown,
          "\(StopCommandSupport.clock(time, zone: zone, twelveHour: twelve)) · \(StopCommandSupport.countdown(to: time, from: now))",
        ]
      }
      out.write(StopCommandSupport.table(rows))
    }
    return 0
  }

  /// A station complex: its stations (or stops) with their routes, and the next departures of
  /// all of them, as one board on the timetable alone.
  static func showComplex(_ complex: StopComplex, store: Store, invocation: Invocation) throws -> Int32 {
    let now = invocation.now
    let session = TransitSession(store: store, options: try RealtimeSupport.options(invocation, settings: try invocation.settings()))
    let board = try session.board(
      BoardRequest(places: [.complex(complex)], query: BoardQuery(start: now, windowMinutes: 120, limit: departureCount)),
      live: .none(now: now))
    let manyFeeds = store.feedNames.count > 1
    let routes = try complex.parts.map { try store.routes(at: $0) }
    if invocation.global.json {
      let parts = zip(complex.parts, routes).map { part, routes in
        JSON.object(
          StopCommandSupport.stopJSON(part, manyFeeds: true) + [
            ("location_type", .number(part.locationType)), ("routes", .array(routes.map { .string($0.shortName) })),
          ])
      }
      let json = JSON.object([
        ("complex", StopCommandSupport.complexJSON(complex)), ("parts", .array(parts)),
        ("now", .string(ISOTime.format(now, zone: board.zone))),
        ("departures", .array(board.rows.map { DeparturesCommand.departureJSON($0.departure, zone: board.zone, reachable: nil) })),
      ])
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }
    let out = invocation.context.stdout
    let colour = invocation.useColor
    out.line(TerminalText.singleLine(complex.name) + " (\(StopsSearchCommand.complexKind(complex)))")
    out.line(complex.parts.allSatisfy(\.isStation) ? "stations:" : "stops:")
    out.write(
      StopCommandSupport.table(
        zip(complex.parts, routes).map { part, routes in
          [
            "  " + (manyFeeds ? "\(part.feed):" : "") + part.id.rawValue, part.code ?? "", TerminalText.singleLine(part.name),
            routes.map { StopCommandSupport.coloured($0.shortName, mode: $0.mode, enabled: colour) }.joined(separator: " "),
          ]
        }))
    out.line("next departures:")
    if board.rows.isEmpty {
      out.line(board.emptyReason?.warning(feed: board.stop.feed.rawValue).map { "  none: " + $0 } ?? "  none in the next two hours")
    } else {
      let twelve = StopCommandSupport.uses12HourClock(invocation)
      out.write(
        StopCommandSupport.table(
          board.rows.map { row in
            let call = row.departure.call
            let time = call.scheduledTime ?? now
            return [
              "  " + call.routeShortName.shown, call.headsign.shown, (row.partLabel ?? row.platform)?.shown ?? "",
              "\(StopCommandSupport.clock(time, zone: board.zone, twelveHour: twelve)) · \(StopCommandSupport.countdown(to: time, from: now))",
            ]
          }))
    }
    return 0
  }
}
