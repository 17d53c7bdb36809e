import FoundationEssentials
import SQLite
import TransitModel

/// Realtime for one trip instance, per position of its stops: expected times replace the
/// timetable's, a cancelled trip and skipped stops are left out of journey planning.
public struct RealtimeTrip: Sendable, Hashable {
  /// The instance: feed, trip, service date and (frequency trips) start time.
  public var feed: FeedName
  public var tripID: TripID
  public var serviceDate: ServiceDate
  public var startTime: ServiceTime?
  /// Whether the trip is cancelled (CANCELED or DELETED).
  public var isCancelled: Bool
  /// Per stop of the trip, in order: the expected arrival and departure (nil: as scheduled).
  public var arrivals: [UnixTime?]
  public var departures: [UnixTime?]
  /// Per stop of the trip: whether it is skipped.
  public var skipped: [Bool]

  /// Creates the realtime of one trip instance.
  public init(
    feed: FeedName, tripID: TripID, serviceDate: ServiceDate, startTime: ServiceTime?, isCancelled: Bool,
    arrivals: [UnixTime?], departures: [UnixTime?], skipped: [Bool]
  ) {
    self.feed = feed
    self.tripID = tripID
    self.serviceDate = serviceDate
    self.startTime = startTime
    self.isCancelled = isCancelled
    self.arrivals = arrivals
    self.departures = departures
    self.skipped = skipped
  }
}

/// A trip instance of `RoutingPatterns`.
public struct RoutingTrip: Sendable, Hashable {
  /// The feed it belongs to.
  public var feed: FeedName
  /// The service date it runs on (its times count from that day's noon minus 12 h).
  public var serviceDate: ServiceDate
  /// The start of a frequency-based instance (frequencies.txt), else nil.
  public var startTime: ServiceTime?
  /// Whether realtime gave its times.
  public var isLive: Bool
  let feedIndex: Int
  let tripIndex: Int64
  let pattern: Int64
}

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

  /// The trips that call between `from` and `until`, across every feed held, by stop pattern
  /// (Routing splits them into routes whose trips never overtake): ordinary
  /// trips of every service date that can reach the window (the dates before, for trips
  /// running past midnight), frequency-based trips expanded into instances, pickup_type and
  /// drop_off_type 1 respected, footpaths from ingest's links (within the walking model's
  /// distance) and transfers.txt (min_transfer_time; type 3 removes a link).
  ///
  /// - Parameters:
  ///   - modes: only routes of these modes (empty: all).
  ///   - realtime: expected times per trip instance; cancelled trips are left out, a trip with
  ///     skipped stops becomes a route of its own that neither picks up nor sets down there.
  ///   - scope: only the parts of the network a journey between given places can use (read
  ///     from the arrays ingest stored); nil: everything. A part whose stored arrays cannot be
  ///     read is loaded from the tables, as without a scope.
  /// - Complexity: without a scope, one scan of each feed's trip times, patterns and
  ///   footpaths; with one, the parts' rows and the rows of the trips in the window; O(trips
  ///   log trips) to sort.
  public func routingPatterns(
    from: UnixTime, until: UnixTime, modes: Set<TransitMode> = [], walking: WalkingModel = .init(),
    realtime: [RealtimeTrip] = [], scope: RoutingScope? = nil
  ) throws -> RoutingPatterns {
    var offsets: [Int32] = []
    var total: Int32 = 0
    for feed in feeds {
      offsets.append(total)
      total += Int32(try feed.db.scalarInt("SELECT coalesce(max(stop_idx), 0) + 1 FROM stops") ?? 1)
    }
    var builder = RoutingPatterns(stopCount: Int(total), origin: from)
    builder.stopOffsets = offsets
    for (index, feed) in feeds.enumerated() {
      var parts: [RoutingIndex.Part]?
      if let wanted = scope?.parts[feed.name] {
        parts = []
        for part in wanted.sorted() {
          guard let read = try feed.routingPart(part) else {
            parts = nil  // unreadable: the whole feed from its tables
            break
          }
          parts!.append(read)
        }
        if parts?.isEmpty == true { continue }
      }
      try feed.addRouting(
        to: &builder, feedIndex: index, offset: offsets[index], from: from, until: until, modes: modes, walking: walking,
        realtime: realtime.filter { $0.feed == feed.name }, parts: parts)
    }
    if feeds.count > 1 { try addWalksAcrossFeeds(to: &builder, walking: walking) }
    return builder
  }

  /// Footpaths between the feeds held (issue 32): the platforms of stations of two feeds that
  /// are one complex (one folded name, or one stop_id, within `complexRadiusMeters`: BART's
  /// and Caltrain's Millbrae) are linked both ways, each walk timed by the walking model and
  /// kept within its transfer distance, as the footpaths ingest finds within a feed.
  /// - Complexity: one read of each feed's stations, grouped by name and id; then per pair
  ///   found, their platforms.
  func addWalksAcrossFeeds(to builder: inout RoutingPatterns, walking: WalkingModel) throws {
    struct Station {
      var feed: Int
      var idx: Int64
      var coordinate: Coordinate
    }
    var byKey: [String: [Station]] = [:]
    for (index, feed) in feeds.enumerated() {
      let select = try feed.db.cached(
        "SELECT stop_idx, stop_id, name, lat, lon FROM stops WHERE location_type = 1 AND lat IS NOT NULL AND lon IS NOT NULL")
      while try select.step() {
        let station = Station(
          feed: index, idx: select.int64(0), coordinate: Coordinate(latitude: select.double(3), longitude: select.double(4)))
        byKey["name:" + TextFolding.fold(select.text(2)), default: []].append(station)
        byKey["id:" + select.text(1), default: []].append(station)
      }
    }
    var linked: Set<[Int64]> = []
    for group in byKey.values where group.count > 1 && Set(group.map(\.feed)).count > 1 {
      for a in group {
        for b in group where b.feed > a.feed && a.coordinate.distanceMeters(to: b.coordinate) <= Self.complexRadiusMeters {
          guard linked.insert([Int64(a.feed), a.idx, Int64(b.feed), b.idx]).inserted else { continue }
          try linkPlatforms(of: a.idx, in: a.feed, with: b.idx, in: b.feed, builder: &builder, walking: walking)
        }
      }
    }
  }

  /// Walks both ways between the platforms of station `a` of feed `i` and of `b` of feed `j`.
  private func linkPlatforms(
    of a: Int64, in i: Int, with b: Int64, in j: Int, builder: inout RoutingPatterns, walking: WalkingModel
  ) throws {
    func placed(_ feed: Int, _ station: Int64) throws -> [(Int32, Coordinate)] {
      try feeds[feed].boardingStops(station).compactMap { idx in
        try feeds[feed].stop(idx)?.coordinate.map { (builder.stopOffsets[feed] + Int32(idx), $0) }
      }
    }
    let here = try placed(i, a), there = try placed(j, b)
    for (p, pc) in here {
      for (q, qc) in there {
        let meters = pc.distanceMeters(to: qc)
        guard meters <= walking.maxTransferMeters else { continue }
        let seconds = walking.seconds(straightLineMeters: meters)
        builder.footpaths[Int(p)].append(WalkLink(to: q, seconds: seconds))
        builder.footpaths[Int(q)].append(WalkLink(to: p, seconds: seconds))
      }
    }
    for (stop, _) in here + there { builder.footpaths[Int(stop)].sort { $0.to < $1.to } }
  }

  /// The network's stops for `stop`: itself and, for a station, its platforms.
  public func routingStops(at stop: Stop, in network: RoutingPatterns) throws -> [Int32] {
    guard let index = feeds.firstIndex(where: { $0.name == stop.feed }),
      let idx = try feeds[index].stopIndex(id: stop.id.rawValue)
    else { return [] }
    return try feeds[index].boardingStops(idx).map { network.stopOffsets[index] + Int32($0) }
  }

  /// The network's stops (not stations) within `radiusMeters` of `point`, nearest first,
  /// with their straight-line distances.
  public func routingStops(
    near point: Coordinate, radiusMeters: Double, in network: RoutingPatterns
  ) throws -> [(
    stop: Int32, meters: Double
  )] {
    var result: [(stop: Int32, meters: Double)] = []
    for (index, feed) in feeds.enumerated() {
      for (idx, _, meters) in try feed.nearby(point, radiusMeters: radiusMeters, stations: false) {
        result.append((network.stopOffsets[index] + Int32(idx), meters))
      }
    }
    return result.sorted { ($0.meters, $0.stop) < ($1.meters, $1.stop) }
  }

  /// The stop behind a network stop index.
  public func routingStop(_ stop: Int32, in network: RoutingPatterns) throws -> Stop? {
    let (feed, idx) = network.locate(stop)
    return try feeds[feed].stop(idx)
  }

  /// What the ride on trip instance `instance` from `board` to `alight` (positions in its
  /// pattern) is.
  public func routingRide(_ instance: RoutingTrip, board: Int32, alight: Int32) throws -> RoutingRide {
    let feed = feeds[instance.feedIndex]
    let select = try feed.db.cached(
      """
      SELECT t.trip_id, t.headsign, t.shape_id, r.route_id, r.short_name, r.long_name, r.route_type, r.color
      FROM trips t JOIN routes r ON r.route_idx = t.route_idx WHERE t.trip_idx = ?
      """)
    select.bind(instance.tripIndex, at: 1)
    guard try select.step() else { throw IngestError.validation("trip \(instance.tripIndex) of \(feed.name) is gone") }
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
    stops.bind(instance.pattern, at: 1)
    stops.bind(Int64(board), at: 2)
    stops.bind(Int64(alight), at: 3)
    var rideStops: [RideStop] = []
    var stopHeadsign: String?
    while try stops.step() {
      if rideStops.isEmpty { stopHeadsign = stops.optionalText(2).flatMap { $0.isEmpty ? nil : $0 } }
      rideStops.append(
        RideStop(stop: feed.readStop(stops, from: 3), stopSequence: stops.int(0), shapeDistTraveled: stops.optionalDouble(1)))
    }
    let headsign = try stopHeadsign ?? tripHeadsign ?? feed.lastStopName(of: instance.pattern)
    return RoutingRide(
      feed: feed.name, tripID: tripID, route: summary, headsign: headsign, serviceDate: instance.serviceDate,
      startTime: instance.startTime, shapeID: shapeID, isLive: instance.isLive, stops: rideStops)
  }
}
