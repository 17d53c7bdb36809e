import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The session's route details (`route show`, issue 33) on the demo network, against
/// Data/gtfs's trips.txt, stop_times.txt and stops.txt read here.
@Suite struct SessionRouteDetailsTests {
  let session: TransitSession

  init() throws {
    session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
  }

  /// Tuesday 2026-12-01: the demo's weekday service (WK) runs; Dublin is on UTC in winter, so
  /// the service day starts at 2026-12-01T00:00:00Z.
  static let tuesday = UnixTime(1_796_083_200)
  static let morning = UnixTime(1_796_083_200 + 7 * 3600 + 40 * 60)

  static func route27(_ session: TransitSession) throws -> RouteSummary {
    guard case .found(let route) = try session.route(named: "27").outcome else { throw FixtureError("route 27") }
    return route
  }

  /// "06:30:00" as seconds.
  static func seconds(_ text: String) -> Int64 {
    let parts = text.split(separator: ":").compactMap { Int64($0) }
    return parts[0] * 3600 + parts[1] * 60 + parts[2]
  }

  @Test func eachDirectionCountsItsTripsAndRunsItsWeekdayTripsOnATuesday() throws {
    let trips = try demoRows("trips.txt").filter { $0["route_id"] == "R27" }
    let answer = try session.routeDetails(RouteDetailsRequest(route: try Self.route27(session)), now: Self.morning)
    #expect(answer.details.date == ServiceDate(yyyymmdd: 20_261_201))
    #expect(answer.directions.map(\.direction.directionID) == [0, 1])
    for entry in answer.directions {
      let direction = String(entry.direction.directionID ?? -1)
      let own = trips.filter { $0["direction_id"] == direction }
      #expect(entry.tripCount == own.count, "direction \(direction)")
      #expect(entry.tripsOnDate == own.filter { $0["service_id"] == "WK" }.count, "direction \(direction)")
    }
    #expect(!answer.namesFeed)
    #expect(answer.map == nil)
  }

  @Test func theFirstAndLastDeparturesAreTheWeekdayTripsFirstStopTimes() throws {
    let weekday = Set(
      try demoRows("trips.txt").filter { $0["route_id"] == "R27" && $0["service_id"] == "WK" && $0["direction_id"] == "0" }
        .compactMap { $0["trip_id"] })
    // Each trip's first call (its lowest stop_sequence), then the earliest and the latest.
    var first: [String: (sequence: Int, time: Int64)] = [:]
    for row in try demoRows("stop_times.txt") {
      guard let trip = row["trip_id"], weekday.contains(trip), let sequence = Int(row["stop_sequence"] ?? "") else { continue }
      if first[trip].map({ sequence < $0.sequence }) ?? true { first[trip] = (sequence, Self.seconds(row["departure_time"] ?? "")) }
    }
    let starts = first.values.map(\.time)
    let answer = try session.routeDetails(
      RouteDetailsRequest(route: try Self.route27(session), directionID: 0), now: Self.morning)
    let direction = try #require(answer.directions.first)
    #expect(answer.directions.count == 1)
    #expect(direction.firstDeparture?.time == Self.tuesday + (starts.min() ?? -1))
    #expect(direction.lastDeparture?.time == Self.tuesday + (starts.max() ?? -1))
    // A start past 24:00:00 is on the next calendar day (Dublin keeps UTC in December).
    #expect(direction.firstDeparture?.isNextDay == ((starts.min() ?? 0) >= 86_400))
    #expect(direction.lastDeparture?.isNextDay == ((starts.max() ?? 0) >= 86_400))
  }

  @Test func eachMainStopHasItsWheelchairAccess() throws {
    let stops = Dictionary(try demoRows("stops.txt").map { ($0["stop_id"] ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    let answer = try session.routeDetails(RouteDetailsRequest(route: try Self.route27(session)), now: Self.morning)
    for entry in answer.directions {
      #expect(entry.mainStopAccess.count == entry.direction.main.stops.count)
      for (stop, access) in zip(entry.direction.main.stops, entry.mainStopAccess) {
        // A platform without a value inherits its station's.
        let row = stops[stop.id.rawValue]
        let own = row?["wheelchair_boarding"] ?? ""
        let value = own.isEmpty || own == "0" ? stops[row?["parent_station"] ?? ""]?["wheelchair_boarding"] ?? own : own
        #expect((access == .accessible) == (value == "1"), "\(stop.id)")
      }
    }
  }

  @Test func theMapIsReadOnlyWhenAskedAndFollowsTheRoutesShapes() throws {
    let shapes = Set(try demoRows("trips.txt").filter { $0["route_id"] == "R27" }.compactMap { $0["shape_id"] })
    let answer = try session.routeDetails(
      RouteDetailsRequest(route: try Self.route27(session), includesMap: true), now: Self.morning)
    let map = try #require(answer.map)
    #expect(Set(map.lines.compactMap(\.shapeID)) == shapes)
    #expect(map.lines.allSatisfy { $0.points.count >= 2 })
  }

  @Test func aRouteNotHeldHasNoDetails() throws {
    let ghost = RouteSummary(feed: FeedName("demo"), id: RouteID("NO-SUCH"), shortName: "X", longName: nil, routeType: 3, color: nil)
    #expect(throws: RouteDetailsFailure.noRoute) {
      try session.routeDetails(RouteDetailsRequest(route: ghost), now: Self.morning)
    }
  }

  @Test func theJSONGivesTheDateAndTheFirstDepartureOnTheAgencysClock() throws {
    let answer = try session.routeDetails(
      RouteDetailsRequest(route: try Self.route27(session), directionID: 0), now: Self.morning)
    let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(answer)) as? [String: Any])
    #expect(object["date"] as? String == "2026-12-01")
    #expect((object["route"] as? [String: Any])?["route_id"] as? String == "R27")
    #expect(object["trips_without_stops"] as? Int == 0)
    let direction = try #require((object["directions"] as? [[String: Any]])?.first)
    // The earliest weekday trip towards Tallaght Interchange leaves at 06:00 (27-WK-0-0600).
    #expect(direction["first_departure"] as? String == "2026-12-01T06:00:00+00:00")
    let patterns = try #require(direction["patterns"] as? [[String: Any]])
    #expect(patterns.first?["main"] as? Bool == true)
  }
}
