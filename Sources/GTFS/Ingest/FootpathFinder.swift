import TransitModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds, for each point, the nearest other points at most `radiusMeters` away (haversine,
/// `Coordinate.distanceMeters`): at most `maxLinksPerPoint` of them, in time and space that grow
/// with the points, never with their square.
///
/// Each point becomes a unit vector in 3-D and falls into a cube of a grid whose side is the
/// chord of `radiusMeters` on the unit sphere (slightly widened). Two points within the radius
/// are within that chord of each other, so they lie in the same or neighbouring cubes: each
/// point is compared only with the points of its 27 cubes, then kept by the exact haversine
/// distance. Working on the sphere rather than in degrees needs no special case at the poles or
/// across the antimeridian.
///
/// Bounded against hostile feeds (5,000 stops at one point made 25 million footpaths):
/// - Co-located points (the same coordinate) are folded: the neighbours are searched once per
///   position, and each point links to at most `maxColocatedLinks` of the points sharing its
///   position (the next ones by key, round the group), then to the nearest other positions'
///   points until `maxLinksPerPoint`.
/// - `maxLinksTotal` caps the whole: with more points than it allows at `maxLinksPerPoint` each,
///   each point gets its share (never fewer than `maxColocatedLinks`).
/// - `maxComparisons` caps the distance checks: positions packed so densely that the grid cannot
///   separate them are refused (`FootpathFinder.TooDense`), not searched for minutes.
///
/// Real feeds are far inside these limits (the densest in shared/data has 160 stops within
/// 400 m of one stop, and at most 4 stops at one position), so for them every pair within the
/// radius is still linked.
///
/// - Complexity: O(n) expected to bucket the points (one hash per position), then per position
///   the positions of its 27 neighbouring cubes (at most `maxComparisons` in all, counted
///   before the search starts), then
///   O(`maxLinksPerPoint`) per point: O(n) in time and links.
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

  /// The positions were packed too densely to search within the comparison budget.
  struct TooDense: Error, Equatable {
    /// How many distinct positions there were.
    var positions: Int
  }

  private struct Cell: Hashable {
    var x: Int32, y: Int32, z: Int32
  }

  /// A distinct position and the points (indexes into the points given) at it, in input order.
  private struct Position {
    var coordinate: Coordinate
    var vector: (Double, Double, Double)
    var members: [Int32]
  }

  /// At most this many links per point.
  static let maxLinksPerPoint = 200
  /// At most this many links from a point to the points sharing its position.
  static let maxColocatedLinks = 16
  /// At most this many links in all.
  static let maxLinksTotal = 8_000_000
  /// At most this many position pairs compared: 200 million, or 1,000 per point for larger
  /// feeds (a city's stops compare with a few hundred each).
  static func maxComparisons(points: Int) -> Int { max(200_000_000, 1_000 * points) }

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

  /// Calls `body` once per point (in the order given) with its nearest other points within the
  /// radius (at most `maxLinksPerPoint`, fewer when `maxLinksTotal` needs it; nearest first,
  /// ties by key), sorted by key. Points sharing a key are distinct points.
  /// - Throws: `TooDense` before calling `body` at all when the comparison budget runs out; the
  ///   errors of `body`.
  func forEachPoint(of points: [Point], _ body: (Point, [Link]) throws -> Void) throws {
    // Fold the points that share a position.
    var positions: [Position] = []
    var positionOf = [Int32](repeating: 0, count: points.count)
    var byCoordinate: [Coordinate: Int32] = [:]
    for (index, point) in points.enumerated() {
      if let known = byCoordinate[point.coordinate] {
        positions[Int(known)].members.append(Int32(index))
        positionOf[index] = known
      } else {
        let id = Int32(positions.count)
        byCoordinate[point.coordinate] = id
        positions.append(Position(coordinate: point.coordinate, vector: Self.unitVector(point.coordinate), members: [Int32(index)]))
        positionOf[index] = id
      }
    }
    byCoordinate = [:]
    var cells: [Cell: [Int32]] = [:]
    for (id, position) in positions.enumerated() { cells[cell(of: position.vector), default: []].append(Int32(id)) }
    // The comparisons the search will make, counted before any is made.
    var comparisons = 0
    let budget = Self.maxComparisons(points: points.count)
    for (home, members) in cells {
      var around = 0
      for dx in Int32(-1)...1 {
        for dy in Int32(-1)...1 {
          for dz in Int32(-1)...1 { around += cells[Cell(x: home.x + dx, y: home.y + dy, z: home.z + dz)]?.count ?? 0 }
        }
      }
      comparisons += members.count * around
      if comparisons > budget { throw TooDense(positions: positions.count) }
    }

    let perPoint = min(Self.maxLinksPerPoint, max(Self.maxColocatedLinks, Self.maxLinksTotal / max(1, points.count)))
    // The nearest other positions of each position, enough of them to fill `perPoint` links.
    let chordLimit = cellSide * cellSide
    var nearest: [[(position: Int32, meters: Double)]] = []
    nearest.reserveCapacity(positions.count)
    var found: [(position: Int32, meters: Double)] = []
    for (id, position) in positions.enumerated() {
      found.removeAll(keepingCapacity: true)
      let home = cell(of: position.vector)
      for dx in Int32(-1)...1 {
        for dy in Int32(-1)...1 {
          for dz in Int32(-1)...1 {
            guard let members = cells[Cell(x: home.x + dx, y: home.y + dy, z: home.z + dz)] else { continue }
            for other in members where Int(other) != id {
              // The chord first (three products), the haversine only for those it may keep.
              let v = positions[Int(other)].vector
              let a = v.0 - position.vector.0, b = v.1 - position.vector.1, c = v.2 - position.vector.2
              guard a * a + b * b + c * c <= chordLimit else { continue }
              let meters = position.coordinate.distanceMeters(to: positions[Int(other)].coordinate)
              if meters <= radiusMeters { found.append((other, meters)) }
            }
          }
        }
      }
      found.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.position < $1.position }
      // Each position holds at least one point: `perPoint` positions are always enough.
      nearest.append(Array(found.prefix(perPoint)))
    }

    var links: [Link] = []
    // Which member of its position each point is (members are in input order).
    var rank = [Int32](repeating: 0, count: positions.count)
    for (index, point) in points.enumerated() {
      links.removeAll(keepingCapacity: true)
      let position = positions[Int(positionOf[index])]
      let at = Int(rank[Int(positionOf[index])])
      rank[Int(positionOf[index])] += 1
      if position.members.count > 1 {
        // The points sharing the position: the next ones round the group.
        let mates = position.members
        for step in 1..<min(mates.count, min(Self.maxColocatedLinks, perPoint) + 1) {
          links.append(Link(to: points[Int(mates[(at + step) % mates.count])].key, meters: 0))
        }
      }
      fill: for (other, meters) in nearest[Int(positionOf[index])] {
        for member in positions[Int(other)].members {
          if links.count >= perPoint { break fill }
          links.append(Link(to: points[Int(member)].key, meters: meters))
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
