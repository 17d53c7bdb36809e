import GTFS
import TransitModel
import UserData

/// A favourite and the stop it names in the timetables held (nil: missing since a re-ingest,
/// kept in case it returns).
public struct FavouriteItem: Sendable {
  public var favourite: UserStore.Favourite
  public var stop: Stop?

  public init(favourite: UserStore.Favourite, stop: Stop?) {
    self.favourite = favourite
    self.stop = stop
  }
}

/// A favourite as a rider sees it: one stop, or a group of stops under one name (its first
/// stop's favourite standing for it).
public struct FavouriteEntry: Sendable {
  public var first: FavouriteItem
  /// Every stop of a group (held or not); empty for a single favourite.
  public var members: [FavouriteItem]

  public var group: String? { first.favourite.group }
  /// The stops held, for a board.
  public var stops: [Stop] { members.isEmpty ? first.stop.map { [$0] } ?? [] : members.compactMap(\.stop) }

  /// `items` with each group's stops made one entry, where its first stop was.
  public static func entries(_ items: [FavouriteItem]) -> [FavouriteEntry] {
    var entries: [FavouriteEntry] = []
    for item in items {
      if let group = item.favourite.group, let index = entries.firstIndex(where: { $0.group == group }) {
        entries[index].members.append(item)
      } else {
        entries.append(FavouriteEntry(first: item, members: item.favourite.group == nil ? [] : [item]))
      }
    }
    return entries
  }
}

/// The user's favourites (`fav list`, `fav add`): each stop or group with its stops as the
/// timetables hold them now. Its `Encodable` form is DESIGN.md's `fav list --json`.
public struct FavouritesAnswer: Sendable {
  public var entries: [FavouriteEntry]
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool
}

/// What a favourite is saved as (`fav add`).
public struct FavouriteRequest: Sendable {
  /// The stops: one stop or station, a complex's parts, or a group's stops.
  public var stops: [Stop]
  /// The group the stops are saved as (a complex's name, or NAME of NAME STOP STOP...).
  public var group: String?
  /// The rider's name for it (`--label`).
  public var label: String?
  /// A group's name as shown (`--name`).
  public var groupName: String?
  /// Only this route's departures.
  public var route: String?

  public init(stops: [Stop], group: String? = nil, label: String? = nil, groupName: String? = nil, route: String? = nil) {
    self.stops = stops
    self.group = group
    self.label = label
    self.groupName = groupName
    self.route = route
  }

  /// The label saved and shown: a single stop's `label`; a group's `groupName`, else `label`,
  /// else the group itself.
  public var savedLabel: String? { group == nil ? label : groupName ?? label ?? group }
}

/// Why a favourite was not saved.
public enum FavouriteFailure: Error, Sendable, Hashable {
  /// The route asked for calls at none of the stops; `routes` are those that do.
  case routeNotCalling(route: String, place: String, routes: [String])
}

/// What `fav remove` removed.
public enum FavouriteRemoval: Sendable, Equatable {
  /// A group, by its name, with how many stops it had.
  case group(String, stops: Int)
  /// One favourite stop.
  case stop(feed: String, stopID: String)
}

extension TransitSession {
  /// The user's favourites, each with its stop when the timetables still hold it.
  /// - Throws: the stores' errors.
  public func favourites() throws -> FavouritesAnswer {
    let favourites = try userData.openIfPresent()?.favourites() ?? []
    return FavouritesAnswer(entries: FavouriteEntry.entries(try resolved(favourites)), namesFeed: store.feedNames.count > 1)
  }

  /// `favourites` with their stops as the timetables hold them.
  /// - Throws: the store's errors.
  public func resolved(_ favourites: [UserStore.Favourite]) throws -> [FavouriteItem] {
    try favourites.map { favourite in
      let feed = FeedName(favourite.feed)
      let stop = store.feedNames.contains(feed) ? try store.stop(StopID(favourite.stopID), feed: feed) : nil
      return FavouriteItem(favourite: favourite, stop: stop)
    }
  }

  /// Saves `request` at `now` (a group saved again holds the stops given now; a stop moves to
  /// the favourite it is added to), and returns the entry saved.
  /// - Throws: `FavouriteFailure` for a route calling at none of the stops; the stores' errors.
  public func addFavourite(_ request: FavouriteRequest, now: UnixTime) throws -> FavouriteEntry {
    precondition(!request.stops.isEmpty, "a favourite needs a stop")
    if let route = request.route {
      var routes: [RouteSummary] = []
      for stop in request.stops { routes += try store.routes(at: stop) }
      let wanted = route.lowercased()
      guard routes.contains(where: { $0.shortName.lowercased() == wanted || $0.id.rawValue.lowercased() == wanted }) else {
        let names = routes.map(\.shortName).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        throw FavouriteFailure.routeNotCalling(route: route, place: request.group ?? request.stops[0].name, routes: names)
      }
    }
    guard let users = try userData.open() else { preconditionFailure("a session without user data saves no favourite") }
    if let group = request.group { _ = try users.removeFavourites(group: group) }
    for stop in request.stops {
      try users.addFavourite(
        feed: stop.feed.rawValue, stopID: stop.id.rawValue, label: request.savedLabel, route: request.route, group: request.group,
        now: now.seconds)
    }
    let items = request.stops.map { stop in
      FavouriteItem(
        favourite: UserStore.Favourite(
          feed: stop.feed.rawValue, stopID: stop.id.rawValue, label: request.savedLabel, route: request.route, group: request.group),
        stop: stop)
    }
    return FavouriteEntry.entries(items)[0]
  }

  /// Removes the favourite `text` names by itself: a group by its name (any case), else a
  /// favourite by its stop_id or `FEED:stop_id` (its stop may have left the timetable); nil
  /// when it names none (the caller then reads it as a stop: `removeFavourite(at:)`).
  /// - Throws: the user store's errors.
  public func removeFavourite(named text: String) throws -> FavouriteRemoval? {
    guard let users = try userData.open() else { return nil }
    let favourites = try users.favourites()
    let wanted = text.trimmingSpaces().lowercased()
    if let group = favourites.lazy.compactMap(\.group).first(where: { $0.lowercased() == wanted }) {
      return .group(group, stops: try users.removeFavourites(group: group))
    }
    guard let target = favourites.first(where: { $0.stopID == text || "\($0.feed):\($0.stopID)" == text }) else { return nil }
    return try users.removeFavourite(feed: target.feed, stopID: target.stopID) ? .stop(feed: target.feed, stopID: target.stopID) : nil
  }

  /// Removes the favourite of `stop`; nil when it is none.
  /// - Throws: the user store's errors.
  public func removeFavourite(at stop: Stop) throws -> FavouriteRemoval? {
    guard let users = try userData.open(), try users.removeFavourite(feed: stop.feed.rawValue, stopID: stop.id.rawValue) else {
      return nil
    }
    return .stop(feed: stop.feed.rawValue, stopID: stop.id.rawValue)
  }
}

/// One favourite entry as DESIGN.md's object: `{feed, stop_id, label, route, missing, stop}`,
/// and for a group `group` and `stops` (each such an object).
public struct FavouriteAnswer: Encodable, Sendable {
  public var entry: FavouriteEntry
  public var namesFeed: Bool

  public init(_ entry: FavouriteEntry, namesFeed: Bool) {
    self.entry = entry
    self.namesFeed = namesFeed
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try encode(entry.first, into: &members)
    guard let group = entry.group else { return }
    try members.encode(group, forKey: "group")
    var stops = members.nestedUnkeyedContainer(forKey: "stops")
    for item in entry.members {
      var object = stops.nestedContainer(keyedBy: JSONKey.self)
      try encode(item, into: &object)
    }
  }

  private func encode(_ item: FavouriteItem, into members: inout KeyedEncodingContainer<JSONKey>) throws {
    try members.encode(item.favourite.feed, forKey: "feed")
    try members.encode(item.favourite.stopID, forKey: "stop_id")
    try members.encode(item.favourite.label, forKey: "label")
    try members.encode(item.favourite.route, forKey: "route")
    try members.encode(item.stop == nil, forKey: "missing")
    if let stop = item.stop {
      var object = members.nestedContainer(keyedBy: JSONKey.self, forKey: "stop")
      try StopMembers(stop: stop, namesFeed: namesFeed).encode(into: &object)
    } else {
      try members.encodeNil(forKey: "stop")
    }
  }
}

extension FavouritesAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for entry in entries { try list.encode(FavouriteAnswer(entry, namesFeed: namesFeed)) }
  }
}
