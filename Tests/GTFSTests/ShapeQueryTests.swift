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

  @Test func anUnknownShapeIsEmpty() throws {
    #expect(try demoStore().shape("no-such-shape", feed: "demo").isEmpty)
    #expect(try demoStore().shapeID(ofTrip: TripID("no-such-trip"), feed: "demo") == nil)
  }
}
