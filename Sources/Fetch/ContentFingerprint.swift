import FoundationEssentials
import Glibc
import HostSystem

/// The SHA-256 of what an ingest reads: a file's bytes, or a folder's files (each regular file's
/// name, size and bytes, in name order, dot files left out), so any change to what ingest reads
/// changes it. `ingest --if-changed` compares it with the one stored with the held timetable.
public enum ContentFingerprint {
  /// Whether `path` is a folder (following links); nil when nothing is there.
  public static func isFolder(_ path: String) -> Bool? { FileInfo.isDirectory(path) }

  /// The SHA-256 of the file or folder at `path`, as hex.
  /// - Throws: `FingerprintError` naming a file that cannot be read; what listing the folder throws.
  public static func sha256(_ path: String, isFolder: Bool) throws -> String {
    isFolder ? try folderSHA256(path) : try fileSHA256(path)
  }

  /// `sha256(path, isFolder:)` worked out on a thread of its own (a national feed's folder is
  /// about 1 GB, seconds of SHA-256); the closure waits for it.
  public static func background(_ path: String, isFolder: Bool) -> () throws -> String {
    let result = BackgroundResult { try sha256(path, isFolder: isFolder) }
    return { try result.value() }
  }

  /// The SHA-256 of a file, read in 1 MiB pieces.
  public static func fileSHA256(_ path: String) throws(FingerprintError) -> String {
    var hasher = SHA256()
    try hash(path, into: &hasher)
    return SHA256.hexString(hasher.finish())
  }

  /// The SHA-256 of a folder of GTFS files.
  static func folderSHA256(_ path: String) throws -> String {
    var hasher = SHA256()
    let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
    for name in names {
      let file = path + "/" + name
      guard FileInfo.isDirectory(file) == false else { continue }
      let size = FileInfo.size(file) ?? 0
      hasher.update(Array("\(name)\u{0}\(size)\u{0}".utf8))
      try hash(file, into: &hasher)
    }
    return SHA256.hexString(hasher.finish())
  }

  /// Feeds the bytes of `path` to `hasher`, a megabyte at a time.
  static func hash(_ path: String, into hasher: inout SHA256) throws(FingerprintError) {
    let read = FileReader.forEachChunk(path) { chunk in
      hasher.update(chunk)  // a slice of the reader's buffer: hashed in place, not copied
      return true
    }
    guard read != nil else { throw FingerprintError(path: path, reason: String(cString: strerror(errno)).lowercased()) }
  }
}

/// A file of a feed could not be read for its fingerprint.
public struct FingerprintError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// The system's reason, lower case.
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `PATH: cannot be read (REASON)`.
  public var description: String { "\(path): cannot be read (\(reason))" }
}
