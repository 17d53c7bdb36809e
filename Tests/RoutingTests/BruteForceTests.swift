import Routing
import TestSupport
import Testing

/// A random timetable: routes over random stop sequences with FIFO trips, random pickup and
/// drop-off restrictions, random footpaths and change times.
func randomTimetable(_ random: inout SplitMix64, stops: Int) -> RoutingTimetable {
  var routes: [RoutingRoute] = []
  for index in 0..<Int.random(in: 3...9, using: &random) {
    let length = Int.random(in: 2...min(6, stops), using: &random)
    let sequence = Array((0..<stops).shuffled(using: &random).prefix(length)).map(Int32.init)
    let runs = (0..<length).map { _ in Int32.random(in: 60...600, using: &random) }
    let dwell = Int32.random(in: 0...60, using: &random)
    var starts = (0..<Int.random(in: 1...6, using: &random)).map { _ in Int32.random(in: 0...3600, using: &random) }
    starts.sort()
    var arrivals: [Int32] = [], departures: [Int32] = []
    for start in starts {
      var time = start
      for position in 0..<length {
        arrivals.append(time)
        departures.append(time + dwell)
        time += dwell + runs[position]
      }
    }
    let noBoarding = (0..<length).map { _ in Int.random(in: 0..<10, using: &random) == 0 }
    let noAlighting = (0..<length).map { _ in Int.random(in: 0..<10, using: &random) == 0 }
    routes.append(
      RoutingRoute(
        stops: sequence, canBoard: noBoarding.map { !$0 }, canAlight: noAlighting.map { !$0 }, arrivals: arrivals,
        departures: departures, tripReferences: starts.indices.map { Int32($0) }, reference: Int32(index)))
  }
  var footpaths = [[Footpath]](repeating: [], count: stops)
  for _ in 0..<Int.random(in: 0...stops, using: &random) {
    let a = Int.random(in: 0..<stops, using: &random), b = Int.random(in: 0..<stops, using: &random)
    guard a != b, !footpaths[a].contains(where: { $0.to == Int32(b) }) else { continue }
    let seconds = Int32.random(in: 30...400, using: &random)
    footpaths[a].append(Footpath(to: Int32(b), seconds: seconds))
    footpaths[b].append(Footpath(to: Int32(a), seconds: seconds))
  }
  let change = (0..<stops).map { _ in Bool.random(using: &random) ? Int32.random(in: 0...120, using: &random) : 0 }
  return RoutingTimetable(stopCount: stops, routes: routes, footpaths: footpaths, changeSeconds: change)
}

/// The earliest arrival at the destination with at most `rides` trips, by Dijkstra over the
/// time-dependent graph whose nodes are (stop, arrived on foot?, trips ridden): equivalent to
/// the time-expanded graph of the same timetable, since waiting is free and trips are FIFO.
/// Walks do not follow walks (as in RAPTOR, footpaths are transitively closed by the caller),
/// the origin's walk counts as a walk, and a change at the same stop takes its change time.
func bruteForceArrival(_ timetable: RoutingTimetable, _ query: RoutingQuery, departure: Int32, rides maxRides: Int) -> Int32? {
  let never = Int32.max
  let n = timetable.stopCount
  // label[rides][walked][stop]
  var label = [[[Int32]]](repeating: [[Int32]](repeating: [Int32](repeating: never, count: n), count: 2), count: maxRides + 1)
  var settled = label.map { $0.map { $0.map { _ in false } } }
  for access in query.access { label[0][1][Int(access.stop)] = min(label[0][1][Int(access.stop)], departure + access.seconds) }
  while true {
    var best: (Int, Int, Int)?
    var bestTime = never
    for r in 0...maxRides {
      for w in 0..<2 {
        for s in 0..<n where !settled[r][w][s] && label[r][w][s] < bestTime {
          bestTime = label[r][w][s]
          best = (r, w, s)
        }
      }
    }
    guard let (r, w, s) = best else { break }
    settled[r][w][s] = true
    let time = bestTime
    if w == 0 {
      for path in timetable.footpaths[s] where time + path.seconds < label[r][1][Int(path.to)] {
        label[r][1][Int(path.to)] = time + path.seconds
      }
    }
    guard r < maxRides else { continue }
    let readyTime = w == 0 ? time + timetable.changeSeconds[s] : time
    for route in timetable.routes {
      for position in route.stops.indices where route.stops[position] == Int32(s) && route.canBoard[position] {
        for trip in 0..<route.tripCount where route.departure(trip: trip, position: position) >= readyTime {
          for later in (position + 1)..<route.stops.count where route.canAlight[later] {
            let stop = Int(route.stops[later])
            label[r + 1][0][stop] = min(label[r + 1][0][stop], route.arrival(trip: trip, position: later))
          }
        }
      }
    }
  }
  var result = never
  for r in 1...max(1, maxRides) where r <= maxRides {
    for egress in query.egress where label[r][0][Int(egress.stop)] != never {
      result = min(result, label[r][0][Int(egress.stop)] + egress.seconds)
    }
  }
  return result == never ? nil : result
}

@Suite struct BruteForceTests {
  @Test func earliestArrivalMatchesDijkstraForEveryRideCount() {
    var random = SplitMix64(state: 20_121_010)
    var compared = 0, reachable = 0
    for _ in 0..<150 {
      let stops = Int.random(in: 4...12, using: &random)
      let timetable = randomTimetable(&random, stops: stops)
      let router = Router(timetable)
      for _ in 0..<8 {
        let origin = Int32.random(in: 0..<Int32(stops), using: &random)
        let destination = Int32.random(in: 0..<Int32(stops), using: &random)
        guard origin != destination else { continue }
        let departure = Int32.random(in: 0...3000, using: &random)
        let query = RoutingQuery(
          access: [.init(stop: origin, seconds: Int32.random(in: 0...60, using: &random))],
          egress: [.init(stop: destination, seconds: Int32.random(in: 0...60, using: &random))], maxRides: 4)
        let journeys = router.earliestArrival(query, departingAt: departure)
        for rides in 1...4 {
          let expected = bruteForceArrival(timetable, query, departure: departure, rides: rides)
          let found = journeys.filter { $0.rides <= rides }.map(\.arrival).min()
          #expect(found == expected, "\(rides) rides from \(origin) to \(destination) at \(departure)")
          compared += 1
          if expected != nil { reachable += 1 }
        }
        // Each journey is Pareto-optimal and its legs are consistent with the timetable.
        for (index, journey) in journeys.enumerated() {
          if index > 0 { #expect(journey.rides > journeys[index - 1].rides && journey.arrival < journeys[index - 1].arrival) }
          checkLegs(journey, timetable: timetable, query: query, departure: departure)
        }
      }
    }
    #expect(compared > 2000)
    #expect(reachable > 300)
  }

  @Test func latestDepartureMatchesEarliestArrival() {
    var random = SplitMix64(state: 42)
    for _ in 0..<100 {
      let stops = Int.random(in: 4...10, using: &random)
      let timetable = randomTimetable(&random, stops: stops)
      let router = Router(timetable)
      let origin = Int32.random(in: 0..<Int32(stops), using: &random)
      let destination = Int32.random(in: 0..<Int32(stops), using: &random)
      guard origin != destination else { continue }
      let query = RoutingQuery(access: [.init(stop: origin, seconds: 0)], egress: [.init(stop: destination, seconds: 0)], maxRides: 4)
      let deadline = Int32.random(in: 1000...6000, using: &random)
      let journeys = router.latestDeparture(query, arrivingBy: deadline, notBefore: 0)
      guard let latest = journeys.first else {
        // Nothing arrives in time even leaving at 0.
        #expect(router.earliestArrival(query, departingAt: 0).allSatisfy { $0.arrival > deadline })
        continue
      }
      #expect(latest.arrival <= deadline)
      // Leaving one second later cannot make it.
      #expect(router.earliestArrival(query, departingAt: latest.departure + 1).allSatisfy { $0.arrival > deadline })
      for journey in journeys { checkLegs(journey, timetable: timetable, query: query, departure: 0) }
    }
  }
}

/// Each ride's trip serves both stops at the times given; legs follow one another in time.
func checkLegs(_ journey: Journey, timetable: RoutingTimetable, query: RoutingQuery, departure: Int32) {
  var clock = journey.departure
  var at: Int32 = -1
  var arrivedByRide = false
  #expect(journey.departure >= departure)
  for leg in journey.legs {
    switch leg {
    case .access(let stop, let seconds, let leave):
      #expect(query.access.contains(.init(stop: stop, seconds: seconds)))
      #expect(leave == clock)
      clock += seconds
      at = stop
      arrivedByRide = false
    case .ride(let routeIndex, let trip, let board, let alight, let leave, let arrive):
      let route = timetable.routes[Int(routeIndex)]
      #expect(route.stops[Int(board)] == at && board < alight)
      #expect(route.canBoard[Int(board)] && route.canAlight[Int(alight)])
      #expect(route.departure(trip: Int(trip), position: Int(board)) == leave)
      #expect(route.arrival(trip: Int(trip), position: Int(alight)) == arrive)
      #expect(leave >= clock + (arrivedByRide ? timetable.changeSeconds[Int(at)] : 0))
      clock = arrive
      at = route.stops[Int(alight)]
      arrivedByRide = true
    case .transfer(let from, let to, let leave, let seconds):
      #expect(from == at && arrivedByRide && leave == clock)
      #expect(timetable.footpaths[Int(from)].contains(Footpath(to: to, seconds: seconds)))
      clock += seconds
      at = to
      arrivedByRide = false
    case .egress(let stop, let seconds, _):
      #expect(stop == at && arrivedByRide)
      #expect(query.egress.contains(.init(stop: stop, seconds: seconds)))
      clock += seconds
    case .walk(let seconds, _):
      clock += seconds
    }
  }
  #expect(clock == journey.arrival)
}
