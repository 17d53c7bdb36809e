import FoundationEssentials
import GTFSRealtime
import TransitModel

/// A folder of recorded realtime snapshots, as `transit record` writes them:
/// `<unix-seconds>-<kind>.pb` (or `.pb.gz`, a capture kept compressed), where kind is
/// `trip-updates`, `vehicle-positions` or `alerts`; the files sharing a time are one snapshot.
public struct SnapshotFolder: Sendable {
  /// One recorded moment and its files.
  public struct Snapshot: Sendable {
    public var time: UnixTime
    public var paths: [String]
  }

  /// The folder's absolute path.
  public let path: String

  public init(path: String) { self.path = path }

  /// The snapshots in time order.
  /// - Throws: `SnapshotFolderError` when the folder cannot be read or holds no snapshot.
  public func snapshots() throws(SnapshotFolderError) -> [Snapshot] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { throw .unreadable(path) }
    var byTime: [Int64: [String]] = [:]
    for name in names {
      guard let (seconds, _) = SnapshotNaming.named(name) else { continue }
      byTime[seconds, default: []].append(path + "/" + name)
    }
    guard !byTime.isEmpty else { throw .empty(path) }
    return byTime.keys.sorted().map { Snapshot(time: UnixTime($0), paths: byTime[$0]!.sorted()) }
  }

  /// The replay of this folder: from the snapshot at or before `start` (the earlier ones only
  /// set the scene), else from the first.
  public func replay(from start: UnixTime?, speed: Double = 1, caps: RealtimeCaps) throws(SnapshotFolderError) -> SnapshotReplay {
    SnapshotReplay(snapshots: try snapshots().map { ($0.time, $0.paths) }, start: start, speed: speed, caps: caps)
  }

  /// The folder's state at `time` as a realtime source: the newest file of each kind recorded
  /// by then (the first snapshot when `time` is earlier; nil means the last).
  public func realtime(at time: UnixTime?, caps: RealtimeCaps) throws(SnapshotFolderError) -> ReplayRealtime {
    let all = try snapshots()
    let upTo = time.map { t in all.filter { $0.time <= t } } ?? all
    let chosen = upTo.isEmpty ? [all[0]] : upTo
    let state = SnapshotNaming.moments(chosen.map { ($0.time, $0.paths) }).last!
    return ReplayRealtime(time: state.time, files: state.paths, caps: caps)
  }
}

/// Why a folder of snapshots cannot be replayed.
public enum SnapshotFolderError: Error, Sendable, Hashable {
  /// The folder cannot be listed.
  case unreadable(String)
  /// It holds no `<unix-seconds>-<kind>.pb` (or `.pb.gz`) file.
  case empty(String)
}

/// Recorded snapshots played back one moment at a time, as `follow --replay` and
/// `plan --watch --replay` show them: each moment holds the newest file of each kind recorded
/// by then (`SnapshotNaming.moments`), and waits its gap to the next moment at `speed`.
public struct SnapshotReplay: Sendable {
  /// One moment played: when it was recorded, its feeds, and the real seconds until the next
  /// moment (nil after the last).
  public struct Step: Sendable {
    public var time: UnixTime
    public var feeds: [FeedMessage]
    public var wait: Double?
  }

  /// Every moment, oldest first.
  public let moments: [(time: UnixTime, paths: [String])]
  /// The next moment to play.
  public private(set) var index: Int
  /// How many times faster than recorded.
  public let speed: Double
  let caps: RealtimeCaps

  /// A replay of `snapshots` (oldest first) from the one at or before `start` (else the
  /// first), `speed` times faster than recorded, each file read within `caps`.
  public init(snapshots: [(time: UnixTime, paths: [String])], start: UnixTime?, speed: Double, caps: RealtimeCaps) {
    let moments = SnapshotNaming.moments(snapshots)
    self.moments = moments
    index = start.flatMap { start in moments.lastIndex { $0.time <= start } } ?? 0
    self.speed = speed
    self.caps = caps
  }

  /// The moments before the first one played: they set the scene (where a vehicle was last
  /// seen), unseen.
  public var prelude: ArraySlice<(time: UnixTime, paths: [String])> { moments[..<index] }

  /// The moment `next()` plays; nil when all are played.
  public var upcoming: (time: UnixTime, paths: [String])? { index < moments.count ? moments[index] : nil }

  /// The feeds of `paths` (one moment's files).
  /// - Throws: a `LibraryFailure` naming the file that cannot be read.
  public func feeds(_ paths: [String]) throws -> [FeedMessage] {
    try paths.map { try RealtimeFiles.read($0, shownAs: $0, caps: caps) }
  }

  /// Plays the next moment; nil when all are played.
  public mutating func next() throws -> Step? {
    guard let moment = upcoming else { return nil }
    let feeds = try self.feeds(moment.paths)
    index += 1
    return Step(time: moment.time, feeds: feeds, wait: upcoming.map { Double($0.time - moment.time) / speed })
  }

  /// The last gap between two moments at `speed` (0 with one moment): how long a view keeps
  /// its last frame up, as it kept every earlier one.
  public var lastGap: Double {
    moments.count > 1 ? Double(moments[moments.count - 1].time - moments[moments.count - 2].time) / speed : 0
  }
}
