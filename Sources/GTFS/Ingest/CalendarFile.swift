import SQLite

/// calendar.txt: the weekdays each service runs on, between two dates.
enum CalendarColumn: Int, GTFSColumns {
  case serviceID, monday, tuesday, wednesday, thursday, friday, saturday, sunday, startDate, endDate

  static let file = "calendar.txt"
  /// The weekday columns, Monday first (bit 0 of `calendar.weekdays`).
  static let days: [CalendarColumn] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]

  var spec: ColumnSpec {
    switch self {
    case .serviceID: ColumnSpec("service_id", .required)
    case .monday: Self.day("monday")
    case .tuesday: Self.day("tuesday")
    case .wednesday: Self.day("wednesday")
    case .thursday: Self.day("thursday")
    case .friday: Self.day("friday")
    case .saturday: Self.day("saturday")
    case .sunday: Self.day("sunday")
    case .startDate: ColumnSpec("start_date", .required, .date, stored: "start_date", "NOT NULL")
    case .endDate: ColumnSpec("end_date", .required, .date, stored: "end_date", "NOT NULL")
    }
  }

  private static func day(_ name: String) -> ColumnSpec { ColumnSpec(name, .required, .enumeration(0...1, expected: "0 or 1")) }
}

extension FeedImporter {
  func loadCalendar() throws {
    let columns = GTFSInsert<CalendarColumn>(into: "calendar", extra: ["service_idx", "weekdays"])
    let insert = try db.cached(columns.sql)
    let count = try each(CalendarColumn.self) { r in
      let id = try r.required(.serviceID)
      if services[id] != nil { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "service_id", value: id)) }
      var mask = 0
      for (offset, day) in CalendarColumn.days.enumerated() { mask |= try r.requiredEnumeration(day, unknown: 0) << offset }
      insert.bind(try service(id), at: columns.extraParameters[0])
      insert.bind(mask, at: columns.extraParameters[1])
      insert.bind(try r.date(.startDate), at: columns.parameter(.startDate))
      insert.bind(try r.date(.endDate), at: columns.parameter(.endDate))
      try insert.run()
    }
    if count > 0 { summary.rows.append((CalendarColumn.file, count)) }
  }
}
