import Glibc

/// A ZIP archive opened for reading: its central directory, checked against ``ZipLimits``, and
/// streaming readers for its entries.
///
/// ```swift
/// let archive = try ZipArchive(path: "feed.zip")
/// guard let entry = archive.entry(named: "stops.txt") else { … }
/// let reader = try archive.reader(for: entry)
/// var buffer = [UInt8](repeating: 0, count: 64 << 10)
/// while case let count = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 { … }
/// ```
///
/// Owns one file descriptor, closed in `deinit`; readers keep their archive alive. Not Sendable:
/// use an archive and its readers from one task at a time.
///
/// The format is PKWARE's APPNOTE.TXT (version 6.3.x); section numbers below refer to it.
public final class ZipArchive {
  /// The path the archive was opened with, as given (errors repeat it).
  public let path: String
  /// The entries in central directory order.
  public let entries: [ZipEntry]
  /// The limits the archive was checked against.
  public let limits: ZipLimits

  let file: ArchiveFile
  private let indexByName: [String: Int]

  /// Opens the archive at `path` and reads its central directory.
  ///
  /// Checks every limit here, before any entry is read: the entry count, each entry's declared
  /// size, the compression ratio of entries over 1 MiB, and that each entry's compressed data
  /// lies within the file.
  /// - Throws: `ZipError` if the file cannot be read, is not a ZIP archive, is truncated or
  ///   malformed, or exceeds `limits`.
  public init(path: String, limits: ZipLimits = .default) throws(ZipError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotOpen(archive: path, errno: errno) }
    do throws(ZipError) {
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { throw .cannotOpen(archive: path, errno: errno) }
      guard status.st_mode & S_IFMT != S_IFDIR else {
        throw .cannotOpen(archive: path, errno: EISDIR)
      }
      let file = ArchiveFile(
        descriptor: descriptor, path: path, size: UInt64(max(status.st_size, 0)))
      let entries = try CentralDirectory.read(file, limits: limits)
      var indexByName: [String: Int] = [:]
      for (index, entry) in entries.enumerated() where indexByName[entry.name] == nil {
        indexByName[entry.name] = index
      }
      self.path = path
      self.limits = limits
      self.file = file
      self.entries = entries
      self.indexByName = indexByName
    } catch {
      close(descriptor)
      throw error
    }
  }

  deinit {
    close(file.descriptor)
  }

  /// The first entry with exactly this name, if any.
  /// - Complexity: O(1).
  public func entry(named name: String) -> ZipEntry? {
    indexByName[name].map { entries[$0] }
  }

  /// A reader for the content of `entry`, which must come from this archive's ``entries``.
  ///
  /// - Throws: `ZipError` if the entry is encrypted, uses a method other than stored or deflate,
  ///   or its local header is missing or places the data past the end of the file.
  public func reader(for entry: ZipEntry) throws(ZipError) -> ZipEntryReader {
    try ZipEntryReader(archive: self, entry: entry)
  }

  /// Where `entry`'s compressed data starts: after its local header (4.3.7), whose name and
  /// extra field lengths may differ from the central directory's.
  func dataOffset(of entry: ZipEntry) throws(ZipError) -> UInt64 {
    guard let header = try file.bytes(Signature.localHeaderSize, at: entry.localHeaderOffset) else {
      throw .truncatedEntry(archive: path, entry: entry.name)
    }
    guard header.uint32(at: 0) == Signature.localHeader else {
      throw .corruptEntry(
        archive: path, entry: entry.name,
        detail: "no local file header at offset \(entry.localHeaderOffset)")
    }
    // 30 bytes, then the name and the extra field of the local header itself.
    let headerSize =
      UInt64(Signature.localHeaderSize) + UInt64(header.uint16(at: 26))
      + UInt64(header.uint16(at: 28))
    // Cannot overflow: the open checked that the offset lies within the file.
    let start = entry.localHeaderOffset + headerSize
    let end = start.addingReportingOverflow(entry.compressedSize)
    guard !end.overflow, end.partialValue <= file.size else {
      throw .truncatedEntry(archive: path, entry: entry.name)
    }
    return start
  }
}

@available(*, unavailable)
extension ZipArchive: Sendable {}

// MARK: - Record signatures and sizes

enum Signature {
  /// 4.3.7 local file header, 30 bytes before the name.
  static let localHeader: UInt32 = 0x0403_4B50
  static let localHeaderSize = 30
  /// 4.3.12 central directory file header, 46 bytes before the name.
  static let centralHeader: UInt32 = 0x0201_4B50
  static let centralHeaderSize = 46
  /// 4.3.16 end of central directory record, 22 bytes before the comment.
  static let endOfCentralDirectory: UInt32 = 0x0605_4B50
  static let endOfCentralDirectorySize = 22
  /// 4.3.15 ZIP64 end of central directory locator, 20 bytes.
  static let zip64Locator: UInt32 = 0x0706_4B50
  static let zip64LocatorSize = 20
  /// 4.3.14 ZIP64 end of central directory record, 56 bytes before its extensible data.
  static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4B50
  static let zip64EndOfCentralDirectorySize = 56
}
