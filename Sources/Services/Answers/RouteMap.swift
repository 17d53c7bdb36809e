import GTFS
import TransitModel

/// A route as a map draws it on a date: the lines its patterns follow, its termini and its
/// stops.
public struct RouteMap: Sendable, Equatable {
  /// One line a route draws: a shape its patterns follow, else a pattern's stops in order.
  public struct Line: Sendable, Equatable {
    /// The shape drawn; nil where the pattern's stops stand in for it.
    public var shapeID: String?
    /// The pattern the line is of (its first, for a shape several follow).
    public var pattern: RoutePattern
    /// At least two points.
    public var points: [Coordinate]
  }

  /// A first or last stop of a direction's main pattern, by name.
  public struct Terminus: Sendable, Hashable {
    public var name: String
    public var coordinate: Coordinate
  }

  public var lines: [Line]
  public var termini: [Terminus]
  /// Every stop of its patterns that has a position, each once, south to north (then west to
  /// east).
  public var stops: [Coordinate]

  /// The map of `details`, its shapes read from `store`.
  /// - Throws: the store's errors.
  public init(_ details: RouteDetails, store: Store) throws {
    lines = try Self.lines(of: details, store: store)
    termini = Self.termini(of: details)
    stops = Array(Set(details.directions.flatMap { $0.patterns.flatMap(\.stops) }).compactMap(\.coordinate))
      .sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }
  }

  /// The lines a route draws: each distinct shape its patterns follow, or, for a pattern with
  /// no shape, a line through its stops in order.
  /// - Throws: the store's errors.
  public static func lines(of details: RouteDetails, store: Store) throws -> [Line] {
    var result: [Line] = []
    var seen = Set<String>()
    for direction in details.directions {
      for pattern in direction.patterns {
        if pattern.shapeIDs.isEmpty {
          let points = pattern.stops.compactMap(\.coordinate)
          if points.count >= 2 { result.append(Line(shapeID: nil, pattern: pattern, points: points)) }
          continue
        }
        for shapeID in pattern.shapeIDs where seen.insert(shapeID).inserted {
          let points = try store.shape(shapeID, feed: details.route.feed).map(\.coordinate)
          if points.count >= 2 {
            result.append(Line(shapeID: shapeID, pattern: pattern, points: points))
          } else {
            // A shape_id with no points in shapes.txt: the stops stand in for it.
            let stops = pattern.stops.compactMap(\.coordinate)
            if stops.count >= 2 { result.append(Line(shapeID: nil, pattern: pattern, points: stops)) }
          }
        }
      }
    }
    return result
  }

  /// The first and last stops of each direction's main pattern, each name once.
  public static func termini(of details: RouteDetails) -> [Terminus] {
    var seen = Set<String>()
    var result: [Terminus] = []
    for direction in details.directions {
      for stop in [direction.main.stops.first, direction.main.stops.last].compactMap({ $0 }) {
        guard let coordinate = stop.coordinate, seen.insert(stop.name).inserted else { continue }
        result.append(Terminus(name: stop.name, coordinate: coordinate))
      }
    }
    return result
  }
}

extension TransitSession {
  /// The map of route `route` (short name or route_id) on the service date of `time` in its
  /// feed; nil when `route` names no route or several.
  /// - Throws: the store's errors.
  public func routeMap(route: String, on time: UnixTime) throws -> RouteMap? {
    guard case .found(let summary) = try store.resolveRoute(route),
      let details = try store.routeDetails(summary, on: store.localDate(of: time, feed: summary.feed))
    else { return nil }
    return try RouteMap(details, store: store)
  }
}
