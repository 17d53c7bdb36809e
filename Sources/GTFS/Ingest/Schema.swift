import SQLite

/// The timetable database's layout, one file per feed.
///
/// Ids are interned to integers (`stop_idx`, `trip_idx`, …). stop_times.txt is not stored row by
/// row: trips are grouped by *pattern* (the same route, stops, stop_sequences and per-stop
/// attributes), as the fastest routers do. A pattern's stops are stored once (`pattern_stops`);
/// each trip stores only its pattern and its times (`trip_times.times`: per position an arrival
/// and a departure as little-endian int32 seconds, -1 for none). A 5-million-row stop_times.txt
/// becomes a few thousand pattern rows and one row per trip, so ingest costs little more than
/// reading the CSV, and the by-stop index covers patterns, not stop_times rows.
///
/// Departures at a stop: `pattern_stops_by_stop` gives the patterns and positions serving it,
/// with what departures read of each call (a covering index: no second seek per pattern);
/// `trip_times_by_pattern` bounds the trips to those starting within the window moved back by
/// the least and the most time any of the pattern's trips takes from its first departure to
/// that position (`patterns.offsets`), so only trips that can be at the stop in the window are
/// read; `patterns.starts` lists the pattern's trips by first departure with their service, so
/// that range is found without an index seek per pattern and service date (a busy stop has 140
/// patterns) and only trips whose service runs are read.
///
/// Journey planning: `footpaths` holds every pair of stops (location_type 0) within
/// `footpathRadiusMeters` of each other in a straight line, both ways, found once at ingest
/// (`FootpathFinder`); the walking time is worked out per query from the user's walking speed.
/// `routing_index` holds the router's arrays by connected part of the network (`RoutingIndex`),
/// so that a search reads only the part its ends are in.
enum Schema {
  /// Bumped when the layout changes; a timetable of another version must be ingested again.
  // 5: routing_index (RoutingIndex), the router's arrays by part of the network; patterns.offsets; shapes one row per shape
  // 6: trips.mta_trip_id (NYCT's trip names, for its realtime convention)
  // 7: complexes (StopComplexes), the station complexes found at ingest
  // 8: no stops_fts, words or stop_words: the search tables (StopSearchTables) answer every
  //    name, word and typo search, so each open parses seven schema objects fewer
  static let version = 8

  /// Stops at most this far apart (straight line) are linked by a footpath.
  static let footpathRadiusMeters = 400.0

  /// At most this many stops (location_type 0, placed) in one timetable: the largest national
  /// feeds hold a few hundred thousand.
  static let maxStops = 2_000_000

  /// The tables. Those that store a GTFS file's columns are written from its column table
  /// (`StoredTable`), so a column is named, typed and constrained in one place; the rest hold
  /// what ingest derives (services, patterns, trip times, footpaths, the router's arrays).
  static let tables = [
    "CREATE TABLE feed_meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;",
    StoredTable.create("agency", of: AgencyColumn.self, leading: ["agency_idx INTEGER PRIMARY KEY"]),
    "CREATE TABLE services (service_idx INTEGER PRIMARY KEY, service_id TEXT NOT NULL UNIQUE);",
    StoredTable.create(
      "calendar", of: CalendarColumn.self, leading: ["service_idx INTEGER PRIMARY KEY"], derived: ["weekdays INTEGER NOT NULL"]),
    StoredTable.create(
      "calendar_dates", of: CalendarDateColumn.self, leading: ["service_idx INTEGER NOT NULL"],
      constraints: ["PRIMARY KEY (service_idx, date)"], withoutRowID: true),
    StoredTable.create(
      "routes", of: RouteColumn.self, leading: ["route_idx INTEGER PRIMARY KEY"], derived: ["agency_idx INTEGER"]),
    StoredTable.create("stops", of: StopColumn.self, leading: ["stop_idx INTEGER PRIMARY KEY"], derived: ["parent_idx INTEGER"]),
    StoredTable.create(
      "trips", of: TripColumn.self, leading: ["trip_idx INTEGER PRIMARY KEY"],
      derived: ["route_idx INTEGER NOT NULL", "service_idx INTEGER NOT NULL"]),
    """
    CREATE TABLE patterns (
      pattern_idx INTEGER PRIMARY KEY, route_idx INTEGER NOT NULL, stop_count INTEGER NOT NULL,
      max_span INTEGER NOT NULL DEFAULT 0, offsets BLOB, starts BLOB);
    CREATE TABLE pattern_stops (
      pattern_idx INTEGER NOT NULL, position INTEGER NOT NULL, stop_idx INTEGER NOT NULL,
      stop_sequence INTEGER NOT NULL, pickup_type INTEGER NOT NULL DEFAULT 0,
      drop_off_type INTEGER NOT NULL DEFAULT 0, stop_headsign TEXT, timepoint INTEGER,
      shape_dist_traveled REAL, PRIMARY KEY (pattern_idx, position)) WITHOUT ROWID;
    CREATE TABLE trip_times (
      trip_idx INTEGER PRIMARY KEY, pattern_idx INTEGER NOT NULL,
      first_departure INTEGER, last_arrival INTEGER, times BLOB NOT NULL, interpolated BLOB);
    """,
    StoredTable.create(
      "frequencies", of: FrequencyColumn.self, leading: ["trip_idx INTEGER NOT NULL"],
      constraints: ["PRIMARY KEY (trip_idx, start_time)"], withoutRowID: true),
    """
    CREATE TABLE shapes (shape_id TEXT PRIMARY KEY, points BLOB NOT NULL) WITHOUT ROWID;
    CREATE TABLE footpaths (
      from_stop_idx INTEGER NOT NULL, to_stop_idx INTEGER NOT NULL, distance_m INTEGER NOT NULL,
      PRIMARY KEY (from_stop_idx, to_stop_idx)) WITHOUT ROWID;
    CREATE TABLE routing_index (part INTEGER PRIMARY KEY, data BLOB NOT NULL);
    """,
    StoredTable.create("transfers", of: TransferColumn.self),
  ].joined(separator: "\n")

  /// The ids of stops and trips, unique, built after the load (ingest refuses a repeated id as
  /// it reads): keeping a text index while inserting 462,595 trips cost seconds.
  static let idIndexes = """
    CREATE UNIQUE INDEX stops_by_id ON stops (stop_id);
    CREATE UNIQUE INDEX trips_by_id ON trips (trip_id);
    """

  /// Built after the load: sorting once is far cheaper than keeping indexes while inserting.
  static let indexes = """
    CREATE INDEX pattern_stops_by_stop ON pattern_stops (stop_idx, stop_sequence, pickup_type, drop_off_type, stop_headsign);
    CREATE INDEX trip_times_by_pattern ON trip_times (pattern_idx, first_departure);
    CREATE INDEX trips_by_route ON trips (route_idx);
    CREATE INDEX calendar_dates_by_date ON calendar_dates (date);
    CREATE INDEX trips_by_block ON trips (block_id) WHERE block_id IS NOT NULL;
    CREATE INDEX trips_by_mta_trip_id ON trips (mta_trip_id) WHERE mta_trip_id IS NOT NULL;
    CREATE INDEX stops_by_parent ON stops (parent_idx) WHERE parent_idx IS NOT NULL;
    CREATE INDEX stops_by_code ON stops (code) WHERE code IS NOT NULL;
    CREATE VIRTUAL TABLE stops_rtree USING rtree (stop_idx, min_lat, max_lat, min_lon, max_lon);
    INSERT INTO stops_rtree SELECT stop_idx, lat, lat, lon, lon FROM stops
      WHERE lat IS NOT NULL AND lon IS NOT NULL;
    """

  /// Settings for building a new file nobody reads yet: no journal (a crash loses only the
  /// `.new` file), a large page cache, and worker threads for the index sort.
  static let buildPragmas = """
    PRAGMA journal_mode = OFF;
    PRAGMA synchronous = OFF;
    PRAGMA locking_mode = EXCLUSIVE;
    PRAGMA cache_size = -32768;
    PRAGMA temp_store = FILE;
    PRAGMA threads = 2;
    """

  static func create(in connection: Connection) throws(SQLiteError) {
    try connection.execute("PRAGMA page_size = 8192;")
    try connection.execute(buildPragmas)
    try connection.execute(tables)
    try connection.execute("PRAGMA user_version = \(version);")
  }
}
