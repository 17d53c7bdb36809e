import FoundationEssentials
import Services
import TransitModel

/// A folder of recorded realtime snapshots: `<unix-seconds>-<kind>.pb`, where kind is
/// `trip-updates`, `vehicle-positions` or `alerts`; the files sharing a time are one snapshot.
struct SnapshotDirectory {
  /// One recorded moment and its files.
  struct Snapshot {
    var time: UnixTime
    var paths: [String]
  }

  let path: String

  /// The snapshots in time order.
  /// - Throws: `RuntimeError` when the folder cannot be read or holds no snapshot.
  func snapshots() throws -> [Snapshot] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
      throw RuntimeError("cannot read replay folder '\(path)'")
    }
    var byTime: [Int64: [String]] = [:]
    for name in names where name.hasSuffix(".pb") {
      guard let seconds = Int64(name.prefix { $0.isNumber }), name.dropFirst(String(seconds).count).first == "-" else { continue }
      byTime[seconds, default: []].append(path + "/" + name)
    }
    guard !byTime.isEmpty else { throw RuntimeError("no snapshots (<unix-seconds>-<kind>.pb) in '\(path)'") }
    return byTime.keys.sorted().map { Snapshot(time: UnixTime($0), paths: byTime[$0]!.sorted()) }
  }

  /// The files making up the snapshot at or before `time` (the newest file of each kind
  /// recorded by then; the first snapshot when `time` is earlier or nil means the last), and
  /// that snapshot's time.
  func state(at time: UnixTime?) throws -> (time: UnixTime, paths: [String]) {
    let all = try snapshots()
    let upTo = time.map { t in all.filter { $0.time <= t } } ?? all
    let chosen = upTo.isEmpty ? [all[0]] : upTo
    return SnapshotNaming.moments(chosen.map { ($0.time, $0.paths) }).last!
  }

  /// The file name of a snapshot of `kind` taken at `time`.
  static func name(time: Int64, kind: String) -> String { RecordedSnapshot.fileName(time: time, kind: kind) }

  /// `--replay DIR`: the snapshot of the folder `directory` at `--now` (else the last one) as
  /// a realtime source, its files read as `--realtime` files are.
  static func replay(_ directory: String, invocation: Invocation) throws -> ReplayRealtime {
    let state = try SnapshotDirectory(path: invocation.absolutePath(directory)).state(at: invocation.global.now)
    return ReplayRealtime(time: state.time, files: state.paths) { try RtDumpCommand.load($0, invocation: invocation) }
  }
}
