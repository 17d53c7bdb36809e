import GTFS
import TransitModel

/// What the no-argument view is asked: where the rider is (and what said so), and how far
/// ahead a favourite's card looks.
public struct HomeRequest: Sendable {
  /// Where the rider is; nil: unknown (favourites keep their saved order).
  public var location: Coordinate?
  /// What gave `location`, in the words the view shows ("--from", "your saved place 'home'").
  public var locationSource: String?
  /// A card's window, in minutes (at least a day, so a quiet stop still shows its next three).
  public var windowMinutes: Int
  public var now: UnixTime

  /// A request at `now` from `location` (said by `locationSource`).
  public init(location: Coordinate?, locationSource: String?, windowMinutes: Int, now: UnixTime) {
    self.location = location
    self.locationSource = locationSource
    self.windowMinutes = max(windowMinutes, 24 * 60)
    self.now = now
  }
}

/// The no-argument view (`transit`): the favourites, nearest first, each a board of its next
/// departures on the one realtime read; without favourites, the nearest stops. Its `Encodable`
/// form is DESIGN.md's home JSON.
public struct HomeAnswer: Sendable {
  /// Departures shown per favourite.
  public static let departuresPerStop = 3
  /// Stops listed when there are no favourites.
  public static let nearbyCount = 5

  /// One favourite's card.
  public struct Card: Sendable {
    public var entry: FavouriteEntry
    /// Metres from the rider to its stop (a group's nearest), when both are known.
    public var distanceMeters: Double?
    /// Its board; nil when the timetables no longer hold its stop.
    public var board: Board?
  }

  public var now: UnixTime
  /// The clock of the first feed held (the view's `now`).
  public var zone: LocalZone
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool
  public var location: Coordinate?
  public var locationSource: String?
  /// The favourites, nearest first; those without a position (or missing) last, in saved order.
  public var cards: [Card]
  /// Without favourites: the stops nearest the rider.
  public var nearby: [NearbyStop]
  /// The realtime every card was matched against (none read without favourites).
  public var live: LiveRealtime?
  /// What went wrong reading it.
  public var realtimeProblems: [RealtimeProblem]
  /// Today's next saved commute (`TransitSession.commuteCard`): the one with the earliest
  /// deadline whose recommended departure is still to come; nil when none runs today.
  public var commute: CommuteCard? = nil

  /// Whether any realtime feed was read.
  public var hasRealtime: Bool { !(live?.feeds.isEmpty ?? true) }
}

extension TransitSession {
  /// The no-argument view of `request`: the favourites as boards on one realtime read, or the
  /// nearest stops when there are none.
  /// - Throws: the store's, the user data's and the realtime source's errors.
  public func home(_ request: HomeRequest) throws -> HomeAnswer {
    let favourites = try self.favourites().entries
    var answer = HomeAnswer(
      now: request.now, zone: store.timeZone(of: store.feedNames[0]), namesFeed: store.feedNames.count > 1,
      location: request.location, locationSource: request.locationSource, cards: [], nearby: [], live: nil, realtimeProblems: [])
    guard !favourites.isEmpty else {
      answer.nearby = try request.location.map { try store.nearby($0, limit: HomeAnswer.nearbyCount, stations: true) } ?? []
      answer.commute = try homeCommute(live: nil, now: request.now)
      return answer
    }
    // Nearest first; favourites without a position (or missing) keep their order, last.
    let ordered = favourites.enumerated().map { ($0.offset, $0.element, Self.distance($0.element, from: request.location)) }
      .sorted { a, b in (a.2 ?? .infinity, a.0) < (b.2 ?? .infinity, b.0) }
    let read = try realtime.read(preferring: nil)
    answer.realtimeProblems = read.problems
    let live = try LiveRealtime(store: store, feeds: read.feeds, now: request.now, options: options)
    answer.live = live
    // Each card is a board, all on the one matched realtime; a group's card is one board of its stops.
    answer.cards = try ordered.map { _, entry, distance in
      let stops = entry.stops
      guard !stops.isEmpty else { return HomeAnswer.Card(entry: entry, distanceMeters: distance, board: nil) }
      let query = BoardQuery(
        start: request.now, windowMinutes: request.windowMinutes, limit: HomeAnswer.departuresPerStop,
        route: entry.first.favourite.route)
      let board = try board(BoardRequest(places: stops.map { .stop($0) }, query: query), live: live)
      return HomeAnswer.Card(entry: entry, distanceMeters: distance, board: board)
    }
    answer.commute = try homeCommute(live: live, now: request.now)
    return answer
  }

  /// The home view's commute card: today's next saved commute on `live` (the timetable alone
  /// without), its leave advice under the session's margin, its record when a history is kept.
  func homeCommute(live: LiveRealtime?, now: UnixTime) throws -> CommuteCard? {
    let commutes = try userData.commutes()
    guard !commutes.isEmpty else { return nil }
    return try commuteCard(commutes, live: live, now: now, margin: options.leaveMargin, history: try userData.historyIfPresent())
  }

  /// Metres from `point` to the favourite's stop (a group's nearest), when both are known.
  static func distance(_ entry: FavouriteEntry, from point: Coordinate?) -> Double? {
    guard let point else { return nil }
    return entry.stops.compactMap { $0.coordinate.map(point.distanceMeters) }.min()
  }
}

// MARK: - JSON

extension HomeAnswer: Encodable {
  /// `{now, location, commute, favourites: [...]}` with `nearby` when there are no favourites,
  /// and `realtime` when there are; `commute` is today's next commute's day as `commute --json`
  /// shows it (null without one); each card the favourite's object with `distance_m` and
  /// `departures` (the board's departure objects).
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(zone.isoText(now), forKey: "now")
    if let location {
      var object = members.nestedContainer(keyedBy: JSONKey.self, forKey: "location")
      try object.encode(location.latitude, forKey: "lat")
      try object.encode(location.longitude, forKey: "lon")
      try object.encode(locationSource, forKey: "source")
    } else {
      try members.encodeNil(forKey: "location")
    }
    try members.encode(commute?.day, forKey: "commute")
    guard let live else {
      _ = members.nestedUnkeyedContainer(forKey: "favourites")
      var list = members.nestedUnkeyedContainer(forKey: "nearby")
      for entry in nearby {
        var object = list.nestedContainer(keyedBy: JSONKey.self)
        try StopMembers(stop: entry.stop, namesFeed: namesFeed).encode(into: &object)
        try object.encode((entry.distanceMeters * 10).rounded() / 10, forKey: "distance_m")
        try object.encode(entry.routes.map(\.shortName), forKey: "routes")
      }
      return
    }
    try members.encode(RealtimeAnswer(live.report, zone: zone), forKey: "realtime")
    var list = members.nestedUnkeyedContainer(forKey: "favourites")
    for card in cards { try list.encode(CardAnswer(card: card, namesFeed: namesFeed)) }
  }

  /// A card: the favourite's own object, then `distance_m` and `departures`.
  struct CardAnswer: Encodable {
    var card: Card
    var namesFeed: Bool

    func encode(to encoder: any Encoder) throws {
      try FavouriteAnswer(card.entry, namesFeed: namesFeed).encode(to: encoder)
      var members = encoder.container(keyedBy: JSONKey.self)
      try members.encode(card.distanceMeters.map { ($0 * 10).rounded() / 10 }, forKey: "distance_m")
      if let board = card.board {
        try members.encode(board.departures, forKey: "departures")
      } else {
        _ = members.nestedUnkeyedContainer(forKey: "departures")
      }
    }
  }
}
