import Fetch
import FoundationEssentials
import GTFSRealtime
import History
import TransitModel

/// What `history import DIR` asks: a folder of recorded snapshots to take in, the caps its
/// files are read within (`RealtimeCapture`: un-gzipped, decoded), and the retention the
/// history keeps.
public struct HistoryImportRequest: Sendable {
  /// The folder of `.pb` (or `.pb.gz`) files.
  public var directory: String
  /// The sizes and counts a file may hold.
  public var caps: RealtimeCaps
  /// When the import runs (Unix seconds, the real clock), remembered with each snapshot.
  public var importedAt: Int64
  /// The days the history keeps: older calls are deleted after the import.
  public var retentionDays: Int

  public init(
    directory: String, caps: RealtimeCaps, importedAt: Int64, retentionDays: Int
  ) {
    self.directory = directory
    self.caps = caps
    self.importedAt = importedAt
    self.retentionDays = retentionDays
  }
}

/// Why a folder could not be taken in.
public enum HistoryImportFailure: Error {
  /// The folder cannot be listed.
  case unreadableFolder(String)
  /// A file of it cannot be read.
  case unreadableFile(String)
  /// A file's header has no timestamp, and its name does not start with one.
  case noTimestamp(String)
  /// The folder holds no `.pb` file.
  case noSnapshots(String)
  /// Reading a snapshot threw `error`, after `takenIn` snapshots went in.
  case readFailure(any Error, takenIn: Int)
}

/// What `history import` did. Its `Encodable` form is `history import --json`.
public struct HistoryImportAnswer: Sendable, Encodable {
  /// The folder read.
  public var folder: String
  /// What the snapshots taken in gave.
  public var counts: HistoryRecorder.Counts
  /// Snapshots left out: already in the history, or older than its newest.
  public var alreadyImported: Int
  public var olderThanHistory: Int
  /// Calls deleted as older than the retention.
  public var removedPastRetention: Int

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(folder, forKey: "folder")
    try counts.encode(to: encoder)
    var rest = encoder.container(keyedBy: JSONKey.self)
    try rest.encode(alreadyImported, forKey: "already_imported")
    try rest.encode(olderThanHistory, forKey: "older_than_history")
    try rest.encode(removedPastRetention, forKey: "removed_past_retention")
  }
}

extension TransitSession {
  /// How many snapshots an import writes in one transaction.
  public static let snapshotsPerTransaction = 60

  /// Takes the snapshots of `request.directory` into the history beside the user's data
  /// (created when missing): its files grouped by their feed header's timestamp (the files of
  /// one moment), in time order, alerts left out; a snapshot already in the history is
  /// skipped (files named `<unix-seconds>-<kind>.pb`, as `record` writes them, by their name
  /// alone, unread), and so is one older than the newest taken in. Then the calls older than
  /// the retention before `now` are deleted.
  /// - Throws: `HistoryImportFailure`; the history's and the store's errors.
  public func importHistory(_ request: HistoryImportRequest, now: UnixTime) throws -> HistoryImportAnswer {
    let directory = request.directory
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      throw HistoryImportFailure.unreadableFolder(directory)
    }
    guard let history = try userData.history() else { throw HistoryFailure.noHistory }
    let folder = try ImportFolder(directory: directory, names: names, history: history, request: request)
    let recorder = try HistoryRecorder(store: store, history: history, options: options, resumeFrom: folder.firstTime)
    do {
      try recorder.take(folder.snapshots, importedAt: request.importedAt, perTransaction: Self.snapshotsPerTransaction)
    } catch let failure as HistoryRecorder.ReadFailure {
      throw HistoryImportFailure.readFailure(failure.error, takenIn: failure.takenIn)
    }
    let removed = try history.prune(before: now.seconds - Int64(request.retentionDays) * 86_400)
    return HistoryImportAnswer(
      folder: directory, counts: recorder.counts, alreadyImported: folder.already, olderThanHistory: folder.older,
      removedPastRetention: removed)
  }
}

/// A folder's snapshots as an import takes them in: which are new, in time order.
struct ImportFolder {
  var snapshots: [HistoryRecorder.Snapshot] = []
  /// The first moment to take in (else the history's newest).
  var firstTime: Int64?
  var already = 0
  var older = 0

  /// One file of a moment: its kind and where it is.
  struct File {
    var source: String
    var path: String
  }

  init(directory: String, names: [String], history: HistoryStore, request: HistoryImportRequest) throws {
    let snapshotNames = names.filter { $0.hasSuffix(".pb") || $0.hasSuffix(".pb.gz") }
    // Snapshots named <unix-seconds>-<kind>.pb ('transit record') already in the history are
    // left unread: a second import of a folder reads names only.
    var namedKinds: [Int64: [String]] = [:]
    for name in snapshotNames {
      if let (time, kind) = SnapshotNaming.named(name) { namedKinds[time, default: []].append(kind) }
    }
    var known: [String: Set<Int64>] = [:]
    var unread = Set<Int64>()
    for (time, kinds) in namedKinds {
      let source = Self.snapshotSource(kinds)
      if known[source] == nil { known[source] = try history.importedSnapshots(source: source) }
      if known[source]!.contains(time) { unread.insert(time) }
    }
    // Each file's moment is its header's timestamp: only headers are read here (a file not
    // named by its kind is decoded to learn it); the files are decoded whole one moment at a
    // time as they are taken in.
    let limits = request.caps.realtimeLimits
    var byTime: [Int64: [File]] = [:]
    for name in snapshotNames.sorted() {
      let named = SnapshotNaming.named(name)
      if let named, unread.contains(named.time) { continue }
      let path = directory + "/" + name
      guard let data = FileManager.default.contents(atPath: path) else { throw HistoryImportFailure.unreadableFile(path) }
      let source: String
      let header: FeedHeader?
      if let named {
        source = named.kind
        header = try RealtimeCapture.header([UInt8](data), source: path, limits: limits)
      } else {
        let message = try RealtimeCapture.decode([UInt8](data), source: path, limits: limits)
        source = Self.kind(of: message)
        header = message.header
      }
      guard let time = header?.timestamp.map({ Int64(clamping: $0) }) ?? named?.time else {
        throw HistoryImportFailure.noTimestamp(path)
      }
      byTime[time, default: []].append(File(source: source, path: path))
    }
    guard !byTime.isEmpty || !unread.isEmpty else { throw HistoryImportFailure.noSnapshots(directory) }
    let times = byTime.keys.sorted()
    let newest = try history.newestSnapshot()
    firstTime = times.first ?? newest
    already = unread.count
    var imported: [String: Set<Int64>] = [:]
    for time in times {
      // Alerts say nothing of when vehicles ran.
      let files = byTime[time]!.filter { !$0.source.hasSuffix("alerts") }
      let source = Self.snapshotSource(files.map(\.source))
      if imported[source] == nil { imported[source] = try history.importedSnapshots(source: source) }
      if imported[source]!.contains(time) {
        already += 1
        continue
      }
      if let newest, time < newest {
        older += 1
        continue
      }
      guard !files.isEmpty else { continue }
      let paths = files.map(\.path)
      snapshots.append(
        HistoryRecorder.Snapshot(time: time, source: source) {
          try paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else { throw HistoryImportFailure.unreadableFile(path) }
            return try RealtimeCapture.decode([UInt8](data), source: path, limits: limits)
          }
        })
    }
  }

  /// The name a moment's snapshot is remembered by: its files' kinds, alerts left out, and
  /// vehicle positions too beside trip updates ('record --history' takes a trip-updates
  /// snapshot in with the vehicles it has, and names it so).
  static func snapshotSource(_ kinds: [String]) -> String {
    var kept = Set(kinds.filter { !$0.hasSuffix("alerts") })
    if kept.contains(where: { $0.hasSuffix("trip-updates") }) { kept = kept.filter { !$0.hasSuffix("vehicle-positions") } }
    return kept.sorted().joined(separator: "+")
  }

  /// "trip-updates", "vehicle-positions", "alerts" or "mixed": what a file holds (one without
  /// entities says nothing: "alerts", left out).
  static func kind(of message: FeedMessage) -> String {
    let trips = message.entities.contains(where: \.hasTripUpdate)
    let vehicles = message.entities.contains(where: \.hasVehicle)
    if trips && vehicles { return "mixed" }
    if trips { return "trip-updates" }
    if vehicles { return "vehicle-positions" }
    return "alerts"
  }
}
