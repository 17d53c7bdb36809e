import GTFS
import Merge
import TransitModel

/// One stop in full (`stops show`): its station and platforms, the routes calling there with
/// their destinations, wheelchair access and the next scheduled departures within two hours;
/// or, for a complex, its parts with their routes and one board of them. Its `Encodable` form
/// is DESIGN.md's `stops show --json`.
public struct StopAnswer: Sendable {
  /// A platform of the station shown.
  public struct Platform: Sendable {
    public var stop: Stop
    public var access: WheelchairAccess
    public var routes: [RouteSummary]
  }

  /// A stop or station.
  public struct Single: Sendable {
    public var stop: Stop
    public var access: WheelchairAccess
    public var parent: Stop?
    public var platforms: [Platform]
    public var routes: [RouteAtStop]
    /// Its next departures as a board (the board's half-open window, on the timetable alone):
    /// each row the board's own, so its JSON object is the one `departures --json` shows.
    public var board: Board
    /// The next scheduled departures.
    public var departures: [ScheduledCall] { board.rows.map(\.departure.call) }
    /// Why there are none when the timetable is the reason (its service ended or not begun).
    public var emptyReason: ServiceStatus?
  }

  /// A station complex.
  public struct Complex: Sendable {
    public var complex: StopComplex
    /// Its stations (or stops) and the routes calling at each.
    public var parts: [(stop: Stop, routes: [RouteSummary])]
    /// Their next departures as one board, on the timetable alone.
    public var board: Board
  }

  public enum Place: Sendable {
    case single(Single)
    case complex(Complex)
  }

  public var place: Place
  /// The stop's feed's clock.
  public var zone: LocalZone
  public var now: UnixTime
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool
}

extension TransitSession {
  /// How many departures `stops show` lists, and how far ahead.
  public static let stopDepartureCount = 5
  static let stopWindowMinutes = 120

  /// `place` in full at `now`, on the timetable alone.
  /// - Throws: the store's errors.
  public func stopDetails(_ place: StopPlace, now: UnixTime) throws -> StopAnswer {
    let query = BoardQuery(start: now, windowMinutes: Self.stopWindowMinutes, limit: Self.stopDepartureCount)
    let namesFeed = store.feedNames.count > 1
    switch place {
    case .complex(let complex):
      let board = try board(BoardRequest(places: [.complex(complex)], query: query), live: .none(now: now))
      let parts = try complex.parts.map { (stop: $0, routes: try store.routes(at: $0)) }
      return StopAnswer(
        place: .complex(StopAnswer.Complex(complex: complex, parts: parts, board: board)), zone: board.zone, now: now,
        namesFeed: namesFeed)
    case .stop(let stop):
      let platforms = stop.isStation ? try store.platforms(of: stop) : []
      // The departure board, on the timetable alone.
      let board = try board(BoardRequest(places: [.stop(stop)], query: query), live: .none(now: now))
      let single = StopAnswer.Single(
        stop: stop, access: try Accessibility.stop(stop, in: store), parent: try store.parent(of: stop),
        platforms: try platforms.map { platform in
          StopAnswer.Platform(stop: platform, access: try Accessibility.stop(platform, in: store), routes: try store.routes(at: platform))
        }, routes: try store.routesWithDestinations(at: stop), board: board,
        emptyReason: board.rows.isEmpty ? DepartureBoard.emptyReason(store: store, stop: stop, start: now) : nil)
      return StopAnswer(place: .single(single), zone: store.timeZone(of: stop.feed), now: now, namesFeed: namesFeed)
    }
  }
}

extension StopAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    switch place {
    case .single(let single):
      func stopObject(_ stop: Stop, forKey key: JSONKey) throws {
        var object = members.nestedContainer(keyedBy: JSONKey.self, forKey: key)
        try encodeStop(stop, into: &object)
      }
      try stopObject(single.stop, forKey: "stop")
      if let parent = single.parent {
        try stopObject(parent, forKey: "parent_station")
      } else {
        try members.encodeNil(forKey: "parent_station")
      }
      var platforms = members.nestedUnkeyedContainer(forKey: "platforms")
      for platform in single.platforms {
        var object = platforms.nestedContainer(keyedBy: JSONKey.self)
        try encodeStop(platform.stop, into: &object)
      }
      var routes = members.nestedUnkeyedContainer(forKey: "routes")
      for entry in single.routes {
        var object = routes.nestedContainer(keyedBy: JSONKey.self)
        try object.encode(entry.route.id.rawValue, forKey: "route_id")
        try object.encode(entry.route.shortName, forKey: "route_short_name")
        try object.encode(entry.route.longName, forKey: "route_long_name")
        try object.encode(entry.route.routeType, forKey: "route_type")
        try object.encode(entry.route.mode.rawValue, forKey: "mode")
        try object.encode(entry.destinations, forKey: "destinations")
      }
      try members.encode(zone.isoText(now), forKey: "now")
      try members.encode(single.board.departures, forKey: "departures")
    case .complex(let complex):
      try ComplexAnswer(complex.complex, namesFeed: namesFeed).encode(into: &members, forKey: "complex")
      var parts = members.nestedUnkeyedContainer(forKey: "parts")
      for part in complex.parts {
        var object = parts.nestedContainer(keyedBy: JSONKey.self)
        try StopMembers(stop: part.stop, namesFeed: true).encode(into: &object)
        try object.encode(part.stop.locationType, forKey: "location_type")
        try object.encode(part.routes.map(\.shortName), forKey: "routes")
      }
      try members.encode(zone.isoText(now), forKey: "now")
      try members.encode(complex.board.departures, forKey: "departures")
    }
  }

  /// A stop's members: DESIGN.md's stop fields, its location type, station and platform code.
  private func encodeStop(_ stop: Stop, into object: inout KeyedEncodingContainer<JSONKey>) throws {
    try StopMembers(stop: stop, namesFeed: namesFeed).encode(into: &object)
    try object.encode(stop.locationType, forKey: "location_type")
    try object.encode(stop.parentStation?.rawValue, forKey: "parent_station")
    try object.encode(stop.platformCode, forKey: "platform_code")
  }
}
