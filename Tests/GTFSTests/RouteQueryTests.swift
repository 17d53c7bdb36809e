import Foundation
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// A small feed with variants: route 1 has a main pattern A-B-C-D (three timed trips and a
/// frequency trip), a short turn A-B-C, a detour A-E-C-D, two trips back D-C-B-A and a trip
/// without stop times; route 2 (extended type 700) has no direction_id; route 3 shares the
/// short name "1" and has no trips.
enum VariantFeed {
  static let files: [String: String] = [
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Loop Transit,https://example.org,Europe/Dublin\n",
    "calendar.txt":
      "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20271231\n",
    "routes.txt": """
    route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
    R1,A,1,Alpha - Delta,3,FF0000,FFFFFF
    R2,A,2,,700,,
    R3,A,1,Alpha Night,0,,

    """,
    "stops.txt": """
    stop_id,stop_code,stop_name,stop_lat,stop_lon
    A,1,Alpha,53.280,-6.360
    B,2,Bravo,53.285,-6.365
    C,3,Charlie,53.290,-6.370
    D,4,Delta,53.295,-6.375
    E,5,Echo,53.288,-6.360

    """,
    "trips.txt": """
    route_id,service_id,trip_id,trip_headsign,direction_id
    R1,WK,t1,Delta,0
    R1,WK,t2,Delta,0
    R1,WK,t3,Delta,0
    R1,WK,t4,Charlie,0
    R1,WK,t5,Delta via Echo,0
    R1,WK,t6,Alpha,1
    R1,WK,t7,Alpha,1
    R1,WK,t8,Delta,0
    R1,WK,t9,Delta,0
    R2,WK,t10,,

    """,
    "stop_times.txt": """
    trip_id,arrival_time,departure_time,stop_id,stop_sequence
    \(trip("t1", "07:00", ["A", "B", "C", "D"]))
    \(trip("t2", "07:10", ["A", "B", "C", "D"]))
    \(trip("t3", "07:30", ["A", "B", "C", "D"]))
    \(trip("t4", "07:20", ["A", "B", "C"]))
    \(trip("t5", "08:00", ["A", "E", "C", "D"]))
    \(trip("t6", "07:05", ["D", "C", "B", "A"]))
    \(trip("t7", "17:00", ["D", "C", "B", "A"]))
    \(trip("t9", "06:00", ["A", "B", "C", "D"]))
    \(trip("t10", "12:00", ["A", "B"]))

    """,
    "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nt9,06:00:00,07:00:00,1200\n",
  ]

  /// Rows of stop_times.txt: one stop every 5 minutes from `start`.
  static func trip(_ id: String, _ start: String, _ stops: [String]) -> String {
    let parts = start.split(separator: ":").map { Int($0)! }
    return stops.enumerated().map { index, stop in
      let minutes = parts[0] * 60 + parts[1] + index * 5
      let time = String(format: "%02d:%02d:00", minutes / 60, minutes % 60)
      return "\(id),\(time),\(time),\(stop),\(index + 1)"
    }.joined(separator: "\n")
  }

  static func store(in directory: TestDirectory) throws -> Store {
    let timetables = Timetables(directory: directory.path)
    _ = try timetables.ingest(directory.feed(files), as: "loop", now: 1)
    return try Store(directory: directory.path)
  }
}

@Suite struct RouteQueryTests {
  let tuesday = ServiceDate(year: 2026, month: 12, day: 1)!

  @Test func patternsPerDirectionWithTheMainOneFirst() throws {
    let directory = TestDirectory()
    let store = try VariantFeed.store(in: directory)
    let route = try #require(try store.route(RouteID("R1")))
    let details = try #require(try store.routeDetails(route, on: tuesday))
    #expect(details.listing.tripCount == 9)
    #expect(details.tripsWithoutStops == 1)
    #expect(details.directions.map(\.directionID) == [0, 1])

    let outbound = details.directions[0]
    #expect(outbound.patterns.map { $0.stops.map(\.id.rawValue).joined() } == ["ABCD", "AECD", "ABC"])
    #expect(outbound.patterns.map(\.tripCount) == [4, 1, 1])
    #expect(outbound.patterns.map(\.headsign) == ["Delta", "Delta via Echo", "Charlie"])
    // Three timed trips and the frequency trip's three instances (06:00, 06:20, 06:40).
    #expect(outbound.patterns.map(\.tripsOnDate) == [6, 1, 1])
    #expect(outbound.firstDeparture == Int32(6 * 3600))
    #expect(outbound.lastDeparture == Int32(8 * 3600))
    // Departures at A: 06:00 06:20 06:40 | 07:00 07:10 07:20 07:30 08:00.
    #expect(
      outbound.headways == [
        HeadwayBand(name: "early", start: 5 * 3600, end: 7 * 3600, departures: 3, medianSeconds: 1200),
        HeadwayBand(name: "AM peak", start: 7 * 3600, end: 9 * 3600 + 1800, departures: 5, medianSeconds: 600),
      ])

    let inbound = details.directions[1]
    #expect(inbound.patterns.count == 1)
    #expect(inbound.main.stops.map(\.id.rawValue) == ["D", "C", "B", "A"])
    #expect(inbound.firstDeparture == Int32(7 * 3600 + 300) && inbound.lastDeparture == Int32(17 * 3600))
    #expect(inbound.headways.map(\.departures) == [1, 1] && inbound.headways.allSatisfy { $0.medianSeconds == nil })

    let counted = details.directions.flatMap(\.patterns).reduce(0) { $0 + $1.tripCount }
    #expect(counted + details.tripsWithoutStops == details.listing.tripCount)
  }

  @Test func oneDirectionAndADayWithoutService() throws {
    let directory = TestDirectory()
    let store = try VariantFeed.store(in: directory)
    let route = try #require(try store.route(RouteID("R1")))
    let saturday = ServiceDate(year: 2026, month: 12, day: 5)!
    let details = try #require(try store.routeDetails(route, on: saturday, directionID: 1))
    #expect(details.directions.count == 1)
    #expect(details.directions[0].firstDeparture == nil && details.directions[0].headways.isEmpty)
    #expect(details.directions[0].patterns[0].tripsOnDate == 0)
  }

  @Test func tripsWithoutDirectionFormTheirOwnGroup() throws {
    let directory = TestDirectory()
    let store = try VariantFeed.store(in: directory)
    let route = try #require(try store.route(RouteID("R2")))
    #expect(route.mode == .bus)  // extended type 700
    let details = try #require(try store.routeDetails(route, on: tuesday))
    #expect(details.directions.map(\.directionID) == [nil])
    #expect(details.directions[0].main.headsign == "Bravo")  // no headsign: the last stop
  }

  @Test func listingsHaveAgencyColoursAndMainDestinations() throws {
    let directory = TestDirectory()
    let store = try VariantFeed.store(in: directory)
    let listings = try store.routeListings()
    #expect(listings.map(\.route.id.rawValue) == ["R1", "R3", "R2"])
    let one = listings[0]
    #expect(one.agencyName == "Loop Transit")
    #expect(one.route.color == "FF0000" && one.textColor == "FFFFFF")
    #expect(one.destinations == ["Delta", "Alpha"])
    #expect(listings[1].destinations.isEmpty && listings[1].tripCount == 0)
    #expect(listings[2].destinations == ["Bravo"])
  }

  @Test func searchRanksIdThenNamesThenWordsThenTypos() throws {
    let directory = TestDirectory()
    let store = try VariantFeed.store(in: directory)
    func found(_ text: String) throws -> [String] { try store.searchRoutes(text).map { "\($0.listing.route.id.rawValue):\($0.kind)" } }
    #expect(try found("R2") == ["R2:id"])
    #expect(try found("1") == ["R1:shortName", "R3:shortName"])
    #expect(try found("alpha night") == ["R3:longName"])
    #expect(try found("alph") == ["R1:words", "R3:words"])
    #expect(try found("delte") == ["R1:typo"])
    #expect(try found("zulu").isEmpty)
  }

  @Test func resolvingARoute() throws {
    let directory = TestDirectory()
    let store = try VariantFeed.store(in: directory)
    guard case .found(let byID) = try store.resolveRoute("R1") else { Issue.record("R1"); return }
    #expect(byID.id == RouteID("R1"))
    guard case .found(let byShort) = try store.resolveRoute("2") else { Issue.record("2"); return }
    #expect(byShort.id == RouteID("R2"))
    guard case .found(let byLong) = try store.resolveRoute("ALPHA NIGHT") else { Issue.record("long"); return }
    #expect(byLong.id == RouteID("R3"))
    guard case .ambiguous(let both) = try store.resolveRoute("1") else { Issue.record("1"); return }
    #expect(both.map(\.id.rawValue) == ["R1", "R3"])
    guard case .notFound(let suggestions) = try store.resolveRoute("delte") else { Issue.record("typo"); return }
    #expect(suggestions.map(\.id.rawValue) == ["R1"])
  }

  @Test func theDemoNetworksRoutes() throws {
    let store = try demoStore()
    let red = try #require(try store.route(RouteID("RED"), feed: "demo"))
    let details = try #require(try store.routeDetails(red, on: tuesday))
    // Red is frequency-based: WK 05:30-19:00 every 10 min (81) and 19:00-24:30 every 15 (22).
    #expect(details.directions.map { $0.main.tripsOnDate } == [103, 103])
    #expect(details.directions[0].firstDeparture == Int32(5 * 3600 + 1800))
    #expect(details.directions[0].headways.first { $0.name == "AM peak" }?.medianSeconds == 600)
    #expect(details.directions[0].headways.first { $0.name == "evening" }?.medianSeconds == 900)
    let route27 = try #require(try store.route(RouteID("R27")))
    let r27 = try #require(try store.routeDetails(route27, on: tuesday))
    #expect(r27.directions.map { $0.patterns.map(\.tripCount) } == [[67], [67]])
    #expect(r27.directions[0].main.shapeIDs == ["R27_0"])
    #expect(r27.directions[0].main.stops.first?.name == "Crumlin Hospital")
    #expect(r27.directions[0].main.stops.last?.id == StopID("TINT-A"))
  }
}

/// Every route of every real feed in shared/data: the trips of its patterns and the trips
/// without stop times add up to its trips, and over the feed to PROVENANCE.md's trip count.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct RealFeedRouteTests {
  @Test(arguments: SharedFeedTests.feeds)
  func patternTripCountsAddUp(expected: SharedFeedTests.Expected) throws {
    // The timetables the departure tests read (RealFeedDepartureTests), ingested once per process.
    let store = try IngestedFeeds.store(expected.file, as: "feed")
    let listings = try store.routeListings()
    #expect(listings.count == expected.routes)
    var total = 0
    let date = ServiceDate(year: 2020, month: 1, day: 15)!
    for listing in listings {
      let details = try #require(try store.routeDetails(listing.route, on: date))
      let patterns = details.directions.flatMap(\.patterns)
      let counted = patterns.reduce(0) { $0 + $1.tripCount }
      #expect(counted + details.tripsWithoutStops == listing.tripCount, "route \(listing.route.id)")
      total += listing.tripCount
      for direction in details.directions {
        #expect(direction.patterns.allSatisfy { $0.tripCount <= direction.main.tripCount && !$0.stops.isEmpty })
        // Patterns of one direction are distinct stop sequences.
        #expect(Set(direction.patterns.map { $0.stops.map(\.id) }).count == direction.patterns.count)
        #expect(direction.headways.reduce(0) { $0 + $1.departures } <= direction.patterns.reduce(0) { $0 + $1.tripsOnDate })
      }
    }
    #expect(total == expected.trips)
  }
}
