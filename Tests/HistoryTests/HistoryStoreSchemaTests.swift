import Foundation
import History
import SQLite
import Testing

/// history.sqlite's schema: version 2 names each trip instance once (`trips`) and keys the rows
/// by its number; a version 1 file is carried over in place, a newer one refused; the instance
/// numbers kept during a transaction never outlive it.
@Suite struct HistoryStoreSchemaTests {
  /// A fresh folder, removed when the test ends.
  final class Folder {
    let path = NSTemporaryDirectory() + "history-schema-" + UUID().uuidString
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  static let t0: Int64 = 1_796_112_000
  static let tripA = HistoryTrip(feed: "nyct", tripID: "A1", serviceDate: 20_230_529)
  static let tripB = HistoryTrip(feed: "nyct", tripID: "B1", serviceDate: 20_230_529, startTime: 3600)
  static let tripC = HistoryTrip(feed: "demo", tripID: "A1", serviceDate: 20_230_529)

  static func event(_ trip: HistoryTrip, _ sequence: Int, actual: Int64? = nil) -> StopEvent {
    StopEvent(
      key: HistoryCallKey(trip: trip, stopSequence: sequence), stopID: "S\(sequence)", routeID: "R", headsign: "Up",
      scheduled: t0 + Int64(sequence) * 60, lastPredicted: t0 + Int64(sequence) * 60 + 30, lastPredictedAt: t0, lastSeen: t0,
      actual: actual, kind: actual == nil ? nil : .inferred, actualLow: actual.map { $0 - 30 }, actualHigh: actual.map { $0 + 30 })
  }

  /// A version 1 file written as version 1 wrote it (its schema and rows by hand).
  static func writeVersion1(in folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let db = try Connection(path: folder + "/history.sqlite", mode: .readWriteCreate)
    try db.execute(
      """
      CREATE TABLE snapshots (source TEXT NOT NULL, time INTEGER NOT NULL, imported_at INTEGER NOT NULL,
        PRIMARY KEY (source, time)) WITHOUT ROWID;
      CREATE TABLE stop_events (
        feed TEXT NOT NULL, trip_id TEXT NOT NULL, service_date INTEGER NOT NULL, start_time INTEGER NOT NULL,
        stop_sequence INTEGER NOT NULL, stop_id TEXT NOT NULL, route_id TEXT NOT NULL, headsign TEXT NOT NULL,
        scheduled INTEGER, last_predicted INTEGER, last_predicted_at INTEGER, last_seen INTEGER NOT NULL,
        actual INTEGER, actual_kind INTEGER, actual_low INTEGER, actual_high INTEGER, skipped INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (feed, trip_id, service_date, start_time, stop_sequence)) WITHOUT ROWID;
      CREATE INDEX stop_events_by_stop ON stop_events (stop_id, scheduled);
      CREATE INDEX stop_events_by_route ON stop_events (route_id, scheduled);
      CREATE INDEX stop_events_open ON stop_events (last_seen) WHERE actual IS NULL AND skipped = 0;
      CREATE TABLE predictions (
        feed TEXT NOT NULL, trip_id TEXT NOT NULL, service_date INTEGER NOT NULL, start_time INTEGER NOT NULL,
        stop_sequence INTEGER NOT NULL, bucket INTEGER NOT NULL, made_at INTEGER NOT NULL, predicted INTEGER NOT NULL,
        PRIMARY KEY (feed, trip_id, service_date, start_time, stop_sequence, bucket)) WITHOUT ROWID;
      CREATE TABLE trip_events (
        feed TEXT NOT NULL, trip_id TEXT NOT NULL, service_date INTEGER NOT NULL, start_time INTEGER NOT NULL,
        kind INTEGER NOT NULL, route_id TEXT NOT NULL, time INTEGER NOT NULL,
        PRIMARY KEY (feed, trip_id, service_date, start_time, kind)) WITHOUT ROWID;
      CREATE INDEX trip_events_by_time ON trip_events (time);
      INSERT INTO snapshots VALUES ('/rec', 1796112000, 1796200000), ('/rec', 1796112060, 1796200000);
      INSERT INTO stop_events VALUES
        ('nyct', 'A1', 20230529, -1, 1, 'S1', 'R', 'Up', 1796112060, 1796112090, 1796112000, 1796112000, 1796112095, 2, 1796112000, 1796112120, 0),
        ('nyct', 'A1', 20230529, -1, 2, 'S2', 'R', 'Up', 1796112120, 1796112150, 1796112000, 1796112060, NULL, NULL, NULL, NULL, 0),
        ('nyct', 'B1', 20230529, 3600, 5, 'S5', 'G', 'Down', NULL, NULL, NULL, 1796112000, NULL, NULL, NULL, NULL, 1);
      INSERT INTO predictions VALUES
        ('nyct', 'A1', 20230529, -1, 1, 0, 1796112000, 1796112090), ('nyct', 'A1', 20230529, -1, 2, 1, 1796112000, 1796112150);
      INSERT INTO trip_events VALUES ('nyct', 'C9', 20230529, -1, 2, 'Q', 1796112030), ('nyct', 'B1', 20230529, 3600, 1, 'G', 1796112000);
      PRAGMA user_version = 1;
      """)
  }

  @Test func aVersion1FileIsCarriedOverRowForRow() throws {
    let folder = Folder()
    try Self.writeVersion1(in: folder.path)
    let history = try HistoryStore(directory: folder.path)
    #expect(try history.status().schemaVersion == 2)

    // The rows written above, read back as values.
    let a1 = HistoryTrip(feed: "nyct", tripID: "A1", serviceDate: 20_230_529)
    let b1 = HistoryTrip(feed: "nyct", tripID: "B1", serviceDate: 20_230_529, startTime: 3600)
    let c9 = HistoryTrip(feed: "nyct", tripID: "C9", serviceDate: 20_230_529)
    let expected = [
      StopEvent(
        key: HistoryCallKey(trip: a1, stopSequence: 1), stopID: "S1", routeID: "R", headsign: "Up", scheduled: 1_796_112_060,
        lastPredicted: 1_796_112_090, lastPredictedAt: 1_796_112_000, lastSeen: 1_796_112_000, actual: 1_796_112_095, kind: .inferred,
        actualLow: 1_796_112_000, actualHigh: 1_796_112_120),
      StopEvent(
        key: HistoryCallKey(trip: a1, stopSequence: 2), stopID: "S2", routeID: "R", headsign: "Up", scheduled: 1_796_112_120,
        lastPredicted: 1_796_112_150, lastPredictedAt: 1_796_112_000, lastSeen: 1_796_112_060),
      StopEvent(
        key: HistoryCallKey(trip: b1, stopSequence: 5), stopID: "S5", routeID: "G", headsign: "Down", scheduled: nil,
        lastSeen: 1_796_112_000, isSkipped: true),
    ]
    #expect(try history.allEvents() == expected)
    #expect(try history.openEvents(since: 1_796_112_060) == [expected[1]])
    #expect(try history.events(stopIDs: ["S2"], routeIDs: nil, from: 0, to: .max) == [expected[1]])
    #expect(
      try history.predictions(of: expected.map(\.key)) == [
        PredictionSeen(key: expected[0].key, bucket: 0, madeAt: 1_796_112_000, predicted: 1_796_112_090),
        PredictionSeen(key: expected[1].key, bucket: 1, madeAt: 1_796_112_000, predicted: 1_796_112_150),
      ])
    #expect(
      try history.tripEvents(routeIDs: nil, from: 0, to: .max) == [
        TripEvent(trip: b1, routeID: "G", kind: .cancelled, time: 1_796_112_000),
        TripEvent(trip: c9, routeID: "Q", kind: .ghost, time: 1_796_112_030),
      ])
    #expect(try history.importedSnapshots(source: "/rec") == [1_796_112_000, 1_796_112_060])
    #expect(try history.names(b1) && history.names(a1) && !history.names(c9))
    let status = try history.status()
    let counts: [Int] = [status.stopEvents, status.predictions, status.cancellations, status.ghostTrips, status.snapshots]
    #expect(counts == [3, 2, 1, 1, 2])

    // Version 1's tables are gone; its three instances are named once each.
    let db = try Connection(path: history.path, mode: .readOnly)
    #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v1'") == 0)
    #expect(try db.scalarInt("SELECT count(*) FROM trips") == 3)
    #expect(try db.scalarInt("SELECT count(*) FROM pragma_table_info('stop_events') WHERE name = 'feed'") == 0)
    // The indexes are there again, on the new table.
    #expect(
      try db.scalarInt(
        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stop_events' AND name LIKE 'stop_events_%'") == 3)

    // A carried-over call is resolved in place, not written twice.
    var resolved = expected[1]
    resolved.actual = 1_796_112_160
    resolved.kind = .observed
    try history.write([resolved])
    #expect(try history.allEvents() == [expected[0], resolved, expected[2]])
  }

  @Test func aNewerFileIsRefusedAndLeftAlone() throws {
    let folder = Folder()
    try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
    let path = folder.path + "/history.sqlite"
    try Connection(path: path, mode: .readWriteCreate).execute("CREATE TABLE later (x); PRAGMA user_version = 3")
    #expect(throws: HistoryError.newerSchema(found: 3, known: 2)) { try HistoryStore(directory: folder.path) }
    let db = try Connection(path: path, mode: .readOnly)
    #expect(try db.scalarInt("PRAGMA user_version") == 3)
    #expect(!db.hasTable("trips"))
  }

  @Test func anInstanceWrittenInARolledBackTransactionIsNotTrustedAfterIt() throws {
    struct Refused: Error {}
    let folder = Folder()
    let history = try HistoryStore(directory: folder.path)
    // A's number is handed out, then rolled back with its row.
    #expect(throws: Refused.self) {
      try history.transaction {
        try history.write([Self.event(Self.tripA, 1)])
        throw Refused()
      }
    }
    #expect(try history.allEvents().isEmpty)
    // B now takes the number A had; A, written again, gets its own.
    try history.transaction {
      try history.write([Self.event(Self.tripB, 1)])
      try history.write([Self.event(Self.tripA, 1), Self.event(Self.tripA, 2)])
    }
    // Outside a transaction, and an instance sharing A's trip_id in another feed.
    try history.write([Self.event(Self.tripC, 1)])
    try history.write([PredictionSeen(key: HistoryCallKey(trip: Self.tripA, stopSequence: 2), bucket: 3, madeAt: 5, predicted: 9)])
    try history.write([TripEvent(trip: Self.tripC, routeID: "R", kind: .cancelled, time: Self.t0)])
    #expect(
      try history.allEvents().map(\.key) == [
        HistoryCallKey(trip: Self.tripC, stopSequence: 1), HistoryCallKey(trip: Self.tripA, stopSequence: 1),
        HistoryCallKey(trip: Self.tripA, stopSequence: 2), HistoryCallKey(trip: Self.tripB, stopSequence: 1),
      ])
    #expect(
      try history.predictions(of: [HistoryCallKey(trip: Self.tripA, stopSequence: 2)]).map(\.bucket) == [3])
    #expect(try history.predictions(of: [HistoryCallKey(trip: Self.tripB, stopSequence: 1)]).isEmpty)
    #expect(try history.tripEvents(routeIDs: nil, from: 0, to: .max).map(\.trip) == [Self.tripC])
  }

  @Test func pruningForgetsTheInstancesNothingNames() throws {
    let folder = Folder()
    let history = try HistoryStore(directory: folder.path)
    let late = HistoryTrip(feed: "nyct", tripID: "L", serviceDate: 20_230_530)
    var kept = Self.event(late, 1)
    kept.scheduled = Self.t0 + 86_400
    try history.transaction {
      try history.write([Self.event(Self.tripA, 1), kept])
      try history.write([PredictionSeen(key: HistoryCallKey(trip: Self.tripA, stopSequence: 1), bucket: 0, madeAt: 1, predicted: 2)])
      try history.write([TripEvent(trip: Self.tripB, routeID: "R", kind: .ghost, time: Self.t0)])
    }
    #expect(try history.prune(before: Self.t0 + 3_600) == 1)
    #expect(try history.allEvents() == [kept])
    #expect(try history.status().predictions == 0)
    #expect(try history.tripEvents(routeIDs: nil, from: 0, to: .max).isEmpty)
    let db = try Connection(path: history.path, mode: .readOnly)
    #expect(try db.scalarText("SELECT group_concat(trip_id) FROM trips") == "L")
    // A, written again after the prune, is named anew and read back whole.
    try history.write([Self.event(Self.tripA, 1)])
    #expect(try history.allEvents() == [Self.event(Self.tripA, 1), kept])
  }
}
