import CSQLite

/// A prepared statement: bind, step, read columns. Finalized when released.
public final class Statement {
  private let handle: OpaquePointer
  private unowned let connection: Connection
  /// The SQL text, for error messages.
  public let sql: String

  init(connection: Connection, sql: String, persistent: Bool) throws(SQLiteError) {
    var statement: OpaquePointer?
    let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let code = sqlite3_prepare_v3(connection.handle, sql, -1, flags, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw connection.error(code, sql: sql)
    }
    self.handle = statement
    self.connection = connection
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  // MARK: - Binding (parameters count from 1, as in SQLite)

  /// Binds an integer.
  public func bind(_ value: Int64, at index: Int32) {
    check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds an integer.
  public func bind(_ value: Int, at index: Int32) { bind(Int64(value), at: index) }

  /// Binds a double.
  public func bind(_ value: Double, at index: Int32) {
    check(sqlite3_bind_double(handle, index, value))
  }

  /// Binds text (copied by SQLite).
  public func bind(_ value: String, at index: Int32) {
    var value = value
    value.withUTF8 { bytes in
      bindText(UnsafeRawBufferPointer(bytes), at: index)
    }
  }

  /// Binds UTF-8 text from raw bytes (copied by SQLite).
  public func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      // A NULL pointer would bind NULL; an empty field is empty text.
      check(sqlite3_bind_text(handle, index, "", 0, transit_sqlite_transient()))
      return
    }
    check(
      sqlite3_bind_text64(
        handle, index, base.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
        transit_sqlite_transient(), UInt8(SQLITE_UTF8)))
  }

  /// Binds a blob (copied by SQLite).
  public func bindBlob(_ bytes: [UInt8], at index: Int32) {
    bytes.withUnsafeBytes { raw in
      check(
        sqlite3_bind_blob64(
          handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(raw.count), transit_sqlite_transient()))
    }
  }

  /// Binds NULL.
  public func bindNull(at index: Int32) { check(sqlite3_bind_null(handle, index)) }

  /// Binds an optional integer (nil is NULL).
  public func bind(_ value: Int64?, at index: Int32) {
    if let value { bind(value, at: index) } else { bindNull(at: index) }
  }

  /// Binds an optional double (nil is NULL).
  public func bind(_ value: Double?, at index: Int32) {
    if let value { bind(value, at: index) } else { bindNull(at: index) }
  }

  /// Binds optional text (nil is NULL).
  public func bind(_ value: String?, at index: Int32) {
    if let value { bind(value, at: index) } else { bindNull(at: index) }
  }

  /// Binds values in order from parameter 1.
  public func bind(_ values: [SQLiteValue]) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .null: bindNull(at: index)
      case .integer(let v): bind(v, at: index)
      case .real(let v): bind(v, at: index)
      case .text(let v): bind(v, at: index)
      }
    }
  }

  /// Clears every binding to NULL.
  public func clearBindings() { sqlite3_clear_bindings(handle) }

  /// A failed bind can only be a programming error (wrong index, wrong type of statement).
  private func check(_ code: Int32) {
    precondition(code == SQLITE_OK, "bind failed (\(code)) in `\(sql)`")
  }

  // MARK: - Stepping

  /// Advances to the next row: true when there is one, false when done.
  @discardableResult
  public func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let error = connection.error(code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Steps to completion and resets, for INSERT/UPDATE/DELETE.
  public func run() throws(SQLiteError) {
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Resets the statement so it can run again (bindings are kept).
  public func reset() { sqlite3_reset(handle) }

  // MARK: - Columns (count from 0)

  /// Whether the column is NULL.
  public func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// The column as an integer (NULL reads as 0).
  public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// The column as an Int (NULL reads as 0).
  public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  /// The column as a double (NULL reads as 0).
  public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// The column as text, copied out (NULL reads as "").
  public func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// The column as bytes, copied out (NULL reads as empty).
  public func blob(_ column: Int32) -> [UInt8] {
    guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// Calls `body` with the column's bytes where SQLite holds them (valid only inside `body`:
  /// no copy, for decoding large result sets).
  public func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let pointer = sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
  }

  /// The column as an optional integer.
  public func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

  /// The column as an optional double.
  public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

  /// The column as optional text.
  public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

  /// The number of columns in a result row.
  public var columnCount: Int32 { sqlite3_column_count(handle) }

  /// A column's name.
  public func columnName(_ column: Int32) -> String {
    String(cString: sqlite3_column_name(handle, column))
  }

  /// The column as a dynamically typed value.
  public func value(_ column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_NULL: return .null
    case SQLITE_INTEGER: return .integer(int64(column))
    case SQLITE_FLOAT: return .real(double(column))
    default: return .text(text(column))
    }
  }

  /// The query plan SQLite chose (one `detail` line each), for tests that check index use.
  public func queryPlan() throws(SQLiteError) -> [String] {
    let plan = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
    var lines: [String] = []
    while try plan.step() { lines.append(plan.text(3)) }
    return lines
  }
}

@available(*, unavailable)
extension Statement: Sendable {}
