import FoundationEssentials
import HostSystem
import TransitModel
import ZIP

/// Where a feed's files come from: a ZIP archive (files at its root or in one folder), a folder
/// of `.txt` files, or a Dublin-style `stops.json` list.
public final class FeedSource {
  /// What kind of input the feed is.
  public enum Kind: Equatable, Sendable {
    case zip
    case folder
    case stopsJSON
  }

  public let kind: Kind
  /// The path given to ingest.
  public let path: String
  private let archive: ZipArchive?
  /// The folder inside the archive, or the folder on disk, that holds `stops.txt`.
  private let root: String

  /// The default total unzipped size of a feed's files: 1.5 GiB.
  public static let defaultMaxUnzippedBytes: UInt64 = 1536 << 20

  /// Opens `path`, deciding its kind from what it is, and finds the feed's root folder.
  /// - Parameter maxUnzippedBytes: the most the feed's files in a ZIP may declare in all
  ///   (checked against the central directory before anything is inflated; the reader never
  ///   inflates past a declared size), so a small ZIP of gigabytes of blank lines is refused at once.
  /// - Throws: `GTFSError` when there is no feed to be found or it is too large, `ZipError` for a
  ///   broken archive.
  public init(path: String, maxUnzippedBytes: UInt64 = defaultMaxUnzippedBytes) throws {
    self.path = path
    guard let isDirectory = FileInfo.isDirectory(path) else {
      throw GTFSError(file: path, .unreadable("no such file or folder"))
    }
    if isDirectory {
      kind = .folder
      archive = nil
      root = try Self.folderRoot(path)
    } else if path.lowercased().hasSuffix(".json") {
      kind = .stopsJSON
      archive = nil
      root = ""
    } else {
      kind = .zip
      let archive = try ZipArchive(path: path)
      self.archive = archive
      root = try Self.archiveRoot(archive, path: path)
      var total: UInt64 = 0
      for entry in archive.entries where !entry.isDirectory && entry.name.hasPrefix(root) {
        let rest = entry.name.dropFirst(root.count)
        guard !rest.contains("/"), rest.lowercased().hasSuffix(".txt") else { continue }  // what ingest reads
        let sum = total.addingReportingOverflow(entry.uncompressedSize)
        total = sum.overflow ? .max : sum.partialValue
      }
      if total > maxUnzippedBytes {
        throw GTFSError(
          file: PathText.lastComponent(path), .feedTooLarge(declaredBytes: total, limitBytes: maxUnzippedBytes))
      }
    }
  }

  /// Whether the feed has `name` (`calendar.txt`).
  public func hasFile(_ name: String) -> Bool {
    switch kind {
    case .zip: return archive!.entry(named: root + name) != nil
    case .folder: return FileManager.default.fileExists(atPath: root + "/" + name)
    case .stopsJSON: return false
    }
  }

  /// The size in bytes of `name` as stored (compressed size in an archive), for progress.
  public func storedSize(of name: String) -> UInt64 {
    switch kind {
    case .zip: return archive!.entry(named: root + name)?.compressedSize ?? 0
    case .folder:
      return FileInfo.size(root + "/" + name) ?? 0
    case .stopsJSON: return 0
    }
  }

  /// A stream of `name`'s bytes, and a function that reports how many stored bytes it has read.
  public func open(_ name: String) throws -> (source: ByteSource, storedBytesRead: () -> UInt64) {
    switch kind {
    case .zip:
      guard let entry = archive!.entry(named: root + name) else {
        throw GTFSError(file: name, .missingFile(name))
      }
      let reader = try archive!.reader(for: entry)
      return (reader, { reader.compressedBytesRead })
    case .folder:
      let file = try FileByteSource(path: root + "/" + name)
      return (file, { file.bytesRead })
    case .stopsJSON:
      throw GTFSError(file: name, .missingFile(name))
    }
  }

  // MARK: - Finding the root

  /// The feed root is the folder that holds `stops.txt`; two such folders is an error
  /// (transitland-lib's zip reader does the same).
  static func archiveRoot(_ archive: ZipArchive, path: String) throws(GTFSError) -> String {
    let name = PathText.lastComponent(path)
    var roots: [String] = []
    for entry in archive.entries where !entry.isDirectory {
      let components = entry.name.split(separator: "/", omittingEmptySubsequences: false)
      guard components.last == "stops.txt" else { continue }
      if components.contains(where: { $0 == "__MACOSX" }) { continue }
      roots.append(components.dropLast().map { $0 + "/" }.joined())
    }
    if roots.count == 1 { return roots[0] }
    if roots.count > 1 {
      throw GTFSError(file: name, .ambiguousFeedRoot(roots.map { $0.isEmpty ? "/" : $0 }))
    }
    if let inner = archive.entries.first(where: { $0.name.lowercased().hasSuffix(".zip") }) {
      throw GTFSError(file: name, .nestedArchive(inner.name))
    }
    throw GTFSError(file: name, .noFeedRoot)
  }

  static func folderRoot(_ path: String) throws(GTFSError) -> String {
    let manager = FileManager.default
    if manager.fileExists(atPath: path + "/stops.txt") { return path }
    let children = (try? manager.contentsOfDirectory(atPath: path)) ?? []
    let roots = children.sorted().filter { manager.fileExists(atPath: path + "/" + $0 + "/stops.txt") }
    if roots.count == 1 { return path + "/" + roots[0] }
    if roots.count > 1 { throw GTFSError(file: path, .ambiguousFeedRoot(roots)) }
    throw GTFSError(file: path, .noFeedRoot)
  }
}
