import TransitModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds every pair of points at most `radiusMeters` apart (haversine, `Coordinate.distanceMeters`),
/// in time that grows with the points and the pairs found, never with their square.
///
/// Each point becomes a unit vector in 3-D and falls into a cube of a grid whose side is the
/// chord of `radiusMeters` on the unit sphere (slightly widened). Two points within the radius
/// are within that chord of each other, so they lie in the same or neighbouring cubes: each
/// point is compared only with the points of its 27 cubes, then kept by the exact haversine
/// distance. Working on the sphere rather than in degrees needs no special case at the poles or
/// across the antimeridian.
///
/// - Complexity: O(n) expected to bucket the points (one hash per point), then per point the
///   points of its 27 neighbouring cubes: O(n + pairs) when points are spread as stops are
///   (a cube holds only points within about 1.7 radii of each other); O(n log n) with the sort
///   of each point's neighbours.
struct FootpathFinder {
  /// A point to link: its key (stop_idx) and position.
  struct Point {
    var key: Int64
    var coordinate: Coordinate
  }

  /// One link found: `to` is within the radius of the point it was found for.
  struct Link: Equatable {
    var to: Int64
    var meters: Double
  }

  private struct Cell: Hashable {
    var x: Int32, y: Int32, z: Int32
  }

  let radiusMeters: Double
  private let cellSide: Double

  init(radiusMeters: Double) {
    precondition(radiusMeters >= 1 && radiusMeters <= 1_000_000, "footpath radius \(radiusMeters) m out of range")
    self.radiusMeters = radiusMeters
    let angle = radiusMeters / 6_371_008.8  // the mean Earth radius of Coordinate.distanceMeters
    // The chord of the angle, widened by a part in a thousand against rounding: a pair within
    // the radius is never more than one cube apart on any axis.
    cellSide = 2 * sin(angle / 2) * 1.001
  }

  /// Calls `body` once per point (in the order given) with every other point within the radius,
  /// sorted by key. Points sharing a key are distinct points.
  func forEachPoint(of points: [Point], _ body: (Point, [Link]) throws -> Void) rethrows {
    var vectors: [(Double, Double, Double)] = []
    vectors.reserveCapacity(points.count)
    var cells: [Cell: [Int32]] = [:]
    for (index, point) in points.enumerated() {
      let vector = Self.unitVector(point.coordinate)
      vectors.append(vector)
      cells[cell(of: vector), default: []].append(Int32(index))
    }
    var links: [Link] = []
    for (index, point) in points.enumerated() {
      links.removeAll(keepingCapacity: true)
      let home = cell(of: vectors[index])
      for dx in Int32(-1)...1 {
        for dy in Int32(-1)...1 {
          for dz in Int32(-1)...1 {
            guard let members = cells[Cell(x: home.x + dx, y: home.y + dy, z: home.z + dz)] else { continue }
            for other in members where Int(other) != index {
              let meters = point.coordinate.distanceMeters(to: points[Int(other)].coordinate)
              if meters <= radiusMeters { links.append(Link(to: points[Int(other)].key, meters: meters)) }
            }
          }
        }
      }
      links.sort { $0.to < $1.to }
      try body(point, links)
    }
  }

  private func cell(of vector: (Double, Double, Double)) -> Cell {
    Cell(
      x: Int32((vector.0 / cellSide).rounded(.down)), y: Int32((vector.1 / cellSide).rounded(.down)),
      z: Int32((vector.2 / cellSide).rounded(.down)))
  }

  private static func unitVector(_ coordinate: Coordinate) -> (Double, Double, Double) {
    let latitude = coordinate.latitude * .pi / 180, longitude = coordinate.longitude * .pi / 180
    return (cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
  }
}
