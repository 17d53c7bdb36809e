import Testing

@testable import GTFS

/// The Store lookups alerts need: routes with their agency, a trip's route.
@Suite struct AlertQueryTests {
  @Test func routesWithAgencyAndTripRoutes() throws {
    let store = try demoStore()
    let routes = try store.agencyRoutes()
    #expect(routes.map(\.route.shortName) == ["27", "49", "54A", "77X", "Red"])
    #expect(routes.allSatisfy { $0.agencyID == "TDT" })
    #expect(routes.first { $0.route.id == "RED" }?.route.mode == .tram)
    #expect(try store.routes(ofTrip: "77X-WK-0-0805").map(\.id) == ["R77X"])
    #expect(try store.routes(ofTrip: "no-such-trip").isEmpty)
  }
}
