import GTFS
import Testing
import TransitModel

@Suite struct ShapeQueryTests {
  @Test func aTripsShapeComesBackInSequenceOrder() throws {
    // Data/gtfs: trip 27-WK-0-0600 follows R27_0, 31 points from (53.3262,-6.3178) at 0 m.
    let store = try demoStore()
    let shapeID = try #require(try store.shapeID(ofTrip: TripID("27-WK-0-0600"), feed: "demo"))
    #expect(shapeID == "R27_0")
    let points = try store.shape(shapeID, feed: "demo")
    #expect(points.count == 31)
    #expect(points.first == ShapePoint(coordinate: Coordinate(latitude: 53.3262, longitude: -6.3178), distance: 0))
    #expect(points[1].distance == 197.6)
    let distances = points.compactMap(\.distance)
    #expect(distances.count == 31 && distances == distances.sorted())
  }

  /// One row per shape: rows of a shape split across the file are merged, out of order rows
  /// sorted, and a repeated shape_pt_sequence keeps its last point.
  @Test func aShapeSplitAcrossTheFileIsOneShape() throws {
    let directory = TestDirectory()
    let files = TinyFeed.with([
      "shapes.txt": """
      shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
      A,53.30,-6.30,2,100
      A,53.29,-6.29,1,0
      B,53.10,-6.10,1,
      A,53.31,-6.31,3,200
      A,53.32,-6.32,3,250

      """
    ])
    let timetables = Timetables(directory: directory.path + "/data")
    try timetables.ingest(directory.feed(files), as: "tiny", now: 1)
    let store = try Store(directory: directory.path + "/data")
    #expect(
      try store.shape("A", feed: "tiny") == [
        ShapePoint(coordinate: Coordinate(latitude: 53.29, longitude: -6.29), distance: 0),
        ShapePoint(coordinate: Coordinate(latitude: 53.30, longitude: -6.30), distance: 100),
        ShapePoint(coordinate: Coordinate(latitude: 53.32, longitude: -6.32), distance: 250),
      ])
    #expect(try store.shape("B", feed: "tiny") == [ShapePoint(coordinate: Coordinate(latitude: 53.10, longitude: -6.10), distance: nil)])
  }

  @Test func anUnknownShapeIsEmpty() throws {
    #expect(try demoStore().shape("no-such-shape", feed: "demo").isEmpty)
    #expect(try demoStore().shapeID(ofTrip: TripID("no-such-trip"), feed: "demo") == nil)
  }
}
