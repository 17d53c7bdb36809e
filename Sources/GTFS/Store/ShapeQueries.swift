import SQLite
import TransitModel

extension Store {
  /// The points of shape `shapeID` in `feed`, in sequence order; empty when the feed has no
  /// such shape (shapes.txt is optional).
  /// - Complexity: one range scan of the shapes table's primary key.
  public func shape(_ shapeID: String, feed: FeedName) throws -> [ShapePoint] {
    guard let reader = reader(feed) else { return [] }
    let select = try reader.db.cached(
      "SELECT lat, lon, dist_traveled FROM shapes WHERE shape_id = ? ORDER BY sequence")
    select.bind(shapeID, at: 1)
    var points: [ShapePoint] = []
    while try select.step() {
      let coordinate = Coordinate(latitude: select.double(0), longitude: select.double(1))
      guard coordinate.isValid else { continue }
      points.append(ShapePoint(coordinate: coordinate, distance: select.optionalDouble(2)))
    }
    return points
  }

  /// The shape trip `tripID` follows in `feed`, or nil when the trip has none.
  /// - Complexity: one indexed lookup.
  public func shapeID(ofTrip tripID: TripID, feed: FeedName) throws -> String? {
    guard let reader = reader(feed) else { return nil }
    let select = try reader.db.cached("SELECT shape_id FROM trips WHERE trip_id = ?")
    select.bind(tripID.rawValue, at: 1)
    guard try select.step() else { return nil }
    return select.optionalText(0).flatMap { $0.isEmpty ? nil : $0 }
  }
}
