import FoundationEssentials
import Glibc
import SQLite

/// The rider's record of how the service ran, `history.sqlite`: observed stop events
/// (scheduled, predictions seen, actual observed or inferred), cancellations, skips and ghost
/// trips. It lives in the data folder beside the timetables and apart from `user.sqlite`;
/// ingest never opens it. Opened like `user.sqlite`: WAL, busy retries, migrated schema.
public final class HistoryStore {
  private let db: Connection
  /// The file's path.
  public let path: String

  /// The file name in the data folder.
  public static let fileName = "history.sqlite"

  /// Opens (creating if needed) `history.sqlite` in `directory`, migrating its schema.
  public init(directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    path = directory + "/" + Self.fileName
    // The rider's own record, like user.sqlite: readable by its owner only.
    OwnDatabase.makePrivate(path)
    db = try Self.openMigrated(path)
  }

  /// Whether `directory` holds a history at all (no file is made by asking).
  public static func exists(in directory: String) -> Bool {
    FileManager.default.fileExists(atPath: directory + "/" + fileName)
  }

  /// A WAL connection to `path` with its schema migrated (`OwnDatabase.openMigrated`: a first
  /// run's switch to WAL that another refuses is tried again). Its page cache holds 32 MiB
  /// (SQLite's default is 2 MiB): an import writes an hour of snapshots in one transaction, and
  /// a smaller cache spills the same index pages to the WAL again and again within it.
  static func openMigrated(_ path: String) throws -> Connection {
    try OwnDatabase.openMigrated(path, pragmas: ["synchronous = NORMAL", "cache_size = -32768"], migrate: migrate)
  }

  /// The schema version this code writes.
  static let version = 2

  /// Brings the schema to `version` inside one `BEGIN IMMEDIATE` (two first runs cannot both
  /// migrate); each step checks what exists, so a half-migrated file is repaired. A file from
  /// a newer version is left alone and refused.
  ///
  /// Version 1 keyed every row by its trip instance's four columns (feed, trip_id, service date,
  /// start time), text included, in every table and index; version 2 names each instance once,
  /// in `trips`, and keys the rows by its number (an import wrote 12,700 instructions a
  /// prediction, most of them comparing text keys). A version 1 file is carried over in place.
  static func migrate(_ db: Connection) throws {
    if try db.scalarInt("PRAGMA user_version") == Int64(version), try isComplete(db) { return }
    try db.transaction {
      let current = try db.scalarInt("PRAGMA user_version") ?? 0
      if current > Int64(version) { throw HistoryError.newerSchema(found: Int(current), known: version) }
      if current == Int64(version), try isComplete(db) { return }
      // Version 1's tables, keyed by the instance's columns: renamed aside, carried over below.
      let fromVersion1 = try OwnDatabase.hasColumns(db, [("stop_events", "feed")])
      if fromVersion1 {
        try db.execute(
          """
          DROP INDEX IF EXISTS stop_events_by_stop; DROP INDEX IF EXISTS stop_events_by_route;
          DROP INDEX IF EXISTS stop_events_open; DROP INDEX IF EXISTS trip_events_by_time;
          ALTER TABLE stop_events RENAME TO stop_events_v1;
          """)
        for table in ["predictions", "trip_events"] where try OwnDatabase.hasColumns(db, [(table, "feed")]) {
          try db.execute("ALTER TABLE \(table) RENAME TO \(table)_v1")
        }
      }
      try db.execute(
        """
        CREATE TABLE IF NOT EXISTS snapshots (
          source TEXT NOT NULL, time INTEGER NOT NULL, imported_at INTEGER NOT NULL,
          PRIMARY KEY (source, time)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS trips (
          id INTEGER PRIMARY KEY, feed TEXT NOT NULL, trip_id TEXT NOT NULL, service_date INTEGER NOT NULL,
          start_time INTEGER NOT NULL, UNIQUE (feed, trip_id, service_date, start_time));
        CREATE TABLE IF NOT EXISTS stop_events (
          trip INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, stop_id TEXT NOT NULL, route_id TEXT NOT NULL,
          headsign TEXT NOT NULL, scheduled INTEGER, last_predicted INTEGER, last_predicted_at INTEGER,
          last_seen INTEGER NOT NULL, actual INTEGER, actual_kind INTEGER, actual_low INTEGER, actual_high INTEGER,
          skipped INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (trip, stop_sequence)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS stop_events_by_stop ON stop_events (stop_id, scheduled);
        CREATE INDEX IF NOT EXISTS stop_events_by_route ON stop_events (route_id, scheduled);
        CREATE INDEX IF NOT EXISTS stop_events_open ON stop_events (last_seen) WHERE actual IS NULL AND skipped = 0;
        CREATE TABLE IF NOT EXISTS predictions (
          trip INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, bucket INTEGER NOT NULL, made_at INTEGER NOT NULL,
          predicted INTEGER NOT NULL,
          PRIMARY KEY (trip, stop_sequence, bucket)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS trip_events (
          trip INTEGER NOT NULL, kind INTEGER NOT NULL, route_id TEXT NOT NULL, time INTEGER NOT NULL,
          PRIMARY KEY (trip, kind)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS trip_events_by_time ON trip_events (time);
        CREATE TABLE IF NOT EXISTS stopped_vehicles (
          trip INTEGER PRIMARY KEY, stop_sequence INTEGER NOT NULL, last INTEGER NOT NULL);
        """)
      if fromVersion1 { try carryOverVersion1(db) }
      try db.execute("PRAGMA user_version = \(version)")
    }
  }

  /// Moves version 1's rows (in `*_v1`) into version 2's tables: each instance named once in
  /// `trips` (in key order), the rows keyed by its number; the old tables are dropped.
  static func carryOverVersion1(_ db: Connection) throws {
    let instance = "feed, trip_id, service_date, start_time"
    let tables = ["stop_events_v1", "predictions_v1", "trip_events_v1"].filter { db.hasTable($0) }
    try db.execute(
      """
      INSERT OR IGNORE INTO trips (\(instance))
      SELECT \(instance) FROM (\(tables.map { "SELECT \(instance) FROM \($0)" }.joined(separator: " UNION ")))
      ORDER BY \(instance);
      """)
    // Each table's columns after the instance's, in version 2's order.
    let rest = [
      "stop_events": """
      stop_sequence, stop_id, route_id, headsign, scheduled, last_predicted, last_predicted_at, last_seen, actual,
      actual_kind, actual_low, actual_high, skipped
      """,
      "predictions": "stop_sequence, bucket, made_at, predicted",
      "trip_events": "kind, route_id, time",
    ]
    for (table, columns) in rest.sorted(by: { $0.key < $1.key }) where tables.contains(table + "_v1") {
      try db.execute(
        """
        INSERT OR IGNORE INTO \(table) (trip, \(columns)) SELECT t.id, \(columns)
        FROM \(table)_v1 o JOIN trips t USING (\(instance));
        DROP TABLE \(table)_v1;
        """)
    }
  }

  /// Every table and a column each step adds.
  static let expectedColumns: [(table: String, column: String)] = [
    ("snapshots", "source"), ("trips", "start_time"), ("stop_events", "trip"), ("predictions", "trip"),
    ("trip_events", "trip"), ("stopped_vehicles", "last"),
  ]

  static func isComplete(_ db: Connection) throws -> Bool { try OwnDatabase.hasColumns(db, expectedColumns) }

  // MARK: - Writing

  /// Runs `body` in one transaction; inside another, as part of that one (an import writes a
  /// run of snapshots in one, each snapshot's own writes nested in it: a commit per snapshot
  /// wrote the same index pages to the WAL again every minute). An error rolls the outermost
  /// back.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    if transactionDepth > 0 { return try body() }
    transactionDepth += 1
    defer {
      transactionDepth -= 1
      tripRows = [:]
    }
    return try db.transaction(body)
  }

  private var transactionDepth = 0

  /// The `trips` row of each instance written in the transaction under way. Kept only inside
  /// one (it is `BEGIN IMMEDIATE`, so nobody else writes meanwhile) and dropped when it ends:
  /// a row made in a transaction rolled back, or deleted by another process's prune, is never
  /// trusted.
  private var tripRows: [HistoryTrip: Int64] = [:]

  /// The `trips` row naming `trip`, made if there is none.
  private func tripRow(_ trip: HistoryTrip) throws -> Int64 {
    if let row = tripRows[trip] { return row }
    let row: Int64
    if let found = try existingTripRow(trip) {
      row = found
    } else {
      let insert = try db.cached("INSERT INTO trips (feed, trip_id, service_date, start_time) VALUES (?, ?, ?, ?)")
      bindTrip(insert, trip)
      try insert.run()
      row = db.lastInsertRowID
    }
    if transactionDepth > 0 { tripRows[trip] = row }
    return row
  }

  /// The `trips` row naming `trip`, if the history has one.
  private func existingTripRow(_ trip: HistoryTrip) throws -> Int64? {
    if let row = tripRows[trip] { return row }
    let find = try db.cached("SELECT id FROM trips WHERE feed = ? AND trip_id = ? AND service_date = ? AND start_time = ?")
    bindTrip(find, trip)
    defer { find.reset() }
    return try find.step() ? find.int64(0) : nil
  }

  private func bindTrip(_ statement: Statement, _ trip: HistoryTrip) {
    statement.bind(trip.feed, at: 1)
    statement.bind(trip.tripID, at: 2)
    statement.bind(trip.serviceDate, at: 3)
    statement.bind(trip.startTime, at: 4)
  }

  /// The snapshot times of `source` already imported, newest last.
  public func importedSnapshots(source: String) throws -> Set<Int64> {
    let statement = try db.cached("SELECT time FROM snapshots WHERE source = ?")
    statement.bind(source, at: 1)
    var result = Set<Int64>()
    while try statement.step() { result.insert(statement.int64(0)) }
    return result
  }

  /// The newest snapshot imported from any source, if any.
  public func newestSnapshot() throws -> Int64? { try db.scalarInt("SELECT max(time) FROM snapshots") }

  /// Remembers that the snapshot of `source` at `time` has been taken in.
  public func markImported(source: String, time: Int64, now: Int64) throws {
    let statement = try db.cached("INSERT OR IGNORE INTO snapshots (source, time, imported_at) VALUES (?, ?, ?)")
    statement.bind(source, at: 1)
    statement.bind(time, at: 2)
    statement.bind(now, at: 3)
    try statement.run()
  }

  /// Writes `events`: a known actual is never replaced by an unknown one, and an observed one
  /// never by an inferred one.
  public func write(_ events: [StopEvent]) throws {
    let statement = try db.cached(
      """
      INSERT INTO stop_events (trip, stop_sequence, stop_id, route_id, headsign, scheduled, last_predicted,
        last_predicted_at, last_seen, actual, actual_kind, actual_low, actual_high, skipped)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (trip, stop_sequence) DO UPDATE SET
        last_predicted = excluded.last_predicted, last_predicted_at = excluded.last_predicted_at,
        last_seen = excluded.last_seen, actual = excluded.actual, actual_kind = excluded.actual_kind,
        actual_low = excluded.actual_low, actual_high = excluded.actual_high, skipped = excluded.skipped
      WHERE stop_events.actual IS NULL OR (excluded.actual_kind = 1 AND stop_events.actual_kind = 2)
      """)
    for event in events {
      let trip = try tripRow(event.key.trip)
      statement.reset()
      statement.bind(trip, at: 1)
      statement.bind(event.key.stopSequence, at: 2)
      statement.bind(event.stopID, at: 3)
      statement.bind(event.routeID, at: 4)
      statement.bind(event.headsign, at: 5)
      statement.bind(event.scheduled, at: 6)
      statement.bind(event.lastPredicted, at: 7)
      statement.bind(event.lastPredictedAt, at: 8)
      statement.bind(event.lastSeen, at: 9)
      statement.bind(event.actual, at: 10)
      statement.bind(event.kind.map { Int64($0.rawValue) }, at: 11)
      statement.bind(event.actualLow, at: 12)
      statement.bind(event.actualHigh, at: 13)
      statement.bind(event.isSkipped ? 1 : 0, at: 14)
      try statement.run()
    }
  }

  /// Writes sampled predictions (the first of each call and bucket stays).
  public func write(_ predictions: [PredictionSeen]) throws {
    let statement = try db.cached(
      """
      INSERT OR IGNORE INTO predictions (trip, stop_sequence, bucket, made_at, predicted) VALUES (?, ?, ?, ?, ?)
      """)
    for prediction in predictions {
      let trip = try tripRow(prediction.key.trip)
      statement.reset()
      statement.bind(trip, at: 1)
      statement.bind(prediction.key.stopSequence, at: 2)
      statement.bind(prediction.bucket, at: 3)
      statement.bind(prediction.madeAt, at: 4)
      statement.bind(prediction.predicted, at: 5)
      try statement.run()
    }
  }

  /// Writes trip events (the first of each instance and kind stays).
  public func write(_ tripEvents: [TripEvent]) throws {
    let statement = try db.cached(
      """
      INSERT OR IGNORE INTO trip_events (trip, kind, route_id, time) VALUES (?, ?, ?, ?)
      """)
    for event in tripEvents {
      let trip = try tripRow(event.trip)
      statement.reset()
      statement.bind(trip, at: 1)
      statement.bind(event.kind.rawValue, at: 2)
      statement.bind(event.routeID, at: 3)
      statement.bind(event.time, at: 4)
      try statement.run()
    }
  }

  /// Keeps where each trip's vehicle stands STOPPED_AT (nil: not stopped, forgotten), for the
  /// run after this one (`stoppedVehicles(since:)`). Trips not given are left as they are (an
  /// import of another feed's snapshots may share the file).
  public func write(vehicleStates: [(trip: HistoryTrip, stopped: ActualsInference.StoppedVehicle?)]) throws {
    let keep = try db.cached("INSERT OR REPLACE INTO stopped_vehicles (trip, stop_sequence, last) VALUES (?, ?, ?)")
    let forget = try db.cached("DELETE FROM stopped_vehicles WHERE trip = ?")
    for (trip, stopped) in vehicleStates {
      if let stopped {
        let row = try tripRow(trip)
        keep.reset()
        keep.bind(row, at: 1)
        keep.bind(stopped.stopSequence, at: 2)
        keep.bind(stopped.last, at: 3)
        try keep.run()
      } else if let row = try existingTripRow(trip) {
        forget.reset()
        forget.bind(row, at: 1)
        try forget.run()
      }
    }
  }

  /// The vehicles a run left STOPPED_AT a call, last reported so at or after `since`.
  public func stoppedVehicles(since: Int64) throws -> [ActualsInference.StoppedVehicle] {
    let statement = try db.cached(
      """
      SELECT t.feed, t.trip_id, t.service_date, t.start_time, v.stop_sequence, v.last
      FROM stopped_vehicles v CROSS JOIN trips t ON t.id = v.trip WHERE v.last >= ?
      ORDER BY t.feed, t.trip_id, t.service_date, t.start_time
      """)
    statement.bind(since, at: 1)
    var result: [ActualsInference.StoppedVehicle] = []
    while try statement.step() {
      result.append(
        ActualsInference.StoppedVehicle(
          trip: HistoryTrip(feed: statement.text(0), tripID: statement.text(1), serviceDate: statement.int(2), startTime: statement.int(3)),
          stopSequence: statement.int(4), last: statement.int64(5)))
    }
    return result
  }

  /// Whether the history names `trip` at all (a stop event or a cancellation).
  public func names(_ trip: HistoryTrip) throws -> Bool {
    guard let row = try existingTripRow(trip) else { return false }
    for sql in [
      "SELECT 1 FROM stop_events WHERE trip = ? LIMIT 1", "SELECT 1 FROM trip_events WHERE trip = ? AND kind = 1",
    ] {
      let statement = try db.cached(sql)
      statement.bind(row, at: 1)
      defer { statement.reset() }
      if try statement.step() { return true }
    }
    return false
  }

  // MARK: - Reading

  /// A stop event's columns, read from `eventsJoined`.
  static let eventColumns = """
    t.feed, t.trip_id, t.service_date, t.start_time, e.stop_sequence, e.stop_id, e.route_id, e.headsign, e.scheduled,
    e.last_predicted, e.last_predicted_at, e.last_seen, e.actual, e.actual_kind, e.actual_low, e.actual_high, e.skipped
    """

  /// The stop events with their instances: the events scanned first (by the index the filter
  /// names), each instance then found by its number.
  static let eventsJoined = "stop_events e CROSS JOIN trips t ON t.id = e.trip"

  static func event(_ statement: Statement) -> StopEvent {
    StopEvent(
      key: HistoryCallKey(
        trip: HistoryTrip(feed: statement.text(0), tripID: statement.text(1), serviceDate: statement.int(2), startTime: statement.int(3)),
        stopSequence: statement.int(4)),
      stopID: statement.text(5), routeID: statement.text(6), headsign: statement.text(7), scheduled: statement.optionalInt(8),
      lastPredicted: statement.optionalInt(9), lastPredictedAt: statement.optionalInt(10), lastSeen: statement.int64(11),
      actual: statement.optionalInt(12), kind: statement.optionalInt(13).flatMap { ActualKind(rawValue: Int($0)) },
      actualLow: statement.optionalInt(14), actualHigh: statement.optionalInt(15), isSkipped: statement.int(16) != 0)
  }

  /// The calls still open (no actual, not skipped) last listed at or after `since`.
  public func openEvents(since: Int64) throws -> [StopEvent] {
    let statement = try db.cached(
      "SELECT \(Self.eventColumns) FROM \(Self.eventsJoined) WHERE e.actual IS NULL AND e.skipped = 0 AND e.last_seen >= ?")
    statement.bind(since, at: 1)
    var result: [StopEvent] = []
    while try statement.step() { result.append(Self.event(statement)) }
    return result
  }

  /// Every stop event (those without a schedule too: trains the timetable lacks), in key order.
  /// - Complexity: one scan of the table.
  public func allEvents() throws -> [StopEvent] {
    let statement = try db.cached(
      """
      SELECT \(Self.eventColumns) FROM \(Self.eventsJoined)
      ORDER BY t.feed, t.trip_id, t.service_date, t.start_time, e.stop_sequence
      """)
    var result: [StopEvent] = []
    while try statement.step() { result.append(Self.event(statement)) }
    return result
  }

  /// The stop events at `stopIDs` (or of `routeIDs`; nil: any) scheduled in [from, to), by
  /// scheduled time.
  /// - Complexity: one range scan of the by-stop (or by-route) index per id.
  public func events(stopIDs: Set<String>?, routeIDs: Set<String>?, from: Int64, to: Int64) throws -> [StopEvent] {
    var result: [StopEvent] = []
    func scan(_ sql: String, _ id: String?) throws {
      let statement = try db.cached(sql)
      statement.bind(from, at: 1)
      statement.bind(to, at: 2)
      if let id { statement.bind(id, at: 3) }
      while try statement.step() {
        let event = Self.event(statement)
        if let routeIDs, !routeIDs.contains(event.routeID) { continue }
        result.append(event)
      }
    }
    if let stopIDs {
      for id in stopIDs.sorted() {
        try scan(
          "SELECT \(Self.eventColumns) FROM \(Self.eventsJoined) WHERE e.scheduled >= ? AND e.scheduled < ? AND e.stop_id = ?", id)
      }
    } else if let routeIDs {
      for id in routeIDs.sorted() {
        try scan(
          "SELECT \(Self.eventColumns) FROM \(Self.eventsJoined) WHERE e.scheduled >= ? AND e.scheduled < ? AND e.route_id = ?", id)
      }
    } else {
      try scan("SELECT \(Self.eventColumns) FROM \(Self.eventsJoined) WHERE e.scheduled >= ? AND e.scheduled < ?", nil)
    }
    return result.sorted { ($0.scheduled ?? 0, $0.key) < ($1.scheduled ?? 0, $1.key) }
  }

  /// The sampled predictions of `keys`.
  public func predictions(of keys: [HistoryCallKey]) throws -> [PredictionSeen] {
    let statement = try db.cached(
      """
      SELECT bucket, made_at, predicted FROM predictions WHERE trip = ? AND stop_sequence = ? ORDER BY bucket
      """)
    var result: [PredictionSeen] = []
    var rows: [HistoryTrip: Int64?] = [:]
    for key in keys {
      let row: Int64?
      if let known = rows[key.trip] {
        row = known
      } else {
        row = try existingTripRow(key.trip)
        rows[key.trip] = row
      }
      guard let row else { continue }
      statement.reset()
      statement.bind(row, at: 1)
      statement.bind(key.stopSequence, at: 2)
      while try statement.step() {
        result.append(PredictionSeen(key: key, bucket: statement.int(0), madeAt: statement.int64(1), predicted: statement.int64(2)))
      }
    }
    return result
  }

  /// The trip events (of `routeIDs`; nil: any) at times in [from, to), by time.
  public func tripEvents(routeIDs: Set<String>?, from: Int64, to: Int64) throws -> [TripEvent] {
    let statement = try db.cached(
      """
      SELECT t.feed, t.trip_id, t.service_date, t.start_time, e.kind, e.route_id, e.time
      FROM trip_events e CROSS JOIN trips t ON t.id = e.trip WHERE e.time >= ? AND e.time < ? ORDER BY e.time, t.trip_id
      """)
    statement.bind(from, at: 1)
    statement.bind(to, at: 2)
    var result: [TripEvent] = []
    while try statement.step() {
      let routeID = statement.text(5)
      if let routeIDs, !routeIDs.contains(routeID) { continue }
      guard let kind = TripEvent.Kind(rawValue: statement.int(4)) else { continue }
      result.append(
        TripEvent(
          trip: HistoryTrip(feed: statement.text(0), tripID: statement.text(1), serviceDate: statement.int(2), startTime: statement.int(3)),
          routeID: routeID, kind: kind, time: statement.int64(6)))
    }
    return result
  }

  // MARK: - Keeping it small

  /// Deletes everything scheduled (or recorded) before `cutoff`, and the instances nothing
  /// names any more; returns the stop events removed.
  @discardableResult
  public func prune(before cutoff: Int64) throws -> Int {
    try transaction {
      try db.execute(
        """
        DELETE FROM predictions WHERE (trip, stop_sequence) IN (
          SELECT trip, stop_sequence FROM stop_events WHERE coalesce(scheduled, last_seen) < \(cutoff));
        """)
      try db.execute("DELETE FROM stop_events WHERE coalesce(scheduled, last_seen) < \(cutoff)")
      let removed = db.changes
      try db.execute(
        """
        DELETE FROM trip_events WHERE time < \(cutoff);
        DELETE FROM snapshots WHERE time < \(cutoff);
        DELETE FROM stopped_vehicles WHERE last < \(cutoff);
        DELETE FROM trips WHERE NOT EXISTS (SELECT 1 FROM stop_events WHERE trip = trips.id)
          AND NOT EXISTS (SELECT 1 FROM trip_events WHERE trip = trips.id)
          AND NOT EXISTS (SELECT 1 FROM predictions WHERE trip = trips.id)
          AND NOT EXISTS (SELECT 1 FROM stopped_vehicles WHERE trip = trips.id);
        """)
      return removed
    }
  }

  /// What `history --status` shows.
  public struct Status: Sendable, Equatable, Encodable {
    /// The schema version.
    public var schemaVersion: Int
    /// Rows of each kind.
    public var snapshots: Int
    public var stopEvents: Int
    public var observedActuals: Int
    public var inferredActuals: Int
    public var skips: Int
    public var predictions: Int
    public var cancellations: Int
    public var ghostTrips: Int
    /// The first and last snapshot taken in.
    public var firstSnapshot: Int64?
    public var lastSnapshot: Int64?
    /// The file's size now (pages in use, WAL included), in bytes.
    public var bytes: Int64

    enum CodingKeys: String, CodingKey {
      case schemaVersion = "schema_version", snapshots, stopEvents = "stop_events", observedActuals = "observed_actuals"
      case inferredActuals = "inferred_actuals", skips, predictions, cancellations, ghostTrips = "ghost_trips"
      case firstSnapshot = "first_snapshot", lastSnapshot = "last_snapshot", bytes
    }
  }

  /// Counts of what is held and the size of the file.
  public func status() throws -> Status {
    func count(_ sql: String) throws -> Int { Int(try db.scalarInt(sql) ?? 0) }
    let pages = try db.scalarInt("PRAGMA page_count") ?? 0
    let pageSize = try db.scalarInt("PRAGMA page_size") ?? 4096
    let freePages = try db.scalarInt("PRAGMA freelist_count") ?? 0
    var wal: Int64 = 0
    if let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal"),
      let size = attributes[.size] as? Int64 ?? (attributes[.size] as? Int).map(Int64.init)
    {
      wal = size
    }
    return Status(
      schemaVersion: Int(try db.scalarInt("PRAGMA user_version") ?? 0),
      snapshots: try count("SELECT count(*) FROM snapshots"),
      stopEvents: try count("SELECT count(*) FROM stop_events"),
      observedActuals: try count("SELECT count(*) FROM stop_events WHERE actual_kind = 1"),
      inferredActuals: try count("SELECT count(*) FROM stop_events WHERE actual_kind = 2"),
      skips: try count("SELECT count(*) FROM stop_events WHERE skipped = 1"),
      predictions: try count("SELECT count(*) FROM predictions"),
      cancellations: try count("SELECT count(*) FROM trip_events WHERE kind = 1"),
      ghostTrips: try count("SELECT count(*) FROM trip_events WHERE kind = 2"),
      firstSnapshot: try db.scalarInt("SELECT min(time) FROM snapshots"),
      lastSnapshot: try db.scalarInt("SELECT max(time) FROM snapshots"),
      bytes: (pages - freePages) * pageSize + wal)
  }
}

/// Why the history cannot be used.
public enum HistoryError: Error, Equatable, CustomStringConvertible {
  /// The file was written by a newer transit.
  case newerSchema(found: Int, known: Int)

  public var description: String {
    switch self {
    case .newerSchema(let found, let known):
      "history.sqlite has schema version \(found), newer than this transit's \(known); update transit"
    }
  }
}
