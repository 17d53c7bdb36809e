import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The session's stop in full (issue 33) on the demo network: platforms, routes and the next
/// departures, against Data/gtfs's files read here.
@Suite struct SessionStopTests {
  func session() throws -> TransitSession { TransitSession(store: try DemoTimetable.store(), options: ServiceOptions()) }

  /// A demo file's rows as field dictionaries.
  static func rows(_ file: String) throws -> [[String: String]] { try demoRows(file) }

  /// The short names of the routes with a trip calling at one of `stops`, from the files.
  static func routeNames(at stops: Set<String>) throws -> Set<String> {
    let trips = Set(try rows("stop_times.txt").filter { stops.contains($0["stop_id"] ?? "") }.compactMap { $0["trip_id"] })
    let routes = Set(try rows("trips.txt").filter { trips.contains($0["trip_id"] ?? "") }.compactMap { $0["route_id"] })
    return Set(try rows("routes.txt").filter { routes.contains($0["route_id"] ?? "") }.compactMap { $0["route_short_name"] })
  }

  @Test func aStationHasItsPlatformsRoutesAndNextDepartures() throws {
    let store = try DemoTimetable.store()
    let station = try #require(try store.stop(StopID("TINT"), feed: FeedName("demo")))
    let answer = try session().stopDetails(.stop(station), now: DemoTimetable.now)
    guard case .single(let single) = answer.place else {
      Issue.record("not one stop")
      return
    }
    let platforms = try Self.rows("stops.txt").filter { $0["parent_station"] == "TINT" }.compactMap { $0["stop_id"] }
    #expect(single.platforms.map(\.stop.id.rawValue).sorted() == platforms.sorted())
    #expect(Set(single.routes.map(\.route.shortName)) == (try Self.routeNames(at: Set(platforms))))
    for platform in single.platforms {
      #expect(Set(platform.routes.map(\.shortName)) == (try Self.routeNames(at: [platform.stop.id.rawValue])))
    }
    #expect(single.parent == nil)
    // At most five, soonest first, within the two hours from now.
    #expect(!single.departures.isEmpty && single.departures.count <= 5)
    let times = single.departures.compactMap(\.scheduledTime)
    #expect(times.count == single.departures.count)
    #expect(times == times.sorted())
    #expect(times.allSatisfy { $0 >= DemoTimetable.now && $0.seconds < DemoTimetable.now.seconds + 7200 })
  }

  @Test func aComplexListsEachPartsRoutes() throws {
    let place = try session().place(named: "Belgard Road").outcome
    guard case .found(let found) = place, case .complex = found else {
      Issue.record("\(place)")
      return
    }
    let answer = try session().stopDetails(found, now: DemoTimetable.now)
    guard case .complex(let complex) = answer.place else {
      Issue.record("not a complex")
      return
    }
    #expect(complex.parts.map(\.stop.id.rawValue) == ["TD4564", "TD4565"])
    for part in complex.parts {
      #expect(Set(part.routes.map(\.shortName)) == (try Self.routeNames(at: [part.stop.id.rawValue])))
    }
    #expect(complex.board.rows.allSatisfy { ["TD4564", "TD4565"].contains($0.departure.call.stopID.rawValue) })
  }
}
