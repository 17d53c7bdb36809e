#if canImport(Glibc)
  import Glibc  // libm only: cos
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trip's drawn path measured in metres from its start: where a stop lies along it, which
/// point lies a given distance along it, and the part between two distances.
///
/// Distances are great-circle metres between consecutive points. A feed's own
/// `shape_dist_traveled` (any unit) is used only to place stops that carry it too, by
/// interpolating between the shape points that bracket it.
public struct ShapePath: Sendable, Equatable {
  /// The points, invalid coordinates left out.
  public let points: [ShapePoint]
  /// Metres from the first point to each point.
  public let metres: [Double]

  /// Measures `points`; nil with fewer than two valid points.
  public init?(_ points: [ShapePoint]) {
    let valid = points.filter { $0.coordinate.isValid }
    guard valid.count >= 2 else { return nil }
    var metres = [0.0]
    metres.reserveCapacity(valid.count)
    for index in 1..<valid.count {
      metres.append(metres[index - 1] + valid[index - 1].coordinate.distanceMeters(to: valid[index].coordinate))
    }
    self.points = valid
    self.metres = metres
  }

  /// The path's length in metres.
  public var length: Double { metres[metres.count - 1] }

  /// The point `distance` metres along the path (clamped to its ends).
  public func coordinate(at distance: Double) -> Coordinate {
    guard distance > 0 else { return points[0].coordinate }
    guard distance < length else { return points[points.count - 1].coordinate }
    let segment = self.segment(containing: distance)
    let span = metres[segment + 1] - metres[segment]
    let fraction = span > 0 ? (distance - metres[segment]) / span : 0
    return Self.between(points[segment].coordinate, points[segment + 1].coordinate, fraction)
  }

  /// The path's points from `start` to `end` metres, with the cut points at both ends.
  public func slice(from start: Double, to end: Double) -> [Coordinate] {
    let lower = min(max(0, start), length), upper = max(min(length, end), lower)
    var result = [coordinate(at: lower)]
    for index in points.indices where metres[index] > lower && metres[index] < upper {
      result.append(points[index].coordinate)
    }
    result.append(coordinate(at: upper))
    return result
  }

  /// Where the feed's `shape_dist_traveled` value `traveled` lies, in metres, interpolating
  /// between the points whose own values bracket it; nil when the points carry no values or
  /// `traveled` lies outside them.
  public func metres(atTraveled traveled: Double) -> Double? {
    var previous: Int?
    for index in points.indices {
      guard let value = points[index].distance else { continue }
      if value == traveled { return metres[index] }
      if value > traveled {
        guard let before = previous, let low = points[before].distance, value > low else { return nil }
        let fraction = (traveled - low) / (value - low)
        return metres[before] + (metres[index] - metres[before]) * fraction
      }
      previous = index
    }
    return nil
  }

  /// Where `coordinate` projects onto the path, in metres, looking only at or past `notBefore`
  /// metres (so the stops of a loop, which passes the same street twice, keep their order).
  /// Where the path passes close by more than once, the first pass is taken: a stop is placed
  /// at its first pass, not at a later one that happens to lie a metre closer. The search ends 3 km past a
  /// pass within 50 m, so placing every stop of a trip costs little more than one walk along
  /// its shape.
  public func locate(_ coordinate: Coordinate, notBefore: Double = 0) -> Double {
    var best: (distance: Double, metres: Double)?
    var candidates: [(distance: Double, metres: Double)] = []
    let first = segment(containing: max(0, notBefore))
    for index in first..<(points.count - 1) {
      if let found = best, found.distance <= 50, metres[index] > found.metres + 3000 { break }
      let (fraction, distance) = Self.project(coordinate, onto: points[index].coordinate, points[index + 1].coordinate)
      var along = metres[index] + (metres[index + 1] - metres[index]) * fraction
      if along < notBefore { along = notBefore }
      candidates.append((distance, along))
      if best == nil || distance < best!.distance { best = (distance, along) }
    }
    guard let best else { return max(0, min(notBefore, length)) }
    // An earlier pass (more than 100 m of path before the nearest one) that comes within 20 m
    // of it is the same place passed first: take that pass, at its own nearest point.
    guard let earlier = candidates.first(where: { $0.distance <= best.distance + 20 && best.metres - $0.metres > 100 }) else {
      return best.metres
    }
    let pass = candidates.filter { abs($0.metres - earlier.metres) <= 100 }
    return (pass.min { $0.distance < $1.distance } ?? earlier).metres
  }

  /// How far `coordinate` lies from the path, in metres: the nearest of its segments.
  /// - Complexity: O(points).
  public func distance(from coordinate: Coordinate) -> Double {
    var nearest = Double.infinity
    for index in 0..<(points.count - 1) {
      nearest = min(nearest, Self.project(coordinate, onto: points[index].coordinate, points[index + 1].coordinate).metres)
    }
    return nearest
  }

  /// The index of the segment (point i to i + 1) that holds `distance` metres.
  func segment(containing distance: Double) -> Int {
    var low = 0, high = metres.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if metres[middle] <= distance { low = middle } else { high = middle }
    }
    return low
  }

  /// The point `fraction` of the way from `a` to `b` (linear in degrees: segments are short).
  static func between(_ a: Coordinate, _ b: Coordinate, _ fraction: Double) -> Coordinate {
    Coordinate(
      latitude: a.latitude + (b.latitude - a.latitude) * fraction,
      longitude: a.longitude + (b.longitude - a.longitude) * fraction)
  }

  /// The fraction along `a`–`b` of `point`'s foot, and the distance in metres to it, on a local
  /// flat projection (metres east and north of `a`).
  static func project(_ point: Coordinate, onto a: Coordinate, _ b: Coordinate) -> (fraction: Double, metres: Double) {
    let metresPerDegree = 111_195.0
    let scale = cos(a.latitude * Double.pi / 180)
    let bx = (b.longitude - a.longitude) * scale * metresPerDegree, by = (b.latitude - a.latitude) * metresPerDegree
    let px = (point.longitude - a.longitude) * scale * metresPerDegree, py = (point.latitude - a.latitude) * metresPerDegree
    let squared = bx * bx + by * by
    let fraction = squared > 0 ? min(1, max(0, (px * bx + py * by) / squared)) : 0
    let dx = px - bx * fraction, dy = py - by * fraction
    return (fraction, (dx * dx + dy * dy).squareRoot())
  }
}
