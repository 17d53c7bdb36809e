/// The trips of one stop pattern, as plain arrays: what a timetable store hands the router.
/// Trip `t`'s time at position `p` is `arrivals[t * stops.count + p]` (and departures alike).
public struct PatternTrips: Sendable, Hashable {
  /// The pattern it comes from (kept as each route's `reference`).
  public var reference: Int32
  /// The stops, in order, and where one may board and alight.
  public var stops: [Int32]
  public var canBoard: [Bool]
  public var canAlight: [Bool]
  /// The trips' times, trip after trip.
  public var arrivals: [Int32]
  public var departures: [Int32]
  /// What each trip is to the caller.
  public var trips: [Int32]

  /// Trips of one pattern.
  public init(
    reference: Int32, stops: [Int32], canBoard: [Bool], canAlight: [Bool], arrivals: [Int32], departures: [Int32], trips: [Int32]
  ) {
    self.reference = reference
    self.stops = stops
    self.canBoard = canBoard
    self.canAlight = canAlight
    self.arrivals = arrivals
    self.departures = departures
    self.trips = trips
  }
}

extension RoutingTimetable {
  /// The router's timetable from stop patterns: each pattern's trips split into routes whose
  /// trips never overtake (RAPTOR scans a route's trips in order, so a later trip may never
  /// arrive anywhere before an earlier one). Greedily: each trip, in order of departure, joins
  /// the first route whose last trip it does not overtake.
  /// - Complexity: O(trips × routes per pattern × stops).
  public init(stopCount: Int, patterns: [PatternTrips], footpaths: [[Footpath]] = [], changeSeconds: [Int32] = []) {
    var routes: [RoutingRoute] = []
    for group in patterns where !group.trips.isEmpty {
      let width = group.stops.count
      let order = group.trips.indices.sorted { a, b in
        let da = group.departures[a * width], db = group.departures[b * width]
        if da != db { return da < db }
        return group.arrivals[a * width + width - 1] < group.arrivals[b * width + width - 1]
      }
      var parts: [[Int]] = []
      for trip in order {
        let fits = parts.firstIndex { part in
          let last = part[part.count - 1]
          for position in 0..<width
          where group.arrivals[trip * width + position] < group.arrivals[last * width + position]
            || group.departures[trip * width + position] < group.departures[last * width + position]
          {
            return false
          }
          return true
        }
        if let fits { parts[fits].append(trip) } else { parts.append([trip]) }
      }
      for part in parts {
        var arrivals: [Int32] = [], departures: [Int32] = []
        arrivals.reserveCapacity(part.count * width)
        departures.reserveCapacity(part.count * width)
        for trip in part {
          arrivals += group.arrivals[(trip * width)..<(trip * width + width)]
          departures += group.departures[(trip * width)..<(trip * width + width)]
        }
        routes.append(
          RoutingRoute(
            stops: group.stops, canBoard: group.canBoard, canAlight: group.canAlight, arrivals: arrivals, departures: departures,
            tripReferences: part.map { group.trips[$0] }, reference: group.reference))
      }
    }
    self.init(stopCount: stopCount, routes: routes, footpaths: footpaths, changeSeconds: changeSeconds)
  }
}
