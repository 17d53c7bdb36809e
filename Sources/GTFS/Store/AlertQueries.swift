import FoundationEssentials
import SQLite
import TransitModel

/// A route with the agency running it, for matching alerts' agency selectors.
public struct AgencyRoute: Hashable, Sendable {
  /// The route.
  public var route: RouteSummary
  /// Its `agency_id`: routes.txt's, else the feed's only agency's; nil when agency.txt gives
  /// none.
  public var agencyID: String?

  /// Creates a value.
  public init(route: RouteSummary, agencyID: String?) {
    self.route = route
    self.agencyID = agencyID
  }
}

// MARK: - Store: routes and trips for alerts

extension Store {
  /// Every route held, with its agency, in each feed's route order (route_sort_order, then
  /// short name).
  /// - Complexity: one scan of each feed's routes.
  public func agencyRoutes() throws -> [AgencyRoute] {
    var result: [AgencyRoute] = []
    for feed in feeds {
      let select = try feed.db.cached(
        """
        SELECT r.route_id, r.short_name, r.long_name, r.route_type, r.color, a.agency_id, r.sort_order
        FROM routes r LEFT JOIN agency a ON a.agency_idx = r.agency_idx
        """)
      var routes: [(AgencyRoute, Int64, NaturalOrder.Key)] = []
      while try select.step() {
        let agency = select.optionalText(5).flatMap { $0.isEmpty ? nil : $0 }
        let route = feed.routeSummary(select, from: 0)
        routes.append((AgencyRoute(route: route, agencyID: agency), select.optionalInt(6) ?? .max, NaturalOrder.Key(route.shortName)))
      }
      result += routes.sorted { a, b in a.1 != b.1 ? a.1 < b.1 : a.2 < b.2 }.map(\.0)
    }
    return result
  }

  /// The route of `tripID` in each feed that has the trip.
  /// - Complexity: one unique-index lookup per feed.
  public func routes(ofTrip tripID: TripID) throws -> [RouteSummary] {
    var result: [RouteSummary] = []
    for feed in feeds {
      let select = try feed.db.cached(
        """
        SELECT r.route_id, r.short_name, r.long_name, r.route_type, r.color
        FROM trips t JOIN routes r ON r.route_idx = t.route_idx WHERE t.trip_id = ?
        """)
      select.bind(tripID.rawValue, at: 1)
      if try select.step() { result.append(feed.routeSummary(select, from: 0)) }
    }
    return result
  }
}
