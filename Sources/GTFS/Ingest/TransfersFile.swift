import SQLite

/// transfers.txt: rules for changing between stops, routes or trips. Kept by id as given.
enum TransferColumn: Int, GTFSColumns {
  case fromStopID, toStopID, fromRouteID, toRouteID, fromTripID, toTripID, transferType, minTransferTime

  static let file = "transfers.txt"

  var spec: ColumnSpec {
    switch self {
    case .fromStopID: ColumnSpec("from_stop_id", references: "stops.txt stop_id", stored: "from_stop_id")
    case .toStopID: ColumnSpec("to_stop_id", references: "stops.txt stop_id", stored: "to_stop_id")
    case .fromRouteID: ColumnSpec("from_route_id", references: "routes.txt route_id", stored: "from_route_id")
    case .toRouteID: ColumnSpec("to_route_id", references: "routes.txt route_id", stored: "to_route_id")
    case .fromTripID: ColumnSpec("from_trip_id", references: "trips.txt trip_id", stored: "from_trip_id")
    case .toTripID: ColumnSpec("to_trip_id", references: "trips.txt trip_id", stored: "to_trip_id")
    // Required by the reference; an empty or absent one reads as 0 (recommended transfer).
    case .transferType:
      ColumnSpec("transfer_type", .optional, .enumeration(0...5, expected: "0 to 5"), stored: "transfer_type", "NOT NULL DEFAULT 0")
    case .minTransferTime: ColumnSpec("min_transfer_time", .optional, .integer(0...86_400), stored: "min_transfer_time")
    }
  }
}

extension FeedImporter {
  func loadTransfers() throws {
    let columns = GTFSInsert<TransferColumn>(into: "transfers")
    let insert = try db.cached(columns.sql)
    let ids: [TransferColumn] = [.fromStopID, .toStopID, .fromRouteID, .toRouteID, .fromTripID, .toTripID]
    let count = try each(TransferColumn.self) { r in
      for column in ids { columns.bindText(r, column, in: insert) }
      insert.bind(try r.int(.transferType) ?? 0, at: columns.parameter(.transferType))
      insert.bind(try r.int(.minTransferTime).map(Int64.init), at: columns.parameter(.minTransferTime))
      try insert.run()
    }
    if count > 0 { summary.rows.append((TransferColumn.file, count)) }
  }
}
