import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The session's route list (issue 33) on the demo network, against Data/gtfs's routes.txt,
/// trips.txt and stop_times.txt read here.
@Suite struct SessionRoutesTests {
  let store: Store
  let session: TransitSession

  init() throws {
    store = try DemoTimetable.store()
    session = TransitSession(store: store, options: ServiceOptions())
  }

  /// A file of Data/gtfs as rows of field name to value.
  static func table(_ name: String) throws -> [[String: String]] { try demoRows(name + ".txt") }

  /// The route_ids of the trips calling at any of `stops`.
  static func routes(callingAt stops: Set<String>) throws -> Set<String> {
    let trips = Set(try table("stop_times").filter { stops.contains($0["stop_id"] ?? "") }.compactMap { $0["trip_id"] })
    return Set(try table("trips").filter { trips.contains($0["trip_id"] ?? "") }.compactMap { $0["route_id"] })
  }

  @Test func everyRouteWithItsTripsAndColours() throws {
    let routes = try Self.table("routes")
    let trips = try Self.table("trips")
    let answer = try session.routes(RoutesRequest())
    #expect(Set(answer.listings.map(\.route.id.rawValue)) == Set(routes.compactMap { $0["route_id"] }))
    #expect(answer.listings.count == routes.count)
    #expect(!answer.namesFeed)
    for row in routes {
      let listing = try #require(answer.listings.first { $0.route.id.rawValue == row["route_id"] })
      #expect(listing.tripCount == trips.filter { $0["route_id"] == row["route_id"] }.count, "\(listing.route.id)")
      #expect(listing.route.shortName == row["route_short_name"])
      #expect(RouteColour.hex(listing.route.color) == "#" + (row["route_color"] ?? "").uppercased())
      #expect(RouteColour.hex(listing.textColor) == "#" + (row["route_text_color"] ?? "").uppercased())
    }
  }

  @Test func aModeKeepsItsRoutesOnly() throws {
    // GTFS route_type 0 is a tram.
    let trams = Set(try Self.table("routes").filter { $0["route_type"] == "0" }.compactMap { $0["route_id"] })
    try #require(!trams.isEmpty)
    let answer = try session.routes(RoutesRequest(modes: [.tram]))
    #expect(Set(answer.listings.map(\.route.id.rawValue)) == trams)
  }

  @Test func aShortNameIsThatRouteFirst() throws {
    let id = try #require(try Self.table("routes").first { $0["route_short_name"] == "27" }?["route_id"])
    let answer = try session.routes(RoutesRequest(text: "27"))
    #expect(answer.listings.first?.route.id.rawValue == id)
    #expect(answer.request.text == "27")
  }

  @Test func aStationsRoutesAreThoseCallingAtItsPlatforms() throws {
    let platforms = Set(try Self.table("stops").filter { $0["parent_station"] == "TINT" }.compactMap { $0["stop_id"] })
    try #require(platforms.count == 3)
    let expected = try Self.routes(callingAt: platforms)
    let station = try #require(try store.stop(StopID("TINT"), feed: FeedName("demo")))
    let answer = try session.routes(RoutesRequest(stop: .stop(station)))
    #expect(Set(answer.listings.map(\.route.id.rawValue)) == expected)
    #expect(answer.listings.count == expected.count)
  }

  @Test func aComplexsRoutesAreThoseOfAnyPart() throws {
    let ids = try Self.table("stops").filter { $0["stop_name"] == "Belgard Road" }.compactMap { $0["stop_id"] }
    try #require(ids.count == 2)
    let parts = try ids.map { try #require(try store.stop(StopID($0), feed: FeedName("demo"))) }
    let answer = try session.routes(RoutesRequest(stop: .complex(StopComplex(name: "Belgard Road", parts: parts)), modes: [.bus]))
    #expect(Set(answer.listings.map(\.route.id.rawValue)) == (try Self.routes(callingAt: Set(ids))))
  }

  @Test func aShortNameNamesItsRoute() throws {
    let id = try #require(try Self.table("routes").first { $0["route_short_name"] == "77X" }?["route_id"])
    let lookup = try session.route(named: "77X")
    guard case .found(let route) = lookup.outcome else {
      Issue.record("77X: \(lookup.outcome)")
      return
    }
    #expect(route.id.rawValue == id)
    #expect(lookup.candidates.isEmpty)
  }

  @Test func aWordOfLongNamesSuggestsThoseRoutes() throws {
    // No route is named "tallaght": the routes whose long name has the word are suggested.
    let routes = try Self.table("routes")
    try #require(!routes.contains { $0["route_short_name"]?.lowercased() == "tallaght" || $0["route_id"]?.lowercased() == "tallaght" })
    let expected = Set(routes.filter { ($0["route_long_name"] ?? "").lowercased().contains("tallaght") }.compactMap { $0["route_id"] })
    let lookup = try session.route(named: "tallaght")
    #expect(lookup.outcome == .notFound)
    #expect(Set(lookup.candidates.map(\.id.rawValue)) == expected)
    #expect(lookup.text == "tallaght")
    #expect(try session.route(named: "zzz").candidates.isEmpty)
  }
}
