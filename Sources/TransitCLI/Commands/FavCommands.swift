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

  /// A favourite as shown: one stop, or a group of stops under one name (its first stop's
  /// favourite standing for it).
  struct Entry {
    var first: Resolved
    /// Every stop of a group (those the timetables hold); empty for a single favourite.
    var members: [Resolved]
    var group: String? { first.favourite.group }
    /// The stops held, for a board.
    var stops: [Stop] { members.isEmpty ? first.stop.map { [$0] } ?? [] : members.compactMap(\.stop) }
  }

  /// `items` with each group's stops made one entry, where its first stop was.
  static func entries(_ items: [Resolved]) -> [Entry] {
    var entries: [Entry] = []
    for item in items {
      if let group = item.favourite.group, let index = entries.firstIndex(where: { $0.group == group }) {
        entries[index].members.append(item)
      } else {
        entries.append(Entry(first: item, members: item.favourite.group == nil ? [] : [item]))
      }
    }
    return entries
  }

  /// A group as JSON: the first stop's favourite object with `group` and `stops` (each stop's).
  static func json(_ entry: Entry, manyFeeds: Bool) -> [(String, JSON)] {
    var members = json(entry.first, manyFeeds: manyFeeds)
    guard let group = entry.group else { return members }
    members.append(("group", .string(group)))
    members.append(("stops", .array(entry.members.map { .object(json($0, manyFeeds: manyFeeds)) })))
    return members
  }

  /// A group's NAME as saved (spaces trimmed, lower case): it starts with a letter, so that
  /// `fav add 4529 4530` is not read as a group named 4529.
  static func groupName(_ text: String) throws(UsageError) -> String {
    let name = text.trimmingSpaces().lowercased()
    guard let first = name.first, first.isLetter, name.count <= 40,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
    else {
      throw UsageError(
        "favourite name '\(text)' must start with a letter and be at most 40 characters (NAME STOP STOP... saves a group)")
    }
    return name
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
  static let name = Option.text(
    "--name", value: "TEXT", help: "A group's name as shown (default: NAME, or the complex's name)")

  static let path = ["fav", "add"]
  static let spec = CommandSpec(
    path: path,
    summary: "Add a favourite stop, station complex or group of stops (shown by 'transit' with no arguments)",
    arguments: [
      ArgumentSpec(
        "STOP",
        help:
          "A stop_id, a stop code, a name matching one stop, or a station complex's name; NAME STOP STOP... saves a group of stops under NAME",
        variadic: true)
    ],
    options: [
      route.spec, label.spec, name.spec,
    ],
    discussion: """
      Favourites live in user.sqlite, which loading a timetable never touches. 'transit' with
      no arguments lists them, nearest first, each with its next three departures. A favourite
      whose stop disappears from a new timetable is kept and flagged (the stop may come back).
      Adding a favourite again changes its route and label.

      A station complex ('Times Sq-42 St') is saved as a group of its stations under its name;
      NAME STOP STOP... saves the stops (a corner's four bus stops, two stations you use) as a
      group NAME. A group is one favourite: one board of all its stops, removed by its NAME.
      A stop belongs to one favourite at a time: adding it again moves it.
      """,
    examples: [
      "transit fav add TINT", "transit fav add 4530 --route 27 --label 'to work'",
      "transit fav add corner 4529 4530 --name 'Main Rd corner'",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    let texts = invocation.arguments.positionals
    _ = try invocation.argument(0)  // a missing STOP is a usage error
    let store = try StopCommandSupport.openStore(invocation)
    let route = try invocation.arguments.read(Self.route)
    let givenName = try invocation.arguments.read(Self.name).flatMap { $0.isEmpty ? nil : $0 }
    let label = try invocation.arguments.read(Self.label).flatMap { $0.isEmpty ? nil : $0 }
    // One STOP (a stop, station or complex), or NAME and its STOPs.
    let group: String?
    var stops: [Stop] = []
    if texts.count == 1 {
      let place = try StopCommandSupport.resolvePlace(texts[0], in: store, context: invocation.context)
      group = place.complex?.name
      stops = place.parts
    } else {
      group = try FavSupport.groupName(texts[0])
      for text in texts.dropFirst() {
        for part in try StopCommandSupport.resolvePlace(text, in: store, context: invocation.context).parts where !stops.contains(part) {
          stops.append(part)
        }
      }
    }
    if group == nil, givenName != nil { throw UsageError("--name names a group: give NAME STOP STOP..., or use --label") }
    if let route {
      var routes: [RouteSummary] = []
      for stop in stops { routes += try store.routes(at: stop) }
      let wanted = route.lowercased()
      guard routes.contains(where: { $0.shortName.lowercased() == wanted || $0.id.rawValue.lowercased() == wanted }) else {
        let names = routes.map(\.shortName).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        throw NotFoundError(
          "route '\(route)' does not call at \(group ?? stops[0].name); routes there: \(names.joined(separator: ", "))")
      }
    }
    let shownLabel = group == nil ? label : givenName ?? label ?? group
    let users = try UserStore(directory: invocation.paths.data)
    if let group { _ = try users.removeFavourites(group: group) }  // saved again: the stops given now
    for stop in stops {
      try users.addFavourite(
        feed: stop.feed.rawValue, stopID: stop.id.rawValue, label: shownLabel, route: route, group: group, now: invocation.now.seconds)
    }
    let manyFeeds = store.feedNames.count > 1
    let items = stops.map { stop in
      FavSupport.Resolved(
        favourite: UserStore.Favourite(
          feed: stop.feed.rawValue, stopID: stop.id.rawValue, label: shownLabel, route: route, group: group), stop: stop)
    }
    let entry = FavSupport.entries(items)[0]
    if invocation.global.json {
      invocation.context.stdout.line(JSON.object(FavSupport.json(entry, manyFeeds: manyFeeds)).serialized(pretty: true))
    } else if let group {
      let ids = stops.map { (manyFeeds ? "\($0.feed):" : "") + ($0.code ?? $0.id.rawValue) }.joined(separator: ", ")
      invocation.context.stdout.line(
        "added favourite \(group): \(shownLabel ?? group) (\(ids))\(route.map { ", route \($0)" } ?? "")")
    } else {
      let stop = stops[0]
      let code = stop.code.map { " [\($0)]" } ?? ""
      invocation.context.stdout.line(
        "added favourite \(stop.id.rawValue.shown): \((label ?? stop.name).shown)\(code.shown)\(route.map { ", route \($0)" } ?? "")")
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
    discussion:
      "With --json: [{feed, stop_id, label, route, missing, stop: {stop_id, stop_code, name, lat, lon} | null}]; a group also has group and stops (each such an object).",
    examples: ["transit fav list", "transit fav list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let favourites = try UserStore(directory: invocation.paths.data).favourites()
    let store = try Store(directory: invocation.paths.data)
    let manyFeeds = store.feedNames.count > 1
    let items = try FavSupport.resolved(favourites, store: store.isEmpty ? nil : store)
    let out = invocation.context.stdout
    let entries = FavSupport.entries(items)
    if invocation.global.json {
      out.line(JSON.array(entries.map { .object(FavSupport.json($0, manyFeeds: manyFeeds)) }).serialized(pretty: true))
      return 0
    }
    guard !items.isEmpty else {
      out.line("no favourite stops yet; add one with 'transit fav add STOP'")
      return 0
    }
    let rows = entries.map { entry -> [String] in
      let item = entry.first
      let favourite = item.favourite
      if let group = entry.group {
        let ids = entry.members.map { FavSupport.id($0.favourite, manyFeeds: manyFeeds) }.joined(separator: ", ")
        let missing = entry.members.contains { $0.stop == nil } ? " (some \(FavSupport.missingNote))" : ""
        return [
          group.shown, "", (favourite.label ?? group).shown + (favourite.route.map { ", route \($0)" } ?? "") + missing,
          "\(entry.members.count) stops: \(ids)",
        ]
      }
      guard let stop = item.stop else {
        return [FavSupport.id(favourite, manyFeeds: manyFeeds), "", favourite.label?.shown ?? "", "(\(FavSupport.missingNote))"]
      }
      var name = favourite.label.map { "\($0.shown) (\(stop.name.shown))" } ?? stop.name.shown
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
    // A group by its name first, then a favourite's own id: its stop may have left the timetable.
    if let group = favourites.lazy.compactMap(\.group).first(where: { $0.lowercased() == text.trimmingSpaces().lowercased() }) {
      let count = try users.removeFavourites(group: group)
      if invocation.global.json {
        invocation.context.stdout.line(
          JSON.object([("removed", .object([("group", .string(group)), ("stops", .number(count))]))]).serialized(pretty: true))
      } else {
        invocation.context.stdout.line("removed favourite \(group) (\(count) stops)")
      }
      return 0
    }
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
