/// The CREATE TABLE of a timetable table that stores a GTFS file's columns, written from that
/// file's column table (`GTFSColumns`): the columns its specs mark `stored`, with their SQLite
/// types and constraints, between the keys and derived columns the loader adds.
enum StoredTable {
  /// `CREATE TABLE name (leading..., the stored columns..., derived..., constraints...)`.
  /// - Parameters:
  ///   - leading: column definitions before the stored ones (the row's integer key).
  ///   - derived: column definitions the loader works out (a referenced row's key).
  ///   - constraints: table constraints (a composite primary key).
  ///   - withoutRowID: a `WITHOUT ROWID` table (one keyed by its primary key alone).
  static func create<Column: GTFSColumns>(
    _ name: String, of columns: Column.Type, leading: [String] = [], derived: [String] = [], constraints: [String] = [],
    withoutRowID: Bool = false
  ) -> String {
    let stored = Column.specs.compactMap(\.storedDefinition)
    let body = (leading + stored + derived + constraints).joined(separator: ", ")
    return "CREATE TABLE \(name) (\(body))\(withoutRowID ? " WITHOUT ROWID" : "");"
  }
}
