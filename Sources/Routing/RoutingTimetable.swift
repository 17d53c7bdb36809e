/// The timetable a journey search runs on: plain arrays, built by the caller for one period
/// (the Store builds one per query from every feed held).
///
/// Stops are dense indices `0..<stopCount`. Times are seconds from an origin the caller chooses
/// (the Store uses the start of the day before the query's date), so trips of several service
/// days and time zones share one clock.
///
/// A route is RAPTOR's route (Delling, Pajor and Werneck, "Round-Based Public Transit Routing",
/// 2012): trips with the same stop sequence that never overtake one another, sorted by
/// departure. Every position of the trip at index `t + 1` departs and arrives no earlier than
/// trip `t`'s, so the first trip departing after a time can be found by binary search.
public struct RoutingTimetable: Sendable {
  /// The number of stops; stop indices run from 0 to `stopCount - 1`.
  public let stopCount: Int
  /// The routes, in any order.
  public let routes: [RoutingRoute]
  /// Per stop, the walks that start there (to other stops).
  public let footpaths: [[Footpath]]
  /// Per stop, the seconds needed to change from one trip to another there (empty: none).
  public let changeSeconds: [Int32]

  // The routes through each stop, flattened: entries `stopRouteStart[s] ..< stopRouteStart[s + 1]`.
  let stopRouteStart: [Int32]
  let stopRouteRoute: [Int32]
  let stopRoutePosition: [Int32]

  /// Builds the index of routes by stop.
  /// - Precondition: every stop index is below `stopCount`; `footpaths` is empty or has one
  ///   list per stop; each route's trips are FIFO (checked by `RoutingRoute.init`).
  /// - Complexity: O(stops + route positions).
  public init(stopCount: Int, routes: [RoutingRoute], footpaths: [[Footpath]] = [], changeSeconds: [Int32] = []) {
    precondition(footpaths.isEmpty || footpaths.count == stopCount, "footpaths must have one list per stop")
    precondition(changeSeconds.isEmpty || changeSeconds.count == stopCount, "changeSeconds must have one value per stop")
    self.stopCount = stopCount
    self.routes = routes
    self.footpaths = footpaths.isEmpty ? Array(repeating: [], count: stopCount) : footpaths
    self.changeSeconds = changeSeconds.isEmpty ? Array(repeating: 0, count: stopCount) : changeSeconds
    var counts = [Int32](repeating: 0, count: stopCount + 1)
    for route in routes {
      for stop in route.stops {
        precondition(stop >= 0 && Int(stop) < stopCount, "route stop \(stop) is outside 0..<\(stopCount)")
        counts[Int(stop) + 1] += 1
      }
    }
    for index in 0..<stopCount { counts[index + 1] += counts[index] }
    var next = counts
    var routeOf = [Int32](repeating: 0, count: Int(counts[stopCount]))
    var positionOf = [Int32](repeating: 0, count: Int(counts[stopCount]))
    for (routeIndex, route) in routes.enumerated() {
      for (position, stop) in route.stops.enumerated() {
        let slot = Int(next[Int(stop)])
        routeOf[slot] = Int32(routeIndex)
        positionOf[slot] = Int32(position)
        next[Int(stop)] += 1
      }
    }
    stopRouteStart = counts
    stopRouteRoute = routeOf
    stopRoutePosition = positionOf
  }

  /// The (route, position) pairs at which routes call at `stop`.
  public func routes(at stop: Int) -> [(route: Int, position: Int)] {
    (Int(stopRouteStart[stop])..<Int(stopRouteStart[stop + 1])).map { (Int(stopRouteRoute[$0]), Int(stopRoutePosition[$0])) }
  }
}

/// A walk from one stop to another, in seconds.
public struct Footpath: Sendable, Hashable {
  /// The stop walked to.
  public var to: Int32
  /// How long the walk takes.
  public var seconds: Int32

  /// Creates a walk to `to` taking `seconds`.
  public init(to: Int32, seconds: Int32) {
    self.to = to
    self.seconds = seconds
  }
}

/// Trips sharing one stop sequence, none overtaking another, sorted by departure.
public struct RoutingRoute: Sendable {
  /// The stops, in calling order (a stop may appear twice on a loop).
  public let stops: [Int32]
  /// Per position: whether passengers may board (GTFS pickup_type is not 1).
  public let canBoard: [Bool]
  /// Per position: whether passengers may alight (GTFS drop_off_type is not 1).
  public let canAlight: [Bool]
  /// Trip-major arrival times: trip `t` at position `p` is `arrivals[t * stops.count + p]`.
  public let arrivals: [Int32]
  /// Trip-major departure times, as `arrivals`.
  public let departures: [Int32]
  /// Per trip, the caller's reference for it (an index into its own trip table).
  public let tripReferences: [Int32]
  /// The caller's reference for the route (its pattern, say).
  public let reference: Int32

  /// The number of trips.
  public var tripCount: Int { tripReferences.count }

  /// Creates a route.
  /// - Precondition: the arrays have matching sizes and the trips are FIFO: at every position
  ///   each trip arrives and departs no earlier than the one before it, and departs no earlier
  ///   than it arrives.
  public init(
    stops: [Int32], canBoard: [Bool], canAlight: [Bool], arrivals: [Int32], departures: [Int32], tripReferences: [Int32],
    reference: Int32
  ) {
    let n = stops.count
    precondition(canBoard.count == n && canAlight.count == n, "one pickup and drop-off flag per stop")
    precondition(arrivals.count == n * tripReferences.count && departures.count == arrivals.count, "times of every trip at every stop")
    for t in 0..<tripReferences.count {
      for p in 0..<n {
        let i = t * n + p
        precondition(departures[i] >= arrivals[i], "trip \(t) departs before it arrives at position \(p)")
        if t > 0 {
          precondition(
            arrivals[i] >= arrivals[i - n] && departures[i] >= departures[i - n],
            "trip \(t) overtakes trip \(t - 1) at position \(p): split the route")
        }
      }
    }
    self.stops = stops
    self.canBoard = canBoard
    self.canAlight = canAlight
    self.arrivals = arrivals
    self.departures = departures
    self.tripReferences = tripReferences
    self.reference = reference
  }

  /// The arrival of trip `trip` at `position`.
  @inline(__always) public func arrival(trip: Int, position: Int) -> Int32 { arrivals[trip * stops.count + position] }
  /// The departure of trip `trip` at `position`.
  @inline(__always) public func departure(trip: Int, position: Int) -> Int32 { departures[trip * stops.count + position] }
}
