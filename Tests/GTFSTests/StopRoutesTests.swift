import Foundation
import SQLite
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// The routes at each stop that ingest stores (`stop_routes`, issue 18) are the routes of the
/// patterns calling there, worked out here with plain SQL over the patterns.
@Suite(.enabled(if: SharedData.path("static/kcm-vp-subset-2021.zip") != nil, "needs ../shared/data"))
struct StopRoutesTests {
  @Test func theRoutesOfEveryStopAreThoseOfItsPatterns() throws {
    let path = try IngestedFeeds.path("kcm-vp-subset-2021.zip", as: "feed")
    // Expected: route_ids by stop_id through the patterns.
    let db = try Connection(path: path, mode: .readOnly)
    let select = try db.prepare(
      """
      SELECT s.stop_id, r.route_id FROM pattern_stops ps JOIN patterns p ON p.pattern_idx = ps.pattern_idx
      JOIN routes r ON r.route_idx = p.route_idx JOIN stops s ON s.stop_idx = ps.stop_idx
      """)
    var expected: [String: Set<String>] = [:]
    while try select.step() { expected[select.text(0), default: []].insert(select.text(1)) }
    #expect(expected.count > 1_000)
    let store = try IngestedFeeds.store("kcm-vp-subset-2021.zip", as: "feed")
    #expect(store.feeds.allSatisfy { $0.hasStopRoutes })
    let stops = try db.prepare("SELECT stop_id FROM stops WHERE location_type = 0")
    var checked = 0
    while try stops.step() {
      let id = stops.text(0)
      let stop = try #require(try store.stop(StopID(id), feed: "feed"))
      let routes = try store.routes(at: stop).map(\.id.rawValue)
      #expect(routes.count == Set(routes).count, "\(id): a route listed twice")
      #expect(Set(routes) == expected[id] ?? [], "\(id)")
      checked += 1
    }
    #expect(checked > 6_000)
    // Without the table (a timetable made before it), the same answers through the patterns.
    let directory = TestDirectory()
    let copy = directory.path + "/old.sqlite"
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    try Connection(path: copy, mode: .readWrite).execute("DROP TABLE stop_routes")
    let old = try Store(files: [("feed", copy)])
    #expect(old.feeds.allSatisfy { !$0.hasStopRoutes })
    for id in expected.keys.sorted().prefix(300) {
      let stop = try #require(try store.stop(StopID(id), feed: "feed"))
      let oldStop = try #require(try old.stop(StopID(id), feed: "feed"))
      #expect(try old.routes(at: oldStop) == store.routes(at: stop), "\(id)")
    }
  }
}
