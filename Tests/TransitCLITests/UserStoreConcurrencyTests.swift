import Foundation
import GTFS
import SQLite
import TestSupport
import Testing

/// Issue 38: two first runs at once must not break the user's database (the second process
/// read `user_version` outside the migration's transaction, added the `route` column again,
/// and every later command failed with "duplicate column name: route").
@Suite(.enabled(if: transitExecutable != nil, "needs the built transit executable"), .serialized)
struct UserStoreConcurrencyTests {
  /// Starts the executable once per argument list, all at once, in `home`; waits for all and
  /// returns each one's exit code.
  static func together(_ runs: [[String]], home: String) throws -> [Int32] {
    let processes = try runs.map { arguments -> Process in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: transitExecutable!)
      process.arguments = arguments + ["--data-dir", home]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      // Foundation's spawn can fail with EBADF while other tests' threads open and close
      // descriptors at the same moment: that is the test's launcher, not the program; try again.
      var attempt = 0
      while true {
        do {
          try process.run()
          break
        } catch  where attempt < 5 {
          attempt += 1
          Thread.sleep(forTimeInterval: 0.05)
        }
      }
      return process
    }
    return processes.map { process in
      process.waitUntilExit()
      return process.terminationStatus
    }
  }

  /// Whether the home's database answers every command that reads it.
  static func isWhole(_ home: String, places: Int) throws -> Bool {
    let list = try runExecutable(["places", "list", "--json", "--data-dir", home])
    let fav = try runExecutable(["fav", "list", "--data-dir", home])
    let commutes = try runExecutable(["commute", "list", "--data-dir", home])
    let names = (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])?.count
    return list.code == 0 && fav.code == 0 && commutes.code == 0 && names == places
  }

  @Test func eightFirstRunsAtOnceOnThirtyFreshHomesBreakNone() throws {
    let started = Date()
    var broken = 0, failedRuns = 0
    for _ in 0..<30 {
      let home = TemporaryFolder()
      let codes = try Self.together((0..<8).map { ["places", "add", "p\($0)", "1,1"] }, home: home.path)
      failedRuns += codes.filter { $0 != 0 }.count
      if try !Self.isWhole(home.path, places: 8) { broken += 1 }
    }
    #expect(broken == 0)
    #expect(failedRuns == 0)
    print("8 processes × 30 fresh homes: \(broken) broken, \(failedRuns) runs failed, \(Date().timeIntervalSince(started)) s")
  }

  /// A version-1 file (favourites without a route, no commutes), as a first release left it.
  static func versionOne(_ home: String, halfMigrated: Bool = false) throws {
    let db = try Connection(path: home + "/user.sqlite")
    try db.execute(
      """
      CREATE TABLE favourites (
        feed TEXT NOT NULL, stop_id TEXT NOT NULL, label TEXT, position INTEGER NOT NULL DEFAULT 0,
        added_at INTEGER NOT NULL, PRIMARY KEY (feed, stop_id));
      CREATE TABLE seen_alerts (
        feed TEXT NOT NULL, alert_id TEXT NOT NULL, content_hash TEXT NOT NULL, seen_at INTEGER NOT NULL,
        PRIMARY KEY (feed, alert_id));
      CREATE TABLE places (name TEXT PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL, added_at INTEGER NOT NULL);
      INSERT INTO places VALUES ('home', 53.2875, -6.3664, 1);
      INSERT INTO favourites (feed, stop_id, label, position, added_at) VALUES ('demo', 'TINT', NULL, 1, 1);
      PRAGMA user_version = 1;
      """)
    // What the race left: the column of version 2 added, the version not raised.
    if halfMigrated { try db.execute("ALTER TABLE favourites ADD COLUMN route TEXT") }
  }

  @Test(arguments: [false, true])
  func aVersionOneFileUpgradedByTwoProcessesAtOnce(halfMigrated: Bool) throws {
    for _ in 0..<5 {
      let home = TemporaryFolder()
      try Self.versionOne(home.path, halfMigrated: halfMigrated)
      let codes = try Self.together([["places", "add", "a", "1,1"], ["places", "add", "b", "2,2"]], home: home.path)
      #expect(codes == [0, 0])
      #expect(try Self.isWhole(home.path, places: 3))
      let db = try Connection(path: home.path + "/user.sqlite", mode: .readOnly)
      #expect(try db.scalarInt("PRAGMA user_version") == 5)
      #expect(try db.scalarInt("SELECT count(*) FROM pragma_table_info('favourites') WHERE name = 'route'") == 1)
      #expect(try db.scalarInt("SELECT count(*) FROM pragma_table_info('commutes') WHERE name = 'then_walk_minutes'") == 1)
      #expect(try db.scalarInt("SELECT count(*) FROM favourites") == 1)
    }
  }
}
