import SQLite

/// trips.txt: the trips, each of a route and a service.
enum TripColumn: Int, GTFSColumns {
  case routeID, serviceID, tripID, headsign, shortName, directionID, blockID, shapeID, wheelchairAccessible, bikesAllowed
  /// NYCT's own trip name (`N..N34R`: route, direction, path), not in the GTFS reference: the
  /// realtime trip id without its origin time (`Reconciler`'s NYCT convention, DESIGN.md rule 16).
  case mtaTripID

  static let file = "trips.txt"

  var spec: ColumnSpec {
    switch self {
    // Stored as route_idx and service_idx.
    case .routeID: ColumnSpec("route_id", .required, references: "routes.txt route_id")
    case .serviceID: ColumnSpec("service_id", .required, references: "calendar.txt or calendar_dates.txt service_id")
    case .tripID: ColumnSpec("trip_id", .required, stored: "trip_id", "NOT NULL")
    case .headsign: ColumnSpec("trip_headsign", stored: "headsign")
    case .shortName: ColumnSpec("trip_short_name", stored: "short_name")
    case .directionID: ColumnSpec("direction_id", .optional, .enumeration(0...1, expected: "0 or 1"), stored: "direction_id")
    case .blockID: ColumnSpec("block_id", stored: "block_id")
    case .shapeID: ColumnSpec("shape_id", references: "shapes.txt shape_id", stored: "shape_id")
    case .wheelchairAccessible:
      ColumnSpec("wheelchair_accessible", .optional, .enumeration(0...2, expected: "0, 1 or 2"), stored: "wheelchair_accessible")
    case .bikesAllowed: ColumnSpec("bikes_allowed", .optional, .enumeration(0...2, expected: "0, 1 or 2"), stored: "bikes_allowed")
    case .mtaTripID: ColumnSpec("mta_trip_id", stored: "mta_trip_id")
    }
  }
}

extension FeedImporter {
  /// A trip of a route routes.txt lacks is left out (with a warning); one of a service no
  /// calendar defines is kept (it never runs).
  func loadTrips() throws {
    let columns = GTFSInsert<TripColumn>(into: "trips", extra: ["route_idx", "service_idx"])
    let insert = try db.cached(columns.sql)
    var unknownRoutes = 0
    var trips = self.trips
    defer { self.trips = trips }
    // Sized once from the file (a row takes 40 bytes or more): growing it 462,595 trips long
    // rehashed every id several times.
    trips.reserveCapacity(Int(min(source.storedSize(of: TripColumn.file) / 40, 4_000_000)))
    // Trips come route by route and service by service: the previous row's route and service,
    // by their bytes, spare making and hashing two Strings for most rows.
    var lastRoute: (bytes: [UInt8], index: Int64)?, lastService: (bytes: [UInt8], index: Int64)?
    try each(TripColumn.self) { r in
      let id = try r.required(.tripID)
      guard trips[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "trip_id", value: id)) }
      let route: Int64
      let routeBytes = r.bytes(.routeID)
      if let last = lastRoute, FieldParsing.equal(routeBytes, last.bytes) {
        route = last.index
      } else {
        let routeID = try r.required(.routeID)
        guard let found = routes[routeID] else {
          unknownRoutes += 1
          if unknownRoutes <= 3 { warn(r.reader, "trip '\(id)' names route_id '\(routeID)', which routes.txt lacks; trip left out") }
          return
        }
        route = found
        lastRoute = (Array(routeBytes), found)
      }
      let service: Int64
      let serviceBytes = r.bytes(.serviceID)
      if let last = lastService, FieldParsing.equal(serviceBytes, last.bytes) {
        service = last.index  // (known: a service is warned about only when first met)
      } else {
        let serviceID = try r.required(.serviceID)
        if services[serviceID] == nil {
          warn(r.reader, "trip '\(id)' names service_id '\(serviceID)', which no calendar defines; it never runs")
        }
        service = try self.service(serviceID)
        lastService = (Array(serviceBytes), service)
      }
      insert.bind(id, at: columns.parameter(.tripID))
      insert.bind(route, at: columns.extraParameters[0])
      insert.bind(service, at: columns.extraParameters[1])
      for column in [TripColumn.headsign, .shortName, .blockID, .shapeID, .mtaTripID] { columns.bindText(r, column, in: insert) }
      insert.bind(try r.int(.directionID).map(Int64.init), at: columns.parameter(.directionID))
      insert.bind(try r.int(.wheelchairAccessible).map(Int64.init), at: columns.parameter(.wheelchairAccessible))
      insert.bind(try r.int(.bikesAllowed).map(Int64.init), at: columns.parameter(.bikesAllowed))
      try insert.run()
      trips[id] = db.lastInsertRowID
      tripIDs.append(id)
      tripRoutes.append(route)
    }
    if unknownRoutes > 3 { summary.warnings.append("trips.txt: \(unknownRoutes) trips in all name routes that routes.txt lacks") }
    if trips.isEmpty { throw GTFSError(file: TripColumn.file, .emptyTable(TripColumn.file)) }
    summary.rows.append((TripColumn.file, trips.count))
  }
}
