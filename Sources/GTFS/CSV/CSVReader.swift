/// A streaming CSV reader for GTFS files (RFC 4180, and what real feeds do besides).
///
/// - Accepts a UTF-8 byte-order mark, LF, CRLF or a bare CR between records, quoted fields with
///   commas, doubled quotes and line breaks, header names with stray spaces, and rows with more
///   or fewer fields than the header (counted in `raggedRows`, missing fields read as empty).
/// - Refuses UTF-16, NUL bytes, invalid UTF-8 and a quote that never closes, naming the line.
/// - Holds one buffer (1 MiB, growing only for a record longer than that), never the file.
///
/// Fields are views into the buffer and are valid until the next call to `next()`.
public final class CSVReader {
  /// The file name used in errors (`stop_times.txt`).
  public let file: String
  /// The header's column names, trimmed.
  public private(set) var header: [String] = []
  /// The line the current record starts on (the header is line 1).
  public var line: Int { state.pointee.line }
  /// Rows whose field count differs from the header's: (line, field count), the first 20.
  public private(set) var raggedRows: [(line: Int, fields: Int)] = []
  /// How many rows in all had a field count that differs from the header's.
  public private(set) var raggedRowCount = 0
  /// Data records read so far.
  public var recordCount: Int { state.pointee.recordCount }

  private let source: ByteSource
  /// One reservation of `maximumRecordBytes`: the kernel backs only the pages touched, and
  /// reads fill at most `chunkBytes` at a time, so memory in use stays near one chunk plus the
  /// longest record. A `let`, so the hot loops read it without exclusivity checks.
  private let buffer: UnsafeMutableRawPointer
  #if TRANSIT_FUZZING
    // Small buffers under the fuzzer (Fuzz/run): refills and the record limit reached by small inputs.
    private static let chunkBytes = 1 << 8
  #else
    private static let chunkBytes = 1 << 20
  #endif
  /// What changes as the reader goes, behind a pointer held in a `let`: the hot loops read and
  /// write it with no exclusivity check (a class `var` costs a runtime check on every access,
  /// which took a third as long as scanning the bytes).
  private struct State {
    var start = 0  // first unread byte
    var end = 0  // one past the last valid byte
    var atEOF = false
    var nextLine = 1
    var line = 1
    var recordCount = 0
    var fieldCount = 0
    var headerCount = 0
    var recordHadQuotes = false
  }
  private let state: UnsafeMutablePointer<State>
  /// Field boundaries of the current record: bounds[2i]..<bounds[2i+1] into `buffer`.
  private let bounds: UnsafeMutablePointer<Int>
  private static let maximumFields = 4096
  /// The number of fields in the current record.
  public var fieldCount: Int { state.pointee.fieldCount }
  #if TRANSIT_FUZZING
    private static let maximumRecordBytes = 1 << 14
  #else
    private static let maximumRecordBytes = 64 << 20
  #endif

  /// Opens a reader and reads the header.
  /// - Throws: `GTFSError` for an empty file, UTF-16, or a bad header.
  public init(source: ByteSource, file: String) throws(GTFSError) {
    self.source = source
    self.file = file
    self.buffer = .allocate(byteCount: Self.maximumRecordBytes + Self.chunkBytes, alignment: 16)
    self.bounds = .allocate(capacity: 2 * Self.maximumFields)
    self.state = .allocate(capacity: 1)
    state.initialize(to: State())
    repeat { try fill() } while state.pointee.end < 3 && !state.pointee.atEOF  // enough bytes to see a byte-order mark
    let start = state.pointee.start, end = state.pointee.end
    if end - start >= 2 {
      let b0 = buffer.load(fromByteOffset: start, as: UInt8.self)
      let b1 = buffer.load(fromByteOffset: start + 1, as: UInt8.self)
      if (b0 == 0xFF && b1 == 0xFE) || (b0 == 0xFE && b1 == 0xFF) {
        throw GTFSError(file: file, line: 1, .utf16)
      }
    }
    if end - start >= 3, buffer.load(fromByteOffset: start, as: UInt8.self) == 0xEF,
      buffer.load(fromByteOffset: start + 1, as: UInt8.self) == 0xBB,
      buffer.load(fromByteOffset: start + 2, as: UInt8.self) == 0xBF
    {
      state.pointee.start += 3
    }
    guard try nextRecord() else { throw GTFSError(file: file, .emptyFile) }
    header = (0..<fieldCount).map { index in
      trimmed(string(index)).lowercased()
    }
    if header.count == 1 && header[0].isEmpty { throw GTFSError(file: file, line: 1, .emptyFile) }
    state.pointee.headerCount = header.count
  }

  deinit {
    buffer.deallocate()
    bounds.deallocate()
    state.deallocate()
  }

  /// The index of column `name`, or nil when the header lacks it.
  public func column(_ name: String) -> Int? { header.firstIndex(of: name) }

  /// The index of a column the file must have.
  /// - Throws: `GTFSError.missingColumn` naming the file and column.
  public func requiredColumn(_ name: String) throws(GTFSError) -> Int {
    guard let index = column(name) else { throw GTFSError(file: file, line: 1, .missingColumn(name)) }
    return index
  }

  /// Advances to the next data record; false at the end of the file.
  public func next() throws(GTFSError) -> Bool {
    while true {
      guard try nextRecord() else { return false }
      let state = self.state
      let fieldCount = state.pointee.fieldCount
      // A blank line (one empty, unquoted field) is not a record.
      if fieldCount == 1 && bounds[0] == bounds[1] && !state.pointee.recordHadQuotes { continue }
      state.pointee.recordCount += 1
      if fieldCount != state.pointee.headerCount { noteRagged() }
      return true
    }
  }

  private func noteRagged() {
    raggedRowCount += 1
    if raggedRows.count < 20 { raggedRows.append((line, fieldCount)) }
  }

  /// The bytes of field `index` (empty when the record has fewer fields, or index is nil).
  @inline(__always)
  public func field(_ index: Int?) -> UnsafeRawBufferPointer {
    guard let index else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return field(index)
  }

  /// The bytes of field `index` (empty when the record has fewer fields).
  @inline(__always)
  public func field(_ index: Int) -> UnsafeRawBufferPointer {
    guard index < state.pointee.fieldCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    var s = bounds[2 * index], e = bounds[2 * index + 1]
    // Trim spaces, which real feeds put around values.
    while s < e, buffer.load(fromByteOffset: s, as: UInt8.self) == 32 { s += 1 }
    while e > s, buffer.load(fromByteOffset: e - 1, as: UInt8.self) == 32 { e -= 1 }
    return UnsafeRawBufferPointer(start: buffer + s, count: e - s)
  }

  /// Field `index` as text ("" when absent).
  public func string(_ index: Int?) -> String {
    let bytes = field(index)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Field `index` as text, or nil when absent or empty.
  public func optionalString(_ index: Int?) -> String? {
    let bytes = field(index)
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - Records

  /// Reads one record's field boundaries into `bounds`; false at the end of input.
  private func nextRecord() throws(GTFSError) -> Bool {
    while true {
      if state.pointee.start == state.pointee.end {
        if state.pointee.atEOF { return false }
        try fill()
        continue
      }
      switch try scanRecord() {
      case .complete: return true
      case .needMore:
        if state.pointee.atEOF {
          // The last record has no line break; the scan treated the end as one.
          preconditionFailure("scanRecord asks for more only before the end of input")
        }
        try fill()
      }
    }
  }

  private enum ScanResult { case complete, needMore }

  /// The bytes of `word` (8, little-endian) that are a comma, LF, CR, quote or NUL: the high
  /// bit of each such byte set. The lowest set bit is exact (a borrow only runs upwards from a
  /// match), which is all the scan uses.
  @inline(__always)
  private static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zeros(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
    return zeros(word ^ (ones &* 0x2C)) | zeros(word ^ (ones &* 0x0A)) | zeros(word ^ (ones &* 0x0D))
      | zeros(word ^ (ones &* 0x22)) | zeros(word)
  }

  private func scanRecord() throws(GTFSError) -> ScanResult {
    // Locals only in the loop: class properties would cost an exclusivity check per byte.
    let bytes = buffer.assumingMemoryBound(to: UInt8.self)
    let bounds = self.bounds
    let end = state.pointee.end, atEOF = state.pointee.atEOF, nextLine = state.pointee.nextLine
    var count = 0
    var i = state.pointee.start
    var fieldStart = i
    var lines = 0
    var highBits: UInt64 = 0
    var quotedFields: [Int] = []
    @inline(__always) func endField(_ at: Int) throws(GTFSError) {
      guard count < Self.maximumFields else {
        throw GTFSError(file: file, line: nextLine + lines, .tooManyFields(limit: Self.maximumFields))
      }
      bounds[2 * count] = fieldStart
      bounds[2 * count + 1] = at
      count += 1
    }
    @inline(__always) func finish(next: Int, lines: Int) throws(GTFSError) {
      try finishRecord(
        next: next, fields: count, lines: lines, highBits: highBits & 0x8080_8080_8080_8080 != 0, quoted: quotedFields)
    }
    while true {
      // Ordinary bytes eight at a time, up to the next comma, line break, quote or NUL.
      while i &+ 8 <= end {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self))
        let special = Self.specialBytes(word)
        if special == 0 {
          highBits |= word
          i &+= 8
          continue
        }
        let ordinary = special.trailingZeroBitCount >> 3
        // Only the ordinary bytes: the rest are looked at again.
        highBits |= word & ((1 << UInt64(ordinary &* 8)) &- 1)
        i &+= ordinary
        break
      }
      if i == end {
        if !atEOF { return .needMore }
        try endField(i)
        try finish(next: i, lines: lines)
        return .complete
      }
      let byte = bytes[i]
      highBits |= UInt64(byte)
      switch byte {
      case 44:  // comma
        try endField(i)
        i += 1
        fieldStart = i
      case 10, 13:  // LF, CR
        try endField(i)
        var next = i + 1
        if byte == 13 {
          if next == end && !atEOF { return .needMore }
          if next < end && bytes[next] == 10 { next += 1 }
        }
        try finish(next: next, lines: lines + 1)
        return .complete
      case 34:  // quote
        if i != fieldStart {
          i += 1  // a stray quote inside an unquoted field is kept as text
          continue
        }
        // A quoted field: runs to a quote not followed by another quote.
        i += 1
        while true {
          if i == end {
            if !atEOF { return .needMore }
            throw GTFSError(file: file, line: nextLine, .unterminatedQuote)
          }
          let b = bytes[i]
          highBits |= UInt64(b)
          if b == 34 {
            if i + 1 == end && !atEOF { return .needMore }
            if i + 1 < end && bytes[i + 1] == 34 {
              i += 2
              continue
            }
            i += 1
            break
          }
          if b == 10 { lines += 1 }
          if b == 0 { throw GTFSError(file: file, line: nextLine + lines, .nulByte) }
          i += 1
        }
        quotedFields.append(count)
      case 0:
        throw GTFSError(file: file, line: nextLine + lines, .nulByte)
      default:
        i += 1  // an ordinary byte in the last few before the end of the buffer
      }
    }
  }

  private func finishRecord(next: Int, fields: Int, lines: Int, highBits: Bool, quoted: [Int]) throws(GTFSError) {
    let state = self.state
    state.pointee.fieldCount = fields
    state.pointee.recordHadQuotes = !quoted.isEmpty
    for index in quoted { unquote(index) }
    state.pointee.line = state.pointee.nextLine
    state.pointee.nextLine += max(lines, 1)
    state.pointee.start = next
    if highBits {
      for index in 0..<fields {
        let bytes = UnsafeRawBufferPointer(start: buffer + bounds[2 * index], count: bounds[2 * index + 1] - bounds[2 * index])
        if String(validating: bytes, as: UTF8.self) == nil {
          throw GTFSError(file: file, line: line, .invalidUTF8)
        }
      }
    }
  }

  /// Removes a quoted field's quotes and undoubles its inner quotes, in place (the text only
  /// shrinks). Text after the closing quote (`"a"b`, loose quoting) is kept.
  private func unquote(_ index: Int) {
    let bytes = buffer.assumingMemoryBound(to: UInt8.self)
    var read = bounds[2 * index] + 1
    var write = bounds[2 * index]
    let stop = bounds[2 * index + 1]
    var inQuotes = true
    while read < stop {
      let b = bytes[read]
      if inQuotes && b == 34 {
        if read + 1 < stop && bytes[read + 1] == 34 {
          bytes[write] = 34
          write += 1
          read += 2
          continue
        }
        inQuotes = false
        read += 1
        continue
      }
      bytes[write] = b
      write += 1
      read += 1
    }
    bounds[2 * index + 1] = write
  }

  /// Moves unread bytes to the front and reads up to one more chunk.
  private func fill() throws(GTFSError) {
    let state = self.state
    if state.pointee.start > 0 {
      let remaining = state.pointee.end - state.pointee.start
      if remaining > 0 { buffer.copyMemory(from: buffer + state.pointee.start, byteCount: remaining) }
      state.pointee.end = remaining
      state.pointee.start = 0
    }
    guard state.pointee.end < Self.maximumRecordBytes else {
      throw GTFSError(file: file, line: state.pointee.nextLine, .recordTooLong(bytes: Self.maximumRecordBytes))
    }
    let count: Int
    do {
      count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + state.pointee.end, count: Self.chunkBytes))
    } catch let error as GTFSError {
      throw error
    } catch {
      // A ZIP entry's error names the archive and the entry (`feed.zip: stops.txt: truncated`);
      // the entry is `file`, named once.
      var message = "\(error)"
      if let named = message.firstRange(of: ": \(file): ") { message = String(message[named.upperBound...]) }
      throw GTFSError(file: file, .unreadable(message))
    }
    if count == 0 { state.pointee.atEOF = true }
    state.pointee.end += count
  }

  private func trimmed(_ text: String) -> String {
    var scalars = Substring(text)
    while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
    while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
    return String(scalars)
  }
}

@available(*, unavailable)
extension CSVReader: Sendable {}
