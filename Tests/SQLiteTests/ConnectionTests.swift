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

  /// The address of a query's text is only a hint: strings built one after another (freed, their
  /// storage reused at the same address) each get their own statement, and one equal to an
  /// earlier string but stored elsewhere gets the earlier one's.
  @Test func aCachedStatementIsFoundByItsTextNotItsAddress() throws {
    let db = try Connection(path: ":memory:")
    for round in 0..<2 {
      for value in 0..<300 {
        let sql = "SELECT \(value) AS the_value_asked_for_by_a_query_longer_than_a_small_string"
        let statement = try db.cached(sql)
        #expect(try statement.step())
        #expect(statement.int(0) == value, "round \(round)")
        statement.reset()
      }
    }
    let literal = try db.cached("SELECT 7 AS the_value_asked_for_by_a_query_longer_than_a_small_string")
    let built = try db.cached("SELECT \(7) AS the_value_asked_for_by_a_query_longer_than_a_small_string")
    #expect(literal === built)
    #expect(try literal.step() && literal.int(0) == 7)
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
