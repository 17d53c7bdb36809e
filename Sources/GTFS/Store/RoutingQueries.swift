import FoundationEssentials
import SQLite
import TransitModel

/// A stop a ride passes, as the journey's description needs it.
public struct RideStop: Sendable, Hashable {
  /// The stop.
  public var stop: Stop
  /// Its stop_sequence on the trip.
  public var stopSequence: Int
  /// Its shape_dist_traveled, when the feed gives it.
  public var shapeDistTraveled: Double?

  /// A call of a ride.
  public init(stop: Stop, stopSequence: Int, shapeDistTraveled: Double?) {
    self.stop = stop
    self.stopSequence = stopSequence
    self.shapeDistTraveled = shapeDistTraveled
  }
}

/// What a ride of a journey is: the trip, its route and headsign, its shape, and its stops
/// from boarding to alighting.
public struct RoutingRide: Sendable, Hashable {
  /// The trip: its feed, id, route, and where it is going (the stop's or trip's headsign,
  /// else the last stop's name).
  public var feed: FeedName
  public var tripID: TripID
  public var route: RouteSummary
  public var headsign: String
  /// The instance: service date and, for frequency trips, start time.
  public var serviceDate: ServiceDate
  public var startTime: ServiceTime?
  /// The trip's shape in shapes.txt, if any.
  public var shapeID: String?
  /// Whether realtime gave its times.
  public var isLive: Bool
  /// From the boarding stop to the alighting stop, inclusive.
  public var stops: [RideStop]

  /// A ride (the planner builds them from the network; `plan --from-trip` from the trip the
  /// rider is on).
  public init(
    feed: FeedName, tripID: TripID, route: RouteSummary, headsign: String, serviceDate: ServiceDate, startTime: ServiceTime?,
    shapeID: String?, isLive: Bool, stops: [RideStop]
  ) {
    self.feed = feed
    self.tripID = tripID
    self.route = route
    self.headsign = headsign
    self.serviceDate = serviceDate
    self.startTime = startTime
    self.shapeID = shapeID
    self.isLive = isLive
    self.stops = stops
  }
}

/// The parts of the network a journey between given places can use, per feed (see
/// `RoutingIndex`): a journey never leaves the part of the stop it starts from.
public struct RoutingScope: Sendable, Equatable {
  /// Per feed, the parts to load; a feed not named here is loaded whole (its index could not
  /// be read), one named with no parts is left out.
  var parts: [FeedName: Set<Int32>]

  /// The number of parts to load, over every feed.
  public var partCount: Int { parts.values.reduce(0) { $0 + $1.count } }

  /// The parts of `feed` to load; nil: the feed whole (its index could not be read).
  public func parts(of feed: FeedName) -> Set<Int32>? { parts[feed] }
}

extension Store {
  /// The parts of the network reachable from `stops` (with a station's platforms) and from
  /// the stops within each point's radius: what a journey between them can use.
  /// - Complexity: row -1 of each feed's `routing_index` read once per Store; an R*Tree query
  ///   per point.
  public func routingScope(stops: [Stop], points: [(point: Coordinate, radiusMeters: Double)]) throws -> RoutingScope {
    var parts: [FeedName: Set<Int32>] = [:]
    for feed in feeds {
      var indices: [Int64] = []
      for stop in stops where stop.feed == feed.name {
        if let idx = try feed.stopIndex(id: stop.id.rawValue) { indices += try feed.boardingStops(idx) }
      }
      for (point, radius) in points {
        indices += try feed.nearby(point, radiusMeters: radius, stations: false).map(\.0)
      }
      if let found = feed.routingParts(of: indices) { parts[feed.name] = found }
    }
    return RoutingScope(parts: parts)
  }

  /// The network's stops for `stop`: itself and, for a station, its platforms; stop `s` of
  /// feed `f` (in `feedNames` order) is `stopOffsets[f] + stop_idx`.
  public func routingStops(at stop: Stop, stopOffsets: [Int32]) throws -> [Int32] {
    guard let index = feeds.firstIndex(where: { $0.name == stop.feed }),
      let idx = try feeds[index].stopIndex(id: stop.id.rawValue)
    else { return [] }
    return try feeds[index].boardingStops(idx).map { stopOffsets[index] + Int32($0) }
  }

  /// The network's stops (not stations) within `radiusMeters` of `point`, nearest first,
  /// with their straight-line distances.
  public func routingStops(
    near point: Coordinate, radiusMeters: Double, stopOffsets: [Int32]
  ) throws -> [(
    stop: Int32, meters: Double
  )] {
    var result: [(stop: Int32, meters: Double)] = []
    for (index, feed) in feeds.enumerated() {
      for (idx, _, meters) in try feed.nearby(point, radiusMeters: radiusMeters, stations: false) {
        result.append((stopOffsets[index] + Int32(idx), meters))
      }
    }
    return result.sorted { ($0.meters, $0.stop) < ($1.meters, $1.stop) }
  }

  /// The stop behind a network stop index (see `routingStops(at:stopOffsets:)`).
  public func routingStop(_ stop: Int32, stopOffsets: [Int32]) throws -> Stop? {
    var feed = 0
    while feed + 1 < stopOffsets.count && stopOffsets[feed + 1] <= stop { feed += 1 }
    return try feeds[feed].stop(Int64(stop - stopOffsets[feed]))
  }

  /// What the ride on the instance of trip `trip` (a trip_idx of feed `feedIndex`, on
  /// `pattern`) of `serviceDate` (and `startTime`, frequency trips) from `board` to `alight`
  /// (positions in its pattern) is.
  public func routingRide(
    feed feedIndex: Int, trip: Int64, pattern: Int64, serviceDate: ServiceDate, startTime: ServiceTime?, isLive: Bool,
    board: Int32, alight: Int32
  ) throws -> RoutingRide {
    let feed = feeds[feedIndex]
    let select = try feed.db.cached(
      """
      SELECT t.trip_id, t.headsign, t.shape_id, r.route_id, r.short_name, r.long_name, r.route_type, r.color
      FROM trips t JOIN routes r ON r.route_idx = t.route_idx WHERE t.trip_idx = ?
      """)
    select.bind(trip, at: 1)
    guard try select.step() else { throw IngestError.validation("trip \(trip) of \(feed.name) is gone") }
    let tripID = TripID(select.text(0))
    let tripHeadsign = select.optionalText(1).flatMap { $0.isEmpty ? nil : $0 }
    let shapeID = select.optionalText(2).flatMap { $0.isEmpty ? nil : $0 }
    let summary = feed.routeSummary(select, from: 3)
    // The route's stops are the pattern's positions (a route is a pattern or a part of one).
    let stops = try feed.db.cached(
      """
      SELECT ps.stop_sequence, ps.shape_dist_traveled, ps.stop_headsign, \(FeedReader.stopColumns)
      FROM pattern_stops ps JOIN stops s ON s.stop_idx = ps.stop_idx
      WHERE ps.pattern_idx = ?1 AND ps.position BETWEEN ?2 AND ?3 ORDER BY ps.position
      """)
    stops.bind(pattern, at: 1)
    stops.bind(Int64(board), at: 2)
    stops.bind(Int64(alight), at: 3)
    var rideStops: [RideStop] = []
    var stopHeadsign: String?
    while try stops.step() {
      if rideStops.isEmpty { stopHeadsign = stops.optionalText(2).flatMap { $0.isEmpty ? nil : $0 } }
      rideStops.append(
        RideStop(stop: feed.readStop(stops, from: 3), stopSequence: stops.int(0), shapeDistTraveled: stops.optionalDouble(1)))
    }
    let headsign = try stopHeadsign ?? tripHeadsign ?? feed.lastStopName(of: pattern)
    return RoutingRide(
      feed: feed.name, tripID: tripID, route: summary, headsign: headsign, serviceDate: serviceDate,
      startTime: startTime, shapeID: shapeID, isLive: isLive, stops: rideStops)
  }
}
