import SQLite

/// calendar_dates.txt: single dates a service is added on or removed from.
enum CalendarDateColumn: Int, GTFSColumns {
  case serviceID, date, exceptionType

  static let file = "calendar_dates.txt"

  var spec: ColumnSpec {
    switch self {
    case .serviceID: ColumnSpec("service_id", .required)
    case .date: ColumnSpec("date", .required, .date, stored: "date", "NOT NULL")
    case .exceptionType:
      ColumnSpec(
        "exception_type", .required, .enumeration(1...2, expected: "1 (added) or 2 (removed)"), stored: "exception_type", "NOT NULL")
    }
  }
}

extension FeedImporter {
  /// A date given twice for a service keeps its last row.
  func loadCalendarDates() throws {
    let columns = GTFSInsert<CalendarDateColumn>(into: "calendar_dates", extra: ["service_idx"])
    let insert = try db.cached("INSERT OR REPLACE" + columns.sql.dropFirst("INSERT".count))
    let count = try each(CalendarDateColumn.self) { r in
      let id = try r.required(.serviceID)
      // An exception of a type the reference does not define neither adds nor removes the date.
      let type = try r.requiredEnumeration(.exceptionType, unknown: 0)
      if type == 0 { return }
      insert.bind(try service(id), at: columns.extraParameters[0])
      insert.bind(try r.date(.date), at: columns.parameter(.date))
      insert.bind(type, at: columns.parameter(.exceptionType))
      try insert.run()
    }
    if count > 0 { summary.rows.append((CalendarDateColumn.file, count)) }
  }
}
