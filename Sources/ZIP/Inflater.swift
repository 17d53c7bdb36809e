import CZlib

/// Owns one zlib inflate stream.
///
/// zlib records the `z_stream`'s address in its internal state and rejects calls through a copy
/// (`inflateStateCheck` compares `strm->state->strm` with `strm`), so the stream lives on the
/// heap and never moves; `deinit` ends it and frees it.
final class Inflater {
  enum Format {
    /// Raw deflate, no header or trailer: ZIP method 8.
    case rawDeflate
    /// A gzip (or zlib) header and trailer, detected automatically.
    case gzip
  }

  /// The outcome of one ``inflate(from:into:)`` call.
  struct Step {
    var status: Int32
    var consumed: Int
    var produced: Int
  }

  private let stream: UnsafeMutablePointer<z_stream>
  /// What `inflateInit2` returned; anything but `Z_OK` means the stream is unusable.
  let initStatus: Int32

  init(_ format: Format) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())  // zalloc, zfree, opaque = nil: zlib's own allocator
    switch format {
    case .rawDeflate: initStatus = transit_inflateInitRaw(stream)
    case .gzip: initStatus = transit_inflateInitGzip(stream)
    }
  }

  deinit {
    if initStatus == Z_OK { inflateEnd(stream) }
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// The largest buffer handed to zlib in one call (its counts are 32-bit).
  static let maxChunk = 1 << 30

  /// Runs `inflate(Z_NO_FLUSH)` once over `input` into `output`.
  ///
  /// zlib keeps no pointer into either buffer between calls, so the caller may pass the
  /// unconsumed rest of its input from wherever it keeps it.
  func inflate(
    from input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
  )
    -> Step
  {
    precondition(initStatus == Z_OK, "inflate on a stream that failed to initialize")
    precondition(input.count <= Self.maxChunk && output.count <= Self.maxChunk)
    stream.pointee.next_in = input.baseAddress.map {
      UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
    }
    stream.pointee.avail_in = uInt(input.count)
    stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = uInt(output.count)
    let status = CZlib.inflate(stream, Z_NO_FLUSH)
    let step = Step(
      status: status,
      consumed: input.count - Int(stream.pointee.avail_in),
      produced: output.count - Int(stream.pointee.avail_out))
    // Leave no pointers into the caller's buffers behind.
    stream.pointee.next_in = nil
    stream.pointee.avail_in = 0
    stream.pointee.next_out = nil
    stream.pointee.avail_out = 0
    return step
  }

  /// Starts a new stream with the same settings (for the next member of a gzip file).
  func reset() -> Int32 {
    inflateReset(stream)
  }

  /// zlib's message for the last error, or the status code.
  func errorDetail(_ status: Int32) -> String {
    if let message = stream.pointee.msg { return String(cString: message) }
    switch status {
    case Z_MEM_ERROR: return "out of memory"
    case Z_NEED_DICT: return "needs a preset dictionary"
    case Z_DATA_ERROR: return "invalid deflate data"
    default: return "zlib status \(status)"
    }
  }
}

@available(*, unavailable)
extension Inflater: Sendable {}

/// Updates a running CRC-32 (start from 0) with `bytes`.
func updateCRC32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
  var crc = uLong(crc)
  var rest = bytes[...]
  while !rest.isEmpty {
    let chunk = UnsafeRawBufferPointer(rebasing: rest.prefix(Inflater.maxChunk))
    crc = CZlib.crc32(
      crc, chunk.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(chunk.count))
    rest = rest.dropFirst(chunk.count)
  }
  return UInt32(truncatingIfNeeded: crc)
}
