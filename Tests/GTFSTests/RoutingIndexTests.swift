import Foundation
import Routing
import SQLite
import Services
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// `routing_index`: the router's arrays stored at ingest by part of the network, read back
/// for the parts a journey's ends are in; a row that cannot be read falls back to the tables.
@Suite struct RoutingIndexTests {
  /// The feed of `RoutingNetworkTests` plus a second region 50 km away (G, H on route R2)
  /// that no journey from the first can reach.
  static let files: [String: String] = {
    var files = RoutingNetworkTests.files
    files["stops.txt"]! += "G,Golf,53.750000,-6.300000\nH,Hotel,53.760000,-6.300000\n"
    files["routes.txt"]! += "R2,2,Two,3\n"
    files["trips.txt"]! += "R2,WK,T6,Hotel\n"
    files["stop_times.txt"]! += "T6,08:30:00,08:30:00,G,1,0,0\nT6,08:45:00,08:45:00,H,2,0,0\n"
    return files
  }()

  static let from = UnixTime(RoutingNetworkTests.midnight + 7 * 3600)
  static let until = UnixTime(RoutingNetworkTests.midnight + 11 * 3600)

  func ingest(_ directory: TestDirectory) throws -> String {
    let timetables = Timetables(directory: directory.path + "/data")
    try timetables.ingest(directory.feed(Self.files), as: "tiny", now: 1)
    return directory.path + "/data"
  }

  func stop(_ store: Store, _ id: String) throws -> Stop {
    try #require(try store.stop(StopID(id), feed: FeedName("tiny")))
  }

  /// Every route's stops, trips and times, comparable between networks.
  func routes(_ network: RoutingNetwork) -> [String] {
    network.timetable.routes.map { route in
      "\(route.stops) \(route.canBoard) \(route.canAlight) \(route.arrivals) \(route.departures) "
        + route.tripReferences.map { "\(network.trips[Int($0)].tripIndex)" }.joined(separator: ",")
    }.sorted()
  }

  @Test func partsAreWhatAJourneyCanReach() throws {
    let directory = TestDirectory()
    let store = try Store(directory: try ingest(directory))
    let a = try stop(store, "A"), g = try stop(store, "G")
    let first = try store.routingScope(stops: [a], points: [])
    let second = try store.routingScope(stops: [g], points: [])
    #expect(first.partCount == 1 && second.partCount == 1)
    #expect(first != second)
    #expect(try store.routingScope(stops: [a, g], points: []).partCount == 2)
    // A point 100 m from G reaches G's part; one in the sea between the regions, none.
    #expect(try store.routingScope(stops: [], points: [(Coordinate(latitude: 53.7509, longitude: -6.3), 800)]) == second)
    #expect(try store.routingScope(stops: [], points: [(Coordinate(latitude: 53.55, longitude: -6.3), 800)]).partCount == 0)
  }

  @Test func aScopedNetworkIsTheWholeNetworkWithoutTheOtherParts() throws {
    let directory = TestDirectory()
    let store = try Store(directory: try ingest(directory))
    let whole = try store.routingNetwork(from: Self.from, until: Self.until)
    let a = try stop(store, "A"), f = try stop(store, "F")
    let scoped = try store.routingNetwork(from: Self.from, until: Self.until, scope: try store.routingScope(stops: [a, f], points: []))
    let g = try #require(try store.routingStops(at: try stop(store, "G"), in: whole).first)
    #expect(routes(scoped) == routes(whole).filter { !$0.hasPrefix("[\(g),") })
    #expect(routes(scoped).count == routes(whole).count - 1)
    #expect(scoped.timetable.footpaths == whole.timetable.footpaths)
    #expect(scoped.timetable.changeSeconds == whole.timetable.changeSeconds)
    // And the same journeys.
    let query = RoutingQuery(
      access: [StopWalk(stop: try store.routingStops(at: a, in: whole)[0], seconds: 0)],
      egress: [StopWalk(stop: try store.routingStops(at: f, in: whole)[0], seconds: 0)])
    let departure = whole.seconds(UnixTime(RoutingNetworkTests.midnight + 8 * 3600 + 60))
    func summary(_ journeys: [Routing.Journey]) -> [String] { journeys.map { "\($0.departure) \($0.arrival) \($0.rides)" } }
    let found = summary(Router(whole.timetable).journeys(query, departingAt: departure, count: 3))
    #expect(!found.isEmpty)
    #expect(summary(Router(scoped.timetable).journeys(query, departingAt: departure, count: 3)) == found)
  }

  @Test(
    "a row of another format, a cut row or no row at all: the network comes from the tables",
    arguments: [
      "UPDATE routing_index SET data = CAST(x'54524958' || substr(data, 5, 4) || x'0000' AS BLOB) WHERE part >= 0",
      "UPDATE routing_index SET data = substr(data, 1, length(data) - 4) WHERE part >= 0",
      "UPDATE routing_index SET data = CAST(x'5452495863000000' || substr(data, 9) AS BLOB) WHERE part >= 0",
      "DELETE FROM routing_index WHERE part >= 0",
      "UPDATE routing_index SET data = CAST(x'5452495863000000' || substr(data, 9) AS BLOB) WHERE part = -1",
      "DELETE FROM routing_index",
    ])
  func unreadableRowsFallBackToTheTables(_ damage: String) throws {
    let directory = TestDirectory()
    let data = try ingest(directory)
    let expected: [String]
    do {
      let store = try Store(directory: data)
      expected = routes(try store.routingNetwork(from: Self.from, until: Self.until))
    }
    try Connection(path: data + "/feeds/tiny.sqlite").execute(damage)
    let store = try Store(directory: data)
    let scope = try store.routingScope(stops: [try stop(store, "A")], points: [])
    let network = try store.routingNetwork(from: Self.from, until: Self.until, scope: scope)
    // The whole feed, G's route included: nothing of the damaged index is used.
    #expect(routes(network) == expected)
  }

  @Test func rowsRoundTrip() throws {
    let pattern = RoutingIndex.Pattern(
      pattern: 1 << 33 | 7, routeType: 3, maxSpan: 1200, stops: [4, 9, 2], canBoard: [true, true, false],
      canAlight: [false, true, true],
      trips: [
        RoutingIndex.Trip(trip: 5, service: 0, firstDeparture: 28_800, lastArrival: 30_000),
        RoutingIndex.Trip(trip: 6, service: 1, firstDeparture: 29_000, lastArrival: .max),
      ])
    let row = RoutingIndex.encodePart(stops: [(4, [(9, 120)]), (9, [(4, 120)]), (2, [])], patterns: [pattern])
    let part = try #require(row.withUnsafeBytes { RoutingIndex.decodePart($0) })
    #expect(part.stops == [4, 9, 2])
    #expect(part.footpaths.map { $0.map(\.to) } == [[9], [4], []])
    #expect(part.footpaths.map { $0.map(\.meters) } == [[120], [120], []])
    #expect(part.patterns == [pattern])
    // Every shorter row is refused, never read past its end.
    for length in 0..<row.count {
      #expect(Array(row.prefix(length)).withUnsafeBytes { RoutingIndex.decodePart($0) } == nil)
    }
    let stopParts: [Int32] = [0, -1, 3]
    let map = RoutingIndex.encodeStopParts(stopParts)
    #expect(map.withUnsafeBytes { RoutingIndex.decodeStopParts($0) } == stopParts)
    for length in 0..<map.count {
      #expect(Array(map.prefix(length)).withUnsafeBytes { RoutingIndex.decodeStopParts($0) } == nil)
    }
  }
}
