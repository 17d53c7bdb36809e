import FoundationEssentials
import Glibc
import SQLite
import TransitModel

/// Loads one GTFS feed into a new timetable database.
///
/// Streams every file through `CSVReader` (never a whole table in memory), in one transaction
/// with prepared statements, interning ids to integers, and builds the indexes after the load.
final class FeedImporter {
  private let source: FeedSource
  private let db: Connection
  private let progress: ((IngestProgress) -> Void)?
  private var summary = IngestSummary()

  private var agencies: [String: Int64] = [:]
  private var services: [String: Int64] = [:]
  private var routes: [String: Int64] = [:]
  private var stops: [String: Int64] = [:]
  private var trips: [String: Int64] = [:]
  private var tripIDs: [String] = []  // by trip_idx - 1, for error messages

  private var bytesDone: UInt64 = 0
  private let bytesTotal: UInt64
  private static let files = [
    "agency.txt", "feed_info.txt", "calendar.txt", "calendar_dates.txt", "routes.txt", "stops.txt",
    "trips.txt", "stop_times.txt", "frequencies.txt", "shapes.txt", "transfers.txt",
  ]

  private static let requiredFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

  init(source: FeedSource, database: Connection, progress: ((IngestProgress) -> Void)?) {
    self.source = source
    self.db = database
    self.progress = progress
    self.bytesTotal = Self.files.reduce(0) { $0 + source.storedSize(of: $1) }
  }

  /// Creates the schema, loads every file, and builds the indexes.
  func run() throws -> IngestSummary {
    let started = MonotonicClock.nanoseconds()
    try timed("schema") { try Schema.create(in: db) }
    try db.transaction {
      if source.kind == .stopsJSON {
        try timed("stops") { try loadStopsJSON() }
      } else {
        try timed("agency, calendars, routes") {
          try requireFiles()
          try loadAgency()
          try loadFeedInfo()
          try loadCalendar()
          try loadCalendarDates()
          try loadRoutes()
        }
        try timed("stops") { try loadStops() }
        try timed("trips") { try loadTrips() }
        try loadStopTimes()
        try timed("frequencies") { try loadFrequencies() }
        try timed("shapes") { try loadShapes() }
        try timed("transfers") { try loadTransfers() }
      }
      progress?(IngestProgress(file: "indexes", bytesDone: bytesTotal, bytesTotal: bytesTotal, rows: 0, isIndexing: true))
      try timed("indexes") {
        try db.execute(Schema.idIndexes)
        try db.execute(
          "UPDATE stops SET parent_idx = (SELECT p.stop_idx FROM stops p WHERE p.stop_id = stops.parent_station) WHERE parent_station IS NOT NULL"
        )
        try db.execute(Schema.indexes)
      }
      try timed("stop words") { try StopWords.build(in: db) }
      try timed("footpaths") { try loadFootpaths() }
      try timed("routing index") { try RoutingIndexBuilder.build(in: db) }
      try writeMeta()
      commitStarted = MonotonicClock.nanoseconds()
    }
    summary.steps.append(("commit", Self.seconds(since: commitStarted)))
    // Statistics for the query planner; a sample is as good as a full scan for our indexes.
    try timed("statistics") { try db.execute("PRAGMA analysis_limit = 1000; ANALYZE") }
    summary.seconds = Self.seconds(since: started)
    return summary
  }

  private var commitStarted: UInt64 = 0

  static func seconds(since start: UInt64) -> Double {
    Double(MonotonicClock.nanoseconds() - start) / 1e9
  }

  /// Runs `body` and records its wall time as `step` in the summary.
  private func timed(_ step: String, _ body: () throws -> Void) throws {
    let start = MonotonicClock.nanoseconds()
    try body()
    summary.steps.append((step, Self.seconds(since: start)))
  }

  // MARK: - Reading files

  private func requireFiles() throws {
    for name in Self.requiredFiles where !source.hasFile(name) {
      throw GTFSError(file: name, .missingFile(name))
    }
    if !source.hasFile("calendar.txt") && !source.hasFile("calendar_dates.txt") {
      throw GTFSError(file: "calendar.txt", .missingFile("calendar.txt or calendar_dates.txt"))
    }
  }

  /// Opens `name` for reading; nil when the feed lacks it, or it is an empty optional file.
  private func open(_ name: String) throws -> CSVReader? {
    guard source.hasFile(name) else { return nil }
    let (stream, storedBytes) = try source.open(name)
    currentStoredBytes = storedBytes
    switch Result(catching: { () throws(GTFSError) -> CSVReader in try CSVReader(source: stream, file: name) }) {
    case .success(let reader):
      return reader
    case .failure(let error):
      guard error.reason == .emptyFile, !Self.requiredFiles.contains(name) else { throw error }
      summary.warnings.append("\(name): file is empty; ignored")
      return nil
    }
  }

  private var currentStoredBytes: () -> UInt64 = { 0 }

  /// Reports progress every 65,536 rows.
  @inline(__always)
  private func tick(_ reader: CSVReader) {
    if reader.recordCount & 0xFFFF == 0, let progress {
      progress(
        IngestProgress(
          file: reader.file, bytesDone: bytesDone + currentStoredBytes(), bytesTotal: bytesTotal, rows: reader.recordCount,
          isIndexing: false))
    }
  }

  /// Accounts for a file read to its end: progress, and a warning for ragged rows.
  private func finish(_ reader: CSVReader) {
    bytesDone += currentStoredBytes()
    currentStoredBytes = { 0 }
    if reader.raggedRowCount > 0 {
      let first = reader.raggedRows[0]
      summary.warnings.append(
        "\(reader.file):\(first.line): \(first.fields) fields where the header has \(reader.header.count)"
          + (reader.raggedRowCount > 1 ? " (and \(reader.raggedRowCount - 1) more such rows)" : ""))
    }
  }

  /// Streams `name` row by row through `body`; returns the rows read (0 when the file is absent).
  /// The big files (stop_times, shapes) loop inline instead: variables a closure captures are
  /// boxed and checked for exclusive access on every use.
  @discardableResult
  private func each(_ name: String, _ body: (CSVReader) throws -> Void) throws -> Int {
    guard let reader = try open(name) else { return 0 }
    while try reader.next() {
      try body(reader)
      tick(reader)
    }
    finish(reader)
    return reader.recordCount
  }

  private func invalid(_ reader: CSVReader, _ column: String, _ index: Int?, _ expected: String) -> GTFSError {
    GTFSError(file: reader.file, line: reader.line, .invalidValue(column: column, value: reader.string(index), expected: expected))
  }

  private func required(_ reader: CSVReader, _ column: String, _ index: Int) throws(GTFSError) -> String {
    let bytes = reader.field(index)
    guard !bytes.isEmpty else { throw GTFSError(file: reader.file, line: reader.line, .missingValue(column: column)) }
    return FieldParsing.text(bytes)
  }

  private func optionalInt(_ reader: CSVReader, _ column: String, _ index: Int?, in range: ClosedRange<Int>) throws(GTFSError) -> Int? {
    let bytes = reader.field(index)
    if bytes.isEmpty { return nil }
    guard let value = FieldParsing.integer(bytes), range.contains(value) else {
      throw invalid(reader, column, index, "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  private func optionalDouble(_ reader: CSVReader, _ column: String, _ index: Int?) throws(GTFSError) -> Double? {
    let bytes = reader.field(index)
    if bytes.isEmpty { return nil }
    guard let value = FieldParsing.double(bytes), value.isFinite else { throw invalid(reader, column, index, "a number") }
    return value
  }

  private func date(_ reader: CSVReader, _ column: String, _ index: Int) throws(GTFSError) -> Int {
    let bytes = reader.field(index)
    if bytes.isEmpty { throw GTFSError(file: reader.file, line: reader.line, .missingValue(column: column)) }
    guard let value = FieldParsing.date(bytes) else { throw invalid(reader, column, index, "a date (YYYYMMDD)") }
    return value
  }

  private func time(_ reader: CSVReader, _ column: String, _ index: Int?) throws(GTFSError) -> Int32? {
    let bytes = reader.field(index)
    if bytes.isEmpty { return nil }
    guard let value = FieldParsing.time(bytes) else {
      throw invalid(reader, column, index, "a time (H:MM:SS, minutes and seconds below 60)")
    }
    return value
  }

  private func warn(_ reader: CSVReader, _ message: String) {
    if summary.warnings.count < 200 { summary.warnings.append("\(reader.file):\(reader.line): \(message)") }
  }

  // MARK: - Files

  private func loadAgency() throws {
    let insert = try db.cached("INSERT INTO agency (agency_id, name, url, timezone, lang, phone, fare_url, email) VALUES (?,?,?,?,?,?,?,?)")
    var columns: [Int?] = []
    let count = try each("agency.txt") { r in
      if columns.isEmpty {
        columns = [
          r.column("agency_id"), try r.requiredColumn("agency_name"), try r.requiredColumn("agency_url"),
          try r.requiredColumn("agency_timezone"), r.column("agency_lang"), r.column("agency_phone"),
          r.column("agency_fare_url"), r.column("agency_email"),
        ]
      }
      let id = r.string(columns[0])
      guard agencies[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "agency_id", value: id)) }
      let name = try required(r, "agency_name", columns[1]!)
      let zone = try required(r, "agency_timezone", columns[3]!)
      guard try LocalZone.exists(zone) else {
        throw invalid(r, "agency_timezone", columns[3], "a time zone from the tz database (Europe/Dublin)")
      }
      insert.bind(id, at: 1)
      insert.bind(name, at: 2)
      insert.bind(r.optionalString(columns[2]), at: 3)
      insert.bind(zone, at: 4)
      for (offset, column) in columns[4...].enumerated() { insert.bind(r.optionalString(column), at: Int32(5 + offset)) }
      try insert.run()
      agencies[id] = db.lastInsertRowID
    }
    if count == 0 { throw GTFSError(file: "agency.txt", .emptyTable("agency.txt")) }
    summary.rows.append(("agency.txt", count))
  }

  private var feedInfo: [String: String] = [:]

  private func loadFeedInfo() throws {
    let count = try each("feed_info.txt") { r in
      guard feedInfo.isEmpty else { return }
      for key in [
        "feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date", "feed_version", "feed_contact_email",
      ] {
        if let value = r.optionalString(r.column(key)) { feedInfo[key] = value }
      }
    }
    if count > 0 { summary.rows.append(("feed_info.txt", count)) }
  }

  private func service(_ id: String) throws -> Int64 {
    if let index = services[id] { return index }
    let insert = try db.cached("INSERT INTO services (service_id) VALUES (?)")
    insert.bind(id, at: 1)
    try insert.run()
    let index = db.lastInsertRowID
    services[id] = index
    return index
  }

  private func loadCalendar() throws {
    let insert = try db.cached("INSERT INTO calendar (service_idx, weekdays, start_date, end_date) VALUES (?,?,?,?)")
    let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    var columns: [Int] = []
    let count = try each("calendar.txt") { r in
      if columns.isEmpty {
        columns = try (["service_id"] + days + ["start_date", "end_date"]).map { name throws(GTFSError) in try r.requiredColumn(name) }
      }
      let id = try required(r, "service_id", columns[0])
      if services[id] != nil {
        throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "service_id", value: id))
      }
      var mask = 0
      for (offset, day) in days.enumerated() {
        guard let value = FieldParsing.integer(r.field(columns[offset + 1])), value == 0 || value == 1 else {
          throw invalid(r, day, columns[offset + 1], "0 or 1")
        }
        mask |= value << offset
      }
      insert.bind(try service(id), at: 1)
      insert.bind(mask, at: 2)
      insert.bind(try date(r, "start_date", columns[8]), at: 3)
      insert.bind(try date(r, "end_date", columns[9]), at: 4)
      try insert.run()
    }
    if count > 0 { summary.rows.append(("calendar.txt", count)) }
  }

  private func loadCalendarDates() throws {
    let insert = try db.cached("INSERT OR REPLACE INTO calendar_dates (service_idx, date, exception_type) VALUES (?,?,?)")
    var columns: [Int] = []
    let count = try each("calendar_dates.txt") { r in
      if columns.isEmpty {
        columns = try ["service_id", "date", "exception_type"].map { name throws(GTFSError) in try r.requiredColumn(name) }
      }
      let id = try required(r, "service_id", columns[0])
      guard let type = FieldParsing.integer(r.field(columns[2])), type == 1 || type == 2 else {
        throw invalid(r, "exception_type", columns[2], "1 (added) or 2 (removed)")
      }
      insert.bind(try service(id), at: 1)
      insert.bind(try date(r, "date", columns[1]), at: 2)
      insert.bind(type, at: 3)
      try insert.run()
    }
    if count > 0 { summary.rows.append(("calendar_dates.txt", count)) }
  }

  private func loadRoutes() throws {
    let insert = try db.cached(
      "INSERT INTO routes (route_id, agency_idx, short_name, long_name, description, route_type, url, color, text_color, sort_order) VALUES (?,?,?,?,?,?,?,?,?,?)"
    )
    var c: [Int?] = []
    let onlyAgency = agencies.count == 1 ? agencies.values.first : nil
    let count = try each("routes.txt") { r in
      if c.isEmpty {
        c = [
          try r.requiredColumn("route_id"), r.column("agency_id"), r.column("route_short_name"), r.column("route_long_name"),
          r.column("route_desc"), try r.requiredColumn("route_type"), r.column("route_url"), r.column("route_color"),
          r.column("route_text_color"), r.column("route_sort_order"),
        ]
      }
      let id = try required(r, "route_id", c[0]!)
      guard routes[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "route_id", value: id)) }
      guard let type = FieldParsing.integer(r.field(c[5])), (0...1999).contains(type) else {
        throw invalid(r, "route_type", c[5], "a route type (0-12, or an extended type 100-1799)")
      }
      var agency = onlyAgency
      if let agencyID = r.optionalString(c[1]) {
        agency = agencies[agencyID]
        if agency == nil { warn(r, "route '\(id)' names agency_id '\(agencyID)', which agency.txt lacks") }
      } else if agency == nil {
        agency = agencies[""]
      }
      insert.bind(id, at: 1)
      insert.bind(agency, at: 2)
      insert.bind(r.optionalString(c[2]), at: 3)
      insert.bind(r.optionalString(c[3]), at: 4)
      insert.bind(r.optionalString(c[4]), at: 5)
      insert.bind(type, at: 6)
      insert.bind(r.optionalString(c[6]), at: 7)
      insert.bind(r.optionalString(c[7]), at: 8)
      insert.bind(r.optionalString(c[8]), at: 9)
      insert.bind(try optionalInt(r, "route_sort_order", c[9], in: 0...Int(Int32.max)).map(Int64.init), at: 10)
      try insert.run()
      routes[id] = db.lastInsertRowID
    }
    if routes.isEmpty { throw GTFSError(file: "routes.txt", .emptyTable("routes.txt")) }
    summary.rows.append(("routes.txt", count))
  }

  private func loadStops() throws {
    let insert = try db.cached(
      "INSERT INTO stops (stop_id, code, name, description, lat, lon, zone_id, url, location_type, parent_station, timezone, wheelchair_boarding, level_id, platform_code) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    )
    var c: [Int?] = []
    let count = try each("stops.txt") { r in
      if c.isEmpty {
        c = [
          try r.requiredColumn("stop_id"), r.column("stop_code"), r.column("stop_name"), r.column("stop_desc"),
          r.column("stop_lat"), r.column("stop_lon"), r.column("zone_id"), r.column("stop_url"),
          r.column("location_type"), r.column("parent_station"), r.column("stop_timezone"),
          r.column("wheelchair_boarding"), r.column("level_id"), r.column("platform_code"),
        ]
      }
      let id = try required(r, "stop_id", c[0]!)
      guard stops[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "stop_id", value: id)) }
      let type = try optionalInt(r, "location_type", c[8], in: 0...4) ?? 0
      let lat = try optionalDouble(r, "stop_lat", c[4])
      let lon = try optionalDouble(r, "stop_lon", c[5])
      if let lat, abs(lat) > 90 { throw invalid(r, "stop_lat", c[4], "a number between -90 and 90") }
      if let lon, abs(lon) > 180 { throw invalid(r, "stop_lon", c[5], "a number between -180 and 180") }
      if type <= 2 && (lat == nil || lon == nil) {
        throw GTFSError(file: r.file, line: r.line, .missingValue(column: lat == nil ? "stop_lat" : "stop_lon"))
      }
      insert.bind(id, at: 1)
      insert.bind(r.optionalString(c[1]), at: 2)
      insert.bind(r.optionalString(c[2]), at: 3)
      insert.bind(r.optionalString(c[3]), at: 4)
      insert.bind(lat, at: 5)
      insert.bind(lon, at: 6)
      insert.bind(r.optionalString(c[6]), at: 7)
      insert.bind(r.optionalString(c[7]), at: 8)
      insert.bind(type, at: 9)
      insert.bind(r.optionalString(c[9]), at: 10)
      insert.bind(r.optionalString(c[10]), at: 11)
      insert.bind(try optionalInt(r, "wheelchair_boarding", c[11], in: 0...2).map(Int64.init), at: 12)
      insert.bind(r.optionalString(c[12]), at: 13)
      insert.bind(r.optionalString(c[13]), at: 14)
      try insert.run()
      stops[id] = db.lastInsertRowID
    }
    if stops.isEmpty { throw GTFSError(file: "stops.txt", .emptyTable("stops.txt")) }
    summary.rows.append(("stops.txt", count))
  }

  private func loadTrips() throws {
    let insert = try db.cached(
      "INSERT INTO trips (trip_id, route_idx, service_idx, headsign, short_name, direction_id, block_id, shape_id, wheelchair_accessible, bikes_allowed) VALUES (?,?,?,?,?,?,?,?,?,?)"
    )
    var c: [Int?] = []
    var unknownRoutes = 0
    try each("trips.txt") { r in
      if c.isEmpty {
        c = [
          try r.requiredColumn("route_id"), try r.requiredColumn("service_id"), try r.requiredColumn("trip_id"),
          r.column("trip_headsign"), r.column("trip_short_name"), r.column("direction_id"), r.column("block_id"),
          r.column("shape_id"), r.column("wheelchair_accessible"), r.column("bikes_allowed"),
        ]
      }
      let id = try required(r, "trip_id", c[2]!)
      guard trips[id] == nil else { throw GTFSError(file: r.file, line: r.line, .duplicateKey(column: "trip_id", value: id)) }
      let routeID = try required(r, "route_id", c[0]!)
      guard let route = routes[routeID] else {
        unknownRoutes += 1
        if unknownRoutes <= 3 { warn(r, "trip '\(id)' names route_id '\(routeID)', which routes.txt lacks; trip left out") }
        return
      }
      let serviceID = try required(r, "service_id", c[1]!)
      if services[serviceID] == nil { warn(r, "trip '\(id)' names service_id '\(serviceID)', which no calendar defines; it never runs") }
      insert.bind(id, at: 1)
      insert.bind(route, at: 2)
      insert.bind(try service(serviceID), at: 3)
      insert.bind(r.optionalString(c[3]), at: 4)
      insert.bind(r.optionalString(c[4]), at: 5)
      insert.bind(try optionalInt(r, "direction_id", c[5], in: 0...1).map(Int64.init), at: 6)
      insert.bind(r.optionalString(c[6]), at: 7)
      insert.bind(r.optionalString(c[7]), at: 8)
      insert.bind(try optionalInt(r, "wheelchair_accessible", c[8], in: 0...2).map(Int64.init), at: 9)
      insert.bind(try optionalInt(r, "bikes_allowed", c[9], in: 0...2).map(Int64.init), at: 10)
      try insert.run()
      trips[id] = db.lastInsertRowID
      tripIDs.append(id)
      tripRoutes.append(route)
    }
    if unknownRoutes > 3 { summary.warnings.append("trips.txt: \(unknownRoutes) trips in all name routes that routes.txt lacks") }
    if trips.isEmpty { throw GTFSError(file: "trips.txt", .emptyTable("trips.txt")) }
    summary.rows.append(("trips.txt", trips.count))
  }

  // MARK: - stop_times

  /// One stop_times row held while its trip is read (a trip's rows are needed together to fill
  /// in untimed stops and to find a repeated stop_sequence with its line).
  struct PendingStopTime {
    var sequence: Int64
    var stop: Int64
    var arrival: Int32?
    var departure: Int32?
    var headsign: String?
    var pickup: Int64
    var dropOff: Int64
    var timepoint: Int64?
    var distance: Double?
    var line: Int
    var isInterpolated = false
  }

  private func loadStopTimes() throws {
    let started = MonotonicClock.nanoseconds()
    defer {
      // What is not spent on patterns and trip times is reading: the CSV and its fields.
      let total = Self.seconds(since: started)
      let patterns = Double(patternNanoseconds) / 1e9, tripTimes = Double(tripTimesNanoseconds) / 1e9
      summary.steps += [("csv parse", total - patterns - tripTimes), ("patterns", patterns), ("trip times", tripTimes)]
    }
    guard let r = try open("stop_times.txt") else { throw GTFSError(file: "stop_times.txt", .missingFile("stop_times.txt")) }
    let c: [Int?] = [
      try r.requiredColumn("trip_id"), try r.requiredColumn("stop_sequence"), r.column("stop_id"),
      r.column("arrival_time"), r.column("departure_time"), r.column("stop_headsign"),
      r.column("pickup_type"), r.column("drop_off_type"), r.column("timepoint"), r.column("shape_dist_traveled"),
    ]
    if c[2] == nil && r.column("location_id") == nil && r.column("location_group_id") == nil {
      throw GTFSError(file: r.file, line: 1, .missingColumn("stop_id"))
    }
    // Times are conditionally required per row, but their columns are not optional: without
    // them every trip would load with no times at all. GTFS-Flex files carry pickup windows instead.
    if r.column("start_pickup_drop_off_window") == nil {
      for (index, name) in [(3, "arrival_time"), (4, "departure_time")] where c[index] == nil {
        throw GTFSError(file: r.file, line: 1, .missingColumn(name))
      }
    }
    var pending: [PendingStopTime] = []
    var currentTrip: Int64 = 0
    var currentTripBytes: [UInt8] = []
    var flushed = [Bool](repeating: false, count: tripIDs.count + 1)
    var revisited = 0
    var unknownTrips = 0, unknownStops = 0, noStop = 0, stored = 0
    // Locals: a class property costs an exclusivity check on every row.
    let trips = self.trips, stops = self.stops
    // The stop ids of the previous trip and of this one so far, by position: consecutive trips
    // mostly share their stops, so comparing a few bytes spares making and hashing a String
    // for most rows.
    var previousStopBytes: [UInt8] = [], previousStopEnds: [Int] = [], previousStops: [Int64] = []
    var currentStopBytes: [UInt8] = [], currentStopEnds: [Int] = [], currentStops: [Int64] = []

    while try r.next() {
      tick(r)
      // The trip: rows come trip by trip, so compare bytes before hashing a String.
      let tripBytes = r.field(c[0])
      if !tripBytes.elementsEqual(currentTripBytes) {
        if currentTrip != 0 && !pending.isEmpty {
          if flushed[Int(currentTrip)] { revisited += 1 }
          stored += try storeTrip(currentTrip, &pending, revisited: flushed[Int(currentTrip)])
          flushed[Int(currentTrip)] = true
        }
        currentTripBytes.removeAll(keepingCapacity: true)
        currentTripBytes.append(contentsOf: tripBytes)
        if !currentStops.isEmpty {
          swap(&previousStopBytes, &currentStopBytes)
          swap(&previousStopEnds, &currentStopEnds)
          swap(&previousStops, &currentStops)
          currentStopBytes.removeAll(keepingCapacity: true)
          currentStopEnds.removeAll(keepingCapacity: true)
          currentStops.removeAll(keepingCapacity: true)
        }
        guard !tripBytes.isEmpty else { throw GTFSError(file: r.file, line: r.line, .missingValue(column: "trip_id")) }
        currentTrip = trips[FieldParsing.text(tripBytes)] ?? 0
      }
      guard currentTrip != 0 else {
        unknownTrips += 1
        if unknownTrips <= 3 { warn(r, "trip_id '\(r.string(c[0]))' is not in trips.txt; row left out") }
        continue
      }
      let stopBytes = r.field(c[2])
      if stopBytes.isEmpty {
        noStop += 1  // GTFS-Flex rows name a location or location group instead
        continue
      }
      let position = currentStops.count
      let stop: Int64
      if position < previousStops.count,
        case let start = position == 0 ? 0 : previousStopEnds[position - 1],
        previousStopEnds[position] - start == stopBytes.count,
        previousStopBytes.withUnsafeBytes({ memcmp($0.baseAddress! + start, stopBytes.baseAddress!, stopBytes.count) == 0 })
      {
        stop = previousStops[position]
      } else {
        guard let found = stops[FieldParsing.text(stopBytes)] else {
          unknownStops += 1
          if unknownStops <= 3 { warn(r, "stop_id '\(r.string(c[2]))' is not in stops.txt; row left out") }
          continue
        }
        stop = found
      }
      currentStopBytes.append(contentsOf: stopBytes)
      currentStopEnds.append(currentStopBytes.count)
      currentStops.append(stop)
      guard let sequence = FieldParsing.integer(r.field(c[1])), sequence >= 0, sequence <= Int(Int32.max) else {
        throw invalid(r, "stop_sequence", c[1], "a whole number from 0")
      }
      var arrival = try time(r, "arrival_time", c[3])
      var departure = try time(r, "departure_time", c[4])
      if arrival == nil { arrival = departure }
      if departure == nil { departure = arrival }
      let headsignBytes = r.field(c[5])
      pending.append(
        PendingStopTime(
          sequence: Int64(sequence), stop: stop, arrival: arrival, departure: departure,
          headsign: headsignBytes.isEmpty ? nil : FieldParsing.text(headsignBytes),
          pickup: Int64(try optionalInt(r, "pickup_type", c[6], in: 0...3) ?? 0),
          dropOff: Int64(try optionalInt(r, "drop_off_type", c[7], in: 0...3) ?? 0),
          timepoint: try optionalInt(r, "timepoint", c[8], in: 0...1).map(Int64.init),
          distance: try optionalDouble(r, "shape_dist_traveled", c[9]), line: r.line))
    }
    if currentTrip != 0 && !pending.isEmpty {
      if flushed[Int(currentTrip)] { revisited += 1 }
      stored += try storeTrip(currentTrip, &pending, revisited: flushed[Int(currentTrip)])
    }
    try storePatternSpans()
    finish(r)
    if revisited > 0 {
      summary.warnings.append("stop_times.txt: \(revisited) trips have their rows split across the file; merged")
    }
    if unknownTrips > 0 { summary.warnings.append("stop_times.txt: \(unknownTrips) rows name trips that trips.txt lacks; left out") }
    if unknownStops > 0 { summary.warnings.append("stop_times.txt: \(unknownStops) rows name stops that stops.txt lacks; left out") }
    if noStop > 0 { summary.warnings.append("stop_times.txt: \(noStop) rows name no stop_id (GTFS-Flex locations); left out") }
    if stored == 0 && noStop == 0 {
      throw GTFSError(
        file: "stop_times.txt", .emptyTable("stop_times.txt (\(unknownTrips) rows name unknown trips, \(unknownStops) unknown stops)"))
    }
    summary.rows.append(("stop_times.txt", stored))
  }

  /// Trips with equal keys share a pattern: the route, then per stop everything about a trip's
  /// call except its times (stop, stop_sequence, pickup and drop-off types, timepoint,
  /// headsign, shape_dist_traveled), packed into bytes. A national feed has tens of thousands
  /// of patterns of dozens of stops each: as arrays of structs of optionals they took about
  /// 80 bytes a stop, packed they take 4 to 14.
  struct PatternKey: Hashable {
    var route: Int64
    var bytes: [UInt8]

    /// The bytes in one call: `[UInt8]`'s own hashing feeds the hasher a byte at a time.
    func hash(into hasher: inout Hasher) {
      hasher.combine(route)
      hasher.combine(bytes.count)
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }

  /// Headsigns of stop_times, interned for pattern keys (by number from 1).
  private var stopHeadsigns: [String: UInt64] = [:]

  private func patternKey(route: Int64, _ rows: [PendingStopTime]) -> PatternKey {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(rows.count * 6)
    func varint(_ value: UInt64) {
      var value = value
      while value >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
      }
      bytes.append(UInt8(value))
    }
    for row in rows {
      varint(UInt64(bitPattern: row.stop))
      varint(UInt64(bitPattern: row.sequence))
      // pickup and drop-off 0...3 (2 bits each), timepoint none/0/1, then what follows.
      var flags = UInt8(row.pickup & 3) | UInt8(row.dropOff & 3) << 2
      if let timepoint = row.timepoint { flags |= UInt8(1 + (timepoint & 1)) << 4 }
      if row.headsign != nil { flags |= 0x40 }
      if row.distance != nil { flags |= 0x80 }
      bytes.append(flags)
      if let headsign = row.headsign {
        if let number = stopHeadsigns[headsign] {
          varint(number)
        } else {
          let number = UInt64(stopHeadsigns.count + 1)
          stopHeadsigns[headsign] = number
          varint(number)
        }
      }
      if let distance = row.distance {
        withUnsafeBytes(of: distance.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
      }
    }
    return PatternKey(route: route, bytes: bytes)
  }

  private var patterns: [PatternKey: Int64] = [:]
  /// Time spent finding or storing each trip's pattern, and storing its times.
  private var patternNanoseconds: UInt64 = 0
  private var tripTimesNanoseconds: UInt64 = 0
  private var patternSpans: [Int32] = []  // by pattern_idx - 1: the longest trip, in seconds
  /// By pattern_idx - 1, per position: the earliest and the latest time there of any of its
  /// trips, in seconds after the trip's first departure (Int32.max and Int32.min: none yet).
  private var patternOffsets: [[Int32]] = []
  private var tripRoutes: [Int64] = []  // by trip_idx - 1

  /// Stores one trip: in stop_sequence order, refusing a repeated stop_sequence with its line,
  /// with untimed stops filled in, as its pattern and its times. Empties `rows`; returns how
  /// many stop times it stored.
  private func storeTrip(_ trip: Int64, _ rows: inout [PendingStopTime], revisited: Bool) throws -> Int {
    defer { rows.removeAll(keepingCapacity: true) }
    let started = MonotonicClock.nanoseconds()
    let newRows = rows.count
    if revisited {
      // The trip's rows are split across the file: merge with what was stored before.
      rows += try storedRows(of: trip)
      try db.execute("DELETE FROM trip_times WHERE trip_idx = \(trip)")
    }
    if !zip(rows, rows.dropFirst()).allSatisfy({ $0.sequence < $1.sequence }) {
      rows.sort { ($0.sequence, $0.line) < ($1.sequence, $1.line) }
      for index in rows.indices.dropFirst() where rows[index].sequence == rows[index - 1].sequence {
        let line = max(rows[index].line, rows[index - 1].line)
        throw GTFSError(
          file: "stop_times.txt", line: line,
          .duplicateStopSequence(tripID: tripIDs[Int(trip) - 1], sequence: Int(rows[index].sequence)))
      }
    }
    summary.interpolatedStopTimes += Self.interpolate(&rows)

    let key = patternKey(route: tripRoutes[Int(trip) - 1], rows)
    let pattern: Int64
    if let known = patterns[key] {
      pattern = known
    } else {
      pattern = try insertPattern(key, rows)
    }
    let patternFound = MonotonicClock.nanoseconds()
    patternNanoseconds += patternFound - started
    defer { tripTimesNanoseconds += MonotonicClock.nanoseconds() - patternFound }

    var times = [UInt8](repeating: 0, count: rows.count * 8)
    var interpolated: [UInt8]? = nil
    var first: Int32?, last: Int32?
    for (position, row) in rows.enumerated() {
      let arrival = row.arrival ?? -1, departure = row.departure ?? -1
      withUnsafeBytes(of: arrival.littleEndian) { times.replaceSubrange(position * 8..<position * 8 + 4, with: $0) }
      withUnsafeBytes(of: departure.littleEndian) { times.replaceSubrange(position * 8 + 4..<position * 8 + 8, with: $0) }
      if first == nil, let time = row.departure { first = time }
      if let time = row.arrival { last = time }
      if row.isInterpolated {
        if interpolated == nil { interpolated = [UInt8](repeating: 0, count: (rows.count + 7) / 8) }
        interpolated![position / 8] |= 1 << UInt8(position % 8)
      }
    }
    if let first, let last, last - first > patternSpans[Int(pattern) - 1] {
      patternSpans[Int(pattern) - 1] = last - first
    }
    if let first {
      patternOffsets[Int(pattern) - 1].withUnsafeMutableBufferPointer { offsets in
        for (position, row) in rows.enumerated() where position * 2 + 1 < offsets.count {
          for time in [row.arrival, row.departure] {
            guard let time else { continue }
            offsets[position * 2] = min(offsets[position * 2], time - first)
            offsets[position * 2 + 1] = max(offsets[position * 2 + 1], time - first)
          }
        }
      }
    }
    let insert = try db.cached(
      "INSERT INTO trip_times (trip_idx, pattern_idx, first_departure, last_arrival, times, interpolated) VALUES (?,?,?,?,?,?)")
    insert.bind(trip, at: 1)
    insert.bind(pattern, at: 2)
    insert.bind(first.map(Int64.init), at: 3)
    insert.bind(last.map(Int64.init), at: 4)
    insert.bindBlob(times, at: 5)
    if let interpolated { insert.bindBlob(interpolated, at: 6) } else { insert.bindNull(at: 6) }
    try insert.run()
    return newRows
  }

  private func insertPattern(_ key: PatternKey, _ rows: [PendingStopTime]) throws -> Int64 {
    let insert = try db.cached("INSERT INTO patterns (route_idx, stop_count) VALUES (?, ?)")
    insert.bind(key.route, at: 1)
    insert.bind(rows.count, at: 2)
    try insert.run()
    let pattern = db.lastInsertRowID
    let insertStop = try db.cached(
      "INSERT INTO pattern_stops (pattern_idx, position, stop_idx, stop_sequence, pickup_type, drop_off_type, stop_headsign, timepoint, shape_dist_traveled) VALUES (?,?,?,?,?,?,?,?,?)"
    )
    for (position, stop) in rows.enumerated() {
      insertStop.bind(pattern, at: 1)
      insertStop.bind(position, at: 2)
      insertStop.bind(stop.stop, at: 3)
      insertStop.bind(stop.sequence, at: 4)
      insertStop.bind(stop.pickup, at: 5)
      insertStop.bind(stop.dropOff, at: 6)
      insertStop.bind(stop.headsign, at: 7)
      insertStop.bind(stop.timepoint, at: 8)
      insertStop.bind(stop.distance, at: 9)
      try insertStop.run()
    }
    patterns[key] = pattern
    patternSpans.append(0)
    var offsets = [Int32](repeating: Int32.max, count: rows.count * 2)
    for position in rows.indices { offsets[position * 2 + 1] = Int32.min }
    patternOffsets.append(offsets)
    return pattern
  }

  /// The rows stored for `trip` so far, as pending rows (times that were filled in are emptied
  /// again, to be filled in anew with the rest of the trip).
  private func storedRows(of trip: Int64) throws -> [PendingStopTime] {
    let select = try db.cached(
      "SELECT ps.stop_idx, ps.stop_sequence, ps.pickup_type, ps.drop_off_type, ps.stop_headsign, ps.timepoint, ps.shape_dist_traveled, tt.times, tt.interpolated FROM trip_times tt JOIN pattern_stops ps USING (pattern_idx) WHERE tt.trip_idx = ? ORDER BY ps.position"
    )
    select.bind(trip, at: 1)
    var rows: [PendingStopTime] = []
    while try select.step() {
      let position = rows.count
      let times = TripTimes(blob: select.blob(7), interpolated: select.blob(8))
      let wasFilledIn = times.isInterpolated(at: position)
      if wasFilledIn { summary.interpolatedStopTimes -= 1 }
      rows.append(
        PendingStopTime(
          sequence: select.int64(1), stop: select.int64(0), arrival: wasFilledIn ? nil : times.arrival(at: position),
          departure: wasFilledIn ? nil : times.departure(at: position), headsign: select.optionalText(4),
          pickup: select.int64(2), dropOff: select.int64(3), timepoint: select.optionalInt(5),
          distance: select.optionalDouble(6), line: 0))
    }
    return rows
  }

  /// Records each pattern's longest trip and its times at each position after the first
  /// departure (`patterns.offsets`: per position the least and the greatest, little-endian
  /// int32, -1 and -1 where no trip has a time), which bound departure queries.
  private func storePatternSpans() throws {
    let update = try db.cached("UPDATE patterns SET max_span = ?, offsets = ? WHERE pattern_idx = ?")
    for (index, span) in patternSpans.enumerated() {
      let offsets = patternOffsets[index]
      var bytes = [UInt8](repeating: 0, count: offsets.count * 4)
      for position in 0..<(offsets.count / 2) {
        let known = offsets[position * 2] <= offsets[position * 2 + 1]
        for (slot, value) in [offsets[position * 2], offsets[position * 2 + 1]].enumerated() {
          let word = UInt32(bitPattern: known ? value : -1)
          for byte in 0..<4 { bytes[position * 8 + slot * 4 + byte] = UInt8((word >> (8 * UInt32(byte))) & 0xFF) }
        }
      }
      update.bind(Int64(max(span, 0)), at: 1)
      update.bindBlob(bytes, at: 2)
      update.bind(Int64(index + 1), at: 3)
      try update.run()
    }
  }

  /// Fills in times of stops that have none between two timed stops of the same trip, by
  /// `shape_dist_traveled` when every stop involved has it, else evenly by stop count (GTFS:
  /// "arrival_time … is required … for timepoints; consumers may interpolate the others").
  /// Marks the rows it filled in and returns how many; leading and trailing untimed stops stay
  /// empty.
  static func interpolate(_ rows: inout [PendingStopTime]) -> Int {
    var filled = 0
    var previous: Int?
    for index in rows.indices where rows[index].departure != nil {
      if let from = previous, index - from > 1, let start = rows[from].departure, let end = rows[index].arrival {
        let startDistance = rows[from].distance, endDistance = rows[index].distance
        let byDistance =
          startDistance != nil && endDistance != nil && endDistance! > startDistance!
          && rows[(from + 1)..<index].allSatisfy { $0.distance != nil }
        for middle in (from + 1)..<index {
          let fraction: Double
          if byDistance {
            fraction = (rows[middle].distance! - startDistance!) / (endDistance! - startDistance!)
          } else {
            fraction = Double(middle - from) / Double(index - from)
          }
          let value = start + Int32((Double(end - start) * min(max(fraction, 0), 1)).rounded())
          rows[middle].arrival = value
          rows[middle].departure = value
          rows[middle].isInterpolated = true
          filled += 1
        }
      }
      previous = index
    }
    return filled
  }

  // MARK: - Other files

  private func loadFrequencies() throws {
    let insert = try db.cached(
      "INSERT OR REPLACE INTO frequencies (trip_idx, start_time, end_time, headway_secs, exact_times) VALUES (?,?,?,?,?)")
    var c: [Int?] = []
    var stored = 0
    try each("frequencies.txt") { r in
      if c.isEmpty {
        c = [
          try r.requiredColumn("trip_id"), try r.requiredColumn("start_time"), try r.requiredColumn("end_time"),
          try r.requiredColumn("headway_secs"), r.column("exact_times"),
        ]
      }
      let tripID = try required(r, "trip_id", c[0]!)
      guard let trip = trips[tripID] else { warn(r, "trip_id '\(tripID)' is not in trips.txt; row left out"); return }
      guard let start = try time(r, "start_time", c[1]) else {
        throw GTFSError(file: r.file, line: r.line, .missingValue(column: "start_time"))
      }
      guard let end = try time(r, "end_time", c[2]) else { throw GTFSError(file: r.file, line: r.line, .missingValue(column: "end_time")) }
      guard let headway = try optionalInt(r, "headway_secs", c[3], in: 1...86_400) else {
        throw GTFSError(file: r.file, line: r.line, .missingValue(column: "headway_secs"))
      }
      insert.bind(trip, at: 1)
      insert.bind(Int64(start), at: 2)
      insert.bind(Int64(end), at: 3)
      insert.bind(headway, at: 4)
      insert.bind(try optionalInt(r, "exact_times", c[4], in: 0...1) ?? 0, at: 5)
      try insert.run()
      stored += 1
    }
    if stored > 0 { summary.rows.append(("frequencies.txt", stored)) }
  }

  /// shapes.txt, one row per shape (`ShapePoints`): the points of a shape are read together,
  /// so a row per point (1.6 M of them in a country's feed, each a seek in a text-keyed B-tree)
  /// cost more than the stop times. Rows of one shape usually follow each other; a shape whose
  /// rows are split across the file is merged with what was stored. A repeated
  /// shape_pt_sequence keeps its last point.
  private func loadShapes() throws {
    let insert = try db.cached("INSERT OR REPLACE INTO shapes (shape_id, points) VALUES (?, ?)")
    let stored = try db.cached("SELECT points FROM shapes WHERE shape_id = ?")
    var c: [Int?] = []
    var shapeBytes: [UInt8] = [], shapeID = ""
    var points: [ShapePoints.Point] = []
    var written = Set<String>()
    func flush() throws {
      guard !points.isEmpty else { return }
      if written.contains(shapeID) {
        stored.reset()
        stored.bind(shapeID, at: 1)
        if try stored.step() { points = stored.withBlob(0) { ShapePoints.decode($0) } + points }
      }
      insert.reset()
      insert.bind(shapeID, at: 1)
      insert.bindBlob(ShapePoints.encode(ShapePoints.ordered(points)), at: 2)
      try insert.run()
      written.insert(shapeID)
      points.removeAll(keepingCapacity: true)
    }
    guard let r = try open("shapes.txt") else { return }
    while try r.next() {
      tick(r)
      if c.isEmpty {
        c = [
          try r.requiredColumn("shape_id"), try r.requiredColumn("shape_pt_lat"), try r.requiredColumn("shape_pt_lon"),
          try r.requiredColumn("shape_pt_sequence"), r.column("shape_dist_traveled"),
        ]
      }
      let idBytes = r.field(c[0])
      if !idBytes.elementsEqual(shapeBytes) {
        try flush()
        shapeBytes = Array(idBytes)
        shapeID = FieldParsing.text(idBytes)
      }
      guard let lat = try optionalDouble(r, "shape_pt_lat", c[1]), abs(lat) <= 90 else {
        throw invalid(r, "shape_pt_lat", c[1], "a number between -90 and 90")
      }
      guard let lon = try optionalDouble(r, "shape_pt_lon", c[2]), abs(lon) <= 180 else {
        throw invalid(r, "shape_pt_lon", c[2], "a number between -180 and 180")
      }
      guard let sequence = FieldParsing.integer(r.field(c[3])), sequence >= 0, sequence <= Int(Int32.max) else {
        throw invalid(r, "shape_pt_sequence", c[3], "a whole number from 0")
      }
      points.append(
        ShapePoints.Point(
          sequence: Int32(sequence), latitude: lat, longitude: lon, distance: try optionalDouble(r, "shape_dist_traveled", c[4])))
    }
    try flush()
    finish(r)
    if r.recordCount > 0 { summary.rows.append(("shapes.txt", r.recordCount)) }
  }

  /// Links every stop (location_type 0) to the stops within `Schema.footpathRadiusMeters` of
  /// it, both ways, by the haversine distance rounded to the metre.
  ///
  /// An R*Tree self-join here took time with the square of the stop count (14 s for 6,257
  /// stops; more than 10 minutes for 82,215), so the pairs are found in Swift on a grid
  /// (`FootpathFinder`) and written in key order, which appends to the WITHOUT ROWID table.
  /// - Complexity: O(n log n) in stops, plus the links written.
  private func loadFootpaths() throws {
    let select = try db.prepare(
      "SELECT stop_idx, lat, lon FROM stops WHERE location_type = 0 AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY stop_idx")
    var points: [FootpathFinder.Point] = []
    while try select.step() {
      points.append(
        FootpathFinder.Point(key: select.int64(0), coordinate: Coordinate(latitude: select.double(1), longitude: select.double(2))))
    }
    let insert = try db.prepare("INSERT INTO footpaths (from_stop_idx, to_stop_idx, distance_m) VALUES (?, ?, ?)")
    try FootpathFinder(radiusMeters: Schema.footpathRadiusMeters).forEachPoint(of: points) { point, links in
      for link in links {
        insert.reset()
        insert.bind(point.key, at: 1)
        insert.bind(link.to, at: 2)
        insert.bind(Int64(link.meters.rounded()), at: 3)
        try insert.run()
      }
    }
  }

  private func loadTransfers() throws {
    let insert = try db.cached(
      "INSERT INTO transfers (from_stop_id, to_stop_id, from_route_id, to_route_id, from_trip_id, to_trip_id, transfer_type, min_transfer_time) VALUES (?,?,?,?,?,?,?,?)"
    )
    var c: [Int?] = []
    let count = try each("transfers.txt") { r in
      if c.isEmpty {
        c = [
          r.column("from_stop_id"), r.column("to_stop_id"), r.column("from_route_id"), r.column("to_route_id"),
          r.column("from_trip_id"), r.column("to_trip_id"), r.column("transfer_type"), r.column("min_transfer_time"),
        ]
      }
      for index in 0..<6 { insert.bind(r.optionalString(c[index]), at: Int32(index + 1)) }
      insert.bind(try optionalInt(r, "transfer_type", c[6], in: 0...5) ?? 0, at: 7)
      insert.bind(try optionalInt(r, "min_transfer_time", c[7], in: 0...86_400).map(Int64.init), at: 8)
      try insert.run()
    }
    if count > 0 { summary.rows.append(("transfers.txt", count)) }
  }

  // MARK: - stops.json

  /// A Dublin-style list: `[{"stop_id": …, "stop_code": …, "stop_name": …, "stop_lat": …,
  /// "stop_lon": …}]`, ids and codes as strings or numbers. Becomes a stops-only network.
  private func loadStopsJSON() throws {
    let name = PathText.lastComponent(source.path)
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: source.path)) } catch {
      throw GTFSError(file: name, .unreadable("cannot be read"))
    }
    let insert = try db.cached("INSERT INTO stops (stop_id, code, name, lat, lon, location_type) VALUES (?,?,?,?,?,0)")
    for stop in try StopsJSON.parse(data, name: name) {
      insert.bind(stop.id, at: 1)
      insert.bind(stop.code, at: 2)
      insert.bind(stop.name, at: 3)
      insert.bind(stop.lat, at: 4)
      insert.bind(stop.lon, at: 5)
      try insert.run()
      stops[stop.id] = db.lastInsertRowID
    }
    if stops.isEmpty { throw GTFSError(file: name, .emptyTable("the stop list")) }
    summary.rows.append(("stops.json", stops.count))
  }

  // MARK: - Meta

  private func writeMeta() throws {
    let insert = try db.cached("INSERT OR REPLACE INTO feed_meta (key, value) VALUES (?, ?)")
    func put(_ key: String, _ value: String?) throws {
      guard let value else { return }
      insert.bind(key, at: 1)
      insert.bind(value, at: 2)
      try insert.run()
    }
    try put("source", source.path)
    try put("kind", "\(source.kind)")
    for (key, value) in feedInfo { try put(key, value) }
    // The service range: the first and last dates on which some service runs. feed_info's own
    // dates stay as feed_start_date / feed_end_date; they are often wrong (KCM's say 2020 for a
    // 2021 calendar), so they are not the range shown.
    if let range = try serviceRange() {
      try put("service_start", String(range.first.yyyymmdd))
      try put("service_end", String(range.last.yyyymmdd))
    }
    try put("timezone", try db.scalarText("SELECT timezone FROM agency ORDER BY agency_idx LIMIT 1"))
    // What every departure query needs first (how many service days back to look), once here
    // rather than in every process: one index seek per pattern.
    try put("latest_time", try db.scalarInt(FeedReader.latestTimeSQL).map { String($0) })
    // The box around the stops, so that a query far from this feed skips it (many feeds held).
    let box = try db.prepare(
      "SELECT min(lat), min(lon), max(lat), max(lon) FROM stops WHERE location_type = 0 AND lat IS NOT NULL AND lon IS NOT NULL")
    if try box.step(), !box.isNull(0) {
      try put("stop_box", (0..<4).map { String(box.double(Int32($0))) }.joined(separator: ","))
    }
    for (file, count) in summary.rows { try put("rows." + file, String(count)) }
  }

  /// The first and last dates on which at least one service runs: calendar.txt by weekday
  /// within its dates, then calendar_dates.txt adding (1) and removing (2) single dates.
  ///
  /// - Complexity: O(d × s) for d dates walked from each end until a running one and s
  ///   calendar rows; a feed whose dates never run is walked once.
  func serviceRange() throws -> (first: ServiceDate, last: ServiceDate)? {
    var rows: [(service: Int64, weekdays: Int, start: Int, end: Int)] = []
    let calendar = try db.prepare("SELECT service_idx, weekdays, start_date, end_date FROM calendar")
    while try calendar.step() { rows.append((calendar.int64(0), calendar.int(1), calendar.int(2), calendar.int(3))) }
    var added: [Int: Int] = [:]  // date: services added
    var removed: [Int: Set<Int64>] = [:]
    let exceptions = try db.prepare("SELECT service_idx, date, exception_type FROM calendar_dates")
    while try exceptions.step() {
      if exceptions.int(2) == 1 {
        added[exceptions.int(1), default: 0] += 1
      } else {
        removed[exceptions.int(1), default: []].insert(exceptions.int64(0))
      }
    }
    let bounds = rows.flatMap { [$0.start, $0.end] } + added.keys
    guard let low = bounds.min().flatMap({ ServiceDate(yyyymmdd: $0) }), let high = bounds.max().flatMap({ ServiceDate(yyyymmdd: $0) })
    else { return nil }
    func runs(_ date: ServiceDate) -> Bool {
      let day = date.yyyymmdd
      if added[day] != nil { return true }
      let bit = 1 << (date.weekday - 1)  // bit 0 is Monday
      return rows.contains { row in
        row.start <= day && day <= row.end && row.weekdays & bit != 0 && removed[day]?.contains(row.service) != true
      }
    }
    var first = low
    while first <= high && !runs(first) { first = first.adding(days: 1) }
    guard first <= high else { return nil }
    var last = high
    while !runs(last) { last = last.adding(days: -1) }
    return (first, last)
  }
}
