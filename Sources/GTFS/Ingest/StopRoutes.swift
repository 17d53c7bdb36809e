import SQLite

/// The routes calling at each stop (`stop_routes`), made at ingest: `stops near` lists the
/// routes of every stop it shows, and reading them through the patterns costs two seeks per
/// pattern calling at the stop (a busy stop has 140) and a sort to drop repeats (issue 18).
///
/// Readers use it when present (`FeedReader.hasStopRoutes`) and read the patterns otherwise,
/// so a timetable made before it still answers.
enum StopRoutes {
  static let table = """
    CREATE TABLE stop_routes (stop_idx INTEGER NOT NULL, route_idx INTEGER NOT NULL, PRIMARY KEY (stop_idx, route_idx))
      WITHOUT ROWID;
    """

  /// Fills `stop_routes` from `pattern_stops` and `patterns`.
  /// - Complexity: one pass over pattern_stops (a row per stop of each pattern, not per trip).
  static func build(in db: Connection) throws {
    try db.execute(table)
    try db.execute(
      """
      INSERT INTO stop_routes (stop_idx, route_idx)
      SELECT DISTINCT ps.stop_idx, p.route_idx FROM pattern_stops ps JOIN patterns p ON p.pattern_idx = ps.pattern_idx
      ORDER BY 1, 2
      """)
  }
}
