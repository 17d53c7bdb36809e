import FoundationEssentials
import Glibc
import HostSystem
import SQLite
import TransitModel

/// How many threads an ingest uses unless told: `TRANSIT_INGEST_THREADS` when set to a whole
/// number (1 reads and writes one after the other on one thread), else 2 on a machine of two
/// cores or more, else 1.
public enum IngestThreads {
  public static var `default`: Int {
    if let text = getenv("TRANSIT_INGEST_THREADS").map({ String(cString: $0) }), let value = Int(text), value >= 1 {
      return value
    }
    return sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 1
  }
}

/// Loads one GTFS feed into a new timetable database.
///
/// Streams every file through `CSVReader` (never a whole table in memory), in one transaction
/// with prepared statements, interning ids to integers, and builds the indexes after the load.
final class FeedImporter {
  let source: FeedSource
  let db: Connection
  let progress: ((IngestProgress) -> Void)?
  var summary = IngestSummary()

  var agencies: [String: Int64] = [:]
  var services: [String: Int64] = [:]
  var routes: [String: Int64] = [:]
  var stops: [String: Int64] = [:]
  var trips: [String: Int64] = [:]
  var tripIDs: [String] = []  // by trip_idx - 1, for error messages

  var bytesDone: UInt64 = 0
  let bytesTotal: UInt64
  static let files = [
    "agency.txt", "feed_info.txt", "calendar.txt", "calendar_dates.txt", "routes.txt", "stops.txt",
    "trips.txt", "stop_times.txt", "frequencies.txt", "shapes.txt", "transfers.txt",
    "pathways.txt",
  ]

  static let requiredFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

  /// Threads the load may use: above 1, stop_times.txt is read and parsed on a thread of its
  /// own while this one stores it (`loadStopTimes`); 1 does everything on this thread.
  let threads: Int

  init(source: FeedSource, database: Connection, threads: Int = IngestThreads.default, progress: ((IngestProgress) -> Void)?) {
    self.source = source
    self.db = database
    self.threads = max(1, threads)
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
      try timed("search tables") { try StopSearchTables.build(in: db) }
      try timed("key filter") {
        try FeedKeyFilter.build(in: db)  // (reads the search tables)
        try FeedKeyFilter.buildTrips(in: db)
      }
      try timed("stop routes") { try StopRoutes.build(in: db) }
      try timed("complexes") { try loadComplexes() }
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

  var commitStarted: UInt64 = 0

  static func seconds(since start: UInt64) -> Double {
    Double(MonotonicClock.nanoseconds() - start) / 1e9
  }

  /// Runs `body` and records its wall time as `step` in the summary.
  func timed(_ step: String, _ body: () throws -> Void) throws {
    let start = MonotonicClock.nanoseconds()
    try body()
    summary.steps.append((step, Self.seconds(since: start)))
  }

  // MARK: - Reading files

  func requireFiles() throws {
    for name in Self.requiredFiles where !source.hasFile(name) {
      throw GTFSError(file: name, .missingFile(name))
    }
    if !source.hasFile("calendar.txt") && !source.hasFile("calendar_dates.txt") {
      throw GTFSError(file: "calendar.txt", .missingFile("calendar.txt or calendar_dates.txt"))
    }
  }

  /// Opens `name` for reading; nil when the feed lacks it, or it is an empty optional file.
  func open(_ name: String) throws -> CSVReader? {
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

  var currentStoredBytes: () -> UInt64 = { 0 }

  /// Reports progress every 65,536 rows.
  @inline(__always)
  func tick(_ reader: CSVReader) {
    if reader.recordCount & 0xFFFF == 0, let progress {
      progress(
        IngestProgress(
          file: reader.file, bytesDone: bytesDone + currentStoredBytes(), bytesTotal: bytesTotal, rows: reader.recordCount,
          isIndexing: false))
    }
  }

  /// Accounts for a file read to its end: progress, and a warning for ragged rows.
  func finish(_ reader: CSVReader) {
    bytesDone += currentStoredBytes()
    currentStoredBytes = { 0 }
    if reader.raggedRowCount > 0 {
      let first = reader.raggedRows[0]
      summary.warnings.append(
        "\(reader.file):\(first.line): \(first.fields) fields where the header has \(reader.header.count)"
          + (reader.raggedRowCount > 1 ? " (and \(reader.raggedRowCount - 1) more such rows)" : ""))
    }
  }

  /// Streams a file row by row through `body`, its columns found by `Column`'s specs; returns
  /// the rows read (0 when the file is absent). The big files (stop_times, shapes) loop inline
  /// instead: variables a closure captures are boxed and checked for exclusive access on every use.
  @discardableResult
  func each<Column: GTFSColumns>(_ columns: Column.Type, _ body: (GTFSRows<Column>) throws -> Void) throws -> Int {
    guard let reader = try open(Column.file) else { return 0 }
    let rows = try GTFSRows<Column>(reader)
    while try reader.next() {
      try body(rows)
      tick(reader)
    }
    summary.warnings += rows.outOfRangeWarnings
    finish(reader)
    return reader.recordCount
  }

  func warn(_ reader: CSVReader, _ message: String) {
    if summary.warnings.count < 200 { summary.warnings.append("\(reader.file):\(reader.line): \(message)") }
  }

  var feedInfo: [String: String] = [:]

  // stop_times: patterns and trip times (TripPatterns.swift)
  var tripRoutes: [Int64] = []  // by trip_idx - 1
  /// Headsigns of stop_times, interned for pattern keys (by number from 1).
  var stopHeadsigns: [String: UInt32] = [:]
  var headsignTexts: [String] = []  // by number - 1
  var patterns: [PatternKey: Int64] = [:]
  /// The previous trip's pattern and its key, and the buffer pattern keys are written into.
  var lastPattern: (key: PatternKey, pattern: Int64)?
  var patternKeyBuffer: [UInt8] = []
  /// Time spent finding or storing each trip's pattern, and storing its times.
  var patternNanoseconds: UInt64 = 0
  var tripTimesNanoseconds: UInt64 = 0
  var patternSpans: [Int32] = []  // by pattern_idx - 1: the longest trip, in seconds
  /// By pattern_idx - 1, per position: the earliest and the latest time there of any of its
  /// trips, in seconds after the trip's first departure (Int32.max and Int32.min: none yet).
  var patternOffsets: [[Int32]] = []

  func service(_ id: String) throws -> Int64 {
    if let index = services[id] { return index }
    let insert = try db.cached("INSERT INTO services (service_id) VALUES (?)")
    insert.bind(id, at: 1)
    try insert.run()
    let index = db.lastInsertRowID
    services[id] = index
    return index
  }

  /// Links every stop (location_type 0) to the stops within `Schema.footpathRadiusMeters` of
  /// it, both ways, by the haversine distance rounded to the metre.
  ///
  /// An R*Tree self-join here took time with the square of the stop count (14 s for 6,257
  /// stops; more than 10 minutes for 82,215), so the pairs are found in Swift, each stop's
  /// nearest by a bounded search of a k-d tree (`FootpathFinder`: at most 200 per stop, however
  /// densely the stops are packed), and written in key order, which appends to the WITHOUT
  /// ROWID table.
  /// - Complexity: O(n log n) in stops, plus the links written (at most 200 per stop).
  func loadFootpaths() throws {
    let select = try db.prepare(
      "SELECT stop_idx, lat, lon FROM stops WHERE location_type = 0 AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY stop_idx")
    var points: [FootpathFinder.Point] = []
    while try select.step() {
      points.append(
        FootpathFinder.Point(key: select.int64(0), coordinate: Coordinate(latitude: select.double(1), longitude: select.double(2))))
    }
    if points.count > Schema.maxStops {
      throw GTFSError(
        file: "stops.txt", .limitExceeded("\(points.count) stops, more than the \(Schema.maxStops) a timetable may hold"))
    }
    let insert = try db.prepare("INSERT INTO footpaths (from_stop_idx, to_stop_idx, distance_m) VALUES (?, ?, ?)")
    do {
      try FootpathFinder(radiusMeters: Schema.footpathRadiusMeters).forEachPoint(of: points) { point, links in
        for link in links {
          insert.reset()
          insert.bind(point.key, at: 1)
          insert.bind(link.to, at: 2)
          insert.bind(Int64(roundingFinite: link.meters) ?? 0, at: 3)
          try insert.run()
        }
      }
    } catch let error as FootpathFinder.TooDense {
      throw GTFSError(
        file: "stops.txt",
        .limitExceeded(
          "\(error.positions) stop positions packed too densely to link by footpaths"
            + " (more than \(FootpathFinder.maxComparisons(points: points.count)) distance checks)"))
    }
  }

  // MARK: - stops.json

  /// A Dublin-style list: `[{"stop_id": …, "stop_code": …, "stop_name": …, "stop_lat": …,
  /// "stop_lon": …}]`, ids and codes as strings or numbers. Becomes a stops-only network.
  func loadStopsJSON() throws {
    let name = PathText.lastComponent(source.path)
    // Read a MiB at a time: the list is never held whole (a 734 MB file took 715 MB).
    guard let file = fopen(source.path, "rb") else { throw GTFSError(file: name, .unreadable("cannot be read")) }
    defer { fclose(file) }
    var status = stat()
    if fstat(fileno(file), &status) == 0, Int(status.st_size) > StopsJSON.maxFileBytes {
      throw GTFSError(
        file: name,
        .limitExceeded("\(Int(status.st_size) >> 20) MiB, larger than the \(StopsJSON.maxFileBytes >> 20) MiB a stops.json may be"))
    }
    let insert = try db.cached("INSERT INTO stops (stop_id, code, name, lat, lon, location_type) VALUES (?,?,?,?,?,0)")
    var reader = StopsJSON.Reader(name: name)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count == 0 {
        if ferror(file) != 0 { throw GTFSError(file: name, .unreadable("cannot be read")) }
        break
      }
      let stopsRead = try chunk.withUnsafeBufferPointer { (bytes) throws(GTFSError) in
        try reader.feed(UnsafeBufferPointer(rebasing: bytes.prefix(count)))
      }
      for stop in stopsRead {
        insert.bind(stop.id, at: 1)
        insert.bind(stop.code, at: 2)
        insert.bind(stop.name, at: 3)
        insert.bind(stop.lat, at: 4)
        insert.bind(stop.lon, at: 5)
        try insert.run()
        stops[stop.id] = db.lastInsertRowID
      }
    }
    try reader.finish()
    if stops.isEmpty { throw GTFSError(file: name, .emptyTable("the stop list")) }
    summary.rows.append(("stops.json", stops.count))
  }

  // MARK: - Meta

  func writeMeta() throws {
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
