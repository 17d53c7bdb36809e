import FoundationEssentials
import Glibc

/// The typo search's vocabulary of every timetable held, kept beside them in
/// `feeds/catalog.words` (issue 36): each distinct folded name word once, with its letters' mask,
/// its length and the feeds that have it. With it, a typo search reads one small file instead of
/// opening every timetable for its words, and opens only the feeds where every word of the query
/// reaches a word (`SharedVocabulary.reachByFeed`): "mraion tarnsit" with 35 feeds held opens
/// the few that have both a word near "mraion" and one near "tarnsit".
///
/// Like `FeedCatalog`, a cache never trusted blindly: it lists the feeds it was built from with
/// the identity of each file (device, inode, size, modification time). It is used only when
/// that list is exactly the feeds held, each with its file's identity as taken before the file
/// was read; otherwise it is built again, reusing the words of the feeds whose file is
/// unchanged and reading only the others' (`search_words`), and rewritten by temporary file and
/// rename. A file that cannot be read or written only costs the opens it would have saved.
struct VocabularyCatalog {
  /// The feeds described, in `Store.feeds` order, each with its file's identity.
  var feeds: [(name: String, identity: FeedCatalog.Identity)] = []
  /// The words; `holders` index `feeds`.
  var shared = SharedVocabulary()

  /// The file's first bytes; a change of format changes them, and an older file is ignored.
  static let magic: [UInt8] = Array("transit feed words 1\n".utf8)

  /// Where the vocabulary of the timetables in `feedsDirectory` is kept.
  static func path(in feedsDirectory: String) -> String { feedsDirectory + "/catalog.words" }

  /// Whether this describes exactly `feeds` with these identities.
  func describes(_ names: [String], _ identities: [FeedCatalog.Identity]) -> Bool {
    feeds.count == names.count && zip(feeds, zip(names, identities)).allSatisfy { $0.name == $1.0 && $0.identity == $1.1 }
  }

  /// The vocabulary of `readers` (whose files had `identities` before they were read): the words
  /// of a feed `old` describes with the same identity are taken from `old`, the others' read
  /// from their timetables.
  /// - Throws: `SQLiteError` when a timetable's words cannot be read.
  init(_ readers: [FeedReader], identities: [FeedCatalog.Identity], reusing old: VocabularyCatalog?) throws {
    var index: [String: Int] = [:]
    func add(_ word: String, mask: UInt64, length: Int, holder: Int) {
      if let known = index[word] {
        if shared.holders[known].last != holder { shared.holders[known].append(holder) }
        return
      }
      index[word] = shared.holders.count
      shared.holders.append([holder])
      shared.vocabulary.words.append(word)
      shared.vocabulary.masks.append(mask)
      shared.vocabulary.lengths.append(length)
    }
    // Per feed held, its position in `old` when its entry there is for the same file.
    var oldPosition: [Int: Int] = [:]
    var reused = Set<Int>()
    if let old {
      let byName = Dictionary(old.feeds.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
      for (position, reader) in readers.enumerated() {
        if let at = byName[reader.name.rawValue], old.feeds[at].identity == identities[position] {
          oldPosition[at] = position
          reused.insert(position)
        }
      }
    }
    for (position, reader) in readers.enumerated() {
      feeds.append((reader.name.rawValue, identities[position]))
      if reused.contains(position) { continue }
      let own = try reader.typoVocabulary()
      for word in own.words.indices { add(own.words[word], mask: own.masks[word], length: own.lengths[word], holder: position) }
    }
    if let old, !oldPosition.isEmpty {
      let words = old.shared.vocabulary
      for word in words.words.indices {
        for holder in old.shared.holders[word] {
          guard let position = oldPosition[holder] else { continue }
          add(words.words[word], mask: words.masks[word], length: words.lengths[word], holder: position)
        }
      }
      // Holders in feed order, as a full read gives them.
      for word in shared.holders.indices { shared.holders[word].sort() }
    }
  }

  init() {}

  /// The vocabulary file in `feedsDirectory`; nil when there is none or it cannot be read.
  static func read(from feedsDirectory: String) -> VocabularyCatalog? {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path(in: feedsDirectory))) else { return nil }
    return data.withUnsafeBytes { decode($0) }
  }

  /// Writes it into `feedsDirectory` (best effort, by temporary file and rename).
  func write(to feedsDirectory: String) {
    let target = Self.path(in: feedsDirectory)
    let temporary = target + ".\(getpid()).tmp"
    do {
      try Data(encoded()).write(to: URL(fileURLWithPath: temporary))
      if rename(temporary, target) != 0 { unlink(temporary) }
    } catch {
      unlink(temporary)
    }
  }

  // MARK: - Format

  /// The magic; the feed count, then per feed its name and identity (device, inode, size,
  /// mtime in ns); the word count, then per word its text, mask, length in characters, holder
  /// count and holders. Numbers are LEB128 varints except the mask and the identity's four
  /// (64-bit little-endian); texts are a length and the UTF-8 bytes.
  func encoded() -> [UInt8] {
    var out = Self.magic
    func varint(_ value: UInt64) { out.appendVarint(value) }
    func fixed(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
    func text(_ value: String) {
      varint(UInt64(value.utf8.count))
      out.append(contentsOf: value.utf8)
    }
    varint(UInt64(feeds.count))
    for feed in feeds {
      text(feed.name)
      fixed(feed.identity.device)
      fixed(feed.identity.inode)
      fixed(UInt64(bitPattern: feed.identity.size))
      fixed(UInt64(bitPattern: feed.identity.modified))
    }
    let words = shared.vocabulary
    varint(UInt64(words.words.count))
    for word in words.words.indices {
      text(words.words[word])
      fixed(words.masks[word])
      varint(UInt64(words.lengths[word]))
      varint(UInt64(shared.holders[word].count))
      for holder in shared.holders[word] { varint(UInt64(holder)) }
    }
    return out
  }

  /// The vocabulary in `bytes`, read in place; nil when they are not one (another format, cut
  /// short, damaged: a holder past the feeds, a word twice, bytes left over).
  static func decode(_ bytes: UnsafeRawBufferPointer) -> VocabularyCatalog? {
    guard bytes.count >= magic.count, magic.withUnsafeBytes({ $0.elementsEqual(bytes[0..<magic.count]) }) else { return nil }
    var offset = magic.count
    func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while offset < bytes.count, shift < 64 {
        let byte = bytes[offset]
        offset += 1
        value |= UInt64(byte & 0x7f) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }
    func fixed() -> UInt64? {
      guard bytes.count - offset >= 8 else { return nil }
      defer { offset += 8 }
      return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func text() -> String? {
      guard let count = varint(), count <= UInt64(bytes.count - offset) else { return nil }
      defer { offset += Int(count) }
      return String(validating: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)]), as: UTF8.self)
    }
    var result = VocabularyCatalog()
    guard let feedCount = varint(), feedCount <= UInt64(bytes.count) else { return nil }
    for _ in 0..<feedCount {
      guard let name = text(), let device = fixed(), let inode = fixed(), let size = fixed(), let modified = fixed() else { return nil }
      result.feeds.append(
        (name, FeedCatalog.Identity(device: device, inode: inode, size: Int64(bitPattern: size), modified: Int64(bitPattern: modified))))
    }
    guard let wordCount = varint(), wordCount <= UInt64(bytes.count) else { return nil }
    var seen = Set<String>(minimumCapacity: Int(wordCount))
    for _ in 0..<wordCount {
      guard let word = text(), seen.insert(word).inserted, let mask = fixed(), let length = varint(), length <= 1 << 20,
        let holderCount = varint(), holderCount >= 1, holderCount <= feedCount
      else { return nil }
      var holders: [Int] = []
      for _ in 0..<holderCount {
        guard let holder = varint(), holder < feedCount else { return nil }
        holders.append(Int(holder))
      }
      result.shared.vocabulary.words.append(word)
      result.shared.vocabulary.masks.append(mask)
      result.shared.vocabulary.lengths.append(Int(length))
      result.shared.holders.append(holders)
    }
    return offset == bytes.count ? result : nil
  }
}
