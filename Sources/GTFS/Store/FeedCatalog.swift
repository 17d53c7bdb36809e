import FoundationEssentials
import Glibc

/// What a process needs to know of each timetable before it opens any (issue 36): its
/// `feed_meta` (time zone, service dates, stop box, latest time) and its key filter
/// (`FeedKeyFilter`), kept in one small file beside the timetables, `feeds/catalog`. With it, a
/// command opens only the timetables its question reaches: `departures 8011` with 35 feeds held
/// opens the one feed whose filter may hold 8011.
///
/// The catalog is a cache, never trusted blindly: each entry records the identity of the file it
/// describes (device, inode, size, modification time). A timetable is replaced whole by rename,
/// so a new one has another inode; an entry that does not match its file, or a file without an
/// entry, is read from the timetable itself and the catalog is rewritten (by temporary file and
/// rename, so a reader never sees half of one). A catalog that cannot be read is ignored; one
/// that cannot be written (a read-only data folder) only costs the opens it would have saved.
struct FeedCatalog {
  /// One timetable as the catalog describes it.
  struct Entry: Equatable {
    var identity: Identity
    var meta: [String: String]
    /// The timetable's key filter; nil for one without it.
    var filter: FeedKeyFilter?
  }

  /// What tells one file from another at the same path.
  struct Identity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64  // nanoseconds since 1970

    /// The identity of the file at `path`; nil when it cannot be read.
    init?(path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
      self.device = device
      self.inode = inode
      self.size = size
      self.modified = modified
    }
  }

  /// The entries, by feed name.
  var entries: [String: Entry] = [:]

  /// The file's first bytes; a change of format changes them, and an older catalog is ignored.
  static let magic: [UInt8] = Array("transit feed catalog 1\n".utf8)

  /// Where the catalog of the timetables in `feedsDirectory` is kept.
  static func path(in feedsDirectory: String) -> String { feedsDirectory + "/catalog" }

  /// The catalog in `feedsDirectory`; empty when there is none or it cannot be read.
  static func read(from feedsDirectory: String) -> FeedCatalog {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path(in: feedsDirectory))) else { return FeedCatalog() }
    return data.withUnsafeBytes { decode($0) } ?? FeedCatalog()
  }

  /// Writes the catalog into `feedsDirectory` (best effort: a folder that cannot be written to
  /// keeps its old catalog, which the next reader checks again).
  func write(to feedsDirectory: String) {
    let target = Self.path(in: feedsDirectory)
    let temporary = target + ".\(getpid()).tmp"
    do {
      try Data(encoded()).write(to: URL(fileURLWithPath: temporary))
      guard rename(temporary, target) == 0 else {
        unlink(temporary)
        return
      }
    } catch {
      unlink(temporary)
    }
  }

  // MARK: - Format

  /// The magic, then per entry (sorted by feed name): the name, the identity, the meta as a
  /// count and key/value pairs, then the filter's hash count and bytes (0 hashes: none).
  /// Numbers are 64-bit little-endian; strings and byte runs are a length and the bytes.
  func encoded() -> [UInt8] {
    var out = Self.magic
    func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
    func put(_ bytes: [UInt8]) {
      put(UInt64(bytes.count))
      out.append(contentsOf: bytes)
    }
    func put(_ text: String) { put(Array(text.utf8)) }
    put(UInt64(entries.count))
    for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
      put(name)
      put(entry.identity.device)
      put(entry.identity.inode)
      put(UInt64(bitPattern: entry.identity.size))
      put(UInt64(bitPattern: entry.identity.modified))
      put(UInt64(entry.meta.count))
      for (key, value) in entry.meta.sorted(by: { $0.key < $1.key }) {
        put(key)
        put(value)
      }
      put(UInt64(entry.filter?.hashes ?? 0))
      put(entry.filter?.bytes ?? [])
    }
    return out
  }

  /// The catalog in `bytes`; nil when they are not one (another format, cut short, damaged).
  static func decode(_ bytes: [UInt8]) -> FeedCatalog? {
    bytes.withUnsafeBytes { decode($0) }
  }

  /// The catalog in `bytes`, read in place (the key filters are most of it: each is copied
  /// once, whole).
  static func decode(_ bytes: UnsafeRawBufferPointer) -> FeedCatalog? {
    guard bytes.count >= magic.count, magic.withUnsafeBytes({ $0.elementsEqual(bytes[0..<magic.count]) }) else { return nil }
    var offset = magic.count
    func number() -> UInt64? {
      guard bytes.count - offset >= 8 else { return nil }
      defer { offset += 8 }
      return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func run() -> [UInt8]? {
      guard let count = number(), count <= UInt64(bytes.count - offset) else { return nil }
      defer { offset += Int(count) }
      return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)]))
    }
    func text() -> String? { run().flatMap { String(validating: $0, as: UTF8.self) } }
    guard let count = number(), count <= UInt64(bytes.count) else { return nil }
    var catalog = FeedCatalog()
    for _ in 0..<count {
      guard let name = text(), let device = number(), let inode = number(), let size = number(),
        let modified = number(), let metaCount = number(), metaCount <= UInt64(bytes.count)
      else { return nil }
      var meta: [String: String] = [:]
      for _ in 0..<metaCount {
        guard let key = text(), let value = text() else { return nil }
        meta[key] = value
      }
      guard let hashes = number(), hashes <= 64, let bytes = run() else { return nil }
      var filter: FeedKeyFilter?
      if hashes > 0 {
        guard let stored = FeedKeyFilter(bytes: bytes, hashes: Int(hashes)) else { return nil }
        filter = stored
      }
      catalog.entries[name] = Entry(
        identity: Identity(device: device, inode: inode, size: Int64(bitPattern: size), modified: Int64(bitPattern: modified)),
        meta: meta, filter: filter)
    }
    return offset == bytes.count ? catalog : nil
  }
}
