import FoundationEssentials
import SQLite
import TransitModel

/// Every timetable in a data folder, opened read-only, queried as one: stops, routes and
/// scheduled departures across all feeds held.
///
/// The only SQL behind the stop and departure commands lives here and in the files beside it
/// (`StopQueries.swift`, `DepartureQueries.swift`, `ServiceCalendar.swift`). Ids are unique only
/// within a feed, so values carry their feed's name; output names it only where two feeds
/// share an id.
///
/// Not Sendable: it owns SQLite connections.
public final class Store {
  let feeds: [FeedReader]
  /// The name words of all feeds, once built (`sharedVocabulary()`).
  var sharedVocabularyCache: SharedVocabulary?
  /// The folder of the timetables (nil when opened from files), where the catalogs are kept.
  let feedsDirectory: String?
  /// Per feed (as `feeds`), its file's identity as seen before the file was read; nil when it
  /// could not be seen, or when opened from files.
  let identities: [FeedCatalog.Identity?]

  /// Holds every feed under `directory/feeds` (see `Timetables`). A timetable the catalog
  /// (`FeedCatalog`) describes as it is on disk is opened only when a query reaches it; any
  /// other is opened here, and the catalog rewritten with it.
  /// - Throws: `SQLiteError` or `IngestError` when a timetable cannot be read.
  public init(directory: String) throws {
    let timetables = Timetables(directory: directory)
    let files = try timetables.files()
    let feedsDirectory = timetables.feedsDirectory
    var catalog = FeedCatalog.read(from: feedsDirectory)
    var changed = false
    var readers: [FeedReader] = []
    var held: [Timetables.Feed] = []
    var identities: [FeedCatalog.Identity?] = []
    for (name, path) in files {
      let identity = FeedCatalog.Identity(path: path)
      identities.append(identity)
      if let identity, let entry = catalog.entries[name], entry.identity == identity,
        let reader = FeedReader(name: FeedName(name), path: path, entry: entry)
      {
        readers.append(reader)
        held.append(Timetables.Feed(name: name, path: path, meta: entry.meta))
        continue
      }
      // Opened now (SQLite parses a database's schema on every open, so once): feed_meta is
      // read through the reader's own connection rather than by `Timetables.list()`.
      let reader = try FeedReader(name: FeedName(name), path: path)
      let meta = try reader.meta()
      readers.append(reader)
      held.append(Timetables.Feed(name: name, path: path, meta: meta))
      // The identity from before the open: a file replaced meanwhile fails the next check.
      if let identity {
        catalog.entries[name] = FeedCatalog.Entry(identity: identity, meta: meta, filter: reader.keyFilter)
        changed = true
      }
    }
    let names = Set(files.map(\.name))
    for name in catalog.entries.keys where !names.contains(name) {
      catalog.entries[name] = nil
      changed = true
    }
    if changed { catalog.write(to: feedsDirectory) }
    feeds = readers
    self.held = held
    self.feedsDirectory = feedsDirectory
    self.identities = identities
    source = .directory(directory)
  }

  /// Opens the given timetable files (tests, benchmarks), each under its name.
  public init(files: [(name: String, path: String)]) throws {
    held = []
    feeds = try files.map { try FeedReader(name: FeedName($0.name), path: $0.path) }
    feedsDirectory = nil
    identities = files.map { _ in nil }
    source = .files(files)
  }

  /// What the store was opened from, for `reopened()`.
  private enum Source {
    case directory(String)
    case files([(name: String, path: String)])
  }
  private let source: Source

  /// Another store over the same timetables, with connections of its own: what another thread
  /// queries them with (a store is not to be shared between threads).
  /// - Throws: as the initialisers do.
  public func reopened() throws -> Store {
    switch source {
    case .directory(let directory): try Store(directory: directory)
    case .files(let files): try Store(files: files)
    }
  }

  /// The feeds held, with their feed_meta (empty when opened from files).
  public let held: [Timetables.Feed]

  /// The names of the feeds held, sorted.
  public var feedNames: [FeedName] { feeds.map(\.name) }

  /// Whether any feed is held.
  public var isEmpty: Bool { feeds.isEmpty }

  /// The agency time zone of `feed` (all agencies of one feed share it, as GTFS requires).
  public func timeZone(of feed: FeedName) -> LocalZone {
    reader(feed)?.zone ?? LocalZone.utc
  }

  func reader(_ feed: FeedName) -> FeedReader? { feeds.first { $0.name == feed } }

  /// The middle of the network: the mean position of every stop held, or nil with no stops.
  /// - Complexity: one pass over each feed's stops.
  public func networkCentre() throws -> Coordinate? {
    var count = 0.0, latitude = 0.0, longitude = 0.0
    for feed in feeds {
      guard let (n, lat, lon) = try feed.centre() else { continue }
      count += n
      latitude += lat * n
      longitude += lon * n
    }
    return count == 0 ? nil : Coordinate(latitude: latitude / count, longitude: longitude / count)
  }
}

/// One feed's timetable and what queries keep about it (time zone, active services by date,
/// frequency-based trips).
final class FeedReader {
  let name: FeedName
  let path: String
  /// The timetable once opened (`timetable`).
  private var opened: Timetable?
  /// The timetable, opened on first use when the catalog described it (`init(name:path:entry:)`).
  /// - Throws: `SQLiteError` or `IngestError` when it cannot be opened.
  var timetable: Timetable {
    get throws {
      if let opened { return opened }
      let timetable = try Self.open(path)
      opened = timetable
      return timetable
    }
  }
  /// Whether the timetable has been opened (tests: what a command touched).
  var isOpen: Bool { opened != nil }
  var db: Connection { get throws { try timetable.db } }
  let zone: LocalZone
  /// `feed_meta` as the catalog has it; nil until read from the timetable.
  private var knownMeta: [String: String]?
  private var calendarCache: ServiceCalendar?
  /// `tripSpans(on:)` of the last few dates asked.
  var spansByDate: [(date: ServiceDate, spans: [TripSpan])] = []
  /// The `trips` row (trip_idx, service_idx) of each trip_id `Store.tripDetails` found, so the
  /// `tripFacts` asked of the same trip next needs no second lookup by text (at most
  /// `tripRowLimit`; then it starts again).
  var tripRows: [String: (index: Int64, service: Int64)] = [:]
  static let tripRowLimit = 65_536

  func remember(trip tripID: String, index: Int64, service: Int64) {
    if tripRows.count >= Self.tripRowLimit { tripRows.removeAll(keepingCapacity: true) }
    tripRows[tripID] = (index, service)
  }

  /// The trip_idx of `id`, or nil: the trip_id index alone (no table row is read), and not
  /// even that for an id the trip filter (`tripFilter`) says the feed cannot hold.
  func tripIndex(id: String) throws -> Int64? {
    if let tripFilter = try tripFilter, !tripFilter.mayContain(FeedKeyFilter.Probe(.tripID, id)) { return nil }
    let select = try db.cached("SELECT trip_idx FROM trips WHERE trip_id = ?")
    select.bind(id, at: 1)
    defer { select.reset() }
    return try select.step() ? select.int64(0) : nil
  }

  /// When each service date asked starts in the feed's zone (a time-zone computation each; a
  /// realtime step asks it of every trip's dates). At most 64 dates, then it starts again.
  private var dayStarts: [ServiceDate: UnixTime] = [:]

  func serviceDayStart(_ date: ServiceDate) -> UnixTime {
    if let known = dayStarts[date] { return known }
    let start = ServiceCalendar.start(of: date, in: zone)
    if dayStarts.count >= 64 { dayStarts.removeAll(keepingCapacity: true) }
    dayStarts[date] = start
    return start
  }
  /// The active services by date, read from the timetable.
  var calendar: ServiceCalendar {
    get throws {
      if let calendarCache { return calendarCache }
      let calendar = ServiceCalendar(db: try db, zone: zone)
      calendarCache = calendar
      return calendar
    }
  }
  /// The latest time any trip reaches a stop, in service-day seconds (bounds how many service
  /// days back a departure "now" can come from). Read on first use: one index seek per pattern,
  /// which the commands that never ask for departures should not pay.
  private(set) lazy var latestTime: Int32 = {
    // Ingest stores it in feed_meta; else worked out here. (A read error leaves 0; the
    // departure query that follows reports it.)
    if let stored = knownMeta?["latest_time"] ?? (try? db.scalarText("SELECT value FROM feed_meta WHERE key = 'latest_time'")),
      let value = Int32(stored)
    {
      return value
    }
    return Int32((try? db.scalarInt(Self.latestTimeSQL)) ?? 0)
  }()

  /// An upper bound on Timetable.latestArrival() from index seeks alone (max(last_arrival)
  /// would read every trip's row, blobs and all): each pattern's latest start plus its longest
  /// trip.
  static let latestTimeSQL =
    "SELECT max((SELECT max(tt.first_departure) FROM trip_times tt WHERE tt.pattern_idx = p.pattern_idx) + p.max_span) FROM patterns p"
  private var frequencyCache: [Int64: [FrequencyWindow]]?
  /// The box around the feed's stops (location_type 0) as ingest stored it: min latitude,
  /// min longitude, max latitude, max longitude; nil when not stored (then never used to skip).
  private(set) lazy var stopBox: [Double]? = {
    guard let text = knownMeta.map({ $0["stop_box"] }) ?? (try? db.scalarText("SELECT value FROM feed_meta WHERE key = 'stop_box'"))
    else { return nil }
    let values = text.split(separator: ",").compactMap { Double($0) }
    return values.count == 4 ? values : nil
  }()
  /// Routes by route_idx, as read (`route(_:)`).
  var routeCache: [Int64: RouteSummary] = [:]
  /// `routingStopParts()`, once read.
  var stopPartsCache: [Int32]?
  /// `typoVocabulary()`, once read.
  var vocabularyCache: TypoVocabulary?
  /// Whether ingest made `stop_routes` (`StopRoutes`); without it the routes at a stop are
  /// read through its patterns.
  private(set) lazy var hasStopRoutes: Bool = {
    (try? db)?.hasTable("stop_routes") ?? false
  }()
  /// The keys this feed can be looked up by (`FeedKeyFilter`), read on first use; nil for a
  /// timetable made before ingest stored them (then every lookup asks the feed).
  private(set) lazy var keyFilter: FeedKeyFilter? = (try? db).flatMap(FeedKeyFilter.read)

  /// The filter of this feed's trip ids (`FeedKeyFilter.buildTrips`), read on the first lookup
  /// of a trip by its id; nil for a timetable made before ingest stored it.
  var tripFilter: FeedKeyFilter? {
    get throws {
      if let tripFilterCache { return tripFilterCache }
      let filter = FeedKeyFilter.readTrips(from: try db)
      tripFilterCache = .some(filter)
      return filter
    }
  }
  private var tripFilterCache: FeedKeyFilter??

  /// False only when this feed holds no such key: a lookup for it can skip the feed.
  func mayHold(_ probe: FeedKeyFilter.Probe) -> Bool {
    keyFilter?.mayContain(probe) ?? true
  }

  /// Opens the timetable at `path` now.
  init(name: FeedName, path: String) throws {
    self.name = name
    self.path = path
    let timetable = try Self.open(path)
    opened = timetable
    let zoneName =
      try timetable.db.scalarText("SELECT value FROM feed_meta WHERE key = 'timezone'")
      ?? timetable.db.scalarText("SELECT timezone FROM agency ORDER BY agency_idx LIMIT 1")
    zone = try zoneName.map { name throws(LocalZoneError) in try LocalZone(named: name) } ?? LocalZone.utc
  }

  /// The timetable at `path` as the catalog's `entry` describes it, not opened until a query
  /// needs it; nil when the entry cannot be used (a time zone this machine cannot read), and
  /// then the timetable is opened.
  init?(name: FeedName, path: String, entry: FeedCatalog.Entry) {
    // Ingest stores the agencies' zone in feed_meta; a feed without agencies (stops.json) has
    // none, and is read in UTC, as when opened.
    var zone = LocalZone.utc
    if let zoneName = entry.meta["timezone"] {
      guard let named = try? LocalZone(named: zoneName) else { return nil }
      zone = named
    }
    self.name = name
    self.path = path
    self.zone = zone
    knownMeta = entry.meta
    keyFilter = entry.filter
  }

  /// Opens a timetable for reading.
  private static func open(_ path: String) throws -> Timetable {
    let timetable = try Timetable(path: path)
    // Read through a memory map: a query touches scattered trip rows, and a page in the map
    // costs no read(2). The file is replaced by rename, never rewritten, so the map stays valid.
    // For the same reason the shared lock taken by the first read is kept (locking_mode
    // EXCLUSIVE; nothing ever writes to a timetable once it is in place): without it every
    // statement locks and unlocks the file and looks for a hot journal, three system calls
    // that cost more than an index seek, once per feed held.
    try timetable.db.execute("PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -16384; PRAGMA locking_mode = EXCLUSIVE;")
    return timetable
  }

  /// The timetable's feed_meta (source, service dates, time zone, row counts, ...).
  func meta() throws -> [String: String] {
    if let knownMeta { return knownMeta }
    let statement = try db.prepare("SELECT key, value FROM feed_meta")
    var meta: [String: String] = [:]
    while try statement.step() { meta[statement.text(0)] = statement.text(1) }
    return meta
  }

  private var startRanges: [Int64: ClosedRange<Int64>?] = [:]

  /// The earliest and latest first departure of `pattern`'s trips (two index seeks, cached);
  /// nil when none of its trips is timed.
  func startRange(of pattern: Int64) throws -> ClosedRange<Int64>? {
    if let known = startRanges[pattern] { return known }
    let select = try db.cached(
      """
      SELECT (SELECT min(first_departure) FROM trip_times WHERE pattern_idx = ?1 AND first_departure IS NOT NULL),
             (SELECT max(first_departure) FROM trip_times WHERE pattern_idx = ?1)
      """)
    select.bind(pattern, at: 1)
    var range: ClosedRange<Int64>?
    if try select.step(), !select.isNull(0), !select.isNull(1), select.int64(0) <= select.int64(1) {
      range = select.int64(0)...select.int64(1)
    }
    startRanges[pattern] = range
    return range
  }

  /// The number of positioned stops and their mean position.
  func centre() throws -> (Double, Double, Double)? {
    let select = try db.cached("SELECT count(*), avg(lat), avg(lon) FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL")
    guard try select.step(), select.int(0) > 0 else { return nil }
    return (select.double(0), select.double(1), select.double(2))
  }

  /// One row of frequencies.txt with the template trip's pattern and first departure.
  struct FrequencyWindow {
    var trip: Int64
    var templateStart: Int32
    var start: Int32
    var end: Int32
    var headway: Int32
    var exactTimes: Bool
    /// The template's last arrival minus its first departure.
    var span: Int32
  }

  /// frequencies.txt with each template trip's pattern. CROSS JOIN keeps frequencies as the
  /// outer loop: without it SQLite may scan every trip and probe frequencies for each.
  static let frequenciesSQL = """
    SELECT tt.pattern_idx, f.trip_idx, tt.first_departure, f.start_time, f.end_time, f.headway_secs, f.exact_times,
           coalesce(tt.last_arrival - tt.first_departure, 0)
    FROM frequencies f CROSS JOIN trip_times tt ON tt.trip_idx = f.trip_idx
    WHERE tt.first_departure IS NOT NULL AND f.headway_secs > 0
    """

  /// frequencies.txt by pattern, read once (feeds hold few rows of it).
  func frequencies() throws -> [Int64: [FrequencyWindow]] {
    if let frequencyCache { return frequencyCache }
    let select = try db.cached(Self.frequenciesSQL)
    var result: [Int64: [FrequencyWindow]] = [:]
    while try select.step() {
      result[select.int64(0), default: []].append(
        FrequencyWindow(
          trip: select.int64(1), templateStart: Int32(select.int64(2)), start: Int32(select.int64(3)),
          end: Int32(select.int64(4)), headway: Int32(select.int64(5)), exactTimes: select.int64(6) == 1,
          span: Int32(select.int64(7))))
    }
    frequencyCache = result
    return result
  }

  /// The trips that are templates for frequencies.txt (their own times are not departures).
  private(set) lazy var frequencyTrips: Set<Int64> = {
    Set(((try? frequencies()) ?? [:]).values.joined().map(\.trip))
  }()

  /// The latest time, in service-day seconds, at which any trip or frequency instance calls.
  private(set) lazy var latestCall: Int32 = {
    let instances = ((try? frequencies()) ?? [:]).values.joined().map { $0.end + $0.span }
    return max(latestTime, instances.max() ?? 0)
  }()
}
