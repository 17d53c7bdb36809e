import SQLite

/// frequencies.txt: trips that repeat every so many seconds between two times.
enum FrequencyColumn: Int, GTFSColumns {
  case tripID, startTime, endTime, headway, exactTimes

  static let file = "frequencies.txt"

  var spec: ColumnSpec {
    switch self {
    // Stored as trip_idx.
    case .tripID: ColumnSpec("trip_id", .required, references: "trips.txt trip_id")
    case .startTime: ColumnSpec("start_time", .required, .time, stored: "start_time", "NOT NULL")
    case .endTime: ColumnSpec("end_time", .required, .time, stored: "end_time", "NOT NULL")
    case .headway: ColumnSpec("headway_secs", .required, .integer(1...86_400), stored: "headway_secs", "NOT NULL")
    case .exactTimes:
      ColumnSpec("exact_times", .optional, .enumeration(0...1, expected: "0 or 1"), stored: "exact_times", "NOT NULL DEFAULT 0")
    }
  }
}

extension FeedImporter {
  /// A row of a trip trips.txt lacks is left out (with a warning); a trip and start time given
  /// twice keeps its last row.
  func loadFrequencies() throws {
    let columns = GTFSInsert<FrequencyColumn>(into: "frequencies", extra: ["trip_idx"])
    let insert = try db.cached("INSERT OR REPLACE" + columns.sql.dropFirst("INSERT".count))
    var stored = 0
    try each(FrequencyColumn.self) { r in
      let tripID = try r.required(.tripID)
      guard let trip = trips[tripID] else { warn(r.reader, "trip_id '\(tripID)' is not in trips.txt; row left out"); return }
      insert.bind(trip, at: columns.extraParameters[0])
      insert.bind(Int64(try r.requiredTime(.startTime)), at: columns.parameter(.startTime))
      insert.bind(Int64(try r.requiredTime(.endTime)), at: columns.parameter(.endTime))
      insert.bind(try r.requiredInt(.headway), at: columns.parameter(.headway))
      insert.bind(try r.int(.exactTimes) ?? 0, at: columns.parameter(.exactTimes))
      try insert.run()
      stored += 1
    }
    if stored > 0 { summary.rows.append((FrequencyColumn.file, stored)) }
  }
}
