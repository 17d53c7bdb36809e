import Routing
import Testing

/// A route from stop indices and per-trip times (departure = arrival + dwell).
func route(
  _ stops: [Int32], trips: [[Int32]], dwell: Int32 = 0, noBoarding: Set<Int> = [], noAlighting: Set<Int> = [],
  reference: Int32 = 0
) -> RoutingRoute {
  RoutingRoute(
    stops: stops, canBoard: stops.indices.map { !noBoarding.contains($0) }, canAlight: stops.indices.map { !noAlighting.contains($0) },
    arrivals: trips.flatMap { $0 }, departures: trips.flatMap { $0.map { $0 + dwell } },
    tripReferences: trips.indices.map { Int32($0) }, reference: reference)
}

@Suite struct RouterTests {
  // Stops: 0 A, 1 B, 2 C, 3 D, 4 E (E is a short walk from B).
  static let slow = route([0, 1, 3], trips: [[100, 400, 1000], [700, 1000, 1600]], reference: 0)
  static let first = route([0, 1], trips: [[200, 300], [500, 600]], reference: 1)
  static let second = route([1, 2, 3], trips: [[350, 500, 800], [650, 800, 1100]], reference: 2)
  static let fromE = route([4, 3], trips: [[420, 700]], reference: 3)

  static func legsSummary(_ journey: Journey) -> [String] {
    journey.legs.map { leg in
      switch leg {
      case .access(let stop, let seconds, _): return "access \(stop) \(seconds)"
      case .ride(let route, let trip, let board, let alight, let departure, let arrival):
        return "ride r\(route) t\(trip) \(board)-\(alight) \(departure)-\(arrival)"
      case .transfer(let from, let to, _, let seconds): return "walk \(from)-\(to) \(seconds)"
      case .egress(let stop, let seconds, _): return "egress \(stop) \(seconds)"
      case .walk(let seconds, _): return "walk \(seconds)"
      }
    }
  }

  @Test func directRide() {
    let router = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow]))
    let journeys = router.earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 50)
    #expect(journeys.count == 1)
    #expect(Self.legsSummary(journeys[0]) == ["access 0 0", "ride r0 t0 0-2 100-1000", "egress 3 0"])
    #expect(journeys[0].departure == 100 && journeys[0].arrival == 1000 && journeys[0].transfers == 0)
  }

  @Test func paretoSetOfArrivalAgainstTransfers() {
    let router = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow, Self.first, Self.second]))
    let journeys = router.earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 0)
    #expect(journeys.map(\.rides) == [1, 2])
    #expect(journeys.map(\.arrival) == [1000, 800])
    #expect(Self.legsSummary(journeys[1]) == ["access 0 0", "ride r1 t0 0-1 200-300", "ride r2 t0 0-2 350-800", "egress 3 0"])
  }

  @Test func maxRidesLimitsTheSearch() {
    let router = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow, Self.first, Self.second]))
    let journeys = router.earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)], maxRides: 1), departingAt: 0)
    #expect(journeys.map(\.arrival) == [1000])
  }

  @Test func changeTimeAtAStopIsRespected() {
    // 100 s to change at B: the 350 trip is missed, the 650 one taken.
    let timetable = RoutingTimetable(stopCount: 5, routes: [Self.first, Self.second], changeSeconds: [0, 100, 0, 0, 0])
    let journeys = Router(timetable).earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 0)
    #expect(journeys.map(\.arrival) == [1100])
  }

  @Test func transferByWalkingBetweenStops() {
    var paths = [[Footpath]](repeating: [], count: 5)
    paths[1] = [Footpath(to: 4, seconds: 90)]
    let timetable = RoutingTimetable(stopCount: 5, routes: [Self.first, Self.fromE], footpaths: paths)
    let journeys = Router(timetable).earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 0)
    #expect(journeys.count == 1)
    #expect(
      Self.legsSummary(journeys[0]) == ["access 0 0", "ride r0 t0 0-1 200-300", "walk 1-4 90", "ride r1 t0 0-1 420-700", "egress 3 0"])
  }

  @Test func noBoardingAndNoAlightingAreRespected() {
    let closed = route([0, 1, 3], trips: [[100, 200, 300]], noBoarding: [0])
    let late = route([0, 3], trips: [[500, 900]])
    let journeys = Router(RoutingTimetable(stopCount: 5, routes: [closed, late])).earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 0)
    #expect(journeys.map(\.arrival) == [900])
    let noDropOff = route([0, 1, 3], trips: [[100, 200, 300]], noAlighting: [2])
    let none = Router(RoutingTimetable(stopCount: 5, routes: [noDropOff, late])).earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 0)
    #expect(none.map(\.arrival) == [900])
  }

  @Test func accessAndEgressWalks() {
    let journeys = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow])).earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 120)], egress: [.init(stop: 3, seconds: 60), .init(stop: 1, seconds: 900)]),
      departingAt: -50)
    // Getting off at B and walking 900 s (arrive 1300) loses to riding on to D (1000 + 60).
    #expect(journeys.map(\.arrival) == [1060])
    #expect(journeys[0].departure == -20)
  }

  @Test func directWalkDominatesSlowerRides() {
    let journeys = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow])).earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)], directWalkSeconds: 600),
      departingAt: 0)
    #expect(journeys.map(\.rides) == [0])
  }

  @Test func latestDepartureArrivingBy() {
    let router = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow, Self.first, Self.second]))
    let query = RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)])
    // By 1100: leave at 500 with two trips (arrive 1100), or at 100 with one (arrive 1000).
    let journeys = router.latestDeparture(query, arrivingBy: 1100, notBefore: 0)
    #expect(journeys.map(\.departure) == [500, 100])
    #expect(journeys.map(\.rides) == [2, 1])
    #expect(journeys.allSatisfy { $0.arrival <= 1100 })
    #expect(router.latestDeparture(query, arrivingBy: 700, notBefore: 0).isEmpty)
    #expect(router.latestDeparture(query, arrivingBy: 1100, notBefore: 600).isEmpty)
  }

  @Test func severalOptionsLeaveInTurn() {
    let router = Router(RoutingTimetable(stopCount: 5, routes: [Self.slow, Self.first, Self.second]))
    let journeys = router.journeys(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 0, count: 3)
    #expect(journeys.map(\.arrival) == [800, 1000, 1100])
    let later = router.earliestArrival(
      RoutingQuery(access: [.init(stop: 0, seconds: 0)], egress: [.init(stop: 3, seconds: 0)]), departingAt: 101)
    #expect(later.map(\.arrival) == [1600, 800])
  }
}
