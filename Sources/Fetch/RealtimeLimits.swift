import GTFSRealtime

/// Realtime's memory budget: what a feed may weigh on the wire and once decompressed, and what
/// its decoding may make. A hostile feed (a small gzip of millions of repeated entities) fails
/// early with a one-line error naming the limit instead of taking gigabytes.
public struct RealtimeLimits: Sendable, Hashable {
  /// The most bytes a gzip-compressed feed (a `.pb.gz` file or body) may hold. Default 32 MiB.
  public var maxCompressedBytes: Int
  /// The most bytes a feed may hold as protobuf: an uncompressed body or file, a body after its
  /// `Content-Encoding`, or a gzip file once decompressed. Default 64 MiB.
  public var maxDecompressedBytes: Int
  /// The decoder's counts (entities, stop time updates, repeated messages).
  public var decoding: DecodingLimits

  /// Creates limits; every argument defaults to the value documented on its property.
  public init(maxCompressedBytes: Int = 32 << 20, maxDecompressedBytes: Int = 64 << 20, decoding: DecodingLimits = .default) {
    self.maxCompressedBytes = maxCompressedBytes
    self.maxDecompressedBytes = maxDecompressedBytes
    self.decoding = decoding
  }
}
