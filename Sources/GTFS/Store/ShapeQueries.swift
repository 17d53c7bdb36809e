import SQLite
import TransitModel

extension Store {
  /// The points of shape `shapeID` in `feed`, in sequence order; empty when the feed has no
  /// such shape (shapes.txt is optional).
  /// - Complexity: one primary-key lookup (a shape's points are one row).
  public func shape(_ shapeID: String, feed: FeedName) throws -> [ShapePoint] {
    guard let reader = reader(feed) else { return [] }
    let select = try reader.db.cached("SELECT points FROM shapes WHERE shape_id = ?")
    select.bind(shapeID, at: 1)
    guard try select.step() else { return [] }
    return select.withBlob(0) { ShapePoints.decode($0) }.compactMap { point in
      let coordinate = Coordinate(latitude: point.latitude, longitude: point.longitude)
      return coordinate.isValid ? ShapePoint(coordinate: coordinate, distance: point.distance) : nil
    }
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
