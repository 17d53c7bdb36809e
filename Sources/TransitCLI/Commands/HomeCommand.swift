import FoundationEssentials
import Services
import TransitModel

/// `transit` with no arguments: the favourite stops, nearest first from where the user is, each
/// with its next three departures (live where there is realtime). Without favourites it says
/// how to add one and lists the nearest stops; without a timetable it prints the overview.
enum HomeCommand: TransitCommand {
  static let path: [String] = []
  static let spec = CommandSpec(
    path: path,
    summary: "Your favourite stops, nearest first, with their next departures",
    options: [from.spec, RealtimeOptions.refresh.spec])

  static let from = Option.place("--from", help: "Where you are: a position or a saved place (default: 'home', else TRANSIT_LOCATION)")

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let settings = try invocation.settings()
    let session = try SessionSupport.session(invocation, settings: settings, requiresTimetables: false)
    guard session.holdsTimetables else {
      invocation.context.stdout.write(Transit.overview())
      invocation.context.stdout.line("No timetable yet: load one with 'transit ingest PATH|URL'.")
      return 0
    }
    let location: (Coordinate, String)?
    if let place = try invocation.arguments.read(from) {
      location = (try StopCommandSupport.location(place, invocation: invocation), "--from")
    } else {
      location = try StopCommandSupport.fallbackLocation(invocation, session: session)
    }
    let now = invocation.now
    let answer = try session.home(
      HomeRequest(location: location?.0, locationSource: location?.1, windowMinutes: settings.windowMinutes, now: now))
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    if let live = answer.live { RealtimeSupport.warn(live.report, invocation: invocation) }
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let manyFeeds = answer.namesFeed
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let zone = answer.zone
    guard let live = answer.live else {
      if let card = try HomeCommuteCard.line(invocation, answer: answer) { out.line(card + "\n") }
      out.line("no favourite stops yet; add one with 'transit fav add STOP'")
      if let (point, source) = location {
        out.line("")
        out.line("nearest stops to \(StopCommandSupport.describe(point)) (\(source)):")
        let walking = try StopCommandSupport.walkingModel(invocation)
        let rows = answer.nearby.map { entry -> [String] in
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
    let feeds = live.feeds
    if let (point, source) = location {
      out.line("favourites, nearest first from \(StopCommandSupport.describe(point)) (\(source))")
    } else {
      out.line("favourites")
    }
    if !feeds.isEmpty { out.line(RealtimeSupport.line(live.report, zone: zone, twelveHour: twelve)) }
    if let card = try HomeCommuteCard.line(invocation, answer: answer) { out.line(card) }
    let walking = try StopCommandSupport.walkingModel(invocation)
    for card in answer.cards {
      let (entry, board) = (card.entry, card.board)
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
      if let metres = card.distanceMeters {
        title += " · \(StopCommandSupport.distance(metres)), \(StopCommandSupport.walkText(metres, walking))"
      }
      out.line(title)
      guard !board.rows.isEmpty else {
        if let reason = board.emptyReason?.warning(feed: stop.feed.rawValue) {
          out.line("  no departures: " + reason)
          continue
        }
        out.line("  no departures in the next \(board.windowMinutes / 60) h")
        continue
      }
      let table = BoardTable(board: board, now: now, twelveHour: twelve)
      let rows = table.plainRows(board.rows, style: BoardTable.Style(isFullBoard: false))
      out.write(StopCommandSupport.table(rows))
    }
    return 0
  }
}
