import SQLite

/// stops.txt: stops, stations, entrances, nodes and boarding areas.
enum StopColumn: Int, GTFSColumns {
  case stopID, code, name, description, latitude, longitude, zoneID, url, locationType, parentStation, timeZone
  case wheelchairBoarding, levelID, platformCode

  static let file = "stops.txt"

  var spec: ColumnSpec {
    switch self {
    case .stopID: ColumnSpec("stop_id", .required, stored: "stop_id", "NOT NULL")
    case .code: ColumnSpec("stop_code", stored: "code")
    case .name: ColumnSpec("stop_name", stored: "name")
    case .description: ColumnSpec("stop_desc", stored: "description")
    // Conditionally required: for stops, stations and entrances (location_type 0 to 2).
    case .latitude: ColumnSpec("stop_lat", .optional, .number(-90...90), stored: "lat")
    case .longitude: ColumnSpec("stop_lon", .optional, .number(-180...180), stored: "lon")
    case .zoneID: ColumnSpec("zone_id", stored: "zone_id")
    case .url: ColumnSpec("stop_url", stored: "url")
    case .locationType:
      ColumnSpec(
        "location_type", .optional,
        .enumeration(0...4, expected: "a location type (0 stop, 1 station, 2 entrance, 3 node, 4 boarding area)"),
        stored: "location_type", "NOT NULL DEFAULT 0")
    case .parentStation: ColumnSpec("parent_station", references: "stops.txt stop_id", stored: "parent_station")
    case .timeZone: ColumnSpec("stop_timezone", .optional, .timeZone, stored: "timezone")
    case .wheelchairBoarding:
      ColumnSpec("wheelchair_boarding", .optional, .enumeration(0...2, expected: "0, 1 or 2"), stored: "wheelchair_boarding")
    case .levelID: ColumnSpec("level_id", references: "levels.txt level_id", stored: "level_id")
    case .platformCode: ColumnSpec("platform_code", stored: "platform_code")
    }
  }
}

extension FeedImporter {
  func loadStops() throws {
    let columns = GTFSInsert<StopColumn>(into: "stops")
    let insert = try db.cached(columns.sql)
    let texts: [StopColumn] = [.code, .name, .description, .zoneID, .url, .parentStation, .timeZone, .levelID, .platformCode]
    let count = try each(StopColumn.self) { r in
      let id = try r.required(.stopID)
      guard stops[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "stop_id", value: id)) }
      let type = try r.int(.locationType) ?? 0
      let lat = try r.number(.latitude)
      let lon = try r.number(.longitude)
      if type <= 2 && (lat == nil || lon == nil) { throw r.missing(lat == nil ? .latitude : .longitude) }
      insert.bind(id, at: columns.parameter(.stopID))
      insert.bind(lat, at: columns.parameter(.latitude))
      insert.bind(lon, at: columns.parameter(.longitude))
      insert.bind(type, at: columns.parameter(.locationType))
      insert.bind(try r.int(.wheelchairBoarding).map(Int64.init), at: columns.parameter(.wheelchairBoarding))
      for column in texts { columns.bindText(r, column, in: insert) }
      try insert.run()
      stops[id] = db.lastInsertRowID
    }
    if stops.isEmpty { throw GTFSError(file: StopColumn.file, .emptyTable(StopColumn.file)) }
    summary.rows.append((StopColumn.file, count))
  }
}
