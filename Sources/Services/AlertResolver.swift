import GTFS
import GTFSRealtime
import Merge
import TransitModel

// MARK: - From names to a scope

/// The alert resolver: turns a route, stop, trip and modes into an `AlertScope`, through the
/// timetable when one is held and by the feed's own ids otherwise; names what alerts affect.
public struct AlertResolver {
  /// A name that neither the timetables nor the alerts know.
  public enum Unknown: Error, Sendable, Hashable {
    case route(String)
    case trip(String)
    /// A stop the timetable does not resolve to one stop (the caller lists the candidates).
    case stop(String)

    /// "no route '27X' in the timetables or the alerts".
    public var message: String {
      switch self {
      case .route(let name): return "no route '\(name)' in the timetables or the alerts"
      case .trip(let name): return "no trip '\(name)' in the timetables or the alerts"
      case .stop(let name): return "no stop '\(name)' in the timetables or the alerts"
      }
    }
  }

  let store: Store?
  /// Every route held, with its agency.
  public let routes: [AgencyRoute]
  /// Routes of trips that alerts name without a route.
  let tripRoutes: [TripID: RouteID]
  /// Ids the alerts' informed entities name.
  public let namedRoutes: Set<String>, namedStops: Set<String>, namedTrips: Set<String>

  /// A resolver over the timetables in `store` (nil: by the feeds' ids alone) and `alerts`.
  public init(store: Store?, alerts: [IdentifiedAlert]) throws {
    self.store = store
    routes = try store?.agencyRoutes() ?? []
    let selectors = alerts.flatMap(\.alert.informedEntities)
    namedRoutes = Set(selectors.flatMap { [$0.routeID, $0.trip?.routeID].compactMap { $0 } })
    namedStops = Set(selectors.compactMap(\.stopID))
    namedTrips = Set(selectors.compactMap { $0.trip?.tripID })
    var tripRoutes: [TripID: RouteID] = [:]
    if let store {
      for selector in selectors {
        guard let trip = selector.trip?.tripID, selector.trip?.routeID == nil, tripRoutes[TripID(trip)] == nil else { continue }
        if let route = try store.routes(ofTrip: TripID(trip)).first { tripRoutes[TripID(trip)] = route.id }
      }
    }
    self.tripRoutes = tripRoutes
  }

  /// The routes `text` names: by route_id, else by short name (ignoring case).
  public func routes(named text: String) -> [AgencyRoute] {
    let byID = routes.filter { $0.route.id.rawValue == text }
    if !byID.isEmpty { return byID }
    return routes.filter { $0.route.shortName.lowercased() == text.lowercased() }
  }

  /// The scope for one route; throws not-found when neither the timetable nor an alert knows
  /// it (with a timetable held).
  public func scope(route text: String) throws -> AlertScope {
    try scope(route: text, stop: nil, trip: nil, modes: []) ?? AlertScope()
  }

  /// The scope the filters describe, or nil when none is given (every alert).
  /// - Throws: `Unknown` for a name neither the timetables nor the alerts know.
  public func scope(route: String?, stop: String?, trip: String?, modes: Set<TransitMode>) throws -> AlertScope? {
    guard route != nil || stop != nil || trip != nil || !modes.isEmpty else { return nil }
    var scope = AlertScope(agencyIDs: nil, routeIDs: nil, routeTypes: nil, stopIDs: nil, tripIDs: nil, tripRoutes: tripRoutes)
    var agencies: Set<String>?
    func narrowRoutes(_ found: [AgencyRoute], raw: String? = nil) {
      var ids = Set(found.map(\.route.id))
      if let raw { ids.insert(RouteID(raw)) }
      scope.routeIDs = scope.routeIDs.map { $0.intersection(ids) } ?? ids
      if !found.isEmpty {
        let types = Set(found.map { Self.routeType($0.route.mode) })
        scope.routeTypes = scope.routeTypes.map { $0.intersection(types) } ?? types
        if found.allSatisfy({ $0.agencyID != nil }) {
          let ids = Set(found.compactMap(\.agencyID))
          agencies = agencies.map { $0.intersection(ids) } ?? ids
        }
      }
    }
    if let route {
      let found = routes(named: route)
      if found.isEmpty && store != nil && !namedRoutes.contains(route) {
        throw Unknown.route(route)
      }
      narrowRoutes(found, raw: namedRoutes.contains(route) ? route : (found.isEmpty ? route : nil))
    }
    if let trip {
      let found = try store?.routes(ofTrip: TripID(trip)) ?? []
      if found.isEmpty && store != nil && !namedTrips.contains(trip) {
        throw Unknown.trip(trip)
      }
      scope.tripIDs = [TripID(trip)]
      if !found.isEmpty {
        let ids = Set(found.map(\.id))
        narrowRoutes(routes.filter { ids.contains($0.route.id) })
      }
    }
    if let stop {
      var ids: Set<StopID> = []
      var stopRoutes: [AgencyRoute]?
      let resolution = try store?.resolveStop(stop)
      // A stop, or a complex (issue 32): each of its stations, with their platforms.
      var resolved: [TransitModel.Stop] = []
      switch resolution {
      case .found(let found): resolved = [found]
      case .complex(let complex): resolved = complex.parts
      case .ambiguous, .notFound, nil: break
      }
      if let store, !resolved.isEmpty {
        var served: Set<String> = []
        for part in resolved {
          ids.insert(part.id)
          if let parent = part.parentStation { ids.insert(parent) }
          for platform in try store.platforms(of: part) { ids.insert(platform.id) }
          for route in try store.routes(at: part) { served.insert(route.feed.rawValue + "\u{0}" + route.id.rawValue) }
        }
        stopRoutes = routes.filter { served.contains($0.route.feed.rawValue + "\u{0}" + $0.route.id.rawValue) }
      } else if namedStops.contains(stop) || store == nil {
        ids.insert(StopID(stop))
      } else if store != nil {
        throw Unknown.stop(stop)
      }
      if namedStops.contains(stop) { ids.insert(StopID(stop)) }
      scope.stopIDs = ids
      if let stopRoutes { narrowRoutes(stopRoutes) }
    }
    if !modes.isEmpty {
      let types = Set(modes.map(Self.routeType))
      scope.routeTypes = scope.routeTypes.map { $0.intersection(types) } ?? types
      if store != nil { narrowRoutes(routes.filter { modes.contains($0.route.mode) }) }
    }
    scope.agencyIDs = agencies
    return scope
  }

  /// The basic `route_type` of a mode.
  public static func routeType(_ mode: TransitMode) -> Int {
    switch mode {
    case .tram: 0
    case .subway: 1
    case .rail: 2
    case .bus: 3
    case .ferry: 4
    case .cable: 5
    case .gondola: 6
    case .funicular: 7
    case .trolleybus: 11
    case .monorail: 12
    case .other: 1700
    }
  }

  /// What an alert informs, by the most telling kind of selector it has.
  public enum Affected: Sendable, Hashable {
    /// Routes by short name (else id), from its routes, its trips' routes and its trips.
    case routes([String])
    /// Whole modes ("tram"), from route_type selectors.
    case modes([String])
    /// Stops by name.
    case stops([String])
    /// Trips by id, where the timetable names no route for them.
    case trips([String])
    /// Whole agencies, by agency_id.
    case agencies([String])
    /// Nothing narrower: the whole network.
    case everything

    /// Whether it is about no route, stop or trip in particular: whole modes, agencies or the
    /// network (what `status` lists on lines of their own without a timetable).
    public var isNetworkWide: Bool {
      switch self {
      case .modes, .agencies, .everything: return true
      case .routes, .stops, .trips: return false
      }
    }
  }

  /// What `alert` informs: its routes, else its modes, its stops, its trips, its agencies.
  public func affected(_ alert: Alert) -> Affected {
    let selectors = alert.informedEntities
    var routeNames: [String] = []
    func add(_ name: String) { if !routeNames.contains(name) { routeNames.append(name) } }
    for selector in selectors {
      let trip = selector.trip?.tripID.flatMap { tripRoutes[TripID($0)]?.rawValue }
      for id in [selector.routeID, selector.trip?.routeID, trip].compactMap({ $0 }) {
        add(routes.first { $0.route.id.rawValue == id }?.route.shortName ?? id)
      }
    }
    if !routeNames.isEmpty { return .routes(routeNames) }
    let modes = selectors.compactMap(\.routeType).map { TransitMode(routeType: Int($0)).rawValue }
    if !modes.isEmpty { return .modes(Array(Set(modes)).sorted()) }
    let stops = selectors.compactMap(\.stopID)
    if !stops.isEmpty {
      var unique: [String] = []
      for name in stops.map({ stopName($0) }) where !unique.contains(name) { unique.append(name) }
      return .stops(unique)
    }
    let trips = selectors.compactMap { $0.trip?.tripID }
    if !trips.isEmpty { return .trips(trips) }
    let agencies = selectors.compactMap(\.agencyID)
    if !agencies.isEmpty { return .agencies(Array(Set(agencies)).sorted()) }
    return .everything
  }

  /// What an alert affects, for a heading: its routes ("77X", "Red, Orange"), else its modes
  /// ("all tram routes"), its agency ("all routes of BART"), its stops, or its trips.
  public func label(_ alert: Alert) -> String {
    switch affected(alert) {
    case .routes(let names): return (names.count == 1 ? "route " : "routes ") + list(names)
    case .modes(let modes): return "all \(list(modes)) routes"
    case .stops(let names): return (names.count == 1 ? "stop " : "stops ") + list(names)
    case .trips(let trips): return (trips.count == 1 ? "trip " : "trips ") + list(trips)
    case .agencies(let agencies): return "all routes of " + list(agencies)
    case .everything: return "all routes"
    }
  }

  /// The timetable's name for stop `id`, else the id.
  func stopName(_ id: String) -> String {
    for feed in store?.feedNames ?? [] {
      if let stop = try? store?.stop(StopID(id), feed: feed) { return stop.name }
    }
    return id
  }

  /// "a, b, c" with at most eight, then "and N more".
  func list(_ names: [String]) -> String {
    names.count <= 8 ? names.joined(separator: ", ") : names.prefix(8).joined(separator: ", ") + " and \(names.count - 8) more"
  }
}
