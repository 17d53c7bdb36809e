import Testing

@testable import SQLite

@Suite struct ConnectionTests {
  @Test func bindsAndReadsEveryType() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT)")
    let insert = try db.cached("INSERT INTO t VALUES (?, ?, ?, ?)")
    insert.bind(Int64(42), at: 1)
    insert.bind(2.5, at: 2)
    insert.bind("Sráid", at: 3)
    insert.bindNull(at: 4)
    try insert.run()
    insert.bind([.integer(-1), .real(0), .text(""), .null])
    try insert.run()
    let select = try db.prepare("SELECT i, r, s, n FROM t ORDER BY i DESC")
    #expect(try select.step())
    #expect(select.int64(0) == 42)
    #expect(select.double(1) == 2.5)
    #expect(select.text(2) == "Sráid")
    #expect(select.optionalText(3) == nil)
    #expect(try select.step())
    #expect(select.value(2) == .text(""))  // empty text, not NULL
    #expect(try !select.step())
  }

  @Test func cachedStatementsAreReused() throws {
    let db = try Connection(path: ":memory:")
    let a = try db.cached("SELECT 1")
    let b = try db.cached("SELECT 1")
    #expect(a === b)
  }

  @Test func errorsCarryTheSQL() throws {
    let db = try Connection(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) { try db.execute("SELEC 1") }
    #expect(error?.sql == "SELEC 1")
    #expect(error?.description.hasPrefix("sqlite error 1: near \"SELEC\": syntax error") == true)
  }

  @Test func transactionRollsBackOnError() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    struct Failure: Error {}
    #expect(throws: Failure.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (1)")
        throw Failure()
      }
    }
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
    try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
    #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
  }

  @Test func constraintErrorsHaveTheirPrimaryCode() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)")
    let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
    #expect(error?.primaryCode == 19)
  }

  @Test func openingAMissingFileReadOnlyFails() {
    #expect(throws: SQLiteError.self) { try Connection(path: "/nonexistent/x.sqlite", mode: .readOnly) }
  }

  @Test func hasRTreeAndFTS5() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE VIRTUAL TABLE r USING rtree (id, a, b); CREATE VIRTUAL TABLE f USING fts5 (x)")
  }
}
