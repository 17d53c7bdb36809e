import CZlib
import Glibc

/// Streams the content of one ``ZipEntry``, inflating as it goes, in constant memory: a 256 KiB
/// input buffer and zlib's 32 KiB window, however large the entry.
///
/// Output never exceeds the central directory's declared size; when the content ends, the
/// reader checks the size and the CRC-32 before it reports the end. After an error every later
/// `read` throws the same error.
public final class ZipEntryReader {
  /// The entry being read.
  public let entry: ZipEntry
  /// The entry's name, for messages and progress.
  public var entryName: String { entry.name }
  /// The uncompressed bytes produced so far.
  public private(set) var bytesRead: UInt64 = 0
  /// The compressed bytes read from the archive so far.
  public private(set) var compressedBytesRead: UInt64 = 0

  private enum State {
    case reading
    case finished
    case failed(ZipError)
  }

  /// Compressed data is read from the archive this many bytes at a time.
  static let inputCapacity = 256 << 10

  private let archive: ZipArchive  // keeps the file descriptor open
  private let dataOffset: UInt64
  private var state = State.reading
  private var crc: UInt32 = 0
  /// Deflate only: the stream, its input buffer and the unconsumed part of it.
  private let inflater: Inflater?
  private let input: UnsafeMutableRawBufferPointer
  private var inputStart = 0
  private var inputEnd = 0
  private var streamEnded = false
  /// One spare byte of output: once the declared size is reached, inflate goes on into this to
  /// learn whether the stream ends there or holds more than declared.
  private let overflowByte: UnsafeMutableRawBufferPointer
  /// The CPU time inflating this entry may take (`ZipLimits.maxInflateSeconds`), and how
  /// much it has taken.
  private let inflateBudgetNanoseconds: UInt64
  private var inflateNanoseconds: UInt64 = 0

  init(archive: ZipArchive, entry: ZipEntry) throws(ZipError) {
    guard !entry.isEncrypted else {
      throw .encryptedEntry(archive: archive.path, entry: entry.name)
    }
    switch entry.method {
    case 0:
      guard entry.compressedSize == entry.uncompressedSize else {
        throw .corruptEntry(
          archive: archive.path, entry: entry.name,
          detail:
            "stored entry declares \(entry.compressedSize) bytes compressed, \(entry.uncompressedSize) uncompressed"
        )
      }
      inflater = nil
    case 8:
      let inflater = Inflater(.rawDeflate)
      guard inflater.initStatus == Z_OK else {
        throw .corruptEntry(
          archive: archive.path, entry: entry.name,
          detail: inflater.errorDetail(inflater.initStatus))
      }
      self.inflater = inflater
    default:
      throw .unsupportedCompression(archive: archive.path, entry: entry.name, method: entry.method)
    }
    dataOffset = try archive.dataOffset(of: entry)
    self.archive = archive
    self.entry = entry
    let inputCount =
      inflater == nil ? 0 : Int(min(UInt64(Self.inputCapacity), max(entry.compressedSize, 1)))
    input = .allocate(byteCount: inputCount, alignment: 16)
    overflowByte = .allocate(byteCount: 1, alignment: 1)
    let budget = archive.limits.maxInflateSeconds
    inflateBudgetNanoseconds = budget.isFinite && budget >= 0 ? UInt64(min(budget, 1e9) * 1e9) : .max
  }

  /// This thread's CPU time, in nanoseconds.
  private static func cpuNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  deinit {
    input.deallocate()
    overflowByte.deallocate()
  }

  /// Fills up to `buffer.count` bytes of the entry's uncompressed content.
  ///
  /// - Parameter buffer: where to put the content; must not be empty.
  /// - Returns: the number of bytes written, or 0 at the end, which it returns only after the
  ///   CRC-32 and the uncompressed size have been verified.
  /// - Throws: `ZipError` if the data is truncated or corrupt, inflates past the declared size,
  ///   ends short of it, or fails the CRC-32 check.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
    precondition(!buffer.isEmpty, "ZipEntryReader.read needs a non-empty buffer")
    switch state {
    case .finished: return 0
    case .failed(let error): throw error
    case .reading: break
    }
    do throws(ZipError) {
      let started = inflater == nil ? 0 : Self.cpuNanoseconds()
      let count = inflater == nil ? try readStored(into: buffer) : try readDeflated(into: buffer)
      if inflater != nil {
        inflateNanoseconds += Self.cpuNanoseconds() &- started
        if inflateNanoseconds > inflateBudgetNanoseconds {
          throw .inflateTooSlow(archive: archive.path, entry: entry.name, limitSeconds: archive.limits.maxInflateSeconds)
        }
      }
      if count == 0 { try verify() }
      return count
    } catch {
      state = .failed(error)
      throw error
    }
  }

  // MARK: - Stored (method 0)

  private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
    let remaining = entry.uncompressedSize - bytesRead
    guard remaining > 0 else { return 0 }
    let target = UnsafeMutableRawBufferPointer(
      rebasing: buffer.prefix(Int(min(UInt64(min(buffer.count, Inflater.maxChunk)), remaining))))
    let count = try archive.file.read(into: target, at: dataOffset + bytesRead)
    guard count == target.count else {
      throw .truncatedEntry(archive: archive.path, entry: entry.name)
    }
    produced(UnsafeRawBufferPointer(target))
    compressedBytesRead += UInt64(count)
    return count
  }

  // MARK: - Deflate (method 8)

  private func readDeflated(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
    guard let inflater else { preconditionFailure("deflate reader without a stream") }
    if streamEnded { return 0 }
    while true {
      if inputStart == inputEnd, compressedBytesRead < entry.compressedSize { try refill() }
      let remaining = entry.uncompressedSize - bytesRead
      let output =
        remaining == 0
        ? overflowByte
        : UnsafeMutableRawBufferPointer(
          rebasing: buffer.prefix(Int(min(UInt64(min(buffer.count, Inflater.maxChunk)), remaining)))
        )
      let step = inflater.inflate(
        from: UnsafeRawBufferPointer(rebasing: input[inputStart..<inputEnd]), into: output)
      inputStart += step.consumed
      if remaining == 0, step.produced > 0 {
        throw .inflatesPastDeclaredSize(
          archive: archive.path, entry: entry.name, declaredSize: entry.uncompressedSize)
      }
      if step.produced > 0 {
        produced(UnsafeRawBufferPointer(rebasing: output.prefix(step.produced)))
      }

      let inputExhausted = inputStart == inputEnd && compressedBytesRead == entry.compressedSize
      switch step.status {
      case Z_STREAM_END:
        // Bytes left after the end of the stream are ignored, as unzip and Go's archive/zip do.
        streamEnded = true
        return step.produced
      case Z_OK:
        if step.produced > 0 { return step.produced }
      case Z_BUF_ERROR:
        // No progress was possible: zlib wants more input than the entry has.
        if step.produced > 0 { return step.produced }
        if inputExhausted { throw .truncatedEntry(archive: archive.path, entry: entry.name) }
        guard inputStart == inputEnd else {
          throw .corruptEntry(
            archive: archive.path, entry: entry.name, detail: "inflate made no progress")
        }
      case let status:
        throw .corruptEntry(
          archive: archive.path, entry: entry.name, detail: inflater.errorDetail(status))
      }
    }
  }

  /// Reads the next chunk of compressed data into the (fully consumed) input buffer.
  private func refill() throws(ZipError) {
    let count = Int(min(UInt64(input.count), entry.compressedSize - compressedBytesRead))
    let target = UnsafeMutableRawBufferPointer(rebasing: input.prefix(count))
    let read = try archive.file.read(into: target, at: dataOffset + compressedBytesRead)
    guard read == count else { throw .truncatedEntry(archive: archive.path, entry: entry.name) }
    compressedBytesRead += UInt64(count)
    inputStart = 0
    inputEnd = count
  }

  // MARK: - Checks

  private func produced(_ bytes: UnsafeRawBufferPointer) {
    crc = updateCRC32(crc, bytes)
    bytesRead += UInt64(bytes.count)
  }

  /// At the end of the content: the size and CRC-32 must be the declared ones.
  private func verify() throws(ZipError) {
    guard bytesRead == entry.uncompressedSize else {
      throw .sizeMismatch(
        archive: archive.path, entry: entry.name, declaredSize: entry.uncompressedSize,
        actualSize: bytesRead)
    }
    guard crc == entry.crc32 else {
      throw .crcMismatch(
        archive: archive.path, entry: entry.name, expected: entry.crc32, actual: crc)
    }
    state = .finished
  }
}

@available(*, unavailable)
extension ZipEntryReader: Sendable {}
