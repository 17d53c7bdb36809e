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
