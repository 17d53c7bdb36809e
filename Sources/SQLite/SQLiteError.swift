import CSQLite

/// A failed SQLite call: the result code, SQLite's message, and the SQL that was running.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
  public let code: Int32
  public let message: String
  public let sql: String?

  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code (extended codes carry details in the high bits).
  public var primaryCode: Int32 { code & 0xFF }

  /// Whether another connection holds the lock (`SQLITE_BUSY` / `SQLITE_LOCKED`).
  public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

  public var description: String {
    var text = "sqlite error \(code): \(message)"
    if let sql { text += " - while executing `\(sql)`" }
    return text
  }
}
