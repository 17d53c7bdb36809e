import FoundationEssentials
import SQLite

/// agency.txt: the agencies running the routes.
enum AgencyColumn: Int, GTFSColumns {
  case agencyID, name, url, timeZone, language, phone, fareURL, email

  static let file = "agency.txt"

  var spec: ColumnSpec {
    switch self {
    // Conditionally required: when the feed has more than one agency.
    case .agencyID: ColumnSpec("agency_id", stored: "agency_id", "NOT NULL")
    case .name: ColumnSpec("agency_name", .required, stored: "name", "NOT NULL")
    case .url: ColumnSpec("agency_url", .required, stored: "url")
    case .timeZone: ColumnSpec("agency_timezone", .required, .timeZone, stored: "timezone", "NOT NULL")
    case .language: ColumnSpec("agency_lang", stored: "lang")
    case .phone: ColumnSpec("agency_phone", stored: "phone")
    case .fareURL: ColumnSpec("agency_fare_url", stored: "fare_url")
    case .email: ColumnSpec("agency_email", stored: "email")
    }
  }
}

extension FeedImporter {
  func loadAgency() throws {
    let columns = GTFSInsert<AgencyColumn>(into: "agency")
    let insert = try db.cached(columns.sql)
    let count = try each(AgencyColumn.self) { r in
      let id = r.string(.agencyID)
      guard agencies[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "agency_id", value: id)) }
      insert.bind(id, at: columns.parameter(.agencyID))
      insert.bind(try r.required(.name), at: columns.parameter(.name))
      insert.bind(try r.timeZone(.timeZone), at: columns.parameter(.timeZone))
      for column in [AgencyColumn.url, .language, .phone, .fareURL, .email] { columns.bindText(r, column, in: insert) }
      try insert.run()
      agencies[id] = db.lastInsertRowID
    }
    if count == 0 { throw GTFSError(file: AgencyColumn.file, .emptyTable(AgencyColumn.file)) }
    summary.rows.append((AgencyColumn.file, count))
  }
}
