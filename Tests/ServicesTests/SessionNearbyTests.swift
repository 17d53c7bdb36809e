import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The session's nearby stops (issue 33) on the demo network: the wheelchair filter and the
/// complexes, against Data/gtfs/stops.txt read here.
@Suite struct SessionNearbyTests {
  static let point = Coordinate(latitude: 53.2875, longitude: -6.3664)

  func session() throws -> TransitSession { TransitSession(store: try DemoTimetable.store(), options: ServiceOptions()) }

  /// stops.txt's rows by stop_id: (wheelchair_boarding, parent_station).
  static func stopsFile() throws -> [String: (boarding: String, parent: String)] {
    Dictionary(
      uniqueKeysWithValues: try demoRows("stops.txt").map {
        ($0["stop_id"] ?? "", (boarding: $0["wheelchair_boarding"] ?? "", parent: $0["parent_station"] ?? ""))
      })
  }

  @Test func theAccessibleFilterKeepsTheStopsWithWheelchairBoarding() throws {
    let rows = try Self.stopsFile()
    // GTFS: 1 is accessible; a platform with no value inherits its station's.
    func accessible(_ id: String) -> Bool {
      guard let row = rows[id] else { return false }
      if row.boarding == "1" { return true }
      return row.boarding.isEmpty && !row.parent.isEmpty && rows[row.parent]?.boarding == "1"
    }
    let all = try session().nearby(NearbyRequest(point: Self.point, radiusMeters: 100_000, limit: 10_000)).entries
    try #require(all.count > 10)
    let kept = try session().nearby(NearbyRequest(point: Self.point, radiusMeters: 100_000, limit: 10_000, accessibleOnly: true))
    let expected = all.map(\.stop.id.rawValue).filter(accessible)
    #expect(kept.entries.map(\.stop.id.rawValue) == expected)
    #expect(expected.count < all.count)
    #expect(kept.entries.allSatisfy { $0.access == .accessible })
    // Nearest first.
    let distances = kept.entries.map(\.distanceMeters)
    #expect(distances == distances.sorted())
  }

  @Test func twoStopsOfOneNameAreOneComplexWithBothTheirRoutes() throws {
    let answer = try session().nearby(NearbyRequest(point: Self.point, radiusMeters: 100_000, limit: 10_000))
    let belgard = answer.entries.filter { ["TD4564", "TD4565"].contains($0.stop.id.rawValue) }
    try #require(belgard.count == 2)
    for entry in belgard {
      let complex = try #require(entry.complex)
      #expect(complex.complex.name == "Belgard Road")
      #expect(complex.complex.parts.map(\.id.rawValue) == ["TD4564", "TD4565"])
      // The complex's routes: those of either stop, each once.
      #expect(Set(complex.routes.map(\.shortName)) == Set(belgard.flatMap { $0.routes.map(\.shortName) }))
      // No entrances in the demo: the walk is to its nearest stop.
      #expect(complex.meters == belgard.map(\.distanceMeters).min())
    }
  }
}
