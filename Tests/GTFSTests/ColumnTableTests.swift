import Foundation
import SQLite
import Testing

@testable import GTFS

/// The column tables (`StopColumn`, `TripColumn`, …) refuse what the GTFS reference refuses,
/// with one line naming the file, the line and the column. The expected columns and messages
/// are written out here from the reference, not read from the tables.
@Suite struct ColumnTableTests {
  /// The tiny feed with every optional file the tables cover, each with its required columns.
  static let fullFeed = TinyFeed.with([
    "calendar_dates.txt": "service_id,date,exception_type\nWK,20260525,2\n",
    "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,09:00:00,600\n",
    "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,53.28,-6.36,1\nSH1,53.30,-6.38,2\n",
  ])

  /// `text` (a CSV file without quotes) without column `name`, in the header and every row.
  static func dropping(_ name: String, from text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard let index = header.firstIndex(of: name) else { return text }
    for (number, line) in lines.enumerated() where !line.isEmpty {
      var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      fields.remove(at: index)
      lines[number] = fields.joined(separator: ",")
    }
    return lines.joined(separator: "\n")
  }

  /// The error ingesting `files` gives, as printed.
  static func error(ingesting files: [String: String]) -> String? {
    let directory = TestDirectory()
    do {
      try Timetables(directory: directory.path + "/data").ingest(directory.feed(files), now: 1)
      return nil
    } catch {
      return "\(error)"
    }
  }

  static let requiredColumns: [(String, String)] = [
    ("agency.txt", "agency_name"), ("agency.txt", "agency_url"), ("agency.txt", "agency_timezone"),
    ("stops.txt", "stop_id"),
    ("routes.txt", "route_id"), ("routes.txt", "route_type"),
    ("trips.txt", "route_id"), ("trips.txt", "service_id"), ("trips.txt", "trip_id"),
    ("stop_times.txt", "trip_id"), ("stop_times.txt", "stop_id"), ("stop_times.txt", "stop_sequence"),
    ("stop_times.txt", "arrival_time"), ("stop_times.txt", "departure_time"),
    ("calendar.txt", "service_id"), ("calendar.txt", "monday"), ("calendar.txt", "sunday"),
    ("calendar.txt", "start_date"), ("calendar.txt", "end_date"),
    ("calendar_dates.txt", "service_id"), ("calendar_dates.txt", "date"), ("calendar_dates.txt", "exception_type"),
    ("frequencies.txt", "trip_id"), ("frequencies.txt", "start_time"), ("frequencies.txt", "end_time"),
    ("frequencies.txt", "headway_secs"),
    ("shapes.txt", "shape_id"), ("shapes.txt", "shape_pt_lat"), ("shapes.txt", "shape_pt_lon"),
    ("shapes.txt", "shape_pt_sequence"),
  ]

  @Test func theFullFeedLoads() {
    #expect(Self.error(ingesting: Self.fullFeed) == nil)
  }

  @Test(arguments: requiredColumns)
  func aHeaderWithoutARequiredColumnIsRefused(file: String, column: String) throws {
    let text = try #require(Self.fullFeed[file])
    let changed = Self.dropping(column, from: text)
    try #require(changed != text, "the test feed's \(file) has \(column)")
    #expect(
      Self.error(ingesting: Self.fullFeed.merging([file: changed]) { $1 })
        == "\(file):1: required column \(column) is missing from the header")
  }

  /// GTFS-Flex: stop_times.txt without times is accepted when it gives pickup windows instead.
  @Test func flexPickupWindowsStandInForTimes() {
    let flex = Self.fullFeed.merging([
      "stop_times.txt":
        "trip_id,stop_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window\nT1,S1,1,08:00:00,09:00:00\nT1,S3,2,08:00:00,09:00:00\n"
    ]) { $1 }
    #expect(Self.error(ingesting: flex) == nil)
  }

  static let badValues: [(String, String, String)] = [
    (
      "stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,53.28,-181\nS2,B,53.29,-6.37\nS3,C,53.30,-6.38\n",
      "stops.txt:2: stop_lon '-181' is not a number between -180 and 180"
    ),
    (
      "stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,53.28,-6.36\nS2,B,,-6.37\nS3,C,53.30,-6.38\n",
      "stops.txt:3: stop_lat is empty but required"
    ),
    ("routes.txt", "route_id,route_type\nR1,\n", "routes.txt:2: route_type is empty but required"),
    (
      "stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,-1\n",
      "stop_times.txt:2: stop_sequence '-1' is not a whole number from 0"
    ),
    (
      "stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,\n",
      "stop_times.txt:2: stop_sequence is empty but required"
    ),
    (
      "calendar.txt",
      "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20271331\n",
      "calendar.txt:2: end_date '20271331' is not a date (YYYYMMDD)"
    ),
    (
      "frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,09:00:00,0\n",
      "frequencies.txt:2: headway_secs '0' is not a whole number from 1 to 86400"
    ),
    (
      "frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT1,,09:00:00,600\n",
      "frequencies.txt:2: start_time is empty but required"
    ),
    (
      "shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,53.28,-6.36,1\nSH1,91,-6.38,2\n",
      "shapes.txt:3: shape_pt_lat '91' is not a number between -90 and 90"
    ),
    (
      "shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,53.28,-6.36,\n",
      "shapes.txt:2: shape_pt_sequence is empty but required"
    ),
  ]

  /// Values an enumerated column does not define (real feeds carry them: NYCT's stops have
  /// wheelchair_boarding=3 and a trip direction_id=2): read as unknown, one warning per file and
  /// column naming the first line and value, and the count; the feed is never refused for them.
  static let outOfRangeEnumerations: [(file: String, text: String, warning: String)] = [
    (
      "stops.txt", "stop_id,stop_name,stop_lat,stop_lon,location_type\nS1,A,53.28,-6.36,0\nS2,B,53.29,-6.37,5\nS3,C,53.30,-6.38,\n",
      "stops.txt:3: location_type '5' is not a location type (0 stop, 1 station, 2 entrance, 3 node, 4 boarding area): read as unknown"
    ),
    (
      "stops.txt",
      "stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding\nS1,A,53.28,-6.36,3\nS2,B,53.29,-6.37,\nS3,C,53.30,-6.38,7\n",
      "stops.txt:2: wheelchair_boarding '3' is not 0, 1 or 2: read as unknown (2 rows in all)"
    ),
    (
      "routes.txt", "route_id,route_type\nR1,2000\n",
      "routes.txt:2: route_type '2000' is not a route type (0-12, or an extended type 100-1799): read as unknown"
    ),
    (
      "routes.txt", "route_id,route_type\nR1,bus\n",
      "routes.txt:2: route_type 'bus' is not a route type (0-12, or an extended type 100-1799): read as unknown"
    ),
    ("trips.txt", "route_id,service_id,trip_id,direction_id\nR1,WK,T1,2\n", "trips.txt:2: direction_id '2' is not 0 or 1: read as unknown"),
    (
      "trips.txt", "route_id,service_id,trip_id,bikes_allowed,wheelchair_accessible\nR1,WK,T1,-1,9\n",
      "trips.txt:2: bikes_allowed '-1' is not 0, 1 or 2: read as unknown"
    ),
    (
      "stop_times.txt",
      "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type\nT1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:05:00,S2,2,4\n",
      "stop_times.txt:3: pickup_type '4' is not 0, 1, 2 or 3: read as unknown"
    ),
    (
      "stop_times.txt",
      "trip_id,arrival_time,departure_time,stop_id,stop_sequence,timepoint\nT1,08:00:00,08:00:00,S1,1,2\nT1,08:05:00,08:05:00,S2,2,1\n",
      "stop_times.txt:2: timepoint '2' is not 0 or 1: read as unknown"
    ),
    (
      "calendar.txt",
      "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,2,1,0,0,20260101,20271231\n",
      "calendar.txt:2: thursday '2' is not 0 or 1: read as unknown"
    ),
    (
      "calendar_dates.txt", "service_id,date,exception_type\nWK,20260525,3\n",
      "calendar_dates.txt:2: exception_type '3' is not 1 (added) or 2 (removed): read as unknown"
    ),
    (
      "frequencies.txt", "trip_id,start_time,end_time,headway_secs,exact_times\nT1,06:00:00,09:00:00,600,2\n",
      "frequencies.txt:2: exact_times '2' is not 0 or 1: read as unknown"
    ),
    (
      "transfers.txt", "from_stop_id,to_stop_id,transfer_type\nS1,S2,6\n",
      "transfers.txt:2: transfer_type '6' is not 0 to 5: read as unknown"
    ),
  ]

  @Test(arguments: outOfRangeEnumerations)
  func anEnumeratedValueOutsideTheReferenceIsReadAsUnknown(file: String, text: String, warning: String) throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    let (_, summary) = try timetables.ingest(directory.feed(Self.fullFeed.merging([file: text]) { $1 }), now: 1)
    #expect(summary.warnings.contains(warning), "\(summary.warnings)")
  }

  /// An unknown value is stored as the reference's "unknown" (empty): the row keeps its other values.
  @Test func unknownEnumeratedValuesAreStoredAsEmpty() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    let files = Self.fullFeed.merging([
      "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding\nS1,A,53.28,-6.36,3\nS2,B,53.29,-6.37,1\nS3,C,53.30,-6.38,\n",
      "trips.txt": "route_id,service_id,trip_id,direction_id\nR1,WK,T1,2\n",
    ]) { $1 }
    _ = try timetables.ingest(directory.feed(files), now: 1)
    let path = try #require(try timetables.files().first).path
    let db = try Connection(path: path, mode: .readOnly)
    let stops = try db.prepare("SELECT stop_id, wheelchair_boarding FROM stops ORDER BY stop_id")
    var boarding: [String: Int64] = [:]
    while try stops.step() { boarding[stops.text(0)] = stops.optionalInt(1) ?? -99 }
    #expect(boarding == ["S1": -99, "S2": 1, "S3": -99])
    let trips = try db.prepare("SELECT direction_id FROM trips WHERE trip_id = 'T1'")
    #expect(try trips.step() && trips.optionalInt(0) == nil)
  }

  @Test(arguments: badValues)
  func aValueOutsideItsColumnsTypeIsRefused(file: String, text: String, message: String) {
    #expect(Self.error(ingesting: Self.fullFeed.merging([file: text]) { $1 }) == message)
  }

  /// A reference to a row another file lacks is a warning naming the file, line and column; the
  /// row is left out.
  @Test func aDanglingReferenceIsAWarning() throws {
    let directory = TestDirectory()
    let files = Self.fullFeed.merging(["trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR9,WK,T9\n"]) { $1 }
    let timetables = Timetables(directory: directory.path + "/data")
    let (_, summary) = try timetables.ingest(directory.feed(files), now: 1)
    #expect(summary.warnings.contains("trips.txt:3: trip 'T9' names route_id 'R9', which routes.txt lacks; trip left out"))
    #expect(summary.count("trips.txt") == 1)
  }

  /// The tables written from the column tables (`StoredTable`) have the layout the timetable
  /// had when it was written by hand (schema version 5, plus version 6's trips.mta_trip_id): every column with its type, NOT NULL,
  /// default and primary-key position, in any order, and routes' unique route_id.
  @Test func theGeneratedTablesKeepTheLayout() throws {
    let db = try Connection(path: ":memory:")
    try db.execute(Schema.tables)
    let expected: [String: String] = [
      "agency":
        "agency_idx INTEGER PK1, agency_id TEXT NOT NULL, name TEXT NOT NULL, url TEXT, timezone TEXT NOT NULL, lang TEXT, phone TEXT, fare_url TEXT, email TEXT",
      "calendar": "service_idx INTEGER PK1, weekdays INTEGER NOT NULL, start_date INTEGER NOT NULL, end_date INTEGER NOT NULL",
      "calendar_dates": "service_idx INTEGER NOT NULL PK1, date INTEGER NOT NULL PK2, exception_type INTEGER NOT NULL",
      "frequencies":
        "trip_idx INTEGER NOT NULL PK1, start_time INTEGER NOT NULL PK2, end_time INTEGER NOT NULL, headway_secs INTEGER NOT NULL, exact_times INTEGER NOT NULL DEFAULT 0",
      "routes":
        "route_idx INTEGER PK1, route_id TEXT NOT NULL, agency_idx INTEGER, short_name TEXT, long_name TEXT, description TEXT, route_type INTEGER NOT NULL, url TEXT, color TEXT, text_color TEXT, sort_order INTEGER",
      "stops":
        "stop_idx INTEGER PK1, stop_id TEXT NOT NULL, code TEXT, name TEXT, description TEXT, lat REAL, lon REAL, zone_id TEXT, url TEXT, location_type INTEGER NOT NULL DEFAULT 0, parent_station TEXT, parent_idx INTEGER, timezone TEXT, wheelchair_boarding INTEGER, level_id TEXT, platform_code TEXT",
      "transfers":
        "from_stop_id TEXT, to_stop_id TEXT, from_route_id TEXT, to_route_id TEXT, from_trip_id TEXT, to_trip_id TEXT, transfer_type INTEGER NOT NULL DEFAULT 0, min_transfer_time INTEGER",
      "trips":
        "trip_idx INTEGER PK1, trip_id TEXT NOT NULL, route_idx INTEGER NOT NULL, service_idx INTEGER NOT NULL, headsign TEXT, short_name TEXT, direction_id INTEGER, block_id TEXT, shape_id TEXT, wheelchair_accessible INTEGER, bikes_allowed INTEGER, mta_trip_id TEXT",
    ]
    for (table, columns) in expected {
      let info = try db.prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('\(table)')")
      var found: Set<String> = []
      while try info.step() {
        var words = [info.text(0), info.text(1)]
        if info.int(2) == 1 { words.append("NOT NULL") }
        if let value = info.optionalText(3) { words.append("DEFAULT \(value)") }
        if info.int(4) > 0 { words.append("PK\(info.int(4))") }
        found.insert(words.joined(separator: " "))
      }
      #expect(found == Set(columns.components(separatedBy: ", ")), "\(table)")
    }
    let unique = try db.prepare(
      "SELECT count(*) FROM pragma_index_list('routes') l, pragma_index_info(l.name) i WHERE l.\"unique\" AND i.name = 'route_id'")
    #expect(try unique.step() && unique.int(0) == 1)
  }

  /// Every column a table stores is a column of the timetable's table, of the type its values are.
  @Test func theStoredColumnsAreTheSchemas() throws {
    let db = try Connection(path: ":memory:")
    try db.execute(Schema.tables)
    func check<Column: GTFSColumns>(_ columns: Column.Type, _ table: String, _ expected: [String: String]) throws {
      let info = try db.prepare("SELECT name, type FROM pragma_table_info('\(table)')")
      var types: [String: String] = [:]
      while try info.step() { types[info.text(0)] = info.text(1) }
      let stored = Column.allCases.compactMap { column in column.spec.stored.map { ($0, column.spec.sqlType) } }
      #expect(Dictionary(uniqueKeysWithValues: stored) == expected, "\(table)")
      for (name, type) in expected { #expect(types[name] == type, "\(table).\(name)") }
      _ = try db.prepare(GTFSInsert<Column>(into: table).sql)
    }
    try check(
      StopColumn.self, "stops",
      [
        "stop_id": "TEXT", "code": "TEXT", "name": "TEXT", "description": "TEXT", "lat": "REAL", "lon": "REAL", "zone_id": "TEXT",
        "url": "TEXT", "location_type": "INTEGER", "parent_station": "TEXT", "timezone": "TEXT", "wheelchair_boarding": "INTEGER",
        "level_id": "TEXT", "platform_code": "TEXT",
      ])
    try check(
      RouteColumn.self, "routes",
      [
        "route_id": "TEXT", "short_name": "TEXT", "long_name": "TEXT", "description": "TEXT", "route_type": "INTEGER", "url": "TEXT",
        "color": "TEXT", "text_color": "TEXT", "sort_order": "INTEGER",
      ])
    try check(
      TripColumn.self, "trips",
      [
        "trip_id": "TEXT", "headsign": "TEXT", "short_name": "TEXT", "direction_id": "INTEGER", "block_id": "TEXT",
        "shape_id": "TEXT", "wheelchair_accessible": "INTEGER", "bikes_allowed": "INTEGER", "mta_trip_id": "TEXT",
      ])
    try check(
      AgencyColumn.self, "agency",
      [
        "agency_id": "TEXT", "name": "TEXT", "url": "TEXT", "timezone": "TEXT", "lang": "TEXT", "phone": "TEXT", "fare_url": "TEXT",
        "email": "TEXT",
      ])
    try check(CalendarColumn.self, "calendar", ["start_date": "INTEGER", "end_date": "INTEGER"])
    try check(CalendarDateColumn.self, "calendar_dates", ["date": "INTEGER", "exception_type": "INTEGER"])
    try check(
      FrequencyColumn.self, "frequencies",
      ["start_time": "INTEGER", "end_time": "INTEGER", "headway_secs": "INTEGER", "exact_times": "INTEGER"])
    try check(
      TransferColumn.self, "transfers",
      [
        "from_stop_id": "TEXT", "to_stop_id": "TEXT", "from_route_id": "TEXT", "to_route_id": "TEXT", "from_trip_id": "TEXT",
        "to_trip_id": "TEXT", "transfer_type": "INTEGER", "min_transfer_time": "INTEGER",
      ])
  }
}
