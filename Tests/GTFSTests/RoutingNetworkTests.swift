import Foundation
import Routing
import Services
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// `Store.routingNetwork`: what the router is given from a small feed with footpaths,
/// transfers.txt, trips past midnight, a trip of another day and trips that overtake.
@Suite struct RoutingNetworkTests {
  /// 2026-12-01 (a Tuesday) 00:00 in Dublin (GMT in December).
  static let midnight: Int64 = 1_796_083_200

  static let files: [String: String] = [
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Tiny Transit,https://example.org,Europe/Dublin\n",
    // B is 111 m north of A, C 332 m east of A; F is far away.
    "stops.txt": """
    stop_id,stop_name,stop_lat,stop_lon
    A,Alpha,53.300000,-6.300000
    B,Bravo,53.301000,-6.300000
    C,Charlie,53.300000,-6.305000
    F,Foxtrot,53.350000,-6.300000

    """,
    "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,1,One,3\n",
    "trips.txt": """
    route_id,service_id,trip_id,trip_headsign
    R1,WK,T1,Foxtrot
    R1,SA,T2,Foxtrot
    R1,WK,T3,Foxtrot
    R1,WK,T4,Foxtrot
    R1,WK,T5,Foxtrot

    """,
    "stop_times.txt": """
    trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
    T1,08:00:00,08:00:00,A,1,0,1
    T1,08:20:00,08:20:00,F,2,1,0
    T2,08:00:00,08:00:00,A,1,0,1
    T2,08:20:00,08:20:00,F,2,1,0
    T3,24:10:00,24:10:00,A,1,0,1
    T3,24:30:00,24:30:00,F,2,1,0
    T4,09:00:00,09:00:00,A,1,0,1
    T4,09:40:00,09:40:00,F,2,1,0
    T5,09:05:00,09:05:00,A,1,0,1
    T5,09:30:00,09:30:00,F,2,1,0

    """,
    "calendar.txt": """
    service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
    WK,1,1,1,1,1,0,0,20260101,20271231
    SA,0,0,0,0,0,1,0,20260101,20271231

    """,
    "transfers.txt": """
    from_stop_id,to_stop_id,transfer_type,min_transfer_time
    A,B,3,
    A,C,2,600
    F,F,2,180

    """,
  ]

  func load(from: Int64, until: Int64) throws -> (Store, RoutingNetwork, [String: Int32]) {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    try timetables.ingest(directory.feed(Self.files), as: "tiny", now: 1)
    let store = try Store(directory: directory.path + "/data")
    let network = try store.routingNetwork(from: UnixTime(from), until: UnixTime(until))
    var index: [String: Int32] = [:]
    for id in ["A", "B", "C", "F"] {
      let stop = try #require(try store.stop(StopID(id), feed: FeedName("tiny")))
      let indices = try store.routingStops(at: stop, in: network)
      try #require(indices.count == 1)
      index[id] = indices[0]
    }
    return (store, network, index)
  }

  @Test func footpathsAndTransfers() throws {
    let (_, network, stop) = try load(from: Self.midnight + 7 * 3600, until: Self.midnight + 11 * 3600)
    let paths = network.timetable.footpaths
    func walk(_ from: String, _ to: String) -> Int32? {
      paths[Int(stop[from]!)].first { $0.to == stop[to]! }?.seconds
    }
    // A -> B is forbidden (type 3), B -> A is not: 111 m x 1.25 at 1.3 m/s.
    #expect(walk("A", "B") == nil)
    #expect(walk("B", "A") == 107)
    // A -> C takes transfers.txt's 600 s; C -> A walks 332 m x 1.25.
    #expect(walk("A", "C") == 600)
    #expect(walk("C", "A") == 320)
    #expect(walk("A", "F") == nil)
    // F -> F: 180 s to change trips there.
    #expect(network.timetable.changeSeconds[Int(stop["F"]!)] == 180)
  }

  @Test func tripsOfTheDaySplitWhereTheyOvertake() throws {
    let (store, network, stop) = try load(from: Self.midnight + 7 * 3600, until: Self.midnight + 11 * 3600)
    // T1, T4, T5 run on Tuesday; T2 only on Saturdays. T5 overtakes T4: two routes.
    #expect(network.trips.count == 3)
    #expect(network.timetable.routes.count == 2)
    for route in network.timetable.routes {
      #expect(route.stops == [stop["A"]!, stop["F"]!])
      #expect(route.canBoard == [true, false] && route.canAlight == [false, true])
    }
    let journeys = Router(network.timetable).earliestArrival(
      RoutingQuery(access: [StopWalk(stop: stop["A"]!, seconds: 0)], egress: [StopWalk(stop: stop["F"]!, seconds: 0)]),
      departingAt: network.seconds(UnixTime(Self.midnight + 8 * 3600 + 60)))
    // After 08:01: T5 (09:05, arrives 09:30) beats T4 (09:00, arrives 09:40).
    #expect(journeys.map { network.time($0.arrival).seconds } == [Self.midnight + 9 * 3600 + 30 * 60])
    guard case .ride(let route, let trip, let board, let alight, _, _) = journeys.first?.legs[1] else {
      Issue.record("no ride")
      return
    }
    let ride = try store.routingRide(route: route, trip: trip, board: board, alight: alight, in: network)
    #expect(ride.tripID == "T5")
    #expect(ride.headsign == "Foxtrot")
    #expect(ride.stops.map(\.stop.id) == ["A", "F"])
  }

  @Test func tripsPastMidnightComeFromTheDayBefore() throws {
    // Wednesday 00:00-01:00: Tuesday's T3 (24:10:00).
    let (_, network, _) = try load(from: Self.midnight + 86_400, until: Self.midnight + 86_400 + 3600)
    #expect(network.trips.count == 1)
    #expect(network.trips.first?.serviceDate == ServiceDate(year: 2026, month: 12, day: 1))
    let route = try #require(network.timetable.routes.first)
    #expect(network.time(route.departure(trip: 0, position: 0)).seconds == Self.midnight + 86_400 + 600)
  }

  @Test func realtimeReplacesTimesAndDropsCancelledTrips() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    try timetables.ingest(directory.feed(Self.files), as: "tiny", now: 1)
    let store = try Store(directory: directory.path + "/data")
    let tuesday = try #require(ServiceDate(year: 2026, month: 12, day: 1))
    let late = UnixTime(Self.midnight + 8 * 3600 + 25 * 60)
    let network = try store.routingNetwork(
      from: UnixTime(Self.midnight + 7 * 3600), until: UnixTime(Self.midnight + 11 * 3600),
      realtime: [
        RealtimeTrip(
          feed: "tiny", tripID: "T1", serviceDate: tuesday, startTime: nil, isCancelled: false, arrivals: [nil, late],
          departures: [nil, nil], skipped: [false, false]),
        RealtimeTrip(
          feed: "tiny", tripID: "T4", serviceDate: tuesday, startTime: nil, isCancelled: true, arrivals: [], departures: [],
          skipped: []),
      ])
    #expect(network.trips.count == 2)
    #expect(network.trips.filter(\.isLive).count == 1)
    let arrivals = network.timetable.routes.flatMap { route in (0..<route.tripCount).map { route.arrival(trip: $0, position: 1) } }
    #expect(arrivals.map { network.time($0).seconds }.sorted() == [late.seconds, Self.midnight + 9 * 3600 + 30 * 60])
  }
}
