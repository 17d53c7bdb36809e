import Foundation
import SQLite
import Testing

@testable import GTFS

/// Issue 38: footpaths stay linear in the stops whatever their places (5,000 stops at one
/// point made 25 million footpaths): at most `maxLinksPerPoint` per stop, the nearest; stops
/// sharing a position folded, each linked to at most `maxColocatedLinks` of them.
@Suite struct FootpathBoundsTests {
  typealias F = FootpathTests

  /// Links per stop_id, as stored.
  static func linksByStop(_ path: String) throws -> [String: [FootpathTests.Link]] {
    Dictionary(grouping: try F.stored(path), by: \.from)
  }

  static func ingest(_ stopsText: String, as name: String, in directory: TestDirectory) throws -> String {
    let files = TinyFeed.with([
      "stops.txt": stopsText,
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,s0,1\nT1,08:10:00,08:10:00,s1,2\n",
    ])
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(directory.feed(files, named: name), as: name, now: 1)
    return try timetables.path(of: name)
  }

  @Test func tenThousandStopsAtOnePointMakeAtMostSixteenLinksEach() throws {
    var text = "stop_id,stop_name,stop_lat,stop_lon\n"
    for index in 0..<10_000 { text += "s\(index),Stop \(index),53.3,-6.3\n" }
    let directory = TestDirectory()
    let path = try Self.ingest(text, as: "colocated", in: directory)
    let db = try Connection(path: path, mode: .readOnly)
    let total = try #require(try db.scalarInt("SELECT count(*) FROM footpaths"))
    // Each stop: the next 16 round the group (10,000 × 16), not the 9,999 others.
    #expect(total == 160_000)
    #expect(try db.scalarInt("SELECT max(n) FROM (SELECT count(*) AS n FROM footpaths GROUP BY from_stop_idx)") == 16)
    #expect(try db.scalarInt("SELECT min(n) FROM (SELECT count(*) AS n FROM footpaths GROUP BY from_stop_idx)") == 16)
    #expect(try db.scalarInt("SELECT max(distance_m) FROM footpaths") == 0)
  }

  /// A centre and `count` stops due north of it, 1 m apart from 1 m.
  static func line(_ count: Int) -> String {
    let metre = 1 / (6_371_008.8 * Double.pi / 180)
    var text = "stop_id,stop_name,stop_lat,stop_lon\ns0,Centre,10,10\n"
    for index in 1...count { text += "s\(index),Stop \(index),\(10 + Double(index) * metre),10\n" }
    return text
  }

  @Test func aStopWithAsManyNeighboursAsTheCapKeepsThemAll() throws {
    // 201 stops within 200 m: each has 200 others within 400 m, all kept.
    let directory = TestDirectory()
    let links = try Self.linksByStop(try Self.ingest(Self.line(200), as: "full", in: directory))
    let centre = try #require(links["s0"])
    #expect(centre.count == FootpathFinder.maxLinksPerPoint)
    #expect(Set(centre.map(\.to)) == Set((1...200).map { "s\($0)" }))
    #expect(links.values.allSatisfy { $0.count == 200 })
  }

  @Test func aStopWithMoreNeighboursThanTheCapKeepsItsThirtyTwoNearest() throws {
    // 301 stops within 300 m: each has 300 others within 400 m, a cluster denser than any
    // real feed's; the centre keeps the 32 nearest (1 m ... 32 m), every stop 32.
    let directory = TestDirectory()
    let links = try Self.linksByStop(try Self.ingest(Self.line(300), as: "dense", in: directory))
    let centre = try #require(links["s0"])
    #expect(Set(centre.map(\.to)) == Set((1...32).map { "s\($0)" }))
    #expect(centre.map(\.meters).max() == 32)
    #expect(links["s150"].map { Set($0.map(\.to)) } == Set((134...166).filter { $0 != 150 }.map { "s\($0)" }))
    #expect(links.values.allSatisfy { $0.count == FootpathFinder.maxLinksInDenseCluster })
  }

  /// 10,000 distinct positions spread evenly (Vogel's sunflower) over a disc 400 m across:
  /// every pair within the radius, so each point has 9,999 candidates and keeps the nearest 200.
  static func sunflower(count: Int = 10_000, radiusMeters: Double = 200) -> [FootpathFinder.Point] {
    let metre = 1 / (6_371_008.8 * Double.pi / 180)
    let golden = Double.pi * (3 - 5.0.squareRoot())
    return (0..<count).map { index in
      let r = radiusMeters * ((Double(index) + 0.5) / Double(count)).squareRoot()
      let north = r * cos(Double(index) * golden), east = r * sin(Double(index) * golden)
      return FootpathFinder.Point(
        key: Int64(index),
        coordinate: .init(latitude: 53.3 + north * metre, longitude: -6.3 + east * metre / cos(53.3 * Double.pi / 180)))
    }
  }

  static func meters(_ a: FootpathFinder.Point, _ b: FootpathFinder.Point) -> Double {
    FootpathTests.meters(
      .init(id: "", lat: a.coordinate.latitude, lon: a.coordinate.longitude, locationType: 0),
      .init(id: "", lat: b.coordinate.latitude, lon: b.coordinate.longitude, locationType: 0))
  }

  @Test func tenThousandDistinctStopsInOneCircleKeepTheirThirtyTwoNearestEach() throws {
    let points = Self.sunflower()
    var found: [Int64: [FootpathFinder.Link]] = [:]
    try FootpathFinder(radiusMeters: 400).forEachPoint(of: points) { point, links in found[point.key] = links }
    #expect(found.count == 10_000)
    // Every point has 9,999 others within 400 m, more than the 200 any real stop has.
    #expect(found.values.allSatisfy { $0.count == 32 })
    // A sample checked against every other point, by the test's own haversine: the 32
    // nearest (ties by key), all within 400 m.
    for key in stride(from: Int64(0), to: 10_000, by: 397) {
      let here = points[Int(key)]
      let others = points.filter { $0.key != key }.map { (key: $0.key, meters: Self.meters(here, $0)) }
      let nearest = others.sorted { $0.meters != $1.meters ? $0.meters < $1.meters : $0.key < $1.key }.prefix(32)
      #expect(nearest.allSatisfy { $0.meters <= 400 })
      let links = try #require(found[key])
      #expect(links.map(\.to) == links.map(\.to).sorted())
      #expect(Set(links.map(\.to)) == Set(nearest.map(\.key)), "point \(key)")
      #expect(zip(links, links.map { link in nearest.first { $0.key == link.to }!.meters }).allSatisfy { abs($0.meters - $1) < 1e-6 })
    }
  }

  @Test func searchesPastTheComparisonBudgetAreRefused() throws {
    let points = Self.sunflower(count: 2_000)
    #expect(throws: FootpathFinder.TooDense(positions: 2_000)) {
      try FootpathFinder(radiusMeters: 400, comparisonBudget: 100_000).forEachPoint(of: points) { _, _ in }
    }
    // The same points within a budget the searches fit: no refusal.
    var calls = 0
    try FootpathFinder(radiusMeters: 400, comparisonBudget: 20_000_000).forEachPoint(of: points) { _, _ in calls += 1 }
    #expect(calls == 2_000)
  }
}
