import Foundation
import SQLite
import Testing

@testable import GTFS

/// Issue 38: stop_times whose times run backwards within a trip (which made `plan` print
/// "06:00 -> 05:40 · 20 min") are warned about once, with the first line and a count, and the
/// trip is left out.
@Suite struct BackwardsStopTimesTests {
  @Test func tripsWhoseTimesRunBackwardsAreLeftOutWithOneWarning() throws {
    let files = TinyFeed.with([
      "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Third Street\nR1,WK,T2,Third Street\nR1,WK,T3,Third Street\n",
      "stop_times.txt": """
      trip_id,arrival_time,departure_time,stop_id,stop_sequence
      T1,06:00:00,06:00:00,S1,1
      T1,05:40:00,05:40:00,S2,2
      T1,06:10:00,06:10:00,S3,3
      T2,07:00:00,07:00:00,S1,1
      T2,07:05:00,07:05:00,S2,2
      T2,07:10:00,07:10:00,S3,3
      T3,08:00:00,08:00:00,S1,1
      T3,08:05:00,08:04:00,S2,2
      T3,08:10:00,08:10:00,S3,3

      """,
    ])
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let (_, summary) = try timetables.ingest(directory.feed(files), as: "backwards", now: 1)
    // T1 runs back from 06:00 to 05:40 (line 3); T3 leaves S2 before it arrives (line 8).
    #expect(summary.warnings.filter { $0.contains("backwards") } == ["stop_times.txt:3: 2 trips have times that run backwards; left out"])
    let db = try Connection(path: timetables.path(of: "backwards"), mode: .readOnly)
    let kept = try db.prepare(
      "SELECT t.trip_id FROM trips t WHERE EXISTS (SELECT 1 FROM trip_times x WHERE x.trip_idx = t.trip_idx) ORDER BY t.trip_id")
    var ids: [String] = []
    while try kept.step() { ids.append(kept.text(0)) }
    #expect(ids == ["T2"])
  }

  @Test func equalTimesAndAfterMidnightTimesAreNotBackwards() throws {
    let files = TinyFeed.with([
      "stop_times.txt": """
      trip_id,arrival_time,departure_time,stop_id,stop_sequence
      T1,23:58:00,23:58:00,S1,1
      T1,23:58:00,24:01:00,S2,2
      T1,24:10:00,24:10:00,S3,3

      """
    ])
    let directory = TestDirectory()
    let (_, summary) = try Timetables(directory: directory.path).ingest(directory.feed(files), as: "late", now: 1)
    #expect(!summary.warnings.contains { $0.contains("backwards") })
  }
}
