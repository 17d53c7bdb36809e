import FoundationEssentials
import Glibc
import SQLite
import TransitModel

/// The user's own database, `user.sqlite`: favourites, seen alerts and places. Ingest never
/// opens it; it lives beside the timetables and outlives every one of them.
public final class UserStore {
  private let db: Connection

  /// Opens (creating if needed) `user.sqlite` in `directory`, migrating its schema.
  public init(directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/user.sqlite"
    // The rider's own data, like the rest of the folder: readable by its owner only (SQLite gives
    // the -wal and -shm files the database file's mode).
    OwnDatabase.makePrivate(path)
    do {
      db = try Self.openMigrated(path)
    } catch let error as SQLiteError where Self.isStorageFailure(error) && FileManager.default.fileExists(atPath: path) {
      // A full disk (or a folder that cannot be written): the WAL's shared-memory file cannot
      // be made, so no connection can read the file the usual way. It is read as it stands,
      // immutable (no locks, no WAL: every command checkpoints the WAL into the file when it
      // closes). Reading works; a write fails with SQLite's "readonly database".
      db = try Connection(path: "file:" + Self.uriEscaped(path) + "?immutable=1", mode: .readOnly)
    }
  }

  /// A connection to `path` in WAL mode with its schema migrated (`OwnDatabase.openMigrated`:
  /// a first run's switch to WAL that another refuses is tried again).
  static func openMigrated(_ path: String) throws -> Connection {
    try OwnDatabase.openMigrated(path, migrate: migrate)
  }

  /// Whether `error` says the storage cannot be written (full, read-only, I/O), not the data.
  static func isStorageFailure(_ error: SQLiteError) -> Bool {
    // SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN.
    [8, 10, 13, 14].contains(error.primaryCode)
  }

  /// `path` as a `file:` URI's path: `%`, `?` and `#` escaped (sqlite.org, "URI filenames").
  static func uriEscaped(_ path: String) -> String {
    var result = ""
    for character in path {
      switch character {
      case "%": result += "%25"
      case "?": result += "%3f"
      case "#": result += "%23"
      default: result.append(character)
      }
    }
    return result
  }

  static let version = 5

  /// Brings the schema to `version`. The version is read, and every step taken, inside one
  /// `BEGIN IMMEDIATE` (the connection waits for a busy database), so two first runs at once
  /// cannot both migrate: the second finds the work done. Each step checks what exists rather
  /// than trusting `user_version` alone, so a file that older code left half-migrated (a
  /// column added, the version not raised: two processes racing) is repaired, not failed on.
  static func migrate(_ db: Connection) throws {
    // The common case, read without a write lock: the schema is whole.
    if try db.scalarInt("PRAGMA user_version") == Int64(version), try isComplete(db) { return }
    try db.transaction {
      let current = try db.scalarInt("PRAGMA user_version") ?? 0
      if current >= Int64(version), try isComplete(db) { return }
      try db.execute(
        """
        CREATE TABLE IF NOT EXISTS favourites (
          feed TEXT NOT NULL, stop_id TEXT NOT NULL, label TEXT, position INTEGER NOT NULL DEFAULT 0,
          added_at INTEGER NOT NULL, PRIMARY KEY (feed, stop_id));
        CREATE TABLE IF NOT EXISTS seen_alerts (
          feed TEXT NOT NULL, alert_id TEXT NOT NULL, content_hash TEXT NOT NULL, seen_at INTEGER NOT NULL,
          PRIMARY KEY (feed, alert_id));
        CREATE TABLE IF NOT EXISTS places (
          name TEXT PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL, added_at INTEGER NOT NULL);
        """)
      // Version 2: a favourite may name one route; commutes.
      if try !hasColumn(db, table: "favourites", column: "route") {
        try db.execute("ALTER TABLE favourites ADD COLUMN route TEXT")
      }
      try db.execute(
        """
        CREATE TABLE IF NOT EXISTS commutes (
          name TEXT PRIMARY KEY, feed TEXT NOT NULL, stop_id TEXT NOT NULL, route TEXT, destination TEXT,
          arrive_by INTEGER NOT NULL, days INTEGER NOT NULL, walk_minutes INTEGER NOT NULL DEFAULT 0,
          added_at INTEGER NOT NULL);
        """)
      // Version 3: a commute's walk from where you get off to where you are going.
      if try !hasColumn(db, table: "commutes", column: "then_walk_minutes") {
        try db.execute("ALTER TABLE commutes ADD COLUMN then_walk_minutes INTEGER NOT NULL DEFAULT 0")
      }
      // Version 4: favourites grouped under one name (several stops, a station complex).
      if try !hasColumn(db, table: "favourites", column: "group_name") {
        try db.execute("ALTER TABLE favourites ADD COLUMN group_name TEXT")
      }
      // Version 5: a commute from a station complex (or several stops): the stops after the
      // first, in order (issue 32).
      try db.execute(
        """
        CREATE TABLE IF NOT EXISTS commute_stops (
          name TEXT NOT NULL, position INTEGER NOT NULL, feed TEXT NOT NULL, stop_id TEXT NOT NULL,
          PRIMARY KEY (name, position));
        """)
      try db.execute("PRAGMA user_version = \(max(Int64(version), current))")
    }
  }

  /// The tables and columns the current version has, each of which some step adds.
  static let expectedColumns: [(table: String, column: String)] = [
    ("favourites", "route"), ("seen_alerts", "alert_id"), ("places", "name"), ("commutes", "then_walk_minutes"),
    ("favourites", "group_name"), ("commute_stops", "stop_id"),
  ]

  /// Whether every table and column of the current schema exists.
  static func isComplete(_ db: Connection) throws -> Bool { try OwnDatabase.hasColumns(db, expectedColumns) }

  /// Whether `table` exists and has `column`.
  static func hasColumn(_ db: Connection, table: String, column: String) throws -> Bool {
    try OwnDatabase.hasColumns(db, [(table, column)])
  }

  /// A favourite stop.
  public struct Favourite: Sendable, Equatable {
    /// The timetable's feed name.
    public var feed: String
    /// The stop's `stop_id` (kept when a re-ingest drops the stop: it may come back).
    public var stopID: String
    /// The user's name for it.
    public var label: String?
    /// Only this route's departures (short name or route_id), when set.
    public var route: String?
    /// The group it is one stop of (a corner's stops, a station complex's stations), shown as
    /// one favourite; nil for a stop on its own.
    public var group: String?

    /// Creates a favourite.
    public init(feed: String, stopID: String, label: String? = nil, route: String? = nil, group: String? = nil) {
      self.feed = feed
      self.stopID = stopID
      self.label = label
      self.route = route
      self.group = group
    }
  }

  /// Adds a favourite stop (one stop of `group`, when given); an existing one gets the new
  /// label, route and group.
  public func addFavourite(feed: String, stopID: String, label: String?, route: String? = nil, group: String? = nil, now: Int64) throws {
    let statement = try db.cached(
      "INSERT INTO favourites (feed, stop_id, label, route, group_name, position, added_at) VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM favourites), ?) ON CONFLICT (feed, stop_id) DO UPDATE SET label = excluded.label, route = excluded.route, group_name = excluded.group_name"
    )
    statement.bind(feed, at: 1)
    statement.bind(stopID, at: 2)
    statement.bind(label, at: 3)
    statement.bind(route, at: 4)
    statement.bind(group, at: 5)
    statement.bind(now, at: 6)
    try statement.run()
  }

  /// Removes every stop of the favourite group `group`; how many there were.
  public func removeFavourites(group: String) throws -> Int {
    let statement = try db.cached("DELETE FROM favourites WHERE group_name = ?")
    statement.bind(group, at: 1)
    try statement.run()
    return db.changes
  }

  /// Every favourite, in the order they were added.
  public func favourites() throws -> [Favourite] {
    let statement = try db.cached("SELECT feed, stop_id, label, route, group_name FROM favourites ORDER BY position")
    var result: [Favourite] = []
    while try statement.step() {
      result.append(
        Favourite(
          feed: statement.text(0), stopID: statement.text(1), label: statement.optionalText(2),
          route: statement.optionalText(3), group: statement.optionalText(4)))
    }
    return result
  }

  /// Removes the favourite `stopID` of `feed`; false when there was none.
  public func removeFavourite(feed: String, stopID: String) throws -> Bool {
    let statement = try db.cached("DELETE FROM favourites WHERE feed = ? AND stop_id = ?")
    statement.bind(feed, at: 1)
    statement.bind(stopID, at: 2)
    try statement.run()
    return db.changes > 0
  }
}

extension UserStore {
  /// A saved place.
  public struct Place: Sendable, Equatable {
    /// Its name ("home", "work").
    public var name: String
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double

    /// Creates a place.
    public init(name: String, latitude: Double, longitude: Double) {
      self.name = name
      self.latitude = latitude
      self.longitude = longitude
    }
  }

  /// Saves (or moves) the place `name`.
  public func savePlace(_ name: String, latitude: Double, longitude: Double, now: Int64) throws {
    let statement = try db.cached(
      "INSERT INTO places (name, lat, lon, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET lat = excluded.lat, lon = excluded.lon"
    )
    statement.bind(name, at: 1)
    statement.bind(latitude, at: 2)
    statement.bind(longitude, at: 3)
    statement.bind(now, at: 4)
    try statement.run()
  }

  /// Every saved place, by name.
  public func places() throws -> [Place] {
    let statement = try db.cached("SELECT name, lat, lon FROM places ORDER BY name")
    var result: [Place] = []
    while try statement.step() {
      result.append(Place(name: statement.text(0), latitude: statement.double(1), longitude: statement.double(2)))
    }
    return result
  }

  /// Removes the place `name`; false when there was none.
  public func removePlace(_ name: String) throws -> Bool {
    let statement = try db.cached("DELETE FROM places WHERE name = ?")
    statement.bind(name, at: 1)
    try statement.run()
    return db.changes > 0
  }

  /// The saved place called `name` ("home", "work"), or nil.
  public func place(named name: String) throws -> (latitude: Double, longitude: Double)? {
    let statement = try db.cached("SELECT lat, lon FROM places WHERE name = ?")
    statement.bind(name, at: 1)
    guard try statement.step() else { return nil }
    return (statement.double(0), statement.double(1))
  }
}

// MARK: - Seen alerts

extension UserStore {
  /// An alert as `seen_alerts` remembers it: its entity id and a hash of its content.
  public struct SeenAlertKey: Hashable, Sendable {
    /// The feed entity's id.
    public var alertID: String
    /// The alert's content hash (an edited alert has a new one).
    public var contentHash: String

    /// Creates a key.
    public init(alertID: String, contentHash: String) {
      self.alertID = alertID
      self.contentHash = contentHash
    }
  }

  /// The alerts of `feed` already shown, each with the content it had then.
  /// - Complexity: one scan of `feed`'s rows in `seen_alerts` (primary-key range).
  public func seenAlerts(feed: String) throws -> Set<SeenAlertKey> {
    let statement = try db.cached("SELECT alert_id, content_hash FROM seen_alerts WHERE feed = ?")
    statement.bind(feed, at: 1)
    var result = Set<SeenAlertKey>()
    while try statement.step() {
      result.insert(SeenAlertKey(alertID: statement.text(0), contentHash: statement.text(1)))
    }
    return result
  }

  /// Remembers `alerts` of `feed` as shown at `now` (Unix seconds); an alert seen before with
  /// other content is overwritten, so only its latest content counts as seen.
  public func markAlertsSeen(_ alerts: [SeenAlertKey], feed: String, now: Int64) throws {
    guard !alerts.isEmpty else { return }
    try db.transaction {
      let statement = try db.cached(
        "INSERT INTO seen_alerts (feed, alert_id, content_hash, seen_at) VALUES (?, ?, ?, ?) ON CONFLICT (feed, alert_id) DO UPDATE SET content_hash = excluded.content_hash, seen_at = excluded.seen_at"
      )
      for alert in alerts {
        statement.reset()
        statement.bind(feed, at: 1)
        statement.bind(alert.alertID, at: 2)
        statement.bind(alert.contentHash, at: 3)
        statement.bind(now, at: 4)
        try statement.run()
      }
    }
  }
}

// MARK: - Commutes

extension UserStore {
  /// A saved commute (`TransitModel.SavedCommute`: a value the answers and the command line
  /// share; stored here).
  public typealias Commute = SavedCommute
  /// One of a commute's stops.
  public typealias StopKey = SavedCommute.Stop

  /// Saves (or replaces) the commute `commute.name`.
  public func saveCommute(_ commute: Commute, now: Int64) throws {
    let statement = try db.cached(
      "INSERT OR REPLACE INTO commutes (name, feed, stop_id, route, destination, arrive_by, days, walk_minutes, then_walk_minutes, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    statement.bind(commute.name, at: 1)
    statement.bind(commute.feed, at: 2)
    statement.bind(commute.stopID, at: 3)
    statement.bind(commute.route, at: 4)
    statement.bind(commute.destination, at: 5)
    statement.bind(commute.arriveByMinutes, at: 6)
    statement.bind(commute.days, at: 7)
    statement.bind(commute.walkMinutes, at: 8)
    statement.bind(commute.thenWalkMinutes, at: 9)
    statement.bind(now, at: 10)
    try db.transaction {
      try statement.run()
      try saveOtherStops(of: commute)
    }
  }

  /// Replaces the saved other stops of `commute.name` with `commute.otherStops`.
  private func saveOtherStops(of commute: Commute) throws {
    let clear = try db.cached("DELETE FROM commute_stops WHERE name = ?")
    clear.bind(commute.name, at: 1)
    try clear.run()
    let insert = try db.cached("INSERT INTO commute_stops (name, position, feed, stop_id) VALUES (?, ?, ?, ?)")
    for (position, stop) in commute.otherStops.enumerated() {
      insert.bind(commute.name, at: 1)
      insert.bind(position + 1, at: 2)
      insert.bind(stop.feed, at: 3)
      insert.bind(stop.stopID, at: 4)
      try insert.run()
    }
  }

  /// Every commute, by name.
  public func commutes() throws -> [Commute] {
    let statement = try db.cached(
      "SELECT name, feed, stop_id, route, destination, arrive_by, days, walk_minutes, then_walk_minutes FROM commutes ORDER BY name")
    var result: [Commute] = []
    while try statement.step() {
      result.append(
        Commute(
          name: statement.text(0), feed: statement.text(1), stopID: statement.text(2), route: statement.optionalText(3),
          destination: statement.optionalText(4), arriveByMinutes: statement.int(5), days: statement.int(6),
          walkMinutes: statement.int(7), thenWalkMinutes: statement.int(8)))
    }
    let others = try db.cached("SELECT name, feed, stop_id FROM commute_stops ORDER BY name, position")
    var byName: [String: [StopKey]] = [:]
    while try others.step() { byName[others.text(0), default: []].append(StopKey(feed: others.text(1), stopID: others.text(2))) }
    for index in result.indices { result[index].otherStops = byName[result[index].name] ?? [] }
    return result
  }

  /// Removes the commute `name`; false when there was none.
  public func removeCommute(_ name: String) throws -> Bool {
    let statement = try db.cached("DELETE FROM commutes WHERE name = ?")
    statement.bind(name, at: 1)
    let others = try db.cached("DELETE FROM commute_stops WHERE name = ?")
    others.bind(name, at: 1)
    return try db.transaction {
      try statement.run()
      let removed = db.changes > 0
      try others.run()
      return removed
    }
  }
}
