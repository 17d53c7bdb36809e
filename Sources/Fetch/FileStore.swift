import FoundationEssentials
import Glibc
import TransitModel

/// Small files written whole: a temporary file beside the target, fsync, rename, mode 0600.
enum FileStore {
  /// Writes `bytes` to `path` atomically with mode 0600, creating the folder (0700) if needed.
  static func write(_ bytes: [UInt8], to path: String) throws {
    let folder = PathText.deletingLastComponent(path)
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let temporary = path + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileStoreError("cannot write \(path): \(String(cString: strerror(errno)))") }
    var ok = fchmod(fd, 0o600) == 0
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while ok && offset < buffer.count {
        let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { ok = false } else { offset += written }
      }
    }
    ok = ok && fsync(fd) == 0
    ok = close(fd) == 0 && ok
    guard ok, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw FileStoreError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
  }

  static func read(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }
}

/// A file in the config or cache folder could not be written or read.
public struct FileStoreError: Error, Equatable, CustomStringConvertible {
  /// The one-line message.
  public var message: String
  /// An error with `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}
