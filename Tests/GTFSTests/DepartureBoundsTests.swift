import Foundation
import SQLite
import Testing
import TransitModel

@testable import GTFS

/// Departures read through `patterns.starts` and `patterns.offsets` (what ingest stores to
/// bound the trips read) are those read without them, from the index on trip_times.
@Suite struct DepartureBoundsTests {
  static let from = UnixTime(RoutingNetworkTests.midnight)
  static let until = UnixTime(RoutingNetworkTests.midnight + 2 * 86_400)

  func departures(_ data: String, limit: Int?) throws -> [String] {
    let store = try Store(directory: data)
    var seen: [String] = []
    for id in ["A", "F"] {
      let stop = try #require(try store.stop(StopID(id), feed: FeedName("tiny")))
      let calls = try store.departures(
        at: stop, DepartureQuery(from: Self.from, until: Self.until, limit: limit, includeArrivals: true))
      seen += calls.map { "\($0.stopID) \($0.tripID) \($0.serviceDate) \($0.scheduledTime?.seconds ?? -1)" }
    }
    return seen
  }

  @Test(arguments: [nil, 2] as [Int?])
  func storedBoundsChangeNothing(limit: Int?) throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    try timetables.ingest(directory.feed(RoutingNetworkTests.files), as: "tiny", now: 1)
    let data = directory.path + "/data"
    let db = try Connection(path: data + "/feeds/tiny.sqlite", mode: .readOnly)
    #expect(try db.scalarInt("SELECT count(*) FROM patterns WHERE starts IS NULL OR offsets IS NULL") == 0)
    let bounded = try departures(data, limit: limit)
    #expect(limit == nil ? bounded.count >= 8 : bounded.count == 4)
    try Connection(path: data + "/feeds/tiny.sqlite").execute("UPDATE patterns SET starts = NULL, offsets = NULL")
    #expect(try departures(data, limit: limit) == bounded)
  }
}
