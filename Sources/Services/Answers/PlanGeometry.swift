import GTFS
import TransitModel

/// The journeys of a plan as lines (`plan --geojson`): per leg its points, the journey's number
/// and what the leg is. Its `Encodable` form is a GeoJSON FeatureCollection ([lon, lat], RFC
/// 7946).
public struct PlanGeometry: Sendable {
  /// One leg drawn.
  public struct Feature: Sendable {
    /// The journey's number, from 1.
    public var journey: Int
    public var line: [Coordinate]
    public var isRide: Bool
    public var departure: UnixTime
    public var arrival: UnixTime
    /// A ride's route, trip and colour.
    public var ride: RoutingRide?
  }

  public var features: [Feature]
  public var zone: LocalZone

  /// The legs of `answer`'s journeys with two points or more: a ride along its trip's shape
  /// between the stops (the stops themselves without one), a walk as a straight line.
  /// - Throws: the store's errors.
  init(_ answer: PlanAnswer, store: Store) throws {
    zone = answer.zone
    features = []
    func coordinate(_ end: JourneyPlanner.WalkEnd) -> Coordinate? {
      switch end {
      case .stop(let stop): return stop.coordinate
      case .origin: return answer.from.coordinate
      case .destination: return answer.to.coordinate
      }
    }
    for (index, journey) in answer.journeys.enumerated() {
      for leg in journey.legs {
        let feature: Feature
        switch leg {
        case .walk(let start, let end, let departure, let seconds, _):
          feature = Feature(
            journey: index + 1, line: [coordinate(start), coordinate(end)].compactMap { $0 }, isRide: false, departure: departure,
            arrival: departure + seconds)
        case .ride(let ride, let departure, let arrival):
          feature = Feature(
            journey: index + 1, line: try Self.geometry(of: ride, store: store), isRide: true, departure: departure, arrival: arrival,
            ride: ride)
        }
        if feature.line.count >= 2 { features.append(feature) }
      }
    }
  }

  /// The trip's shape between the boarding and alighting stops; the stops themselves in a line
  /// when the trip has no shape.
  static func geometry(of ride: RoutingRide, store: Store) throws -> [Coordinate] {
    let stops = ride.stops.compactMap(\.stop.coordinate)
    guard let shapeID = ride.shapeID, let first = ride.stops.first, let last = ride.stops.last,
      let board = first.stop.coordinate, let alight = last.stop.coordinate
    else { return stops }
    return cut(
      try store.shape(shapeID, feed: ride.feed), from: (board, first.shapeDistTraveled), to: (alight, last.shapeDistTraveled))
      ?? stops
  }

  /// The part of `shape` from one stop to a later one: each placed by its shape_dist_traveled
  /// when it and the shape carry one, else by projecting it onto the shape (the alighting stop
  /// only past the boarding one, so a loop is cut after it); nil without a usable shape.
  public static func cut(
    _ shape: [ShapePoint], from board: (Coordinate, Double?), to alight: (Coordinate, Double?)
  ) -> [Coordinate]? {
    guard let path = ShapePath(shape) else { return nil }
    let start = board.1.flatMap { path.metres(atTraveled: $0) } ?? path.locate(board.0)
    let end = alight.1.flatMap { path.metres(atTraveled: $0) } ?? path.locate(alight.0, notBefore: start)
    guard end > start else { return nil }
    return path.slice(from: start, to: end)
  }
}

extension PlanGeometry: Encodable {
  /// A FeatureCollection: per leg a LineString with the journey's number, the leg's kind and,
  /// for rides, the route and trip (and its colour as `stroke`).
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode("FeatureCollection", forKey: "type")
    var list = members.nestedUnkeyedContainer(forKey: "features")
    func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
    for feature in features {
      var item = list.nestedContainer(keyedBy: JSONKey.self)
      try item.encode("Feature", forKey: "type")
      var geometry = item.nestedContainer(keyedBy: JSONKey.self, forKey: "geometry")
      try geometry.encode("LineString", forKey: "type")
      try geometry.encode(feature.line.map { [rounded($0.longitude), rounded($0.latitude)] }, forKey: "coordinates")
      var properties = item.nestedContainer(keyedBy: JSONKey.self, forKey: "properties")
      try properties.encode(feature.journey, forKey: "journey")
      if let ride = feature.ride {
        try properties.encode("ride", forKey: "type")
        try properties.encode(ride.route.shortName, forKey: "route_short_name")
        try properties.encode(ride.route.id.rawValue, forKey: "route_id")
        try properties.encode(ride.tripID.rawValue, forKey: "trip_id")
        try properties.encode(ride.headsign, forKey: "headsign")
        try properties.encode(zone.isoText(feature.departure), forKey: "departure")
        try properties.encode(zone.isoText(feature.arrival), forKey: "arrival")
        if let color = ride.route.color { try properties.encode("#" + color, forKey: "stroke") }
      } else {
        try properties.encode("walk", forKey: "type")
        try properties.encode(zone.isoText(feature.departure), forKey: "departure")
        try properties.encode(zone.isoText(feature.arrival), forKey: "arrival")
      }
    }
  }
}
