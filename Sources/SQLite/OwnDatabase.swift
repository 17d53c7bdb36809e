import Glibc

/// A database of the rider's own (`user.sqlite`, `history.sqlite`): private to its owner,
/// written in WAL mode by several processes at once (a cron job beside the terminal), its schema
/// migrated by whichever first run gets there.
public enum OwnDatabase {
  /// Makes `path` if it is missing and makes it readable by its owner only (SQLite gives the
  /// -wal and -shm files the database file's mode).
  public static func makePrivate(_ path: String) {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 {
      fchmod(fd, 0o600)
      close(fd)
    }
  }

  /// A connection to `path` in WAL mode (with `pragmas` after it), `migrate` run on it.
  /// Switching a new file to WAL takes an exclusive lock that SQLite may refuse at once
  /// (SQLITE_BUSY or SQLITE_LOCKED, without calling the busy handler) while another first run
  /// holds the file: such a refusal is tried again, up to about 5 s, as the busy timeout waits
  /// for other locks.
  public static func openMigrated(
    _ path: String, pragmas: [String] = [], migrate: (Connection) throws -> Void
  ) throws -> Connection {
    var attempt = 0
    while true {
      do {
        let connection = try Connection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        for pragma in pragmas { try connection.execute("PRAGMA " + pragma) }
        try migrate(connection)
        return connection
      } catch let error as SQLiteError where [5, 6].contains(error.primaryCode) && attempt < 250 {
        attempt += 1
        usleep(20_000)
      }
    }
  }

  /// Whether every table of `expected` exists with its column: a schema whose steps each add a
  /// table or a column is whole (a file another process left half-migrated is not).
  public static func hasColumns(_ db: Connection, _ expected: [(table: String, column: String)]) throws -> Bool {
    let statement = try db.prepare("SELECT 1 FROM pragma_table_info(?) WHERE name = ?")
    for (table, column) in expected {
      statement.reset()
      statement.bind(table, at: 1)
      statement.bind(column, at: 2)
      if try !statement.step() { return false }
    }
    return true
  }
}
