/// Journey search on a `RoutingTimetable` with RAPTOR (Delling, Pajor and Werneck, "Round-Based
/// Public Transit Routing", 2012).
///
/// Round `k` finds the earliest arrival at every stop using at most `k` trips: it scans each
/// route through a stop improved in round `k - 1`, boarding the earliest trip that can be
/// caught, then applies footpaths from the stops its rides improved. The destination's
/// arrival after each round gives the Pareto set of arrival time against number of trips.
/// Labels are pruned by the best arrival at the stop in any round (local pruning) and at the
/// destination (target pruning); neither loses a Pareto-optimal journey, since an earlier
/// round's label uses fewer trips.
///
/// Pure: a timetable and a query in, journeys out.
public struct Router: Sendable {
  /// The timetable searched.
  public let timetable: RoutingTimetable

  /// A router over `timetable`.
  public init(_ timetable: RoutingTimetable) {
    self.timetable = timetable
  }

  // MARK: - Earliest arrival

  /// The Pareto-optimal journeys leaving the origin at `time` or later: the earliest arrival
  /// with one trip, then with each further trip while that arrives strictly earlier; walking
  /// the whole way (when the query allows it) counts as no trip.
  /// - Complexity: O(rounds × (route positions scanned + footpaths)); each boarding is a binary
  ///   search over the route's trips.
  public func earliestArrival(_ query: RoutingQuery, departingAt time: Int32) -> [Journey] {
    var search = Search(timetable: timetable, query: query)
    search.run(departure: time)
    var journeys: [Journey] = []
    var bound = Int32.max
    if let walk = query.directWalkSeconds {
      journeys.append(Journey(departure: time, arrival: time + walk, legs: [.walk(seconds: walk, departure: time)]))
      bound = time + walk
    }
    for result in search.results where result.arrival < bound {
      journeys.append(search.journey(round: result.round, egress: result.egress))
      bound = result.arrival
    }
    return journeys
  }

  /// Several journeys leaving at `time` or later: the Pareto set, then the Pareto sets of
  /// searches leaving just after the first-arriving journey found so far, until `count`
  /// journeys with a ride are found (or nothing later is). A journey is dropped when another
  /// leaves no earlier, arrives no later and rides no more trips (RAPTOR catches the earliest
  /// trip that arrives first; a later one may arrive as soon). Sorted by arrival, then by
  /// fewer trips.
  public func journeys(_ query: RoutingQuery, departingAt time: Int32, count: Int) -> [Journey] {
    var found: [Journey] = []
    var start = time
    var withoutWalk = query
    for attempt in 0..<(count * 3 + 6) {
      let batch = earliestArrival(attempt == 0 ? query : withoutWalk, departingAt: start)
      withoutWalk.directWalkSeconds = nil
      let before = found
      for journey in batch where !found.contains(journey) { found.append(journey) }
      found = Self.nondominated(found)
      // A later departure that beat one found before may be beaten by a later one still.
      let improved = before.contains { !found.contains($0) }
      // Next, leave just after the journey arriving first.
      guard found.filter({ $0.rides > 0 }).count < count || improved || attempt == 0,
        let next = batch.filter({ $0.rides > 0 }).min(by: { ($0.arrival, $0.departure) < ($1.arrival, $1.departure) })
      else { break }
      start = next.departure + 1
    }
    found.sort { ($0.arrival, $0.rides, $0.departure) < ($1.arrival, $1.rides, $1.departure) }
    return Array(found.prefix(max(count, 1)))
  }

  /// Several journeys arriving by `deadline`, latest departure first: the Pareto set of
  /// `latestDeparture`, then those arriving before the earliest arrival found so far.
  public func journeys(_ query: RoutingQuery, arrivingBy deadline: Int32, notBefore: Int32, count: Int) -> [Journey] {
    var found: [Journey] = []
    var bound = deadline
    var withoutWalk = query
    for _ in 0..<max(2, count * 3) {
      let batch = latestDeparture(withoutWalk, arrivingBy: bound, notBefore: notBefore)
      if found.isEmpty, let walk = query.directWalkSeconds, deadline - walk >= notBefore {
        found.append(Journey(departure: deadline - walk, arrival: deadline, legs: [.walk(seconds: walk, departure: deadline - walk)]))
      }
      withoutWalk.directWalkSeconds = nil
      for journey in batch where !found.contains(journey) { found.append(journey) }
      found = Self.nondominated(found)
      guard found.filter({ $0.rides > 0 }).count < count, let earliest = batch.map(\.arrival).min() else { break }
      bound = earliest - 1
    }
    found.sort { ($0.departure, -$0.rides) > ($1.departure, -$1.rides) }
    return Array(found.prefix(max(count, 1)))
  }

  /// `journeys` without those another journey beats or equals on departure (later), arrival
  /// (earlier) and trips (fewer); of identical ones, the first is kept.
  static func nondominated(_ journeys: [Journey]) -> [Journey] {
    var kept: [Journey] = []
    for (index, journey) in journeys.enumerated() {
      let beaten = journeys.enumerated().contains { other, candidate in
        guard other != index, candidate.departure >= journey.departure, candidate.arrival <= journey.arrival,
          candidate.rides <= journey.rides
        else { return false }
        let same = candidate.departure == journey.departure && candidate.arrival == journey.arrival && candidate.rides == journey.rides
        return !same || other < index
      }
      if !beaten { kept.append(journey) }
    }
    return kept
  }

  // MARK: - Latest departure

  /// The Pareto-optimal journeys arriving by `deadline`, latest departure first: the journey
  /// leaving last (not before `notBefore`), then, for each smaller number of trips, the
  /// latest departure with that many (listed only when it leaves strictly earlier).
  ///
  /// The earliest arrival never decreases when leaving later (one can always wait), so the
  /// latest departure is a binary search over the times at which the origin's trips can be
  /// caught, each probe one earliest-arrival search (rRAPTOR's candidate departures, searched
  /// by halving instead of all in turn).
  /// - Complexity: O(log(candidate departures)) earliest-arrival searches per number of trips.
  public func latestDeparture(_ query: RoutingQuery, arrivingBy deadline: Int32, notBefore: Int32) -> [Journey] {
    var candidates: [Int32] = []
    for access in query.access {
      let stop = Int(access.stop)
      for index in Int(timetable.stopRouteStart[stop])..<Int(timetable.stopRouteStart[stop + 1]) {
        let route = timetable.routes[Int(timetable.stopRouteRoute[index])]
        let position = Int(timetable.stopRoutePosition[index])
        guard route.canBoard[position], position < route.stops.count - 1 else { continue }
        for trip in 0..<route.tripCount {
          let leave = route.departure(trip: trip, position: position) - access.seconds
          if leave >= notBefore && leave <= deadline { candidates.append(leave) }
        }
      }
    }
    candidates.sort()
    var unique: [Int32] = []
    for time in candidates where unique.last != time { unique.append(time) }

    var journeys: [Journey] = []
    var transit = query
    transit.directWalkSeconds = nil
    var maxRides = query.maxRides
    while maxRides >= 1 {
      transit.maxRides = maxRides
      func arriving(_ time: Int32) -> [Journey] {
        earliestArrival(transit, departingAt: time).filter { $0.arrival <= deadline }
      }
      // The last candidate from which the deadline can be met.
      var low = 0, high = unique.count
      while low < high {
        let middle = (low + high) / 2
        if arriving(unique[middle]).isEmpty { high = middle } else { low = middle + 1 }
      }
      guard low > 0 else { break }
      let found = arriving(unique[low - 1])
      // At that time, every ride count that arrives in time; keep the latest-leaving for each.
      journeys += found
      guard let fewest = found.map(\.rides).min() else { break }
      maxRides = fewest - 1
      unique = Array(unique[..<(low - 1)])
    }
    if let walk = query.directWalkSeconds, deadline - walk >= notBefore {
      journeys.append(Journey(departure: deadline - walk, arrival: deadline, legs: [.walk(seconds: walk, departure: deadline - walk)]))
    }
    // Pareto: fewer trips must mean an earlier departure to be worth listing.
    journeys.sort { ($0.departure, $0.rides) > ($1.departure, $1.rides) }
    var kept: [Journey] = []
    for journey in journeys where !kept.contains(where: { $0.rides <= journey.rides }) { kept.append(journey) }
    return kept
  }
}

// MARK: - One search

/// How a stop's ride arrival was reached: trip `trip` of `route` boarded at `board`.
struct RideLabel {
  var route: Int32 = -1
  var trip: Int32 = -1
  var board: Int32 = -1
  var alight: Int32 = -1
  /// The round that set it (labels are carried into later rounds unchanged).
  var round: Int32 = -1
}

/// How a stop became ready to board: from the origin, by staying after a ride, or by a walk.
struct ReadyLabel {
  enum Kind: UInt8 { case none, access, stay, walk }
  var kind: Kind = .none
  /// For a walk, the stop walked from.
  var from: Int32 = -1
  /// The round whose ride arrival it starts from.
  var round: Int32 = -1
  /// The walk's duration (access or footpath).
  var seconds: Int32 = 0
}

struct Search {
  static let never = Int32.max
  let timetable: RoutingTimetable
  let query: RoutingQuery
  /// Per round: the arrival at each stop by a ride, and how.
  var ride: [[Int32]] = []
  var rideFrom: [[RideLabel]] = []
  /// Per round: when each stop is ready for the next trip, and how.
  var ready: [[Int32]] = []
  var readyFrom: [[ReadyLabel]] = []
  /// Each round that improved the destination: its arrival and the stop left on foot.
  var results: [(round: Int, arrival: Int32, egress: StopWalk)] = []

  init(timetable: RoutingTimetable, query: RoutingQuery) {
    self.timetable = timetable
    self.query = query
  }

  mutating func run(departure: Int32) {
    let never = Self.never
    let count = timetable.stopCount
    let routes = timetable.routes
    var bestRide = [Int32](repeating: never, count: count)
    var bestReady = [Int32](repeating: never, count: count)
    var marked = [Bool](repeating: false, count: count)
    var markedList: [Int32] = []
    var roundReady = [Int32](repeating: never, count: count)
    var roundReadyFrom = [ReadyLabel](repeating: ReadyLabel(), count: count)
    for access in query.access {
      let stop = Int(access.stop)
      let time = departure + access.seconds
      guard time < roundReady[stop] else { continue }
      roundReady[stop] = time
      roundReadyFrom[stop] = ReadyLabel(kind: .access, from: -1, round: 0, seconds: access.seconds)
      bestReady[stop] = time
      if !marked[stop] {
        marked[stop] = true
        markedList.append(access.stop)
      }
    }
    ride = [[Int32](repeating: never, count: count)]
    rideFrom = [[RideLabel](repeating: RideLabel(), count: count)]
    ready = [roundReady]
    readyFrom = [roundReadyFrom]
    var target = never
    var queuedAt = [Int32](repeating: -1, count: routes.count)
    var queue: [Int32] = []
    var improvedFlag = [Bool](repeating: false, count: count)
    var improved: [Int32] = []

    for round in 1...max(1, query.maxRides) {
      guard !markedList.isEmpty else { break }
      // Routes through a stop marked in the last round, from their first such stop.
      for stop in markedList {
        marked[Int(stop)] = false
        for index in Int(timetable.stopRouteStart[Int(stop)])..<Int(timetable.stopRouteStart[Int(stop) + 1]) {
          let route = Int(timetable.stopRouteRoute[index])
          let position = timetable.stopRoutePosition[index]
          if queuedAt[route] < 0 {
            queuedAt[route] = position
            queue.append(Int32(route))
          } else if position < queuedAt[route] {
            queuedAt[route] = position
          }
        }
      }
      markedList.removeAll(keepingCapacity: true)
      let previousReady = ready[round - 1]
      var roundRide = ride[round - 1]
      var roundRideFrom = rideFrom[round - 1]
      roundReady = previousReady
      roundReadyFrom = readyFrom[round - 1]

      // Route scanning: ride the earliest trip that can be caught, hop on an earlier one
      // wherever a stop is ready sooner.
      for routeIndex in queue {
        let route = routes[Int(routeIndex)]
        let width = route.stops.count
        var trip = -1
        var board = -1
        for position in Int(queuedAt[Int(routeIndex)])..<width {
          let stop = Int(route.stops[position])
          if trip >= 0 && route.canAlight[position] {
            let arrival = route.arrivals[trip * width + position]
            if arrival < bestRide[stop] && arrival < target {
              bestRide[stop] = arrival
              roundRide[stop] = arrival
              roundRideFrom[stop] = RideLabel(
                route: routeIndex, trip: Int32(trip), board: Int32(board), alight: Int32(position), round: Int32(round))
              if !improvedFlag[stop] {
                improvedFlag[stop] = true
                improved.append(Int32(stop))
              }
            }
          }
          if route.canBoard[position] && position < width - 1 {
            let readyTime = previousReady[stop]
            if readyTime != never && (trip < 0 || readyTime <= route.departures[trip * width + position]) {
              // The first trip departing at readyTime or later, among those before the current one.
              var low = 0
              var high = trip < 0 ? route.tripCount : trip
              while low < high {
                let middle = (low + high) / 2
                if route.departures[middle * width + position] < readyTime { low = middle + 1 } else { high = middle }
              }
              if low < (trip < 0 ? route.tripCount : trip) {
                trip = low
                board = position
              }
            }
          }
        }
        queuedAt[Int(routeIndex)] = -1
      }
      queue.removeAll(keepingCapacity: true)

      // Staying at the stop for the next trip, then walking to others.
      for stop in improved {
        let at = Int(stop)
        let time = roundRide[at] + timetable.changeSeconds[at]
        if time < bestReady[at] {
          bestReady[at] = time
          roundReady[at] = time
          roundReadyFrom[at] = ReadyLabel(kind: .stay, from: stop, round: Int32(round), seconds: 0)
          if !marked[at] {
            marked[at] = true
            markedList.append(stop)
          }
        }
      }
      for stop in improved {
        let from = Int(stop)
        for path in timetable.footpaths[from] {
          let to = Int(path.to)
          let time = roundRide[from] + path.seconds
          guard time < bestReady[to] && time < target else { continue }
          bestReady[to] = time
          roundReady[to] = time
          roundReadyFrom[to] = ReadyLabel(kind: .walk, from: stop, round: Int32(round), seconds: path.seconds)
          if !marked[to] {
            marked[to] = true
            markedList.append(path.to)
          }
        }
        improvedFlag[from] = false
      }
      improved.removeAll(keepingCapacity: true)

      var best: (Int32, StopWalk)?
      for egress in query.egress where roundRide[Int(egress.stop)] != never {
        let arrival = roundRide[Int(egress.stop)] + egress.seconds
        if arrival < target {
          target = arrival
          best = (arrival, egress)
        }
      }
      if let best { results.append((round, best.0, best.1)) }
      ride.append(roundRide)
      rideFrom.append(roundRideFrom)
      ready.append(roundReady)
      readyFrom.append(roundReadyFrom)
    }
  }

  /// The journey ending with a ride to `egress.stop` in `round`, rebuilt from the labels.
  func journey(round: Int, egress: StopWalk) -> Journey {
    var stop = Int(egress.stop)
    var current = round
    var legs: [JourneyLeg] = [.egress(stop: egress.stop, seconds: egress.seconds, departure: ride[round][stop])]
    while true {
      let label = rideFrom[current][stop]
      let route = timetable.routes[Int(label.route)]
      let departure = route.departure(trip: Int(label.trip), position: Int(label.board))
      legs.append(
        .ride(
          route: label.route, trip: label.trip, boardPosition: label.board, alightPosition: label.alight,
          departure: departure, arrival: route.arrival(trip: Int(label.trip), position: Int(label.alight))))
      let boardStop = Int(route.stops[Int(label.board)])
      let before = readyFrom[Int(label.round) - 1][boardStop]
      switch before.kind {
      case .access, .none:
        legs.append(.access(stop: Int32(boardStop), seconds: before.seconds, departure: departure - before.seconds))
        legs.reverse()
        let arrival = ride[round][Int(egress.stop)] + egress.seconds
        return Journey(departure: departure - before.seconds, arrival: arrival, legs: legs)
      case .stay:
        stop = boardStop
        current = Int(before.round)
      case .walk:
        legs.append(
          .transfer(
            from: before.from, to: Int32(boardStop), departure: ride[Int(before.round)][Int(before.from)], seconds: before.seconds))
        stop = Int(before.from)
        current = Int(before.round)
      }
    }
  }
}
