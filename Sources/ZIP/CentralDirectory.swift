/// Reads the end of central directory record (and its ZIP64 form) and the central directory
/// itself, checking every entry against ``ZipLimits``. APPNOTE.TXT 4.3.12-4.3.16, 4.4, 4.5.3.
enum CentralDirectory {
  /// Where the central directory is, according to the end records.
  struct Location {
    var entryCount: UInt64
    var size: UInt64
    var offset: UInt64
    /// Where the central directory must end: the ZIP64 end record, else the end record.
    var limit: UInt64
    var isZip64: Bool
  }

  /// The entries of the archive in `file`, in central directory order.
  static func read(_ file: ArchiveFile, limits: ZipLimits) throws(ZipError) -> [ZipEntry] {
    let location = try locate(in: file)
    let path = file.path
    let (end, overflow) = location.offset.addingReportingOverflow(location.size)
    guard !overflow else {
      throw .corruptArchive(archive: path, detail: "central directory offset out of range")
    }
    guard end <= file.size else {
      throw .truncatedArchive(
        archive: path, detail: "the central directory runs past the end of the file")
    }
    guard end <= location.limit else {
      throw .corruptArchive(archive: path, detail: "the central directory overlaps the end record")
    }
    guard location.entryCount <= UInt64(max(limits.maxEntries, 0)) else {
      throw .tooManyEntries(archive: path, count: location.entryCount, limit: limits.maxEntries)
    }
    guard location.entryCount <= location.size / UInt64(Signature.centralHeaderSize) else {
      throw .corruptArchive(
        archive: path,
        detail:
          "\(location.entryCount) entries cannot fit in a central directory of \(location.size) bytes"
      )
    }

    var entries: [ZipEntry] = []
    entries.reserveCapacity(Int(location.entryCount))
    var position = location.offset
    // Headers follow one another up to the end of the directory; anything else there (a 4.3.13
    // digital signature, stray bytes) ends the list, and the count check below judges it.
    while end - position >= UInt64(Signature.centralHeaderSize) {
      guard let header = try file.bytes(Signature.centralHeaderSize, at: position) else {
        throw .truncatedArchive(
          archive: path, detail: "the central directory runs past the end of the file")
      }
      guard header.uint32(at: 0) == Signature.centralHeader else { break }
      guard entries.count < limits.maxEntries else {
        throw .tooManyEntries(
          archive: path, count: UInt64(entries.count) + 1, limit: limits.maxEntries)
      }
      let nameLength = Int(header.uint16(at: 28))
      let extraLength = Int(header.uint16(at: 30))
      let commentLength = Int(header.uint16(at: 32))
      let recordSize = UInt64(
        Signature.centralHeaderSize + nameLength + extraLength + commentLength)
      guard end - position >= recordSize else {
        throw .corruptArchive(
          archive: path, detail: "the central directory ends inside an entry header")
      }
      guard
        let variable = try file.bytes(
          nameLength + extraLength, at: position + UInt64(Signature.centralHeaderSize))
      else {
        throw .truncatedArchive(
          archive: path, detail: "the central directory runs past the end of the file")
      }
      let entry = try makeEntry(
        header: header, name: Array(variable[..<nameLength]), extra: Array(variable[nameLength...]),
        file: file, directoryOffset: location.offset, limits: limits)
      entries.append(entry)
      position += recordSize
    }

    // Archives written without ZIP64 keep only the low 16 bits of a count over 65,535.
    let count = UInt64(entries.count)
    guard
      count == location.entryCount || (!location.isZip64 && count & 0xFFFF == location.entryCount)
    else {
      throw .corruptArchive(
        archive: path,
        detail:
          "the end record lists \(location.entryCount) entries, the central directory \(count)")
    }
    return entries
  }

  // MARK: - End records

  /// Finds the end of central directory record by searching backwards over the last 64 KiB + 22
  /// bytes (the comment may be up to 65,535 bytes long), then the ZIP64 locator just before it.
  static func locate(in file: ArchiveFile) throws(ZipError) -> Location {
    let path = file.path
    let recordSize = Signature.endOfCentralDirectorySize
    let tailSize = min(file.size, UInt64(recordSize + 0xFFFF))
    guard tailSize >= UInt64(recordSize) else { throw try missingEndRecord(file) }
    let tailStart = file.size - tailSize
    guard let tail = try file.bytes(Int(tailSize), at: tailStart) else {
      throw .truncatedArchive(archive: path, detail: "the file shrank while being read")
    }

    // Prefer a record whose comment ends exactly at the end of the file; accept one followed by
    // stray bytes only when there is no exact one.
    var exact: Int?
    var loose: Int?
    var index = tail.count - recordSize
    while index >= 0 {
      if tail[index] == 0x50, tail.uint32(at: index) == Signature.endOfCentralDirectory {
        let recordEnd = index + recordSize + Int(tail.uint16(at: index + 20))
        if recordEnd == tail.count {
          exact = index
          break
        }
        if recordEnd < tail.count, loose == nil { loose = index }
      }
      index -= 1
    }
    guard let found = exact ?? loose else { throw try missingEndRecord(file) }
    let recordOffset = tailStart + UInt64(found)
    var location = Location(
      entryCount: UInt64(tail.uint16(at: found + 10)),
      size: UInt64(tail.uint32(at: found + 12)),
      offset: UInt64(tail.uint32(at: found + 16)),
      limit: recordOffset,
      isZip64: false)

    // 4.3.15: a ZIP64 locator sits immediately before the end record and points at the ZIP64
    // end record (4.3.14), whose 64-bit values replace the 0xFFFF / 0xFFFFFFFF placeholders.
    let locatorSize = UInt64(Signature.zip64LocatorSize)
    guard recordOffset >= locatorSize,
      let locator = try file.bytes(Signature.zip64LocatorSize, at: recordOffset - locatorSize),
      locator.uint32(at: 0) == Signature.zip64Locator
    else { return location }
    let zip64Offset = locator.uint64(at: 8)
    let zip64Size = UInt64(Signature.zip64EndOfCentralDirectorySize)
    guard zip64Offset <= recordOffset - locatorSize,
      recordOffset - locatorSize - zip64Offset >= zip64Size,
      let record = try file.bytes(Signature.zip64EndOfCentralDirectorySize, at: zip64Offset),
      record.uint32(at: 0) == Signature.zip64EndOfCentralDirectory
    else {
      throw .corruptArchive(
        archive: path, detail: "no ZIP64 end of central directory record at offset \(zip64Offset)")
    }
    location.entryCount = record.uint64(at: 32)
    location.size = record.uint64(at: 40)
    location.offset = record.uint64(at: 48)
    location.limit = zip64Offset
    location.isZip64 = true
    return location
  }

  /// The error for a file without an end record: "truncated" if it starts like a ZIP archive
  /// (an interrupted download), else "not a ZIP archive".
  private static func missingEndRecord(_ file: ArchiveFile) throws(ZipError) -> ZipError {
    if file.size >= 4, let head = try file.bytes(4, at: 0),
      head.uint32(at: 0) == Signature.localHeader
    {
      return .truncatedArchive(
        archive: file.path,
        detail: "starts like a ZIP archive but has no end of central directory record")
    }
    return .notAZip(archive: file.path)
  }

  // MARK: - Entries

  /// Decodes one central directory header (4.3.12) and checks it against `limits`.
  private static func makeEntry(
    header: [UInt8], name nameBytes: [UInt8], extra: [UInt8], file: ArchiveFile,
    directoryOffset: UInt64,
    limits: ZipLimits
  ) throws(ZipError) -> ZipEntry {
    let path = file.path
    let name = decodeName(nameBytes)
    guard !nameBytes.contains(0) else { throw .invalidEntryName(archive: path, name: name) }

    var compressedSize = UInt64(header.uint32(at: 20))
    var uncompressedSize = UInt64(header.uint32(at: 24))
    var localHeaderOffset = UInt64(header.uint32(at: 42))
    // 4.5.3: the ZIP64 extra field holds, in this order, only the values whose 32-bit field is
    // 0xFFFFFFFF.
    let placeholder = UInt64(UInt32.max)
    if uncompressedSize == placeholder || compressedSize == placeholder
      || localHeaderOffset == placeholder
    {
      var fields = zip64Fields(in: extra)[...]
      func next() throws(ZipError) -> UInt64 {
        guard let value = fields.popFirst() else {
          throw .corruptArchive(
            archive: path, detail: "\(name): ZIP64 extra field missing or too short")
        }
        return value
      }
      if uncompressedSize == placeholder { uncompressedSize = try next() }
      if compressedSize == placeholder { compressedSize = try next() }
      if localHeaderOffset == placeholder { localHeaderOffset = try next() }
    }

    guard uncompressedSize <= limits.maxEntryUncompressedSize else {
      throw .entryTooLarge(
        archive: path, entry: name, declaredSize: uncompressedSize,
        limit: limits.maxEntryUncompressedSize)
    }
    if uncompressedSize > limits.compressionRatioMinimumSize {
      let (ceiling, overflow) = compressedSize.multipliedReportingOverflow(
        by: limits.maxCompressionRatio)
      if !overflow, uncompressedSize > ceiling {
        throw .compressionRatioTooHigh(
          archive: path, entry: name, ratio: uncompressedSize / max(compressedSize, 1),
          limit: limits.maxCompressionRatio)
      }
    }
    // The local header (at least 30 bytes) and the data must lie before the central directory.
    let (dataEnd, overflow) = localHeaderOffset.addingReportingOverflow(
      UInt64(Signature.localHeaderSize))
    let (end, overflow2) = dataEnd.addingReportingOverflow(compressedSize)
    guard !overflow, !overflow2, end <= file.size else {
      throw .truncatedEntry(archive: path, entry: name)
    }
    guard end <= directoryOffset else {
      throw .corruptArchive(archive: path, detail: "\(name): data overlaps the central directory")
    }

    return ZipEntry(
      name: name, method: header.uint16(at: 10), compressedSize: compressedSize,
      uncompressedSize: uncompressedSize, crc32: header.uint32(at: 16),
      localHeaderOffset: localHeaderOffset,
      flags: header.uint16(at: 8))
  }

  /// The 64-bit values of the ZIP64 extended information extra field (header ID 0x0001), or
  /// none. Extra fields are a sequence of (ID, size, data) blocks (4.5.1).
  private static func zip64Fields(in extra: [UInt8]) -> [UInt64] {
    var index = 0
    while extra.count - index >= 4 {
      let id = extra.uint16(at: index)
      let size = Int(extra.uint16(at: index + 2))
      let start = index + 4
      guard extra.count - start >= size else { return [] }
      if id == 0x0001 {
        let data = Array(extra[start..<start + size])
        return stride(from: 0, to: size - 7, by: 8).map { data.uint64(at: $0) }
      }
      index = start + size
    }
    return []
  }

  /// Names are UTF-8 when flag bit 11 is set and CP437 otherwise (Appendix D), but many tools
  /// write UTF-8 without the flag: decode as UTF-8 whenever valid, else map each byte to the
  /// code point of the same value (Latin-1), which keeps every name distinct and printable.
  static func decodeName(_ bytes: [UInt8]) -> String {
    if let name = String(validating: bytes, as: UTF8.self) { return name }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
    return String(scalars)
  }
}
