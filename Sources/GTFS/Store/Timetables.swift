import FoundationEssentials
import Glibc
import HostSystem
import SQLite
import TransitModel

/// The timetables held in a data folder: one SQLite file per feed under `feeds/`, each replaced
/// whole, on its own, by an ingest.
///
/// An ingest builds `NAME.sqlite.new`, validates it, keeps the current file as
/// `NAME.sqlite.prev` (a hard link, so the current name never stops existing) and renames the
/// new file over the current one. rename(2) is atomic, so a reader — or a crash — sees either
/// the old timetable or the new one, never neither and never half of one.
public struct Timetables: Sendable {
  /// The data folder (`$XDG_DATA_HOME/transit`).
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// Where the per-feed files live.
  public var feedsDirectory: String { directory + "/feeds" }

  /// The current timetable file of `feed`.
  /// - Throws: `IngestError.invalidFeedName` when `feed` is not a valid feed name
  ///   (`FeedName.isValid`): no name builds a path outside the feeds folder.
  public func path(of feed: String) throws(IngestError) -> String {
    guard FeedName.isValid(feed) else { throw .invalidFeedName(feed) }
    return feedsDirectory + "/" + feed + ".sqlite"
  }

  /// A feed held in the data folder.
  public struct Feed: Sendable, Equatable {
    public var name: String
    public var path: String
    /// feed_meta, as stored: source, service_start, service_end, loaded_at, timezone, rows.*.
    public var meta: [String: String]

    /// The number of rows stored from `file`.
    public func rows(_ file: String) -> Int { Int(meta["rows." + file] ?? "") ?? 0 }
  }

  /// Every feed held, by name.
  public func list() throws -> [Feed] {
    return try files().map { name, path in
      let connection = try Connection(path: path, mode: .readOnly)
      let statement = try connection.prepare("SELECT key, value FROM feed_meta")
      var meta: [String: String] = [:]
      while try statement.step() { meta[statement.text(0)] = statement.text(1) }
      return Feed(name: name, path: path, meta: meta)
    }
  }

  /// The name and path of every feed held, sorted by name, without opening any (a query opens
  /// each once itself; `list()` opens them to read their `feed_meta`).
  public func files() throws -> [(name: String, path: String)] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: feedsDirectory)) ?? [])
      .filter { $0.hasSuffix(".sqlite") }
      .map { String($0.dropLast(".sqlite".count)) }
      .sorted()
    return try names.filter(FeedName.isValid).map { name in (name, try path(of: name)) }
  }

  /// Drops `feed`'s timetable (and its previous copy).
  /// - Returns: false when no such feed is held.
  @discardableResult
  public func remove(_ feed: String) throws -> Bool {
    let current = try path(of: feed)
    let lock = try IngestLock(directory: directory)
    defer { _ = lock }
    guard FileManager.default.fileExists(atPath: current) else { return false }
    try FileManager.default.removeItem(atPath: current)
    try? FileManager.default.removeItem(atPath: current + ".prev")
    refreshCatalog()
    return true
  }

  /// Loads the feed at `sourcePath` as `feed` (or a name derived from its agency, else the file
  /// name), replacing that feed's timetable only when the new one loads and validates.
  ///
  /// - Parameter meta: extra `feed_meta` entries to store with the timetable (a download's
  ///   source URL and content hash, say); they replace entries of the same key.
  /// - Parameter lateMeta: more entries, asked for once the feed is loaded (a content hash
  ///   worked out on another thread meanwhile, say); its error fails the ingest.
  /// - Parameter progress: called every 65,536 rows and once when the indexes are built.
  /// - Parameter maxUnzippedBytes: the most a ZIP feed's files may unzip to in all.
  /// - Throws: `GTFSError`, `ZipError`, `SQLiteError` or `IngestError`; the current timetable is
  ///   untouched whenever this throws.
  /// - Parameter policy: the swap gate's thresholds; a timetable already held is replaced only
  ///   when the new one passes every check (`SwapPolicy`), or when `policy.isForced`.
  /// - Parameter threads: 1 loads on this thread alone; more reads stop_times.txt on a thread
  ///   of its own beside the writing (`IngestThreads`). The timetable is the same either way.
  /// - Parameter waitForLock: called while another ingest holds the lock, with the failed
  ///   attempts so far; it sleeps a little and returns true to try again, false to give up.
  @discardableResult
  public func ingest(
    _ sourcePath: String, as feed: String? = nil, now: Int64, meta: [String: String] = [:],
    lateMeta: (() throws -> [String: String])? = nil, maxUnzippedBytes: UInt64 = FeedSource.defaultMaxUnzippedBytes,
    policy: SwapPolicy = SwapPolicy(), threads: Int = IngestThreads.default,
    waitForLock: ((Int) -> Bool)? = nil, progress: ((IngestProgress) -> Void)? = nil
  ) throws -> (feed: String, summary: IngestSummary) {
    if let feed { _ = try path(of: feed) }  // a bad name fails before anything is touched
    try FileManager.default.createDirectory(atPath: feedsDirectory, withIntermediateDirectories: true)
    let lock = try IngestLock(directory: directory, wait: waitForLock)
    defer { _ = lock }
    let source = try FeedSource(path: sourcePath, maxUnzippedBytes: maxUnzippedBytes)
    let name = try feed ?? FeedNaming.derive(source)
    let current = try path(of: name)
    let building = current + ".new"
    try? FileManager.default.removeItem(atPath: building)
    try? FileManager.default.removeItem(atPath: building + "-journal")
    var summary: IngestSummary
    do {
      let connection = try Connection(path: building, mode: .readWriteCreate)
      summary = try FeedImporter(source: source, database: connection, threads: threads, progress: progress).run()
      try connection.execute("INSERT OR REPLACE INTO feed_meta (key, value) VALUES ('loaded_at', '\(now)'), ('name', '\(name)')")
      var meta = meta
      if let lateMeta { meta.merge(try lateMeta()) { $1 } }
      if !meta.isEmpty {
        let insert = try connection.prepare("INSERT OR REPLACE INTO feed_meta (key, value) VALUES (?, ?)")
        for (key, value) in meta.sorted(by: { $0.key < $1.key }) {
          insert.reset()
          insert.bind(key, at: 1)
          insert.bind(value, at: 2)
          try insert.run()
        }
      }
      let validationStarted = MonotonicClock.nanoseconds()
      try Self.validate(connection)
      summary.steps.append(("validation", FeedImporter.seconds(since: validationStarted)))
      if FileManager.default.fileExists(atPath: current) {
        let held = try Connection(path: current, mode: .readOnly)
        let checks = SwapGate.checks(
          new: try TimetableFacts(connection, now: UnixTime(now), lookaheadDays: policy.lookaheadDays),
          old: try TimetableFacts(held, now: UnixTime(now), lookaheadDays: policy.lookaheadDays), policy: policy)
        summary.checks = checks
        if !policy.isForced && checks.contains(where: { !$0.passed }) {
          throw IngestError.refused(feed: name, checks: checks)
        }
      }
    } catch {
      try? FileManager.default.removeItem(atPath: building)
      throw error
    }
    // The connection is closed: every page is in the file. Make it durable, then swap.
    try Self.fsync(path: building)
    try Self.swap(building, into: current)
    try Self.fsync(path: feedsDirectory)
    refreshCatalog()
    return (name, summary)
  }

  /// Rewrites the catalogs of the timetables held (`FeedCatalog`, `VocabularyCatalog`) after a
  /// swap, so the next command opens none it does not need: only the entries that no longer
  /// match their file are read again. Best effort: a catalog left stale is found so, and
  /// mended, by the next reader.
  func refreshCatalog() {
    _ = try? Store(directory: directory).sharedVocabulary()
  }

  /// Moves the file `building` to `current`, keeping the file it replaces as `current.prev`.
  /// The new rollback copy is linked under a spare name and renamed over the old one (rename is
  /// atomic), then the new file renamed into place: a crash at any moment leaves a `.prev` (the
  /// old one or the new) once there has been a first swap, and `current` never stops existing.
  /// - Parameter step: told after each change to the folder (tests watch the files there).
  static func swap(_ building: String, into current: String, step: (String) -> Void = { _ in }) throws {
    if FileManager.default.fileExists(atPath: current) {
      let spare = current + ".prev.new"
      unlink(spare)
      guard link(current, spare) == 0 else {
        throw IngestError.io("cannot keep the previous timetable as \(current).prev: \(String(cString: strerror(errno)))")
      }
      step("linked")
      guard rename(spare, current + ".prev") == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(spare)
        throw IngestError.io("cannot keep the previous timetable as \(current).prev: \(reason)")
      }
      step("kept")
    }
    guard rename(building, current) == 0 else {
      throw IngestError.io("cannot move the new timetable into place: \(String(cString: strerror(errno)))")
    }
    step("swapped")
  }

  /// Swaps `feed`'s previous timetable (`NAME.sqlite.prev`) back in, keeping the one it
  /// replaces as the new previous one, under the ingest lock. A reader, or a crash, sees one
  /// whole timetable or the other at every moment: the current name never stops existing.
  /// - Throws: `IngestError.noPrevious` when there is nothing to roll back to.
  public func rollback(_ feed: String, waitForLock: ((Int) -> Bool)? = nil) throws {
    let current = try path(of: feed)
    let lock = try IngestLock(directory: directory, wait: waitForLock)
    defer { _ = lock }
    let previous = current + ".prev", swapping = current + ".rollback"
    guard FileManager.default.fileExists(atPath: previous) else { throw IngestError.noPrevious(feed) }
    try? FileManager.default.removeItem(atPath: swapping)
    if FileManager.default.fileExists(atPath: current) {
      // A second name for the current file first: after the rename below it becomes .prev.
      guard link(current, swapping) == 0 else {
        throw IngestError.io("cannot keep \(current) aside: \(String(cString: strerror(errno)))")
      }
    }
    guard rename(previous, current) == 0 else {
      try? FileManager.default.removeItem(atPath: swapping)
      throw IngestError.io("cannot move the previous timetable into place: \(String(cString: strerror(errno)))")
    }
    if FileManager.default.fileExists(atPath: swapping) {
      guard rename(swapping, previous) == 0 else {
        throw IngestError.io("cannot keep the rolled-back timetable as \(previous): \(String(cString: strerror(errno)))")
      }
    }
    try Self.fsync(path: feedsDirectory)
    refreshCatalog()
  }

  /// The path of `feed`'s previous timetable, when one is kept.
  public func previousPath(of feed: String) throws -> String? {
    let previous = try path(of: feed) + ".prev"
    return FileManager.default.fileExists(atPath: previous) ? previous : nil
  }

  /// feed_meta of `feed`'s previous timetable, when one is kept.
  public func previousMeta(of feed: String) throws -> [String: String]? {
    let previous = try path(of: feed) + ".prev"
    guard FileManager.default.fileExists(atPath: previous) else { return nil }
    let connection = try Connection(path: previous, mode: .readOnly)
    let statement = try connection.prepare("SELECT key, value FROM feed_meta")
    var meta: [String: String] = [:]
    while try statement.step() { meta[statement.text(0)] = statement.text(1) }
    return meta
  }

  /// Checks a freshly built timetable before it replaces the current one.
  static func validate(_ connection: Connection) throws {
    guard (try connection.scalarInt("SELECT count(*) FROM stops")) ?? 0 > 0 else {
      throw IngestError.validation("the new timetable has no stops")
    }
    let kind = try connection.scalarText("SELECT value FROM feed_meta WHERE key = 'kind'")
    if kind != "stopsJSON" {
      for table in ["agency", "routes", "trips"] where (try connection.scalarInt("SELECT count(*) FROM \(table)")) ?? 0 == 0 {
        throw IngestError.validation("the new timetable has no rows in \(table)")
      }
      let dangling =
        try connection.scalarInt(
          "SELECT count(*) FROM trips t WHERE NOT EXISTS (SELECT 1 FROM routes r WHERE r.route_idx = t.route_idx)") ?? 0
      if dangling > 0 { throw IngestError.validation("\(dangling) trips point at missing routes") }
    }
  }

  static func fsync(path: String) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw IngestError.io("cannot open \(path) to sync it") }
    defer { close(fd) }
    Glibc.fsync(fd)
  }
}

/// Why an ingest stopped, beyond a problem in the feed's own files.
public enum IngestError: Error, Equatable, CustomStringConvertible {
  case locked(pid: String)
  case invalidFeedName(String)
  case validation(String)
  case io(String)
  /// The swap gate refused the new timetable (`checks` holds every check, passed or not).
  case refused(feed: String, checks: [SwapCheck])
  /// `rollback` found no previous timetable.
  case noPrevious(String)
  /// A timetable file written by another version of transit, in another layout.
  case incompatibleLayout(path: String, found: Int, expected: Int)

  public var description: String {
    switch self {
    case .locked(let pid):
      return "another ingest is running\(pid.isEmpty ? "" : " (pid \(pid))"); try again when it has finished"
    case .invalidFeedName(let name):
      return "feed name '\(name)' must be \(FeedName.rule)"
    case .validation(let detail): return "the new timetable is not usable: \(detail); the current one is kept"
    case .io(let detail): return detail
    case .refused(let feed, let checks):
      let failed = checks.filter { !$0.passed }.map { "\($0.name): \($0.detail)" }.joined(separator: "; ")
      return "refused to replace the timetable of \(feed): \(failed); the current one is kept"
    case .noPrevious(let feed): return "no previous timetable of \(feed) is kept; nothing to roll back to"
    case .incompatibleLayout(let path, let found, let expected):
      return "\(path) was made by another version of transit (layout \(found), this one reads \(expected))"
    }
  }
}

/// A lock file held while an ingest runs (`flock`, released by the kernel if the process dies).
final class IngestLock {
  private let fd: Int32

  /// Takes the lock; while another ingest holds it, `wait` (if given) is called with the
  /// number of failed attempts so far and returns whether to try again (it does the sleeping:
  /// the library keeps no clock of its own).
  init(directory: String, wait: ((Int) -> Bool)? = nil) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/ingest.lock"
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw IngestError.io("cannot open \(path): \(String(cString: strerror(errno)))") }
    var attempts = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      attempts += 1
      if let wait, wait(attempts) { continue }
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = pread(fd, &buffer, 32, 0)
      close(fd)
      let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingSpacesAndNewlines()
      throw IngestError.locked(pid: pid)
    }
    let text = "\(getpid())\n"
    ftruncate(fd, 0)
    _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
  }

  deinit {
    flock(fd, LOCK_UN)
    close(fd)
  }
}

/// Names for feeds held side by side.
enum FeedNaming {
  /// The agency's name when the feed has one agency, else feed_info's publisher, else the file
  /// name: "Caltrain" becomes `caltrain`, "Bay Area Rapid Transit" `bay-area-rapid-transit`.
  static func derive(_ source: FeedSource) throws -> String {
    let fileName = slug(PathText.lastComponentWithoutExtension(source.path))
    guard source.kind != .stopsJSON else { return fileName.isEmpty ? "stops" : fileName }
    var candidates: [String] = []
    if source.hasFile("agency.txt") {
      let (stream, _) = try source.open("agency.txt")
      let reader = try CSVReader(source: stream, file: "agency.txt")
      var names: [String] = []
      while try reader.next(), names.count < 2 { names.append(reader.string(reader.column("agency_name"))) }
      if names.count == 1 { candidates.append(names[0]) }
    }
    if source.hasFile("feed_info.txt") {
      let (stream, _) = try source.open("feed_info.txt")
      let reader = try CSVReader(source: stream, file: "feed_info.txt")
      if try reader.next() { candidates.append(reader.string(reader.column("feed_publisher_name"))) }
    }
    candidates.append(fileName)
    return candidates.map(slug).first { !$0.isEmpty } ?? "feed"
  }

  static func slug(_ text: String) -> String {
    var result = ""
    for character in TextFold.fold(text, widths: false) {
      if character.isASCII && (character.isLetter || character.isNumber) {
        result.append(character)
      } else if !result.isEmpty && result.last != "-" {
        result.append("-")
      }
    }
    while result.hasSuffix("-") { result.removeLast() }
    return String(result.prefix(64))
  }
}
