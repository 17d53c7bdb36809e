import GTFS
import TransitModel

/// What `route show` asks: a route, on a date (else today in its feed), maybe one direction,
/// and whether its map is drawn.
public struct RouteDetailsRequest: Sendable {
  public var route: RouteSummary
  /// The service date asked about; nil: the local date of `now` in the route's feed.
  public var date: ServiceDate?
  /// Only this `direction_id`.
  public var directionID: Int?
  /// Whether the answer carries the route's map (its shapes read: `--map`, `--geojson`).
  public var includesMap: Bool

  public init(route: RouteSummary, date: ServiceDate? = nil, directionID: Int? = nil, includesMap: Bool = false) {
    self.route = route
    self.date = date
    self.directionID = directionID
    self.includesMap = includesMap
  }
}

/// Why a route has no details to show.
public enum RouteDetailsFailure: Error, Sendable, Equatable {
  /// The route is not held (any more).
  case noRoute
  /// The route runs no trip in the direction asked.
  case noTrips(route: RouteSummary, directionID: Int)
}

/// A route on one date (`route show`): its patterns per direction, first and last departures,
/// headways, each main stop's wheelchair access, how each variant differs from the main
/// pattern, and its map when asked. Its `Encodable` form is `route show --json`.
public struct RouteDetailsAnswer: Sendable {
  /// A time of a service day: when it is, and whether it falls on the next calendar day (a
  /// trip past 24:00:00).
  public struct Clock: Sendable, Equatable {
    public var time: UnixTime
    public var isNextDay: Bool
  }

  /// How a variant differs from its direction's main pattern.
  public struct Variant: Sendable, Equatable {
    /// Its first stop's name, when that is not the main pattern's first stop.
    public var from: String?
    /// Its last stop's name, when that is not the main pattern's last stop.
    public var to: String?
    /// The names of its stops off the main pattern, its own ends left out, in order.
    public var via: [String]
    /// The main pattern's stops it passes without calling, between the first and last stop
    /// they share.
    public var skippedStops: Int
    /// Whether it has as many stops as the main pattern.
    public var hasMainStopCount: Bool
  }

  /// One direction of the route on the date.
  public struct Direction: Sendable {
    public var direction: RouteDirection
    /// Trips of every pattern, and those running on the date.
    public var tripCount: Int
    public var tripsOnDate: Int
    public var firstDeparture: Clock?
    public var lastDeparture: Clock?
    /// The wheelchair access of each stop of the main pattern, in its order.
    public var mainStopAccess: [WheelchairAccess]
    /// How each variant (the patterns after the main one) differs from it.
    public var variants: [Variant]
  }

  public var details: RouteDetails
  public var directions: [Direction]
  /// The clock of the route's feed.
  public var zone: LocalZone
  /// Whether several feeds are held (a route is then named with its feed).
  public var namesFeed: Bool
  /// The route's lines, termini and stops (when asked).
  public var map: RouteMap?

  public var route: RouteSummary { details.route }
}

extension RouteDetailsAnswer.Variant {
  /// How `variant` differs from `main`.
  init(_ variant: RoutePattern, main: RoutePattern) {
    from = variant.stops.first.flatMap { $0.id != main.stops.first?.id ? $0.name : nil }
    to = variant.stops.last.flatMap { $0.id != main.stops.last?.id ? $0.name : nil }
    let mainIDs = Set(main.stops.map(\.id))
    let ends = Set([variant.stops.first?.id, variant.stops.last?.id].compactMap { $0 })
    via = variant.stops.filter { !mainIDs.contains($0.id) && !ends.contains($0.id) }.map(\.name)
    let variantIDs = Set(variant.stops.map(\.id))
    let shared = main.stops.indices.filter { variantIDs.contains(main.stops[$0].id) }
    if let low = shared.first, let high = shared.last {
      skippedStops = main.stops[low...high].filter { !variantIDs.contains($0.id) }.count
    } else {
      skippedStops = 0
    }
    hasMainStopCount = variant.stops.count == main.stops.count
  }
}

extension TransitSession {
  /// The details of `request.route` on its date (else the local date of `now` in its feed).
  /// - Throws: `RouteDetailsFailure` when the route is not held or runs nothing in the
  ///   direction asked; the store's errors.
  public func routeDetails(_ request: RouteDetailsRequest, now: UnixTime) throws -> RouteDetailsAnswer {
    let route = request.route
    let day = request.date ?? store.localDate(of: now, feed: route.feed)
    guard let details = try store.routeDetails(route, on: day, directionID: request.directionID) else {
      throw RouteDetailsFailure.noRoute
    }
    if let direction = request.directionID, details.directions.isEmpty {
      throw RouteDetailsFailure.noTrips(route: route, directionID: direction)
    }
    func clock(_ seconds: Int32?) -> RouteDetailsAnswer.Clock? {
      seconds.map { seconds in
        let time = store.time(seconds, on: day, feed: route.feed)
        return RouteDetailsAnswer.Clock(time: time, isNextDay: store.localDate(of: time, feed: route.feed) > day)
      }
    }
    let directions = try details.directions.map { direction in
      RouteDetailsAnswer.Direction(
        direction: direction, tripCount: direction.patterns.reduce(0) { $0 + $1.tripCount },
        tripsOnDate: direction.patterns.reduce(0) { $0 + $1.tripsOnDate }, firstDeparture: clock(direction.firstDeparture),
        lastDeparture: clock(direction.lastDeparture),
        mainStopAccess: try direction.main.stops.map { try Accessibility.stop($0, in: store) },
        variants: direction.patterns.dropFirst().map { RouteDetailsAnswer.Variant($0, main: direction.main) })
    }
    return RouteDetailsAnswer(
      details: details, directions: directions, zone: store.timeZone(of: route.feed), namesFeed: store.feedNames.count > 1,
      map: request.includesMap ? try RouteMap(details, store: store) : nil)
  }
}

// MARK: - route show --json

extension RouteDetailsAnswer: Encodable {
  /// "05:30" from seconds since the service day's start (24:00 stays 24:00).
  public static func hhmm(_ seconds: Int32) -> String {
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return two(seconds / 3600) + ":" + two(seconds % 3600 / 60)
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    var routeMembers = members.nestedContainer(keyedBy: JSONKey.self, forKey: "route")
    try RouteMembers(listing: details.listing, namesFeed: namesFeed).encode(into: &routeMembers)
    let date = details.date.description
    try members.encode("\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))", forKey: "date")
    var list = members.nestedUnkeyedContainer(forKey: "directions")
    for entry in directions {
      let direction = entry.direction
      var object = list.nestedContainer(keyedBy: JSONKey.self)
      try object.encode(direction.directionID, forKey: "direction_id")
      try object.encode(direction.main.headsign, forKey: "headsign")
      try object.encode(entry.tripsOnDate, forKey: "trips_on_date")
      try object.encode(entry.firstDeparture.map { zone.isoText($0.time) }, forKey: "first_departure")
      try object.encode(entry.lastDeparture.map { zone.isoText($0.time) }, forKey: "last_departure")
      var headways = object.nestedUnkeyedContainer(forKey: "headways")
      for band in direction.headways {
        var item = headways.nestedContainer(keyedBy: JSONKey.self)
        try item.encode(band.name, forKey: "band")
        try item.encode(Self.hhmm(band.start), forKey: "start")
        try item.encode(Self.hhmm(band.end), forKey: "end")
        try item.encode(band.departures, forKey: "departures")
        try item.encode(band.medianSeconds, forKey: "median_headway_seconds")
      }
      var patterns = object.nestedUnkeyedContainer(forKey: "patterns")
      for (index, pattern) in direction.patterns.enumerated() {
        var item = patterns.nestedContainer(keyedBy: JSONKey.self)
        try item.encode(index == 0, forKey: "main")
        try item.encode(pattern.headsign, forKey: "headsign")
        try item.encode(pattern.tripCount, forKey: "trips")
        try item.encode(pattern.tripsOnDate, forKey: "trips_on_date")
        try item.encode(pattern.shapeIDs, forKey: "shape_ids")
        var stops = item.nestedUnkeyedContainer(forKey: "stops")
        for stop in pattern.stops {
          var stopMembers = stops.nestedContainer(keyedBy: JSONKey.self)
          try StopMembers(stop: stop, namesFeed: false).encode(into: &stopMembers)
        }
      }
    }
    try members.encode(details.tripsWithoutStops, forKey: "trips_without_stops")
  }
}
