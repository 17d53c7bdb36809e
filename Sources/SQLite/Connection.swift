import CSQLite

/// The owner of one `sqlite3` handle, with a cache of prepared statements.
///
/// Not Sendable: a connection and its statements belong to one thread at a time.
public final class Connection {
  /// How a database file is opened.
  public enum Mode: Sendable {
    case readOnly
    case readWrite
    case readWriteCreate
  }

  let handle: OpaquePointer
  private var cache: [String: Statement] = [:]
  /// The file this connection opened (":memory:" for an in-memory database).
  public let path: String

  /// Opens (or creates) a database.
  /// - Throws: `SQLiteError` when the file cannot be opened; the handle is closed even then.
  public init(path: String, mode: Mode = .readWriteCreate) throws(SQLiteError) {
    var db: OpaquePointer?
    let flags: Int32
    switch mode {
    case .readOnly: flags = SQLITE_OPEN_READONLY
    case .readWrite: flags = SQLITE_OPEN_READWRITE
    case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    }
    let code = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
    guard code == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(db)  // "Whether or not an error occurs when it is opened, resources
      // associated with the database connection handle should be released" (sqlite.org).
      throw SQLiteError(code: code, message: "\(message) (\(path))")
    }
    self.handle = db
    self.path = path
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, 5_000)
  }

  deinit {
    recent.removeAll()
    cache.removeAll()  // statements must be finalized before the close can succeed
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements that return no rows.
  public func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    if code != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(code: code, message: text, sql: sql)
    }
  }

  /// A statement compiled once and kept for the life of the connection.
  ///
  /// Compiled with `SQLITE_PREPARE_PERSISTENT`: "a hint to the query planner that the prepared
  /// statement will be retained for a long time and probably reused many times" (sqlite.org).
  ///
  /// A statement asked for by the same string as before (a literal, the usual case) is found
  /// by the address of its text, confirmed by comparing the strings (equal storage compares in
  /// O(1)), before the text is hashed: hashing a 300-byte query cost 4,000 instructions, as much
  /// as a lookup by primary key it prepared.
  public func cached(_ sql: String) throws(SQLiteError) -> Statement {
    let address = sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
    let slot = Int(truncatingIfNeeded: (address >> 4) & UInt(Self.recentSlots - 1))
    if address != 0, let recent = recent[slot], recent.address == address, recent.statement.sql == sql {
      recent.statement.reset()
      return recent.statement
    }
    let statement: Statement
    if let known = cache[sql] {
      known.reset()
      statement = known
    } else {
      statement = try Statement(connection: self, sql: sql, persistent: true)
      cache[sql] = statement
    }
    if address != 0 { recent[slot] = (address, statement) }
    return statement
  }

  /// The statements last asked for, by the address of their text (a hint only: a slot is used
  /// when its string is equal too).
  private var recent = [(address: UInt, statement: Statement)?](repeating: nil, count: recentSlots)
  private static let recentSlots = 64

  /// A statement compiled for one use.
  public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
    try Statement(connection: self, sql: sql, persistent: false)
  }

  /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`; rolls back and rethrows the first error.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// The rowid of the last row inserted on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The first column of the first row of `sql`, or nil when there is no row or it is NULL.
  public func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
    let statement = try prepare(sql)
    guard try statement.step() else { return nil }
    return statement.isNull(0) ? nil : statement.int64(0)
  }

  /// Whether the database has a table (a virtual one too) named `name`.
  public func hasTable(_ name: String) -> Bool {
    guard let select = try? prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1") else { return false }
    select.bind(name, at: 1)
    return (try? select.step()) == true && select.int64(0) == 1
  }

  /// The first column of the first row of `sql` as text.
  public func scalarText(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try prepare(sql)
    guard try statement.step() else { return nil }
    return statement.isNull(0) ? nil : statement.text(0)
  }

  /// The version of the SQLite library in use ("3.40.1").
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  func error(_ code: Int32, sql: String?) -> SQLiteError {
    SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }
}

@available(*, unavailable)
extension Connection: Sendable {}
