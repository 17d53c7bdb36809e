import FoundationEssentials
import Services
import TransitModel

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
    let session = try SessionSupport.session(invocation)
    let route = try invocation.arguments.read(Self.route)
    let givenName = try invocation.arguments.read(Self.name).flatMap { $0.isEmpty ? nil : $0 }
    let label = try invocation.arguments.read(Self.label).flatMap { $0.isEmpty ? nil : $0 }
    // One STOP (a stop, station or complex), or NAME and its STOPs.
    let group: String?
    var stops: [Stop] = []
    if texts.count == 1 {
      let place = try StopCommandSupport.resolvePlace(texts[0], session: session, context: invocation.context)
      group = place.complex?.name
      stops = place.parts
    } else {
      group = try FavSupport.groupName(texts[0])
      for text in texts.dropFirst() {
        for part in try StopCommandSupport.resolvePlace(text, session: session, context: invocation.context).parts
        where !stops.contains(part) {
          stops.append(part)
        }
      }
    }
    if group == nil, givenName != nil { throw UsageError("--name names a group: give NAME STOP STOP..., or use --label") }
    let request = FavouriteRequest(stops: stops, group: group, label: label, groupName: givenName, route: route)
    let shownLabel = request.savedLabel
    let entry: FavouriteEntry
    do {
      entry = try session.addFavourite(request, now: invocation.now)
    } catch FavouriteFailure.routeNotCalling(let route, let place, let routes) {
      throw NotFoundError("route '\(route)' does not call at \(place); routes there: \(routes.joined(separator: ", "))")
    }
    let manyFeeds = session.store.feedNames.count > 1
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(FavouriteAnswer(entry, namesFeed: manyFeeds)))
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
    let answer = try SessionSupport.session(invocation, requiresTimetables: false).favourites()
    let manyFeeds = answer.namesFeed
    let out = invocation.context.stdout
    let entries = answer.entries
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return 0
    }
    guard !entries.isEmpty else {
      out.line("no favourite stops yet; add one with 'transit fav add STOP'")
      return 0
    }
    let rows = entries.map { entry -> [String] in
      let item = entry.first
      let favourite = item.favourite
      if let group = entry.group {
        let ids = entry.members.map { FavSupport.id(feed: $0.favourite.feed, stopID: $0.favourite.stopID, manyFeeds: manyFeeds) }.joined(
          separator: ", ")
        let missing = entry.members.contains { $0.stop == nil } ? " (some \(FavSupport.missingNote))" : ""
        return [
          group.shown, "", (favourite.label ?? group).shown + (favourite.route.map { ", route \($0)" } ?? "") + missing,
          "\(entry.members.count) stops: \(ids)",
        ]
      }
      guard let stop = item.stop else {
        return [
          FavSupport.id(feed: favourite.feed, stopID: favourite.stopID, manyFeeds: manyFeeds), "", favourite.label?.shown ?? "",
          "(\(FavSupport.missingNote))",
        ]
      }
      var name = favourite.label.map { "\($0.shown) (\(stop.name.shown))" } ?? stop.name.shown
      if let route = favourite.route { name += ", route \(route)" }
      return [
        FavSupport.id(feed: favourite.feed, stopID: favourite.stopID, manyFeeds: manyFeeds), stop.code ?? "", name,
        StopCommandSupport.kind(of: stop),
      ]
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
    let session = try SessionSupport.session(invocation, requiresTimetables: false)
    var removal = try session.removeFavourite(named: text)
    if removal == nil, !session.store.isEmpty {
      removal = try session.removeFavourite(at: try StopCommandSupport.resolveStop(text, session: session, context: invocation.context))
    }
    let out = invocation.context.stdout
    switch removal {
    case .group(let group, let count):
      if invocation.global.json {
        out.line(JSON.object([("removed", .object([("group", .string(group)), ("stops", .number(count))]))]).serialized(pretty: true))
      } else {
        out.line("removed favourite \(group) (\(count) stops)")
      }
    case .stop(let feed, let stopID):
      if invocation.global.json {
        out.line(JSON.object([("removed", .object([("feed", .string(feed)), ("stop_id", .string(stopID))]))]).serialized(pretty: true))
      } else {
        out.line("removed favourite \(stopID)")
      }
    case nil:
      throw NotFoundError("'\(text)' is not a favourite (see 'transit fav list')")
    }
    return 0
  }
}
