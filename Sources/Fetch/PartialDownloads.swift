import FoundationEssentials
import Glibc
import TransitModel

/// The partial files downloads write before their rename into place (`NAME.PID.part`), and the
/// clean-up of those a killed download left behind.
///
/// A download killed with `kill -9` (or a power cut) leaves its partial file; three such kills of
/// a big city's ZIP held gigabytes. Each download therefore starts by removing, in its folder,
/// every `*.part` file whose process is gone or that is older than an hour (a live download
/// rewrites its file continuously, and a lock keeps two ingests apart).
public enum PartialDownloads {
  /// Partial files untouched this long are stale whatever their process id says (ids are reused).
  public static let staleAfterSeconds: Double = 3600

  /// `destination.PID.part`: the partial file this process writes for `destination`.
  public static func partialPath(_ destination: String) -> String {
    "\(destination).\(getpid()).part"
  }

  /// Removes the stale `*.part` files in `destination`'s folder: those whose process id (the
  /// number before `.part`) names no running process, and any not modified for an hour.
  /// Failures are ignored: cleaning must never stop a download. `now` is the real clock by
  /// default, not a command's `--now`: it is compared with the files' real modification times.
  /// - Returns: the names removed.
  @discardableResult
  public static func clean(besides destination: String, now: Date = Date()) -> [String] {
    let folder = PathText.deletingLastComponent(destination)
    let directory = folder.isEmpty ? "." : folder
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    var removed: [String] = []
    for name in names where name.hasSuffix(".part") {
      let path = directory + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
      let isOld = now.timeIntervalSince(modified) > staleAfterSeconds
      if isOld || isOrphan(name) {
        if unlink(path) == 0 { removed.append(name) }
      }
    }
    return removed
  }

  /// Whether `NAME.PID.part` names a process that no longer runs.
  static func isOrphan(_ name: String) -> Bool {
    let stem = name.dropLast(".part".count)
    guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0 else {
      return false
    }
    if pid == getpid() { return false }
    return kill(pid, 0) != 0 && errno == ESRCH
  }
}
