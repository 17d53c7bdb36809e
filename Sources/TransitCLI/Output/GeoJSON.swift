import Services
import TransitModel

/// GeoJSON documents (RFC 7946): positions are [longitude, latitude] in WGS 84 degrees.
enum GeoJSON {
  /// A position: longitude first (RFC 7946 section 3.1.1).
  static func position(_ point: Coordinate) -> JSON { .array([.double(point.longitude), .double(point.latitude)]) }

  /// A Feature with `geometry` and `properties`.
  static func feature(_ geometry: JSON, properties: [(String, JSON)]) -> JSON {
    .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
  }

  /// A route as a FeatureCollection: a LineString per line in `lines` (a shape, or a pattern
  /// through its stops), then a Point per stop its patterns call at, each stop once.
  static func route(_ answer: RouteDetailsAnswer, lines: [RouteMap.Line]) -> JSON {
    let route = answer.route
    var features: [JSON] = []
    for line in lines where line.points.count >= 2 {
      features.append(
        feature(
          .object([("type", .string("LineString")), ("coordinates", .array(line.points.map(position)))]),
          properties: [
            ("route_id", .string(route.id.rawValue)), ("route_short_name", .string(route.shortName)),
            ("route_long_name", .optional(route.longName)), ("color", .optional(RouteCommandSupport.hexColor(route.color))),
            ("direction_id", .optional(line.pattern.directionID)), ("shape_id", .optional(line.shapeID)),
            ("headsign", .string(line.pattern.headsign)),
          ]))
    }
    var seen = Set<StopID>()
    for direction in answer.details.directions {
      for pattern in direction.patterns {
        for stop in pattern.stops where seen.insert(stop.id).inserted {
          guard let coordinate = stop.coordinate else { continue }
          features.append(
            feature(
              .object([("type", .string("Point")), ("coordinates", position(coordinate))]),
              properties: [("stop_id", .string(stop.id.rawValue)), ("stop_code", .optional(stop.code)), ("name", .string(stop.name))]))
        }
      }
    }
    return .object([("type", .string("FeatureCollection")), ("features", .array(features))])
  }
}
