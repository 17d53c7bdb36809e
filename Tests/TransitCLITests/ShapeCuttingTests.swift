import Testing
import TransitModel

@testable import TransitCLI

/// `plan --geojson` cuts a trip's shape to the part between two stops.
@Suite struct ShapeCuttingTests {
  // A straight shape along a meridian, 0.001 degrees (about 111 m) per point, with
  // shape_dist_traveled in its own unit (100 a point).
  static let shape = (0..<6).map { index in
    ShapePoint(coordinate: Coordinate(latitude: 53.0 + Double(index) * 0.001, longitude: -6.0), distance: Double(index) * 100)
  }

  static func cut(_ shape: [ShapePoint], _ board: (Double, Double?), _ alight: (Double, Double?)) -> [Coordinate]? {
    PlanOutput.cut(
      shape, from: (Coordinate(latitude: board.0, longitude: -6.0001), board.1),
      to: (Coordinate(latitude: alight.0, longitude: -6.0001), alight.1))
  }

  @Test func byDistanceTravelledInterpolatesTheEnds() throws {
    let line = try #require(Self.cut(Self.shape, (53.0, 150), (53.0, 320)))
    #expect(line.count == 4)
    #expect(abs(line[0].latitude - 53.0015) < 1e-9)
    #expect(line[1].latitude == 53.002 && line[2].latitude == 53.003)
    #expect(abs(line[3].latitude - 53.0032) < 1e-9)
  }

  @Test func byProjectionCutsWhereTheStopsMeetTheShape() throws {
    let line = try #require(Self.cut(Self.shape, (53.00105, nil), (53.00395, nil)))
    #expect(abs(line[0].latitude - 53.00105) < 1e-6, "\(line[0])")
    #expect(line[0].longitude == -6.0)
    #expect(line.dropFirst().dropLast().map(\.latitude) == [53.002, 53.003])
    #expect(abs(line[line.count - 1].latitude - 53.00395) < 1e-6)
  }

  @Test func aLoopIsCutAfterTheBoardingPoint() throws {
    // Out and back: the alighting stop is the first point again, reached at the end.
    let loop =
      Self.shape.map { ShapePoint(coordinate: $0.coordinate) }
      + Self.shape.reversed().dropFirst().map { ShapePoint(coordinate: $0.coordinate) }
    let line = try #require(Self.cut(loop, (53.001, nil), (53.0, nil)))
    #expect(line.count == 10)  // point 1 (the cut), points 2 ... 9, point 10 (the cut)
    #expect(line.last == Self.shape[0].coordinate)
    #expect(Self.cut([Self.shape[0]], (53.0, nil), (53.001, nil)) == nil)
  }
}
