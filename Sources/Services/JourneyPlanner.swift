import GTFS
import Routing
import TransitModel

/// One end of a journey.
public enum JourneyEndpoint: Sendable {
  case stop(Stop)
  /// A station complex: a journey may start (or end) at any of its parts, walking nowhere.
  case complex(StopComplex)
  case place(Coordinate, name: String?)
  /// On board a running trip (issue 35, `plan --from-trip` / `--on`): the journey may get
  /// off at any of its stops still ahead, at their expected arrivals.
  case onBoard(OnBoard)

  /// A stop, station or complex as named.
  public init(_ place: StopPlace) {
    switch place {
    case .stop(let stop): self = .stop(stop)
    case .complex(let complex): self = .complex(complex)
    }
  }

  /// Where it is, when known (a complex: its first part placed).
  public var coordinate: Coordinate? {
    switch self {
    case .stop(let stop): return stop.coordinate
    case .complex(let complex): return complex.parts.lazy.compactMap(\.coordinate).first
    case .place(let point, _): return point
    case .onBoard(let start): return start.ride.stops.first?.stop.coordinate
    }
  }

  /// The stops it is (a complex's parts); empty for a place.
  public var stops: [Stop] {
    switch self {
    case .stop(let stop): return [stop]
    case .complex(let complex): return complex.parts
    case .place, .onBoard: return []
    }
  }
}

/// Why a journey cannot start on board a trip (`TransitSession.onBoard`).
public enum OnBoardFailure: Error, Sendable, Equatable {
  /// Neither the realtime nor the timetable has the trip running now.
  case notRunning
  /// It runs, but has no stop left ahead (its trip has ended).
  case noStopAhead
}

extension TransitSession {
  /// The trip the rider is on (`plan --from-trip`, `--on`) as a journey's start: its stops
  /// still ahead at their expected arrivals, from the one follow path.
  /// - Throws: `OnBoardFailure`, or the store's errors.
  public func onBoard(_ target: FollowTracker.Target, live: LiveRealtime) throws -> OnBoard {
    var tracker = FollowTracker(store: store, target: target, options: options)
    guard let frame = try tracker.frame(live: live) else { throw OnBoardFailure.notRunning }
    guard let start = try OnBoard.from(frame.view, store: store) else { throw OnBoardFailure.noStopAhead }
    return start
  }
}

/// The trip a rider is on, from its next stop to its last, with the expected arrival at each.
public struct OnBoard: Sendable {
  /// The trip, its stops from the next one on.
  public var ride: RoutingRide
  /// The expected arrival at each of `ride.stops`.
  public var arrivals: [UnixTime]

  /// A start on board `ride`.
  public init(ride: RoutingRide, arrivals: [UnixTime]) {
    precondition(ride.stops.count == arrivals.count, "one arrival per stop")
    self.ride = ride
    self.arrivals = arrivals
  }

  /// The start on the vehicle `view` shows (its stops still ahead, skipped ones left out);
  /// nil when it has no trip of the timetable or no stop ahead.
  /// - Throws: the store's errors.
  public static func from(_ view: VehicleView, store: Store) throws -> OnBoard? {
    guard let trip = view.trip, let feed = view.feed, let details = try store.tripDetails(trip.instance.tripID, feed: feed) else {
      return nil
    }
    var stops: [RideStop] = []
    var arrivals: [UnixTime] = []
    for next in view.nextStops where !next.isSkipped {
      guard let sequence = next.stopSequence, let time = next.arrival ?? next.expected, let stop = try store.stop(next.stopID, feed: feed)
      else { continue }
      let call = trip.stops.first { $0.stopSequence == sequence }
      stops.append(RideStop(stop: stop, stopSequence: sequence, shapeDistTraveled: call?.shapeDistance))
      arrivals.append(time)
    }
    guard !stops.isEmpty else { return nil }
    let ride = RoutingRide(
      feed: feed, tripID: trip.instance.tripID, route: details.route, headsign: details.headsign, serviceDate: trip.instance.serviceDate,
      startTime: trip.instance.startTime, shapeID: try store.shapeID(ofTrip: trip.instance.tripID, feed: feed),
      isLive: !view.isEstimated, stops: stops)
    return OnBoard(ride: ride, arrivals: arrivals)
  }
}

/// What a journey search is asked.
public struct JourneyRequest: Sendable {
  /// Leave at or after this (or, with `isArriveBy`, arrive by it).
  public var time: UnixTime
  public var isArriveBy: Bool
  /// Only these modes (empty: all).
  public var modes: Set<TransitMode>
  /// The walking model, with the transfer limit.
  public var walking: WalkingModel
  /// Metres walked at most to the first stop and from the last.
  public var maxWalkMeters: Double
  public var maxTransfers: Int
  /// Journeys wanted.
  public var limit: Int
  /// Only journeys whose every ride is on a wheelchair-accessible trip (wheelchair_accessible
  /// 1), boarding and alighting at stops with wheelchair boarding (wheelchair_boarding 1, a
  /// platform's 0 or empty inheriting its station's); what the feed does not say counts as not
  /// accessible. The router itself uses only those stops and trips.
  public var isAccessibleOnly = false

  /// A request.
  public init(
    time: UnixTime, isArriveBy: Bool, modes: Set<TransitMode>, walking: WalkingModel, maxWalkMeters: Double, maxTransfers: Int,
    limit: Int
  ) {
    self.time = time
    self.isArriveBy = isArriveBy
    self.modes = modes
    self.walking = walking
    self.maxWalkMeters = maxWalkMeters
    self.maxTransfers = maxTransfers
    self.limit = limit
  }
}

/// The journey planner's orchestration: endpoints' access walks, the realtime of the one
/// matching path, the router over a window (8 h, else the whole day), and journeys described
/// as legs.
public enum JourneyPlanner {
  /// How far ahead (or, arriving by, back) the timetable is read.
  public static let horizonSeconds: Int64 = 8 * 3600
  /// The window searched when nothing is found in `horizonSeconds`.
  public static let longHorizonSeconds: Int64 = 24 * 3600

  /// A journey's leg with what output needs.
  public enum Leg: Sendable {
    case walk(from: WalkEnd, to: WalkEnd, departure: UnixTime, seconds: Int64, meters: Double?)
    case ride(RoutingRide, departure: UnixTime, arrival: UnixTime)
  }

  /// Where a walk starts or ends.
  public enum WalkEnd: Sendable {
    case stop(Stop)
    case origin
    case destination
  }

  /// A journey found.
  public struct Journey: Sendable {
    public var departure: UnixTime
    public var arrival: UnixTime
    public var legs: [Leg]
    public var transfers: Int
    public var rides: Int
    /// Whether it starts on board a running trip (its first ride is the one the rider is on).
    public var startsOnBoard = false
  }

  /// What a search found, with the network it searched.
  public struct Plan: Sendable {
    public var network: RoutingNetwork
    public var journeys: [Journey]
    /// Nanoseconds spent loading the network and searching (with a `ticks` clock given).
    public var loadNanoseconds: UInt64
    public var searchNanoseconds: UInt64
  }

  /// Why no search could be made.
  public enum Failure: Error, Sendable {
    /// A place (FROM or TO) with no stop within the walking limit.
    case unreachable(role: String, point: Coordinate, maxWalkMeters: Double)
    /// A network stop the timetable no longer has (the timetable changed under the search).
    case stopVanished(Int32)
  }

  /// The journeys from `from` to `to`.
  /// - Parameter ticks: a monotonic clock in nanoseconds, to measure the load and the search.
  /// - Throws: `Failure` when an endpoint reaches no stop on foot; the store's errors.
  public static func plan(
    from: JourneyEndpoint, to: JourneyEndpoint, request: JourneyRequest, store: Store, live: LiveRealtime,
    ticks: () -> UInt64 = { 0 }
  ) throws -> Plan {
    let realtime = JourneyRealtime.trips(live)
    // Only the parts of the network the two ends reach: a journey never leaves them.
    var stops: [Stop] = []
    var points: [(point: Coordinate, radiusMeters: Double)] = []
    for endpoint in [from, to] {
      switch endpoint {
      case .stop(let stop): stops.append(stop)
      case .complex(let complex): stops += complex.parts
      case .place(let point, _): points.append((point, request.maxWalkMeters / request.walking.detourFactor))
      case .onBoard(let start): stops += start.ride.stops.map(\.stop)
      }
    }
    let scope = try store.routingScope(stops: stops, points: points)
    func search(_ horizon: Int64) throws -> (RoutingNetwork, [Routing.Journey], UInt64, UInt64) {
      let started = ticks()
      let window = request.isArriveBy ? (request.time - horizon, request.time) : (request.time, request.time + horizon)
      // Trips scheduled after the window but predicted early enough to be in it are read too
      // (the departure board's rule, `LiveRealtime.earlyLeadSeconds`).
      let network = try store.routingNetwork(
        from: window.0, until: window.1 + live.earlyLeadSeconds, modes: request.modes, walking: request.walking,
        realtime: realtime, scope: scope)
      let loaded = ticks()
      var query = RoutingQuery(
        access: try access(from, store: store, network: network, request: request, role: "FROM"),
        egress: try access(to, store: store, network: network, request: request, role: "TO"),
        maxRides: request.maxTransfers + 1)
      if let a = from.coordinate, let b = to.coordinate {
        let meters = a.distanceMeters(to: b)
        if meters * request.walking.detourFactor <= request.maxWalkMeters {
          query.directWalkSeconds = request.walking.seconds(straightLineMeters: meters)
        }
      }
      if request.isAccessibleOnly { query.wheelchair = try wheelchairFilter(network, store: store) }
      let router = Router(network.timetable)
      let count = request.limit
      let journeys =
        request.isArriveBy
        ? router.journeys(query, arrivingBy: network.seconds(request.time), notBefore: network.seconds(window.0), count: count)
        : router.journeys(query, departingAt: network.seconds(request.time), count: count)
      return (network, journeys, loaded - started, ticks() - loaded)
    }
    var (network, journeys, load, searched) = try search(horizonSeconds)
    if journeys.isEmpty { (network, journeys, load, searched) = try search(longHorizonSeconds) }
    var described = try journeys.map {
      try describe($0, network: network, store: store, from: from, to: to, walking: request.walking, onBoardNow: request.time)
    }
    // On board, the rider cannot leave later: the router's later departures are the same
    // rides from a later start, so only the journeys no other beats (arriving no later with
    // no more transfers) are kept.
    if case .onBoard = from {
      let all = described
      described.removeAll { journey in
        all.contains { other in
          other.arrival <= journey.arrival && other.transfers <= journey.transfers
            && (other.arrival < journey.arrival || other.transfers < journey.transfers)
        }
      }
    }
    return Plan(network: network, journeys: described, loadNanoseconds: load, searchNanoseconds: searched)
  }

  /// The router's filter for `--accessible`: the network's stops with wheelchair boarding (a
  /// platform's 0 or empty inheriting its station's value) and its trips with
  /// wheelchair_accessible 1; unknown is not accessible.
  /// - Complexity: one scan of each feed's stops and trips.
  static func wheelchairFilter(_ network: RoutingNetwork, store: Store) throws -> WheelchairFilter {
    let values = try store.wheelchairValues(of: network.patterns)
    return WheelchairFilter(
      stops: values.stops.map { Accessibility.stop(own: $0.own, parent: $0.parent).passesFilter },
      trips: values.trips.map { Accessibility.trip($0).passesFilter })
  }

  /// Whether every ride of `journey` is on an accessible trip and boards and alights at
  /// accessible stops (a platform inheriting its station's access).
  public static func isAccessible(_ journey: Journey, store: Store) throws -> Bool {
    for leg in journey.legs {
      guard case .ride(let ride, _, _) = leg else { continue }
      guard try RideAccess(ride, store: store).isAccessible else { return false }
    }
    return true
  }

  /// The stops an endpoint reaches on foot, with the walk's seconds: a stop's own platforms
  /// (no walk) and the stops linked to them by footpaths; a place's stops within the limit.
  static func access(
    _ endpoint: JourneyEndpoint, store: Store, network: RoutingNetwork, request: JourneyRequest, role: String
  ) throws -> [StopWalk] {
    var best: [Int32: Int32] = [:]
    func offer(_ stop: Int32, _ seconds: Int32) {
      if let known = best[stop], known <= seconds { return }
      best[stop] = seconds
    }
    switch endpoint {
    case .stop, .complex:
      for stop in endpoint.stops {
        for index in try store.routingStops(at: stop, in: network) {
          offer(index, 0)
          for path in network.timetable.footpaths[Int(index)] { offer(path.to, path.seconds) }
        }
      }
    case .place(let point, _):
      let walking = request.walking
      for (index, meters) in try store.routingStops(
        near: point, radiusMeters: request.maxWalkMeters / walking.detourFactor, in: network)
      {
        offer(index, walking.seconds(straightLineMeters: meters))
      }
      if best.isEmpty { throw Failure.unreachable(role: role, point: point, maxWalkMeters: request.maxWalkMeters) }
    case .onBoard(let start):
      // Riding on to a stop ahead counts as the "walk" there: its expected arrival from now.
      for (position, call) in start.ride.stops.enumerated() {
        let seconds = Int32(clamping: max(0, start.arrivals[position] - request.time))
        for index in try store.routingStops(at: call.stop, in: network) {
          offer(index, seconds)
          for path in network.timetable.footpaths[Int(index)] { offer(path.to, seconds + path.seconds) }
        }
      }
    }
    return best.map { StopWalk(stop: $0.key, seconds: $0.value) }.sorted { ($0.seconds, $0.stop) < ($1.seconds, $1.stop) }
  }

  /// A journey's legs: walks to, between and from stops (left out where there is nothing to
  /// walk), and rides with their trips' details.
  static func describe(
    _ journey: Routing.Journey, network: RoutingNetwork, store: Store, from: JourneyEndpoint, to: JourneyEndpoint,
    walking: WalkingModel, onBoardNow: UnixTime = UnixTime(0)
  ) throws -> Journey {
    var legs: [Leg] = []
    func stop(_ index: Int32) throws -> Stop {
      guard let stop = try store.routingStop(index, in: network) else { throw Failure.stopVanished(index) }
      return stop
    }
    func meters(_ a: Coordinate?, _ b: Coordinate?) -> Double? {
      guard let a, let b else { return nil }
      return a.distanceMeters(to: b) * walking.detourFactor
    }
    for leg in journey.legs {
      switch leg {
      case .access(let index, let seconds, let departure):
        if case .onBoard(let start) = from {
          // The rider is on the train now: the ride starts now, whatever start the router shifted to.
          _ = departure
          legs += try onBoardLegs(start, reaching: index, departure: onBoardNow, store: store, network: network)
          continue
        }
        let target = try stop(index)
        if seconds == 0, (meters(from.coordinate, target.coordinate) ?? 0) < 1 { continue }
        if case .stop(let origin) = from, origin.id == target.id, origin.feed == target.feed { continue }
        if case .stop(let origin) = from, seconds == 0, origin.isStation { continue }
        if case .complex = from, seconds == 0 { continue }  // at one of its parts
        legs.append(
          .walk(
            from: .origin, to: .stop(target), departure: network.time(departure), seconds: Int64(seconds),
            meters: meters(from.coordinate, target.coordinate)))
      case .ride(let route, let trip, let board, let alight, let departure, let arrival):
        let ride = try store.routingRide(route: route, trip: trip, board: board, alight: alight, in: network)
        legs.append(.ride(ride, departure: network.time(departure), arrival: network.time(arrival)))
      case .transfer(let a, let b, let departure, let seconds):
        let start = try stop(a), end = try stop(b)
        legs.append(
          .walk(
            from: .stop(start), to: .stop(end), departure: network.time(departure), seconds: Int64(seconds),
            meters: meters(start.coordinate, end.coordinate)))
      case .egress(let index, let seconds, let departure):
        let start = try stop(index)
        if seconds == 0, (meters(start.coordinate, to.coordinate) ?? 0) < 1 { continue }
        if case .stop(let destination) = to, destination.id == start.id, destination.feed == start.feed { continue }
        if case .stop(let destination) = to, seconds == 0, destination.isStation { continue }
        if case .complex = to, seconds == 0 { continue }
        legs.append(
          .walk(
            from: .stop(start), to: .destination, departure: network.time(departure), seconds: Int64(seconds),
            meters: meters(start.coordinate, to.coordinate)))
      case .walk(let seconds, let departure):
        legs.append(
          .walk(
            from: .origin, to: .destination, departure: network.time(departure), seconds: Int64(seconds),
            meters: meters(from.coordinate, to.coordinate)))
      }
    }
    var rides = journey.rides, transfers = journey.transfers
    if case .onBoard(let start) = from {
      // Staying on the trip the router boards again at a later stop is one ride.
      if legs.count >= 2, case .ride(let first, let departure, _) = legs[0], case .ride(let again, _, let arrival) = legs[1],
        first.tripID == start.ride.tripID, again.tripID == first.tripID, again.serviceDate == first.serviceDate
      {
        var merged = first
        merged.stops += again.stops.dropFirst()
        merged.isLive = first.isLive || again.isLive
        legs.replaceSubrange(0...1, with: [.ride(merged, departure: departure, arrival: arrival)])
      } else {
        rides += 1
        transfers = rides - 1
      }
    }
    var described = Journey(
      departure: network.time(journey.departure), arrival: network.time(journey.arrival), legs: legs, transfers: transfers,
      rides: rides)
    if case .onBoard = from { described.departure = onBoardNow }
    if case .onBoard = from { described.startsOnBoard = true }
    return described
  }

  /// The legs that take a rider on board `start` to the network stop `index`: the ride to the
  /// stop of the trip that is (or whose footpath leads to) it, then that walk.
  static func onBoardLegs(
    _ start: OnBoard, reaching index: Int32, departure: UnixTime, store: Store, network: RoutingNetwork
  ) throws
    -> [Leg]
  {
    for (position, call) in start.ride.stops.enumerated() {
      let stop = call.stop
      let indices = try store.routingStops(at: stop, in: network)
      var walk: (Int32, Int32)?
      if !indices.contains(index) {
        for own in indices {
          if let path = network.timetable.footpaths[Int(own)].first(where: { $0.to == index }) { walk = (path.to, path.seconds) }
        }
        guard walk != nil else { continue }
      }
      var ride = start.ride
      ride.stops = Array(start.ride.stops[...position])
      var legs: [Leg] = [.ride(ride, departure: departure, arrival: start.arrivals[position])]
      if let (target, seconds) = walk, let end = try store.routingStop(target, in: network) {
        legs.append(
          .walk(
            from: .stop(stop), to: .stop(end), departure: start.arrivals[position], seconds: Int64(seconds),
            meters: zip(stop.coordinate, end.coordinate).map { $0.distanceMeters(to: $1) }))
      }
      return legs
    }
    throw Failure.stopVanished(index)
  }
}
