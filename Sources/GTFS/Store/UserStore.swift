import Foundation
import SQLite

/// The user's own database, `user.sqlite`: favourites, seen alerts and places. Ingest never
/// opens it; it lives beside the timetables and outlives every one of them.
public final class UserStore {
  private let db: Connection

  /// Opens (creating if needed) `user.sqlite` in `directory`, migrating its schema.
  public init(directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    db = try Connection(path: directory + "/user.sqlite")
    try db.execute("PRAGMA journal_mode = WAL")
    try Self.migrate(db)
  }

  static let version = 1

  static func migrate(_ db: Connection) throws {
    let current = try db.scalarInt("PRAGMA user_version") ?? 0
    if current < 1 {
      try db.transaction {
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
          PRAGMA user_version = 1;
          """)
      }
    }
  }

  /// A favourite stop.
  public struct Favourite: Sendable, Equatable {
    public var feed: String
    public var stopID: String
    public var label: String?
  }

  /// Adds (or relabels) a favourite stop.
  public func addFavourite(feed: String, stopID: String, label: String?, now: Int64) throws {
    let statement = try db.cached(
      "INSERT INTO favourites (feed, stop_id, label, position, added_at) VALUES (?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM favourites), ?) ON CONFLICT (feed, stop_id) DO UPDATE SET label = excluded.label")
    statement.bind(feed, at: 1)
    statement.bind(stopID, at: 2)
    statement.bind(label, at: 3)
    statement.bind(now, at: 4)
    try statement.run()
  }

  /// Every favourite, in the order they were added.
  public func favourites() throws -> [Favourite] {
    let statement = try db.cached("SELECT feed, stop_id, label FROM favourites ORDER BY position")
    var result: [Favourite] = []
    while try statement.step() {
      result.append(Favourite(feed: statement.text(0), stopID: statement.text(1), label: statement.optionalText(2)))
    }
    return result
  }
}

extension UserStore {
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
