import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TestSupport
import Testing
import TransitModel

/// The demo network (Data/gtfs) ingested by the library once per test process
/// (`IngestedFeeds`), and its realtime snapshot decoded: what the session's tests ask.
enum DemoTimetable {
  /// A store over the demo timetable.
  static func store() throws -> Store {
    try Store(directory: IngestedFeeds.folder(source: packageRoot + "/Data/gtfs", as: "demo"))
  }

  /// The demo's trip updates and vehicle positions (Data/realtime, stamped 07:39:30 UTC).
  static func realtime() throws -> [FeedMessage] {
    try ["demo-tripupdates.pb", "demo-vehiclepositions.pb"].map { name in
      let path = packageRoot + "/Data/realtime/" + name
      return try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: path))))
    }
  }

  /// 2026-12-01 07:40:00 UTC (the demo agency's clock is Dublin's, UTC in December).
  static let now = UnixTime(1_796_110_800)
}

/// The session's board and the delays of its vehicles (issue 33), compared with values worked
/// out here from the feed's own numbers.
@Suite struct SessionBoardTests {
  @Test func aStationsRowsCarryTheirPlatformLabel() throws {
    let store = try DemoTimetable.store()
    let session = TransitSession(store: store, options: ServiceOptions())
    let station = try #require(try store.stop(StopID("TINT"), feed: FeedName("demo")))
    let board = try session.board(
      BoardRequest(stop: station, query: BoardQuery(start: DemoTimetable.now, windowMinutes: 60, limit: 50)), feeds: [],
      now: DemoTimetable.now)
    try #require(!board.rows.isEmpty)
    // Data/gtfs/stops.txt: TINT-A, -B and -C have platform_code A, B and C.
    let codes = ["TINT-A": "platform A", "TINT-B": "platform B", "TINT-C": "platform C"]
    for row in board.rows { #expect(row.platform == codes[row.departure.call.stopID.rawValue], "\(row.departure.call.stopID)") }
    // The groups hold the same rows.
    let grouped = board.groups(perGroup: 100).flatMap(\.rows)
    #expect(Set(grouped.map(\.key)) == Set(board.rows.map(\.key)))
    #expect(grouped.allSatisfy { $0.platform != nil })
  }

  /// A source that reads given feeds and says one fetch fell back, and records what it was
  /// asked for.
  final class RecordingSource: RealtimeSource {
    let feeds: [FeedMessage]
    var asked: [FeedName?] = []
    init(_ feeds: [FeedMessage]) { self.feeds = feeds }
    func read(preferring preferred: FeedName?) throws -> RealtimeRead {
      asked.append(preferred)
      return RealtimeRead(feeds: feeds, problems: [.fallback(failure: "x: timed out", ageSeconds: 40)])
    }
    func periodSeconds(preferring preferred: FeedName?) -> Int64? { 30 }
  }

  @Test func theBoardReadsTheSessionsRealtimeSource() throws {
    let store = try DemoTimetable.store()
    let source = RecordingSource(try DemoTimetable.realtime())
    let session = TransitSession(store: store, options: ServiceOptions(), realtime: source)
    let stop = try #require(try store.stop(StopID("TINT"), feed: FeedName("demo")))
    let query = BoardQuery(start: DemoTimetable.now, windowMinutes: 60, limit: 50, route: "27")
    let board = try session.board(BoardRequest(stop: stop, query: query), now: DemoTimetable.now)
    #expect(source.asked == [FeedName("demo")])
    #expect(board.hasRealtime)
    #expect(board.realtimeProblems == [.fallback(failure: "x: timed out", ageSeconds: 40)])
    // Data/realtime/demo-tripupdates.pb: trip 27-WK-1-0750 is predicted 3 min late at TINT-A.
    let row = try #require(board.rows.first { $0.departure.call.tripID.rawValue == "27-WK-1-0750" })
    #expect(row.departure.delaySeconds == 180)
    #expect(row.departure.source == .realtime)
    // The feed is stamped 07:39:30 and publishes every 30 s: the next fetch is just after
    // 07:40:30 (PollSchedule: 2 s after the publish).
    #expect(board.newestHeaderTimestamp == DemoTimetable.now.seconds - 30)
    #expect(session.nextFetch(after: board, now: DemoTimetable.now.seconds) == DemoTimetable.now.seconds + 32)
  }

  @Test func vehiclesClassTheirStopsDelaysByTheConfiguredThresholds() throws {
    let store = try DemoTimetable.store()
    var options = ServiceOptions()
    options.reconciler.lateThresholdSeconds = 600
    options.reconciler.earlyThresholdSeconds = -600
    let live = try LiveRealtime(store: store, feeds: try DemoTimetable.realtime(), now: DemoTimetable.now, options: options)
    var fleet = Fleet(store: store, live: live)
    let views = try fleet.vehicles(includeEstimated: false)
    let delays = views.flatMap { $0.nextStops.compactMap { stop in stop.delaySeconds.map { ($0, stop.delayStatus) } } }
    try #require(!delays.isEmpty)
    for (seconds, status) in delays {
      let expected: DepartureStatus = seconds >= 600 ? .late : seconds <= -600 ? .early : .onTime
      #expect(status == expected, "\(seconds) s")
    }
    // The demo's delays are a few minutes: at the default thresholds some would be late.
    #expect(delays.contains { $0.0 >= 120 && $0.0 < 600 })
  }
}
