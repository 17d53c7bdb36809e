import FoundationEssentials
import Glibc
import TransitModel

/// Lat/lon to canvas dots: equirectangular, longitudes shrunk by the cosine of the middle
/// latitude (so a kilometre is as long east–west as north–south), fitted to a canvas and
/// centred. Braille dots are about as wide as they are high (a cell is twice as high as wide
/// and holds 2 × 4 dots), so one scale serves both axes.
struct MapProjection: Equatable {
  /// Metres in one degree of latitude (mean Earth radius 6 371 008.8 m).
  static let metersPerDegree = 6_371_008.8 * Double.pi / 180

  let cosine: Double
  let minX: Double
  let maxY: Double
  /// Dots per (cosine-scaled) degree.
  let scale: Double
  let offsetX: Double
  let offsetY: Double

  /// Fits `points` into `dotColumns` × `dotRows`; a span under `minimumSpanMeters` (a single
  /// stop) is widened to it around its middle.
  init(fitting points: [Coordinate], dotColumns: Int, dotRows: Int, minimumSpanMeters: Double = 300) {
    let valid = points.filter(\.isValid)
    let latitudes = valid.map(\.latitude), longitudes = valid.map(\.longitude)
    let middle = ((latitudes.min() ?? 0) + (latitudes.max() ?? 0)) / 2
    cosine = max(0.01, cos(middle * .pi / 180))
    var minX = (longitudes.min() ?? 0) * cosine, maxX = (longitudes.max() ?? 0) * cosine
    var minY = latitudes.min() ?? 0, maxY = latitudes.max() ?? 0
    let minimum = minimumSpanMeters / Self.metersPerDegree
    if maxX - minX < minimum {
      let centre = (minX + maxX) / 2
      minX = centre - minimum / 2
      maxX = centre + minimum / 2
    }
    if maxY - minY < minimum {
      let centre = (minY + maxY) / 2
      minY = centre - minimum / 2
      maxY = centre + minimum / 2
    }
    let width = Double(max(1, dotColumns - 1)), height = Double(max(1, dotRows - 1))
    scale = min(width / (maxX - minX), height / (maxY - minY))
    self.minX = minX
    self.maxY = maxY
    offsetX = (width - (maxX - minX) * scale) / 2
    offsetY = (height - (maxY - minY) * scale) / 2
  }

  /// The dot a position falls on (x to the east, y to the south).
  func dot(_ point: Coordinate) -> (x: Int, y: Int) {
    let x = offsetX + (point.longitude * cosine - minX) * scale
    let y = offsetY + (maxY - point.latitude) * scale
    return (Int(x.rounded()), Int(y.rounded()))
  }

  /// The ground distance one dot stands for.
  var metersPerDot: Double { Self.metersPerDegree / scale }
}

/// A small map drawn in the terminal: lines (route shapes), stops as marks, the user's
/// location as `@`, vehicles as their route number, and under it a scale bar and "north up".
struct MapRenderer {
  /// A label on the map (a vehicle's route number).
  struct Label: Equatable {
    var coordinate: Coordinate
    var text: String
  }

  var lines: [[Coordinate]] = []
  var stops: [Coordinate] = []
  var location: Coordinate?
  var labels: [Label] = []
  /// Names written beside their place (route termini); left out where they do not fit.
  var names: [Label] = []
  /// The word beside the user's `@` ("you"), when there is room.
  var locationName: String?
  /// Whether labels that would overprint each other are gathered into one ("27×3", "27+2").
  var clustersLabels = false

  /// `•` (ASCII `o`) for a stop.
  static func stopMark(ascii: Bool) -> Character { ascii ? "o" : "•" }

  /// The map in `columns` × `rows` cells, then one line with the scale bar and "north up":
  /// `rows + 1` lines of `columns` characters (the last one shorter).
  func render(columns: Int, rows: Int, ascii: Bool) -> [String] {
    var canvas = BrailleCanvas(columns: max(1, columns), rows: max(1, rows))
    let everything = lines.joined() + stops + labels.map(\.coordinate) + (location.map { [$0] } ?? [])
    let projection = MapProjection(fitting: Array(everything), dotColumns: canvas.dotColumns, dotRows: canvas.dotRows)
    for line in lines {
      let dots = line.filter(\.isValid).map(projection.dot)
      if dots.count == 1 { canvas.set(x: dots[0].x, y: dots[0].y) }
      for (from, to) in zip(dots, dots.dropFirst()) { canvas.line(from: from, to: to) }
    }
    func cell(_ point: Coordinate) -> (column: Int, row: Int) {
      let dot = projection.dot(point)
      return (dot.x / 2, dot.y / 4)
    }
    for stop in stops where stop.isValid {
      let (column, row) = cell(stop)
      canvas.write(String(Self.stopMark(ascii: ascii)), column: column, row: row)
    }
    var placed = labels.filter(\.coordinate.isValid).map { label in
      let (column, row) = cell(label.coordinate)
      return PlacedLabel(column: column, row: row, text: label.text)
    }
    if clustersLabels { placed = Self.clustered(placed) }
    var taken = Set<Int>()
    for label in placed {
      canvas.write(label.text, column: label.column, row: label.row)
      let length = min(label.text.count, canvas.columns)
      let start = min(max(0, label.column), canvas.columns - length)
      for column in start..<start + length { taken.insert(label.row * canvas.columns + column) }
    }
    // Names never cover a mark (a stop, a vehicle, @).
    for row in 0..<canvas.rows {
      for column in 0..<canvas.columns where canvas.mark(column: column, row: row) != nil { taken.insert(row * canvas.columns + column) }
    }
    if let location, location.isValid {
      let (column, row) = cell(location)
      canvas.write("@", column: column, row: row)
      taken.insert(row * canvas.columns + column)
      if let word = locationName,
        let spot = Self.besideMark(
          word, column: column, row: row, columns: canvas.columns, taken: taken, rowWidth: canvas.columns, rows: canvas.rows)
      {
        canvas.write(spot.text, column: spot.column, row: spot.row)
        for column in spot.column..<spot.column + spot.text.count { taken.insert(spot.row * canvas.columns + column) }
      }
    }
    for name in names where name.coordinate.isValid {
      let (column, row) = cell(name.coordinate)
      guard row >= 0, row < canvas.rows,
        let spot = Self.besideMark(
          name.text, column: column, row: row, columns: canvas.columns, taken: taken, rowWidth: canvas.columns, rows: canvas.rows)
      else { continue }
      canvas.write(spot.text, column: spot.column, row: spot.row)
      for column in spot.column..<spot.column + spot.text.count { taken.insert(spot.row * canvas.columns + column) }
    }
    return canvas.lines(ascii: ascii) + [Self.footer(metersPerCell: projection.metersPerDot * 2, columns: canvas.columns, ascii: ascii)]
  }

  /// The longest round distance (1, 2 or 5 times a power of ten, in metres) whose bar fits in
  /// a third of the width; with its length in cells.
  static func scaleBar(metersPerCell: Double, columns: Int) -> (meters: Int, cells: Int) {
    let room = max(2, columns / 3)
    var best: (Int, Int)?
    var power = 1
    for _ in 0..<8 {
      for step in [1, 2, 5] {
        let meters = step * power
        let cells = Int((Double(meters) / metersPerCell).rounded())
        if cells >= 2 && cells <= room { best = (meters, cells) }
      }
      power *= 10
    }
    if let best { return best }
    // Even a metre is wider than the room (or 50 km too short): the nearest end of the range.
    return metersPerCell > 1 ? (50_000_000, max(2, Int(50_000_000 / metersPerCell))) : (1, room)
  }

  /// "├────┤ 500 m · north ↑", or "|----| 500 m, north ^" in ASCII.
  static func footer(metersPerCell: Double, columns: Int, ascii: Bool) -> String {
    let (meters, cells) = scaleBar(metersPerCell: metersPerCell, columns: columns)
    let label = meters >= 1000 ? "\(meters / 1000) km" : "\(meters) m"
    let inner = String(repeating: ascii ? "-" : "─", count: max(0, cells - 2))
    let bar = ascii ? "|" + inner + "|" : "├" + inner + "┤"
    return bar + " " + label + (ascii ? ", north ^" : " · north ↑")
  }
}
