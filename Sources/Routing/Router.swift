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
    var search = Search(timetable: timetable)
    return earliestArrival(query, departingAt: time, using: &search)
  }

  /// `earliestArrival`, on the state of earlier searches (reset only where they reached).
  func earliestArrival(_ query: RoutingQuery, departingAt time: Int32, using search: inout Search) -> [Journey] {
    search.run(query, departure: time)
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
    var search = Search(timetable: timetable)
    for attempt in 0..<(count * 3 + 6) {
      let batch = earliestArrival(attempt == 0 ? query : withoutWalk, departingAt: start, using: &search)
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
    var search = Search(timetable: timetable)
    for _ in 0..<max(2, count * 3) {
      let batch = latestDeparture(withoutWalk, arrivingBy: bound, notBefore: notBefore, using: &search)
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
    var search = Search(timetable: timetable)
    return latestDeparture(query, arrivingBy: deadline, notBefore: notBefore, using: &search)
  }

  /// `latestDeparture`, on the state of earlier searches.
  func latestDeparture(_ query: RoutingQuery, arrivingBy deadline: Int32, notBefore: Int32, using search: inout Search) -> [Journey] {
    var candidates: [Int32] = []
    for access in query.access {
      let stop = Int(access.stop)
      for index in Int(timetable.stopRouteStart[stop])..<Int(timetable.stopRouteStart[stop + 1]) {
        let route = timetable.routes[Int(timetable.stopRouteRoute[index])]
        let position = Int(timetable.stopRoutePosition[index])
        guard route.canBoard[position], position < route.stops.count - 1, query.wheelchair?.allows(stop: stop) ?? true else { continue }
        for trip in 0..<route.tripCount where query.wheelchair?.allows(trip: route.tripReferences[trip]) ?? true {
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
        earliestArrival(transit, departingAt: time, using: &search).filter { $0.arrival <= deadline }
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
  /// The round whose ride arrival it starts from (the round that set it; 0 for access).
  var round: Int32 = -1
  /// The walk's duration (access or footpath).
  var seconds: Int32 = 0
}

/// The state of earliest-arrival searches on one timetable, kept between searches so that each
/// costs what it touches, not the network's size: a country-wide timetable holds 80,000 stops
/// of which one journey reaches a few thousand.
///
/// Only each stop's best arrival by a ride and best time ready to board are kept as arrays
/// (RAPTOR's labels only improve from round to round, so the label "as of round k" is the last
/// one set in round k or before). Every label set is logged with the index of the stop's
/// previous one, so a journey is rebuilt from the rounds without a copy of the arrays per
/// round; a new search resets only the stops the last one touched.
struct Search {
  static let never = Int32.max

  /// A ride label and its arrival, with the stop's previous entry (-1: none).
  struct RideEntry {
    var label: RideLabel
    var arrival: Int32
    var previous: Int32
  }

  /// A ready label, with the stop's previous entry (-1: none).
  struct ReadyEntry {
    var label: ReadyLabel
    var previous: Int32
  }

  let timetable: RoutingTimetable
  /// Each round that improved the destination: its arrival and the stop left on foot.
  var results: [(round: Int, arrival: Int32, egress: StopWalk)] = []

  private var bestRide: [Int32]
  private var bestReady: [Int32]
  private var rideHead: [Int32]
  private var readyHead: [Int32]
  private var rideLog: [RideEntry] = []
  private var readyLog: [ReadyEntry] = []
  private var isTouched: [Bool]
  private var touched: [Int32] = []
  private var marked: [Bool]
  private var markedList: [Int32] = []
  private var improvedFlag: [Bool]
  private var improved: [Int32] = []
  private var queuedAt: [Int32]
  private var queue: [Int32] = []
  /// Under a wheelchair filter, per route and trip, the first allowed trip at that index or
  /// later (`tripCount` when none): built at the first filtered search (a Search serves one
  /// query's filter).
  private var nextAllowed: [[Int32]]?

  /// Searches on `timetable`.
  /// - Complexity: O(stops + routes), once; each search then costs what it touches.
  init(timetable: RoutingTimetable) {
    self.timetable = timetable
    let count = timetable.stopCount
    bestRide = [Int32](repeating: Self.never, count: count)
    bestReady = bestRide
    rideHead = [Int32](repeating: -1, count: count)
    readyHead = rideHead
    isTouched = [Bool](repeating: false, count: count)
    marked = isTouched
    improvedFlag = isTouched
    queuedAt = [Int32](repeating: -1, count: timetable.routes.count)
  }

  /// Forgets the last search: resets the stops it touched.
  private mutating func reset() {
    for stop in touched {
      let at = Int(stop)
      bestRide[at] = Self.never
      bestReady[at] = Self.never
      rideHead[at] = -1
      readyHead[at] = -1
      isTouched[at] = false
    }
    for stop in markedList { marked[Int(stop)] = false }
    for stop in improved { improvedFlag[Int(stop)] = false }
    touched.removeAll(keepingCapacity: true)
    markedList.removeAll(keepingCapacity: true)
    improved.removeAll(keepingCapacity: true)
    rideLog.removeAll(keepingCapacity: true)
    readyLog.removeAll(keepingCapacity: true)
    results.removeAll(keepingCapacity: true)
  }

  @inline(__always) private mutating func touch(_ stop: Int) {
    if !isTouched[stop] {
      isTouched[stop] = true
      touched.append(Int32(stop))
    }
  }

  @inline(__always) private mutating func setRide(_ stop: Int, arrival: Int32, label: RideLabel) {
    touch(stop)
    bestRide[stop] = arrival
    rideLog.append(RideEntry(label: label, arrival: arrival, previous: rideHead[stop]))
    rideHead[stop] = Int32(rideLog.count - 1)
  }

  @inline(__always) private mutating func setReady(_ stop: Int, time: Int32, label: ReadyLabel) {
    touch(stop)
    bestReady[stop] = time
    readyLog.append(ReadyEntry(label: label, previous: readyHead[stop]))
    readyHead[stop] = Int32(readyLog.count - 1)
    if !marked[stop] {
      marked[stop] = true
      markedList.append(Int32(stop))
    }
  }

  /// The ride label of `stop` as it stood after `round`, or nil.
  private func ride(_ stop: Int, asOf round: Int) -> RideEntry? {
    var index = rideHead[stop]
    while index >= 0 {
      let entry = rideLog[Int(index)]
      if Int(entry.label.round) <= round { return entry }
      index = entry.previous
    }
    return nil
  }

  /// The ready label of `stop` as it stood after `round` (the empty label when none).
  private func ready(_ stop: Int, asOf round: Int) -> ReadyLabel {
    var index = readyHead[stop]
    while index >= 0 {
      let entry = readyLog[Int(index)]
      if Int(entry.label.round) <= round { return entry.label }
      index = entry.previous
    }
    return ReadyLabel()
  }

  /// Per route, the first trip at each index or later that `filter` allows.
  /// - Complexity: O(trips).
  static func nextAllowed(_ timetable: RoutingTimetable, filter: WheelchairFilter) -> [[Int32]] {
    timetable.routes.map { route in
      var next = [Int32](repeating: Int32(route.tripCount), count: route.tripCount + 1)
      for trip in stride(from: route.tripCount - 1, through: 0, by: -1) {
        next[trip] = filter.allows(trip: route.tripReferences[trip]) ? Int32(trip) : next[trip + 1]
      }
      return next
    }
  }

  mutating func run(_ query: RoutingQuery, departure: Int32) {
    reset()
    let never = Self.never
    let routes = timetable.routes
    let filter = query.wheelchair
    if let filter, nextAllowed == nil { nextAllowed = Self.nextAllowed(timetable, filter: filter) }
    for access in query.access {
      let stop = Int(access.stop)
      let time = departure + access.seconds
      guard time < bestReady[stop] else { continue }
      setReady(stop, time: time, label: ReadyLabel(kind: .access, from: -1, round: 0, seconds: access.seconds))
    }
    var target = never

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
      // Every ready time read while scanning is the previous round's: this round's are set
      // only after the scan.

      // Route scanning: ride the earliest trip that can be caught, hop on an earlier one
      // wherever a stop is ready sooner.
      for routeIndex in queue {
        let route = routes[Int(routeIndex)]
        let width = route.stops.count
        var trip = -1
        var board = -1
        for position in Int(queuedAt[Int(routeIndex)])..<width {
          let stop = Int(route.stops[position])
          // A wheelchair filter: neither alight nor board at a stop it does not allow.
          let allowed = filter?.allows(stop: stop) ?? true
          if trip >= 0 && route.canAlight[position] && allowed {
            let arrival = route.arrivals[trip * width + position]
            if arrival < bestRide[stop] && arrival < target {
              setRide(
                stop, arrival: arrival,
                label: RideLabel(route: routeIndex, trip: Int32(trip), board: Int32(board), alight: Int32(position), round: Int32(round)))
              if !improvedFlag[stop] {
                improvedFlag[stop] = true
                improved.append(Int32(stop))
              }
            }
          }
          if route.canBoard[position] && position < width - 1 && allowed {
            let readyTime = bestReady[stop]
            if readyTime != never && (trip < 0 || readyTime <= route.departures[trip * width + position]) {
              // The first trip departing at readyTime or later, among those before the current one.
              var low = 0
              var high = trip < 0 ? route.tripCount : trip
              while low < high {
                let middle = (low + high) / 2
                if route.departures[middle * width + position] < readyTime { low = middle + 1 } else { high = middle }
              }
              // The first allowed one from there (later trips depart no earlier: FIFO).
              if let next = nextAllowed, filter != nil { low = Int(next[Int(routeIndex)][low]) }
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
        let time = bestRide[at] + timetable.changeSeconds[at]
        if time < bestReady[at] {
          setReady(at, time: time, label: ReadyLabel(kind: .stay, from: stop, round: Int32(round), seconds: 0))
        }
      }
      for stop in improved {
        let from = Int(stop)
        for path in timetable.footpaths[from] {
          let to = Int(path.to)
          let time = bestRide[from] + path.seconds
          guard time < bestReady[to] && time < target else { continue }
          setReady(to, time: time, label: ReadyLabel(kind: .walk, from: stop, round: Int32(round), seconds: path.seconds))
        }
        improvedFlag[from] = false
      }
      improved.removeAll(keepingCapacity: true)

      var best: (Int32, StopWalk)?
      for egress in query.egress where bestRide[Int(egress.stop)] != never {
        let arrival = bestRide[Int(egress.stop)] + egress.seconds
        if arrival < target {
          target = arrival
          best = (arrival, egress)
        }
      }
      if let best { results.append((round, best.0, best.1)) }
    }
  }

  /// The journey ending with a ride to `egress.stop` in `round`, rebuilt from the labels.
  func journey(round: Int, egress: StopWalk) -> Journey {
    var stop = Int(egress.stop)
    var current = round
    let end = ride(stop, asOf: round)!.arrival
    var legs: [JourneyLeg] = [.egress(stop: egress.stop, seconds: egress.seconds, departure: end)]
    while true {
      let label = ride(stop, asOf: current)!.label
      let route = timetable.routes[Int(label.route)]
      let departure = route.departure(trip: Int(label.trip), position: Int(label.board))
      legs.append(
        .ride(
          route: label.route, trip: label.trip, boardPosition: label.board, alightPosition: label.alight,
          departure: departure, arrival: route.arrival(trip: Int(label.trip), position: Int(label.alight))))
      let boardStop = Int(route.stops[Int(label.board)])
      let before = ready(boardStop, asOf: Int(label.round) - 1)
      switch before.kind {
      case .access, .none:
        legs.append(.access(stop: Int32(boardStop), seconds: before.seconds, departure: departure - before.seconds))
        legs.reverse()
        return Journey(departure: departure - before.seconds, arrival: end + egress.seconds, legs: legs)
      case .stay:
        stop = boardStop
        current = Int(before.round)
      case .walk:
        legs.append(
          .transfer(
            from: before.from, to: Int32(boardStop), departure: ride(Int(before.from), asOf: Int(before.round))!.arrival,
            seconds: before.seconds))
        stop = Int(before.from)
        current = Int(before.round)
      }
    }
  }
}
