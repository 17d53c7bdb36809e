import SQLite
import TransitModel

/// pathways.txt: walkways inside a station. Only its two ends are read, to find the stations a
/// pathway joins (a station complex, `StopComplexes`); the file is not stored.
enum PathwayColumn: Int, GTFSColumns {
  case fromStopID, toStopID

  static let file = "pathways.txt"

  var spec: ColumnSpec {
    switch self {
    case .fromStopID: ColumnSpec("from_stop_id", .required, references: "stops.txt stop_id")
    case .toStopID: ColumnSpec("to_stop_id", .required, references: "stops.txt stop_id")
    }
  }
}

/// Station complexes (issue 32), found once at ingest and stored in `complexes`: the places a
/// rider names as one although the feed splits them. Times Sq-42 St is four stations in the
/// New York subway's feed (127, 725, 902, R16), all of that name and within 160 m.
///
/// The members are the top of each stop's tree: stations (location_type 1) and stops without
/// a parent. Two members are in one complex when their folded names are equal and they lie at
/// most `radiusMeters` apart (haversine), or when transfers.txt or pathways.txt links them (or
/// stops within them) directly; a complex is a connected part of those links with two members
/// or more. `complexes` holds one row per member: its `stop_idx` and the complex's number, the
/// least `stop_idx` among its members. A member alone is in no row.
enum StopComplexes {
  /// Members with equal names at most this far apart are one complex.
  static let radiusMeters = 400.0

  static let table = """
    CREATE TABLE complexes (stop_idx INTEGER PRIMARY KEY, complex_idx INTEGER NOT NULL);
    CREATE INDEX complexes_by_complex ON complexes (complex_idx);
    """

  /// A member as read: its key, folded name and position.
  struct Member {
    var key: Int64
    var foldedName: String
    var coordinate: Coordinate?
  }

  /// The complexes of `members` with `links` (pairs of member keys) added: per complex its
  /// members' keys, ascending, complexes in order of their least key.
  /// - Complexity: O(n log n) in members for the name groups (each group swept by latitude, so
  ///   only members within the radius's latitude band are compared), plus O(links).
  static func complexes(of members: [Member], links: [(Int64, Int64)]) -> [[Int64]] {
    var index: [Int64: Int] = [:]
    for (position, member) in members.enumerated() { index[member.key] = position }
    var parent = Array(0..<members.count)
    func root(_ x: Int) -> Int {
      var x = x
      while parent[x] != x {
        parent[x] = parent[parent[x]]
        x = parent[x]
      }
      return x
    }
    func join(_ a: Int, _ b: Int) {
      let ra = root(a), rb = root(b)
      if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
    var byName: [String: [Int]] = [:]
    for (position, member) in members.enumerated() where member.coordinate != nil && !member.foldedName.isEmpty {
      byName[member.foldedName, default: []].append(position)
    }
    // 400 m of latitude is 0.0036°; a little more, so that rounding never drops a pair.
    let band = radiusMeters / 111_000 + 1e-6
    for group in byName.values where group.count > 1 {
      let sorted = group.sorted { members[$0].coordinate!.latitude < members[$1].coordinate!.latitude }
      for (offset, a) in sorted.enumerated() {
        let here = members[a].coordinate!
        for b in sorted[(offset + 1)...] {
          let there = members[b].coordinate!
          if there.latitude - here.latitude > band { break }
          if here.distanceMeters(to: there) <= radiusMeters { join(a, b) }
        }
      }
    }
    for (from, to) in links {
      guard let a = index[from], let b = index[to], a != b else { continue }
      join(a, b)
    }
    var groups: [Int: [Int64]] = [:]
    for position in members.indices { groups[root(position), default: []].append(members[position].key) }
    return groups.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
  }
}

extension FeedImporter {
  /// Finds the station complexes (`StopComplexes`) and writes `complexes`; needs `parent_idx`
  /// (set with the indexes) and the transfers loaded.
  /// - Complexity: one pass over the stops and transfers, and over pathways.txt when present.
  func loadComplexes() throws {
    try db.execute(StopComplexes.table)
    // Each stop's member: itself when it has no parent, else its parent (a platform's station;
    // an entrance's or node's station).
    var top: [Int64: Int64] = [:]
    var members: [StopComplexes.Member] = []
    let select = try db.prepare("SELECT stop_idx, location_type, parent_idx, name, lat, lon FROM stops")
    while try select.step() {
      let key = select.int64(0)
      let parentKey = select.isNull(2) ? nil : select.int64(2)
      top[key] = parentKey ?? key
      let locationType = select.isNull(1) ? 0 : select.int64(1)
      guard parentKey == nil, locationType == 0 || locationType == 1 else { continue }
      let coordinate = select.isNull(4) || select.isNull(5) ? nil : Coordinate(latitude: select.double(4), longitude: select.double(5))
      members.append(StopComplexes.Member(key: key, foldedName: TextFolding.fold(select.text(3)), coordinate: coordinate))
    }
    var links: [(Int64, Int64)] = []
    let transfers = try db.prepare(
      """
      SELECT f.stop_idx, t.stop_idx FROM transfers x JOIN stops f ON f.stop_id = x.from_stop_id
        JOIN stops t ON t.stop_id = x.to_stop_id WHERE x.from_stop_id <> x.to_stop_id
      """)
    while try transfers.step() {
      if let a = top[transfers.int64(0)], let b = top[transfers.int64(1)] { links.append((a, b)) }
    }
    let stopIndex = try db.prepare("SELECT stop_idx FROM stops WHERE stop_id = ?")
    func key(_ id: String?) throws -> Int64? {
      guard let id else { return nil }
      stopIndex.reset()
      stopIndex.bind(id, at: 1)
      return try stopIndex.step() ? top[stopIndex.int64(0)] : nil
    }
    let pathways = try each(PathwayColumn.self) { row in
      if let a = try key(row.text(.fromStopID)), let b = try key(row.text(.toStopID)), a != b { links.append((a, b)) }
    }
    if pathways > 0 { summary.rows.append((PathwayColumn.file, pathways)) }
    let insert = try db.prepare("INSERT INTO complexes (stop_idx, complex_idx) VALUES (?, ?)")
    for complex in StopComplexes.complexes(of: members, links: links) {
      for member in complex {
        insert.reset()
        insert.bind(member, at: 1)
        insert.bind(complex[0], at: 2)
        try insert.run()
      }
    }
  }
}
