import Testing

@testable import TransitCLI

/// Map labels (issue 21): vehicles' route numbers gathered where they would overprint, names
/// beside marks where there is room, termini and "you" on the maps. Expected placements are
/// worked out by hand.
@Suite struct MapLabelTests {
  typealias Placed = MapRenderer.PlacedLabel

  @Test func overlappingLabelsAreGathered() {
    let labels = [
      Placed(column: 5, row: 1, text: "27"), Placed(column: 6, row: 1, text: "27"), Placed(column: 20, row: 1, text: "27"),
      Placed(column: 7, row: 1, text: "54A"), Placed(column: 5, row: 2, text: "49"),
    ]
    // 27 at 5–6, 27 at 6–7 and 54A at 7–9 touch; the 27 at 20 and the 49 on row 2 stand apart.
    #expect(
      MapRenderer.clustered(labels) == [
        Placed(column: 5, row: 1, text: "27+2"), Placed(column: 20, row: 1, text: "27"), Placed(column: 5, row: 2, text: "49"),
      ])
    let same = [Placed(column: 3, row: 0, text: "8"), Placed(column: 4, row: 0, text: "8"), Placed(column: 5, row: 0, text: "8")]
    #expect(MapRenderer.clustered(same) == [Placed(column: 3, row: 0, text: "8×3")])
    // Side by side without a blank between them reads as one word: gathered too.
    #expect(MapRenderer.clustered([Placed(column: 0, row: 0, text: "1"), Placed(column: 1, row: 0, text: "2")]).count == 1)
    #expect(MapRenderer.clustered([Placed(column: 0, row: 0, text: "1"), Placed(column: 2, row: 0, text: "2")]).count == 2)
  }

  @Test func namesGoBesideTheirMark() {
    // Row width 20: the name "Depot" (5) right of a mark at column 3 starts at 5.
    #expect(
      MapRenderer.besideMark("Depot", column: 3, row: 0, columns: 20, taken: [], rowWidth: 20) == Placed(column: 5, row: 0, text: "Depot"))
    // No room on the right (16–20 runs off a 20-column row): to the left, ending a blank
    // before the mark (columns 8–12 for a mark at 14).
    #expect(
      MapRenderer.besideMark("Depot", column: 14, row: 0, columns: 20, taken: [16], rowWidth: 20)
        == Placed(column: 8, row: 0, text: "Depot"))
    // Neither side fits.
    #expect(MapRenderer.besideMark("Long name", column: 4, row: 0, columns: 12, taken: [], rowWidth: 12) == nil)
  }

  @Test func routeMapNamesItsTermini() throws {
    let home = try RiderDemoTests.home()
    let result = transit(["route", "show", "77X", "--map", "--data-dir", home.path], environment: ["COLUMNS": "60", "LINES": "18"])
    try #require(result.code == 0, "\(result.stderr)")
    let map = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.isEmpty }.dropFirst()
    // Data/gtfs: the 77X runs Tallaght Interchange (TINT-A) to Citywest Campus and back.
    #expect(map.contains { $0.contains("Citywest Campus") })
    #expect(map.contains { $0.contains("Tallaght Interchange") })
    let near = transit(
      ["stops", "near", "53.2875,-6.3664", "--map", "--data-dir", home.path], environment: ["COLUMNS": "60", "LINES": "30"])
    // On the map itself, not only in the legend under it ("@ you are here").
    #expect(near.stdout.split(separator: "\n").dropLast().contains { $0.contains("@ you") })
  }
}
