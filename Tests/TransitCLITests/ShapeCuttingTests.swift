import Testing
import TransitModel

@testable import TransitCLI

/// `plan --geojson` cuts a trip's shape to the part between two stops.
@Suite struct ShapeCuttingTests {
  // A straight shape along a meridian, 0.001 degrees (about 111 m) per point.
  static let shape = (0..<6).map { index in
    ShapePoint(coordinate: Coordinate(latitude: 53.0 + Double(index) * 0.001, longitude: -6.0), distance: Double(index) * 100)
  }

  @Test func byDistanceTravelledInterpolatesTheEnds() {
    let line = ShapeCutting.cut(Self.shape, from: 150, to: 320)
    #expect(line.count == 4)
    #expect(abs(line[0].latitude - 53.0015) < 1e-9)
    #expect(line[1].latitude == 53.002 && line[2].latitude == 53.003)
    #expect(abs(line[3].latitude - 53.0032) < 1e-9)
  }

  @Test func byNearestPointsKeepsTheStopsAtTheEnds() {
    let board = Coordinate(latitude: 53.00105, longitude: -6.0001)
    let alight = Coordinate(latitude: 53.00395, longitude: -6.0001)
    let line = ShapeCutting.cut(Self.shape, near: board, and: alight)
    #expect(line.first == board && line.last == alight)
    #expect(line.dropFirst().dropLast().map(\.latitude) == [53.001, 53.002, 53.003, 53.004])
  }

  @Test func aLoopIsCutAfterTheBoardingPoint() {
    // Out and back: the alighting stop is the first point again, reached at the end.
    let loop = Self.shape + Self.shape.reversed().dropFirst()
    let start = Self.shape[1].coordinate
    let end = Self.shape[0].coordinate
    let line = ShapeCutting.cut(loop, near: start, and: end)
    #expect(line.count == 12)  // the stop, shape points 1 ... 10, the stop
  }
}
