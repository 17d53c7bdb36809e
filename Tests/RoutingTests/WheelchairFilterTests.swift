import Routing
import Testing

/// The router under a wheelchair filter (issue 21): rides board and alight only at allowed
/// stops, only on allowed trips. Expected journeys worked out by hand from the timetable below.
@Suite struct WheelchairFilterTests {
  // Stops: 0 A (origin), 1 B (no wheelchair boarding), 2 C (destination), 3 S.
  // Trip references (what the filter's `trips` index): 0 the direct 100→500 (not accessible),
  // 1 the direct 300→900, 2 A→B, 3 B→C, 4 A→S, 5 S→C.
  static func timetable() -> RoutingTimetable {
    func ride(_ stops: [Int32], _ trips: [[Int32]], references: [Int32]) -> RoutingRoute {
      RoutingRoute(
        stops: stops, canBoard: stops.map { _ in true }, canAlight: stops.map { _ in true }, arrivals: trips.flatMap { $0 },
        departures: trips.flatMap { $0 }, tripReferences: references, reference: 0)
    }
    return RoutingTimetable(
      stopCount: 4,
      routes: [
        ride([0, 2], [[100, 500], [300, 900]], references: [0, 1]),  // route 0
        ride([0, 1], [[150, 200]], references: [2]),  // route 1
        ride([1, 2], [[250, 600]], references: [3]),  // route 2
        ride([0, 3], [[50, 250]], references: [4]),  // route 3
        ride([3, 2], [[300, 800]], references: [5]),  // route 4
      ])
  }

  static let filter = WheelchairFilter(stops: [true, false, true, true], trips: [false, true, true, true, true, true])

  static func query(filtered: Bool) -> RoutingQuery {
    var query = RoutingQuery(access: [StopWalk(stop: 0, seconds: 0)], egress: [StopWalk(stop: 2, seconds: 0)])
    if filtered { query.wheelchair = filter }
    return query
  }

  @Test func withoutTheFilterTheInaccessibleTripWins() {
    // One ride: the 100→500 direct. Two rides arrive later (via B at 600, via S at 800): not
    // in the Pareto set.
    let journeys = Router(Self.timetable()).earliestArrival(Self.query(filtered: false), departingAt: 0)
    #expect(journeys.map { [$0.departure, $0.arrival, Int32($0.rides)] } == [[100, 500, 1]])
  }

  @Test func theFilterSkipsInaccessibleTripsAndStops() {
    // Trip 0 is not allowed: the direct is its next trip, 300→900 (trip index 1 of route 0).
    // B is not allowed: two rides go by S, 50→250 then 300→800, earlier than the direct.
    let journeys = Router(Self.timetable()).earliestArrival(Self.query(filtered: true), departingAt: 0)
    #expect(journeys.map { [$0.departure, $0.arrival, Int32($0.rides)] } == [[300, 900, 1], [50, 800, 2]])
    #expect(
      RouterTests.legsSummary(journeys[1]) == ["access 0 0", "ride r3 t0 0-1 50-250", "ride r4 t0 0-1 300-800", "egress 2 0"])
    #expect(RouterTests.legsSummary(journeys[0]) == ["access 0 0", "ride r0 t1 0-1 300-900", "egress 2 0"])
  }

  @Test func theFilterAppliesToLatestDepartures() {
    let router = Router(Self.timetable())
    // Unfiltered, by 600: leave at 150 (A→B→C arriving 600), or at 100 with one ride (500).
    let free = router.latestDeparture(Self.query(filtered: false), arrivingBy: 600, notBefore: 0)
    #expect(free.map { [$0.departure, $0.arrival, Int32($0.rides)] } == [[150, 600, 2], [100, 500, 1]])
    // Filtered, by 850: only by S, leaving at 50 (the direct arrives at 900).
    let filtered = router.latestDeparture(Self.query(filtered: true), arrivingBy: 850, notBefore: 0)
    #expect(filtered.map { [$0.departure, $0.arrival, Int32($0.rides)] } == [[50, 800, 2]])
    // Filtered, by 600: nothing.
    #expect(router.latestDeparture(Self.query(filtered: true), arrivingBy: 600, notBefore: 0).isEmpty)
  }

  @Test func stopsAndTripsBeyondTheArraysAreNotAllowed() {
    // An empty filter allows nothing.
    var query = Self.query(filtered: false)
    query.wheelchair = WheelchairFilter(stops: [], trips: [])
    #expect(Router(Self.timetable()).earliestArrival(query, departingAt: 0).isEmpty)
  }
}
