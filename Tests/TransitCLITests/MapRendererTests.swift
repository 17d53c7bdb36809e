import Testing
import TransitModel

@testable import TransitCLI

@Suite struct MapRendererTests {
  /// A square 0.01° on a side at the equator, corners clockwise from the north-west, closed.
  static let square = [
    Coordinate(latitude: 0.01, longitude: 0), Coordinate(latitude: 0.01, longitude: 0.01),
    Coordinate(latitude: 0, longitude: 0.01), Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0.01, longitude: 0),
  ]

  @Test func brailleBitsFollowUnicodeDotNumbering() {
    // Dots 1 2 3 7 down the left column, 4 5 6 8 down the right (U+2800 + bits).
    #expect((0..<4).map { BrailleCanvas.bit(x: 0, y: $0) } == [0x01, 0x02, 0x04, 0x40])
    #expect((0..<4).map { BrailleCanvas.bit(x: 1, y: $0) } == [0x08, 0x10, 0x20, 0x80])
  }

  @Test func bresenhamDrawsADiagonalAcrossCells() {
    var canvas = BrailleCanvas(columns: 4, rows: 2)
    canvas.line(from: (0, 0), to: (7, 7))
    #expect(canvas.lines(ascii: false) == ["⠑⢄  ", "  ⠑⢄"])
    #expect((0..<8).allSatisfy { canvas.isSet(x: $0, y: $0) })
    // Both ends included, either direction, and a shallow line sets one dot per column.
    var shallow = BrailleCanvas(columns: 4, rows: 1)
    shallow.line(from: (7, 3), to: (0, 0))
    #expect((0..<8).map { x in (0..<4).filter { shallow.isSet(x: x, y: $0) }.count } == [1, 1, 1, 1, 1, 1, 1, 1])
    #expect(shallow.isSet(x: 0, y: 0) && shallow.isSet(x: 7, y: 3))
  }

  @Test func dotsOffTheCanvasAreIgnored() {
    var canvas = BrailleCanvas(columns: 2, rows: 1)
    canvas.set(x: -1, y: 0)
    canvas.set(x: 4, y: 0)
    canvas.set(x: 0, y: 4)
    canvas.line(from: (-1_000_000, 2), to: (1_000_000, 2))
    #expect(canvas.lines(ascii: false) == ["⠤⠤"])
  }

  @Test func aKnownShapeRendersToAnExactBrailleBlock() {
    // 6 × 3 cells = 12 × 12 dots: the square's corners land on dots (0,0), (11,0), (11,11), (0,11).
    let renderer = MapRenderer(lines: [Self.square])
    let lines = renderer.render(columns: 6, rows: 3, ascii: false)
    #expect(
      lines == [
        "⡏⠉⠉⠉⠉⢹",
        "⡇    ⢸",
        "⣇⣀⣀⣀⣀⣸",
        // A dot is 101 m, a cell 202 m: 500 m is 2 cells, the most a third of 6 columns allows.
        "├┤ 500 m · north ↑",
      ])
  }

  @Test func theSameShapeInASCII() {
    let lines = MapRenderer(lines: [Self.square]).render(columns: 6, rows: 3, ascii: true)
    #expect(lines == ["+----+", "|    |", "+----+", "|| 500 m, north ^"])
  }

  @Test func theLocationAndStopsLandInTheirCells() {
    var renderer = MapRenderer(lines: [Self.square])
    renderer.stops = [Coordinate(latitude: 0, longitude: 0)]  // dot (0, 11): cell (0, 2)
    renderer.location = Coordinate(latitude: 0.002, longitude: 0.008)  // dot (9, 9): cell (4, 2)
    let lines = renderer.render(columns: 6, rows: 3, ascii: false)
    #expect(lines[2] == "•⣀⣀⣀@⣸")
    #expect(Array(lines[2])[4] == "@")
    let ascii = renderer.render(columns: 6, rows: 3, ascii: true)
    #expect(ascii[2] == "o---@+")
  }

  @Test func labelsStayOnTheCanvas() {
    var renderer = MapRenderer(lines: [Self.square])
    renderer.labels = [MapRenderer.Label(coordinate: Coordinate(latitude: 0.005, longitude: 0.01), text: "77X")]
    let lines = renderer.render(columns: 6, rows: 3, ascii: true)
    // At the right edge: shifted left so all of "77X" shows.
    #expect(lines[1].hasSuffix("77X"))
  }

  @Test func projectionKeepsDistancesEqualBothWays() {
    // At 60° north a degree of longitude is half a degree of latitude on the ground.
    let points = [Coordinate(latitude: 60, longitude: 0), Coordinate(latitude: 60.01, longitude: 0.02)]
    let projection = MapProjection(fitting: points, dotColumns: 101, dotRows: 101)
    let a = projection.dot(points[0]), b = projection.dot(points[1])
    #expect(abs(abs(b.x - a.x) - abs(b.y - a.y)) <= 1, "\(a) \(b)")
    #expect(b.y < a.y, "north is up")
    #expect(b.x > a.x, "east is right")
  }

  @Test func aSinglePointGetsAMinimumSpanAndIsCentred() {
    let projection = MapProjection(fitting: [Coordinate(latitude: 53.2875, longitude: -6.3664)], dotColumns: 21, dotRows: 21)
    #expect(projection.dot(Coordinate(latitude: 53.2875, longitude: -6.3664)) == (10, 10))
    #expect(abs(projection.metersPerDot * 20 - 300) < 1)
  }

  @Test(arguments: [(10.0, 60, 200, 20), (202.0, 6, 500, 2), (3.0, 90, 50, 17), (5_000.0, 60, 100_000, 20)])
  func scaleBarsAreRound(metersPerCell: Double, columns: Int, meters: Int, cells: Int) {
    let bar = MapRenderer.scaleBar(metersPerCell: metersPerCell, columns: columns)
    #expect(bar.meters == meters && bar.cells == cells)
  }

  @Test func asciiCharactersFollowTheDots() {
    #expect(BrailleCanvas.asciiCharacter(0) == " ")
    #expect(BrailleCanvas.asciiCharacter(0x01) == ".")
    #expect(BrailleCanvas.asciiCharacter(0x09) == "-")
    #expect(BrailleCanvas.asciiCharacter(0x47) == "|")
    #expect(BrailleCanvas.asciiCharacter(0x01 | 0x02 | 0x20 | 0x80) == "\\")
    #expect(BrailleCanvas.asciiCharacter(0x40 | 0x04 | 0x08 | 0x10) == "/")
  }
}
