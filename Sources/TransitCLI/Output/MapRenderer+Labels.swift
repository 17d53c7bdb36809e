import Services
import TransitModel

/// Labels that must stay readable: names beside marks (termini, "you"), and vehicles' route
/// numbers gathered into one label where they would overprint each other.
extension MapRenderer {
  /// A label's place on the canvas: its cell and its text.
  struct PlacedLabel: Equatable {
    var column: Int
    var row: Int
    var text: String
  }

  /// Labels that would overlap on one row gathered into one: "27×3" for three of one route,
  /// "27+2" when they differ (the first by column, then how many more). Input order is kept
  /// for labels that do not touch.
  /// - Complexity: O(n²) in the labels, which are a screen's worth.
  static func clustered(_ labels: [PlacedLabel]) -> [PlacedLabel] {
    var clusters: [(label: PlacedLabel, members: [String], end: Int)] = []
    for label in labels.sorted(by: { ($0.row, $0.column) < ($1.row, $1.column) }) {
      // Touching: same row, and the spans overlap or sit without a blank between them.
      if let index = clusters.firstIndex(where: {
        $0.label.row == label.row && label.column <= $0.end && label.column + label.text.count >= $0.label.column
      }) {
        clusters[index].members.append(label.text)
        clusters[index].end = max(clusters[index].end, label.column + label.text.count)
        let members = clusters[index].members
        let text = Set(members).count == 1 ? "\(members[0])×\(members.count)" : "\(members[0])+\(members.count - 1)"
        clusters[index].label.text = text
        clusters[index].end = max(clusters[index].end, clusters[index].label.column + text.count)
      } else {
        clusters.append((label, [label.text], label.column + label.text.count))
      }
    }
    return clusters.map(\.label)
  }

  /// Where a name goes beside a mark at `column`, `row`: to its right when it fits on the
  /// canvas and touches no cell in `taken`, else to its left; else (with `rows`, the canvas's
  /// height) on the row above, below, two above, two below, over the mark's column (starting
  /// at it, else as little left of it as fits); else nil (left out).
  static func besideMark(
    _ text: String, column: Int, row: Int, columns: Int, taken: Set<Int>, rowWidth: Int, rows: Int = 0
  ) -> PlacedLabel? {
    let length = text.count
    func free(_ start: Int, _ row: Int) -> Bool {
      start >= 0 && start + length <= columns && (start..<start + length).allSatisfy { !taken.contains(row * rowWidth + $0) }
    }
    if free(column + 2, row) { return PlacedLabel(column: column + 2, row: row, text: text) }
    if free(column - 1 - length, row) { return PlacedLabel(column: column - 1 - length, row: row, text: text) }
    for other in [row - 1, row + 1, row - 2, row + 2] where other >= 0 && other < rows {
      for start in stride(from: column, through: column + 1 - length, by: -1) where free(start, other) {
        return PlacedLabel(column: start, row: other, text: text)
      }
    }
    return nil
  }
}

extension MapRenderer {
  /// Termini as labels, their names as the terminal shows them.
  static func termini(_ termini: [RouteMap.Terminus]) -> [Label] {
    termini.map { Label(coordinate: $0.coordinate, text: $0.name.shown) }
  }

  /// A trip's first and last stops, named (one name when both ends share it, as a loop's do).
  static func termini(of stops: [Stop]) -> [Label] {
    var seen = Set<String>()
    var result: [Label] = []
    for stop in [stops.first, stops.last].compactMap({ $0 }) {
      guard let coordinate = stop.coordinate, seen.insert(stop.name).inserted else { continue }
      result.append(Label(coordinate: coordinate, text: stop.name.shown))
    }
    return result
  }
}
