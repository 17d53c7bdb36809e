/// One point of a trip's drawn path (`shapes.txt`).
public struct ShapePoint: Hashable, Sendable {
  /// Where the point lies.
  public var coordinate: Coordinate
  /// `shape_dist_traveled`, in the feed's own unit, when the feed gives it.
  public var distance: Double?

  /// Creates a shape point.
  public init(coordinate: Coordinate, distance: Double? = nil) {
    self.coordinate = coordinate
    self.distance = distance
  }
}
