import SQLite

/// routes.txt: the routes, each run by an agency.
enum RouteColumn: Int, GTFSColumns {
  case routeID, agencyID, shortName, longName, description, routeType, url, color, textColor, sortOrder

  static let file = "routes.txt"

  var spec: ColumnSpec {
    switch self {
    case .routeID: ColumnSpec("route_id", .required, stored: "route_id", "NOT NULL UNIQUE")
    // Conditionally required: when the feed has more than one agency. Stored as agency_idx.
    case .agencyID: ColumnSpec("agency_id", references: "agency.txt agency_id")
    case .shortName: ColumnSpec("route_short_name", stored: "short_name")
    case .longName: ColumnSpec("route_long_name", stored: "long_name")
    case .description: ColumnSpec("route_desc", stored: "description")
    case .routeType:
      ColumnSpec(
        "route_type", .required, .enumeration(0...1999, expected: "a route type (0-12, or an extended type 100-1799)"),
        stored: "route_type",
        "NOT NULL")
    case .url: ColumnSpec("route_url", stored: "url")
    case .color: ColumnSpec("route_color", stored: "color")
    case .textColor: ColumnSpec("route_text_color", stored: "text_color")
    case .sortOrder: ColumnSpec("route_sort_order", .optional, .integer(0...Int(Int32.max)), stored: "sort_order")
    }
  }
}

extension FeedImporter {
  /// The route_type stored for a value the reference does not define: no mode matches it.
  static let unknownRouteType = -1

  func loadRoutes() throws {
    let columns = GTFSInsert<RouteColumn>(into: "routes", extra: ["agency_idx"])
    let insert = try db.cached(columns.sql)
    let onlyAgency = agencies.count == 1 ? agencies.values.first : nil
    let count = try each(RouteColumn.self) { r in
      let id = try r.required(.routeID)
      guard routes[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "route_id", value: id)) }
      let type = try r.requiredEnumeration(.routeType, unknown: Self.unknownRouteType)
      var agency = onlyAgency
      if let agencyID = r.text(.agencyID) {
        agency = agencies[agencyID]
        if agency == nil { warn(r.reader, "route '\(id)' names agency_id '\(agencyID)', which agency.txt lacks") }
      } else if agency == nil {
        agency = agencies[""]
      }
      insert.bind(id, at: columns.parameter(.routeID))
      insert.bind(agency, at: columns.extraParameters[0])
      insert.bind(type, at: columns.parameter(.routeType))
      for column in [RouteColumn.shortName, .longName, .description, .url, .color, .textColor] { columns.bindText(r, column, in: insert) }
      insert.bind(try r.int(.sortOrder).map(Int64.init), at: columns.parameter(.sortOrder))
      try insert.run()
      routes[id] = db.lastInsertRowID
    }
    if routes.isEmpty { throw GTFSError(file: RouteColumn.file, .emptyTable(RouteColumn.file)) }
    summary.rows.append((RouteColumn.file, count))
  }
}
