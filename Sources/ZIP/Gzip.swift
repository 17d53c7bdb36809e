import CZlib

/// Decompresses gzip data held in memory, such as a `.pb.gz` realtime capture (RFC 1952).
public enum Gzip {
  /// Whether `bytes` start with the gzip magic number 1f 8b.
  public static func isGzip(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Decompresses `bytes`, a gzip file of one or more members (zlib-wrapped data works too).
  ///
  /// - Parameters:
  ///   - bytes: the compressed data.
  ///   - maxOutput: the most bytes the result may hold; default 256 MiB.
  /// - Returns: the decompressed bytes, after zlib has checked each member's CRC-32 and size.
  /// - Throws: `ZipError.truncatedGzip` if the data ends inside a stream,
  ///   `ZipError.corruptGzip` if it is malformed or followed by other bytes, and
  ///   `ZipError.gzipTooLarge` if the output would exceed `maxOutput`.
  public static func decompress(
    _ bytes: [UInt8], maxOutput: Int = 256 << 20
  ) throws(ZipError)
    -> [UInt8]
  {
    precondition(maxOutput >= 0, "Gzip.decompress needs a maxOutput of 0 or more")
    let inflater = Inflater(.gzip)
    guard inflater.initStatus == Z_OK else {
      throw .corruptGzip(detail: inflater.errorDetail(inflater.initStatus))
    }
    var output: [UInt8] = []
    // Room for the whole allowed output at once (only the pages written count against memory):
    // doubling would briefly hold one and a half times the output, twice near the cap.
    output.reserveCapacity(min(maxOutput, 256 << 20))
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var offset = 0
    while true {
      let step = bytes.withUnsafeBytes { input in
        chunk.withUnsafeMutableBytes { chunk in
          inflater.inflate(
            from: UnsafeRawBufferPointer(
              rebasing: input[offset..<min(input.count, offset + Inflater.maxChunk)]),
            into: chunk)
        }
      }
      offset += step.consumed
      guard step.produced <= maxOutput - output.count else { throw .gzipTooLarge(limit: maxOutput) }
      output.append(contentsOf: chunk[..<step.produced])

      switch step.status {
      case Z_STREAM_END:
        if offset == bytes.count { return output }
        // RFC 1952 2.2: a gzip file is a series of members; anything else after one is an error.
        guard isGzip(Array(bytes[offset...].prefix(2))) else {
          throw .corruptGzip(
            detail: "\(bytes.count - offset) bytes of trailing data after the gzip stream")
        }
        let status = inflater.reset()
        guard status == Z_OK else { throw .corruptGzip(detail: inflater.errorDetail(status)) }
      case Z_OK:
        continue
      case Z_BUF_ERROR:
        if offset == bytes.count { throw .truncatedGzip }
        guard step.consumed > 0 || step.produced > 0 else {
          throw .corruptGzip(detail: "inflate made no progress")
        }
      case let status:
        throw .corruptGzip(detail: inflater.errorDetail(status))
      }
    }
  }
}
