import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
import Services
import TransitModel
import UserData

/// `transit` with no arguments: the favourite stops, nearest first from where the user is, each
/// with its next three departures (live where there is realtime). Without favourites it says
/// how to add one and lists the nearest stops; without a timetable it prints the overview.
enum HomeCommand: TransitCommand {
  /// Departures shown per favourite.
  static let departuresPerStop = 3
  /// Stops listed when there are no favourites.
  static let nearbyCount = 5

  static let path: [String] = []
  static let spec = CommandSpec(
    path: path,
    summary: "Your favourite stops, nearest first, with their next departures",
    options: [from.spec, FeedsSupport.refresh.spec])

  static let from = Option.place("--from", help: "Where you are: a position or a saved place (default: 'home', else TRANSIT_LOCATION)")

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let store = try Store(directory: invocation.paths.data)
    guard !store.isEmpty else {
      invocation.context.stdout.write(Transit.overview())
      invocation.context.stdout.line("No timetable yet: load one with 'transit ingest PATH|URL'.")
      return 0
    }
    StopCommandSupport.warnAboutExpiry(store, invocation)
    let settings = try invocation.settings()
    let session = TransitSession(
      store: store, options: try RealtimeSupport.options(invocation, settings: settings),
      realtime: try FeedsSupport.realtimeSource(invocation), userData: UserDataAccess(directory: invocation.paths.data))
    let location: (Coordinate, String)?
    if let place = try invocation.arguments.read(from) {
      location = (try StopCommandSupport.location(place, invocation: invocation), "--from")
    } else {
      location = try StopCommandSupport.fallbackLocation(invocation, session: session)
    }
    let favourites = try session.favourites().entries
    let now = invocation.now
    let manyFeeds = store.feedNames.count > 1
    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let zone = store.timeZone(of: store.feedNames[0])

    guard !favourites.isEmpty else {
      let nearby = try location.map { try store.nearby($0.0, limit: nearbyCount, stations: true) } ?? []
      if invocation.global.json {
        out.line(
          JSON.object([
            ("now", .string(ISOTime.format(now, zone: zone))), ("location", locationJSON(location)),
            ("favourites", .array([])),
            ("nearby", .array(nearby.map { nearbyJSON($0, manyFeeds: manyFeeds) })),
          ]).serialized(pretty: true))
        return 0
      }
      if let card = try HomeCommuteCard.line(invocation, session: session, live: nil, now: now) { out.line(card + "\n") }
      out.line("no favourite stops yet; add one with 'transit fav add STOP'")
      if let (point, source) = location {
        out.line("")
        out.line("nearest stops to \(StopCommandSupport.describe(point)) (\(source)):")
        let walking = try StopCommandSupport.walkingModel(invocation)
        let rows = nearby.map { entry -> [String] in
          let kind = StopCommandSupport.kind(of: entry.stop)
          return [
            "  " + StopCommandSupport.distance(entry.distanceMeters), StopCommandSupport.walkText(entry.distanceMeters, walking),
            entry.stop.code ?? "",
            entry.stop.name.shown + (kind.isEmpty ? "" : " (\(kind))"), (manyFeeds ? "\(entry.stop.feed):" : "") + entry.stop.id.rawValue,
            entry.routes.map(\.shortName).joined(separator: " "),
          ]
        }
        out.write(StopCommandSupport.table(rows, rightAligned: [0]))
      }
      return 0
    }

    // Nearest first; favourites without a position (or missing) keep their order, last.
    let ordered = favourites.enumerated().sorted { a, b in
      let da = distance(a.element, from: location?.0) ?? .infinity
      let db = distance(b.element, from: location?.0) ?? .infinity
      return (da, a.offset) < (db, b.offset)
    }.map(\.element)
    let read = try session.realtime.read(preferring: nil)
    FeedsSupport.report(read.problems, invocation: invocation)
    let feeds = read.feeds
    let live = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: session.options)
    // Each favourite's card is a board (`TransitSession.board`), all on the one matched realtime.
    // A group's card is one board of its stops.
    let sections = try ordered.map { entry -> (FavSupport.Entry, Board?) in
      let stops = entry.stops
      guard !stops.isEmpty else { return (entry, nil) }
      let query = BoardQuery(
        start: now, windowMinutes: max(settings.windowMinutes, 24 * 60), limit: departuresPerStop, route: entry.first.favourite.route)
      return (entry, try session.board(BoardRequest(places: stops.map { .stop($0) }, query: query), live: live))
    }

    if invocation.global.json {
      out.line(
        JSON.object([
          ("now", .string(ISOTime.format(now, zone: zone))), ("location", locationJSON(location)),
          ("realtime", RealtimeSupport.json(live.report, zone: zone)),
          (
            "favourites",
            .array(
              sections.map { entry, board in
                var members = FavSupport.json(entry, manyFeeds: manyFeeds)
                members.append(("distance_m", .optional(distance(entry, from: location?.0).map { ($0 * 10).rounded() / 10 })))
                members.append(("departures", board.map { JSONTreeEncoder.encode($0.departures) } ?? .array([])))
                return .object(members)
              })
          ),
        ]).serialized(pretty: true))
      return 0
    }

    if let (point, source) = location {
      out.line("favourites, nearest first from \(StopCommandSupport.describe(point)) (\(source))")
    } else {
      out.line("favourites")
    }
    if !feeds.isEmpty { out.line(RealtimeSupport.line(live.report, zone: zone, twelveHour: twelve)) }
    if let card = try HomeCommuteCard.line(invocation, session: session, live: live, now: now) { out.line(card) }
    let walking = try StopCommandSupport.walkingModel(invocation)
    for (entry, board) in sections {
      out.line("")
      let item = entry.first
      let favourite = item.favourite
      guard let stop = entry.stops.first, let board else {
        out.line(
          "\((favourite.label ?? FavSupport.id(feed: favourite.feed, stopID: favourite.stopID, manyFeeds: manyFeeds)).shown) [\(FavSupport.id(feed: favourite.feed, stopID: favourite.stopID, manyFeeds: manyFeeds))]: \(FavSupport.missingNote)"
        )
        continue
      }
      var title: String
      if let group = entry.group {
        title = (favourite.label ?? group).shown + " · \(entry.stops.count) stops"
      } else {
        title = favourite.label.map { "\($0.shown) · \(stop.name.shown)" } ?? stop.name.shown
        if let code = stop.code { title += " [\(code.shown)]" }
      }
      if let route = favourite.route { title += " · route \(route)" }
      if let metres = distance(entry, from: location?.0) {
        title += " · \(StopCommandSupport.distance(metres)), \(StopCommandSupport.walkText(metres, walking))"
      }
      out.line(title)
      guard !board.rows.isEmpty else {
        if let reason = board.emptyReason?.warning(feed: stop.feed.rawValue) {
          out.line("  no departures: " + reason)
          continue
        }
        out.line("  no departures in the next \(max(settings.windowMinutes, 24 * 60) / 60) h")
        continue
      }
      let stopZone = board.zone
      var rows = board.rows.map { boardRow -> [String] in
        let departure = boardRow.departure
        let call = departure.call
        let time = departure.time ?? now
        var row = ["  " + call.routeShortName.shown, call.headsign.isEmpty ? "(added trip)" : call.headsign.shown]
        if entry.group != nil { row.append(boardRow.partLabel?.shown ?? "") }
        if entry.stops.contains(where: \.isStation) { row.append(boardRow.platform?.shown ?? "") }
        var when = StopCommandSupport.clock(time, zone: stopZone, twelveHour: twelve)
        if departure.status != .cancelled && departure.status != .skipped {
          when += " · \(StopCommandSupport.countdown(to: time, from: now))"
        }
        row.append(when)
        if !feeds.isEmpty {
          row += DeparturesCommand.realtimeColumns(departure, zone: stopZone, twelveHour: twelve, colour: false)
        }
        return row
      }
      if let width = rows.first?.count, width > 1 {
        for column in (1..<width).reversed() where rows.allSatisfy({ $0[column].isEmpty }) {
          for row in rows.indices { rows[row].remove(at: column) }
        }
      }
      out.write(StopCommandSupport.table(rows))
    }
    return 0
  }

  /// Metres from `point` to the favourite's stop (a group's nearest), when both are known.
  static func distance(_ entry: FavSupport.Entry, from point: Coordinate?) -> Double? {
    guard let point else { return nil }
    return entry.stops.compactMap { $0.coordinate.map(point.distanceMeters) }.min()
  }

  static func locationJSON(_ location: (Coordinate, String)?) -> JSON {
    guard let (point, source) = location else { return .null }
    return .object([("lat", .double(point.latitude)), ("lon", .double(point.longitude)), ("source", .string(source))])
  }

  static func nearbyJSON(_ entry: NearbyStop, manyFeeds: Bool) -> JSON {
    var members = StopCommandSupport.stopJSON(entry.stop, manyFeeds: manyFeeds)
    members += [
      ("distance_m", .double((entry.distanceMeters * 10).rounded() / 10)),
      ("routes", .array(entry.routes.map { .string($0.shortName) })),
    ]
    return .object(members)
  }
}
