import FoundationEssentials
import GTFS
import TransitModel
import UserData

/// What the `fav` commands and the no-argument view share.
enum FavSupport {
  /// A favourite and the stop it names in the timetables held (nil: missing since a re-ingest).
  struct Resolved {
    var favourite: UserStore.Favourite
    var stop: Stop?
  }

  /// Every favourite, each with its stop when the timetables still hold it.
  static func resolved(_ favourites: [UserStore.Favourite], store: Store?) throws -> [Resolved] {
    try favourites.map { favourite in
      let stop = try store.flatMap { store in
        store.feedNames.contains(FeedName(favourite.feed)) ? try store.stop(StopID(favourite.stopID), feed: FeedName(favourite.feed)) : nil
      }
      return Resolved(favourite: favourite, stop: stop)
    }
  }

  /// "TINT" or "demo:TINT" with several feeds.
  static func id(_ favourite: UserStore.Favourite, manyFeeds: Bool) -> String {
    (manyFeeds ? favourite.feed + ":" : "") + favourite.stopID
  }

  /// The note for a favourite whose stop the timetables no longer hold.
  static let missingNote = "not in the timetable since the last ingest; kept in case it returns"

  /// A favourite as JSON: `{feed, stop_id, label, route, missing, stop}`.
  static func json(_ item: Resolved, manyFeeds: Bool) -> [(String, JSON)] {
    [
      ("feed", .string(item.favourite.feed)), ("stop_id", .string(item.favourite.stopID)),
      ("label", .optional(item.favourite.label)), ("route", .optional(item.favourite.route)),
      ("missing", .bool(item.stop == nil)),
      ("stop", item.stop.map { .object(StopCommandSupport.stopJSON($0, manyFeeds: manyFeeds)) } ?? .null),
    ]
  }
}

/// `transit fav add STOP [--route R] [--label TEXT]`.
enum FavAddCommand: TransitCommand {
  static let route = Option.text(
    "--route", value: "R", help: "Only this route's departures (short name or route_id)", complete: .dynamic(.routes))
  static let label = Option.text("--label", value: "TEXT", help: "Your name for it (default: the stop's name)")

  static let path = ["fav", "add"]
  static let spec = CommandSpec(
    path: path,
    summary: "Add a favourite stop (shown by 'transit' with no arguments)",
    arguments: [ArgumentSpec("STOP", help: "A stop_id, a stop code, or a name matching one stop")],
    options: [
      route.spec, label.spec,
    ],
    discussion: """
      Favourites live in user.sqlite, which loading a timetable never touches. 'transit' with
      no arguments lists them, nearest first, each with its next three departures. A favourite
      whose stop disappears from a new timetable is kept and flagged (the stop may come back).
      Adding a favourite again changes its route and label.
      """,
    examples: ["transit fav add TINT", "transit fav add 4530 --route 27 --label 'to work'"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let store = try StopCommandSupport.openStore(invocation)
    let stop = try StopCommandSupport.resolveStop(text, in: store, context: invocation.context)
    let route = try invocation.arguments.read(Self.route)
    if let route {
      let routes = try store.routes(at: stop)
      let wanted = route.lowercased()
      guard routes.contains(where: { $0.shortName.lowercased() == wanted || $0.id.rawValue.lowercased() == wanted }) else {
        throw NotFoundError(
          "route '\(route)' does not call at \(stop.name); routes there: \(routes.map(\.shortName).joined(separator: ", "))")
      }
    }
    let label = try invocation.arguments.read(Self.label).flatMap { $0.isEmpty ? nil : $0 }
    let users = try UserStore(directory: invocation.paths.data)
    try users.addFavourite(feed: stop.feed.rawValue, stopID: stop.id.rawValue, label: label, route: route, now: invocation.now.seconds)
    let favourite = UserStore.Favourite(feed: stop.feed.rawValue, stopID: stop.id.rawValue, label: label, route: route)
    if invocation.global.json {
      let item = FavSupport.Resolved(favourite: favourite, stop: stop)
      invocation.context.stdout.line(JSON.object(FavSupport.json(item, manyFeeds: store.feedNames.count > 1)).serialized(pretty: true))
    } else {
      let code = stop.code.map { " [\($0)]" } ?? ""
      invocation.context.stdout.line(
        "added favourite \(stop.id.rawValue): \(label ?? stop.name)\(code)\(route.map { ", route \($0)" } ?? "")")
    }
    return 0
  }
}

/// `transit fav list`.
enum FavListCommand: TransitCommand {
  static let path = ["fav", "list"]
  static let spec = CommandSpec(
    path: path,
    summary: "The favourite stops",
    discussion: "With --json: [{feed, stop_id, label, route, missing, stop: {stop_id, stop_code, name, lat, lon} | null}].",
    examples: ["transit fav list", "transit fav list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let favourites = try UserStore(directory: invocation.paths.data).favourites()
    let store = try Store(directory: invocation.paths.data)
    let manyFeeds = store.feedNames.count > 1
    let items = try FavSupport.resolved(favourites, store: store.isEmpty ? nil : store)
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSON.array(items.map { .object(FavSupport.json($0, manyFeeds: manyFeeds)) }).serialized(pretty: true))
      return 0
    }
    guard !items.isEmpty else {
      out.line("no favourite stops yet; add one with 'transit fav add STOP'")
      return 0
    }
    let rows = items.map { item -> [String] in
      let favourite = item.favourite
      guard let stop = item.stop else {
        return [FavSupport.id(favourite, manyFeeds: manyFeeds), "", favourite.label ?? "", "(\(FavSupport.missingNote))"]
      }
      var name = favourite.label.map { "\($0) (\(stop.name))" } ?? stop.name
      if let route = favourite.route { name += ", route \(route)" }
      return [FavSupport.id(favourite, manyFeeds: manyFeeds), stop.code ?? "", name, StopCommandSupport.kind(of: stop)]
    }
    out.write(StopCommandSupport.table(rows))
    return 0
  }
}

/// `transit fav remove STOP`.
enum FavRemoveCommand: TransitCommand {
  static let path = ["fav", "remove"]
  static let spec = CommandSpec(
    path: path,
    summary: "Remove a favourite stop",
    arguments: [
      ArgumentSpec(
        "STOP", help: "The favourite's stop_id (FEED:stop_id with several feeds), stop code or name", complete: .dynamic(.favourites))
    ],
    examples: ["transit fav remove TINT", "transit fav remove 4530"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let users = try UserStore(directory: invocation.paths.data)
    let favourites = try users.favourites()
    // A favourite's own id first: its stop may have left the timetable.
    var target = favourites.first { $0.stopID == text || "\($0.feed):\($0.stopID)" == text }
    if target == nil {
      let store = try Store(directory: invocation.paths.data)
      if !store.isEmpty {
        let stop = try StopCommandSupport.resolveStop(text, in: store, context: invocation.context)
        target = favourites.first { $0.feed == stop.feed.rawValue && $0.stopID == stop.id.rawValue }
      }
    }
    guard let target, try users.removeFavourite(feed: target.feed, stopID: target.stopID) else {
      throw NotFoundError("'\(text)' is not a favourite (see 'transit fav list')")
    }
    if invocation.global.json {
      invocation.context.stdout.line(
        JSON.object([("removed", .object([("feed", .string(target.feed)), ("stop_id", .string(target.stopID))]))]).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("removed favourite \(target.stopID)")
    }
    return 0
  }
}
