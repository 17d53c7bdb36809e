import Foundation
import GTFS
import GTFSRealtime
import History
import Services
import TestSupport
import Testing

/// The history recorder carries the match of one snapshot to the next (`MatchCache`: the
/// timetable's trips, their calls and the descriptor resolver's answers read once): what it
/// writes must be what matching every snapshot afresh writes, row for row.
@Suite struct HistoryRecorderCacheTests {
  static let names = SharedData.files(in: "rt", withExtension: "pb").filter {
    URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("nyct-subway-20230529T18")
  }

  /// Every row a history holds: its stop events (key order), their sampled predictions and
  /// the trip events (cancellations, ghosts), and what the recorder counted.
  struct Rows: Equatable {
    var events: [StopEvent]
    var predictions: [PredictionSeen]
    var tripEvents: [TripEvent]
    var counts: HistoryRecorder.Counts
  }

  /// The history made by recording `snapshots` (in time order) with or without the cache, one
  /// at a time (`record`) or handed over to be read and matched on a thread of their own
  /// (`take`, as `history import` does).
  func record(
    _ snapshots: [(time: Int64, message: FeedMessage)], store: Store, cached: Bool, pipelined: Bool = false
  ) throws -> Rows {
    let folder = TemporaryFolder()
    let history = try HistoryStore(directory: folder.path)
    let recorder = try HistoryRecorder(store: store, history: history, options: ServiceOptions(), resumeFrom: snapshots.first?.time)
    if !cached { recorder.matchCache = nil }
    if pipelined {
      // Five a transaction: the 12 captures span three, the last one short.
      try recorder.take(
        snapshots.map { snapshot in HistoryRecorder.Snapshot(time: snapshot.time, source: "mixed") { [snapshot.message] } },
        importedAt: 0, perTransaction: 5)
    } else {
      for snapshot in snapshots {
        try recorder.record([snapshot.message], at: snapshot.time, source: "mixed", importedAt: 0)
      }
      try recorder.finish()
    }
    let events = try history.allEvents().sorted { $0.key < $1.key }
    return Rows(
      events: events, predictions: try history.predictions(of: events.map(\.key)),
      tripEvents: try history.tripEvents(routeIDs: nil, from: 0, to: .max), counts: recorder.counts)
  }

  @Test(.enabled(if: SharedData.path("static/nyct-subway-multi-2023.zip") != nil && names.count == 12))
  func carryingTheMatchWritesTheSameHistoryAsMatchingAfresh() throws {
    let home = try IngestedFeeds.folder("nyct-subway-multi-2023.zip", as: "nyct")
    let store = try Store(directory: home)
    var snapshots: [(time: Int64, message: FeedMessage)] = []
    for path in Self.names {
      let message = try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: path))))
      snapshots.append((Int64(try #require(message.header?.timestamp)), message))
    }
    snapshots.sort { $0.time < $1.time }
    let cached = try record(snapshots, store: store, cached: true)
    let afresh = try record(snapshots, store: store, cached: false)
    // Not two empty histories: the captures hold hundreds of trains, stops passed and left.
    #expect(cached.events.count > 1000 && cached.predictions.count > 1000)
    #expect(cached.counts.observed > 100 && cached.counts.inferred > 50 && cached.counts.ghostTrips > 0)
    #expect(cached.counts == afresh.counts)
    #expect(cached.events == afresh.events)
    #expect(cached.predictions == afresh.predictions)
    #expect(cached.tripEvents == afresh.tripEvents)
    // Read and matched on a thread of their own, the snapshots write the same history.
    let pipelined = try record(snapshots, store: store, cached: true, pipelined: true)
    #expect(pipelined.counts == cached.counts)
    #expect(pipelined.events == cached.events)
    #expect(pipelined.predictions == cached.predictions)
    #expect(pipelined.tripEvents == cached.tripEvents)
  }
}
