import CCrypto
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
    let hasher = ContentHasher()
    try hash(path, into: hasher)
    return SHA256.hexString(hasher.finish())
  }

  /// The SHA-256 of a folder of GTFS files.
  static func folderSHA256(_ path: String) throws -> String {
    let hasher = ContentHasher()
    let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
    for name in names {
      let file = path + "/" + name
      guard FileInfo.isDirectory(file) == false else { continue }
      let size = FileInfo.size(file) ?? 0
      hasher.update(Array("\(name)\u{0}\(size)\u{0}".utf8))
      try hash(file, into: hasher)
    }
    return SHA256.hexString(hasher.finish())
  }

  /// Feeds the bytes of `path` to `hasher`, a megabyte at a time.
  static func hash(_ path: String, into hasher: ContentHasher) throws(FingerprintError) {
    let read = FileReader.forEachChunk(path) { chunk in
      hasher.update(chunk)  // a slice of the reader's buffer: hashed in place, not copied
      return true
    }
    guard read != nil else { throw FingerprintError(path: path, reason: String(cString: strerror(errno)).lowercased()) }
  }
}

/// SHA-256 for content hashes: the system's libcrypto when it can be loaded (the CPU's SHA
/// instructions: a national feed's 885 MB took 4 s of CPU in Swift, a fraction of that there;
/// issue 37), else `SHA256`. The same digest either way.
final class ContentHasher {
  private let context: UnsafeMutableRawPointer?
  private var fallback: SHA256?

  /// A hasher through libcrypto, or in Swift when `system` is false or libcrypto is missing.
  init(system: Bool = true) {
    context = system ? transit_sha256_new() : nil
    fallback = context == nil ? SHA256() : nil
  }

  deinit { if let context { transit_sha256_free(context) } }

  /// Whether the bytes go to libcrypto.
  var isSystem: Bool { context != nil }

  /// Adds `bytes` to the message.
  func update(_ bytes: some Collection<UInt8>) {
    guard let context else {
      fallback!.update(bytes)
      return
    }
    let status = bytes.withContiguousStorageIfAvailable { buffer in
      transit_sha256_update(context, buffer.baseAddress, buffer.count)
    }
    guard let status else { return update(Array(bytes)) }
    precondition(status == 1, "EVP_DigestUpdate failed")
  }

  /// The 32-byte digest; the hasher takes no more bytes afterwards.
  func finish() -> [UInt8] {
    guard let context else { return fallback!.finish() }
    var digest = [UInt8](repeating: 0, count: 32)
    let done = digest.withUnsafeMutableBufferPointer { transit_sha256_final(context, $0.baseAddress) }
    precondition(done == 1, "EVP_DigestFinal_ex failed")
    return digest
  }
}

@available(*, unavailable)
extension ContentHasher: Sendable {}

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
