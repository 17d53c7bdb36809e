/// Caps that ``ZipArchive`` checks against the central directory when it opens an archive, so
/// that a hostile or broken feed fails fast instead of filling the disk or memory.
///
/// ```swift
/// var limits = ZipLimits.default
/// limits.maxEntryUncompressedSize = 512 << 20
/// let archive = try ZipArchive(path: "feed.zip", limits: limits)
/// ```
public struct ZipLimits: Sendable, Hashable {
  /// The largest uncompressed size any one entry may declare. Default 4 GiB.
  public var maxEntryUncompressedSize: UInt64
  /// The largest uncompressed-to-compressed ratio (N to 1) an entry may declare, checked only for
  /// entries larger than ``compressionRatioMinimumSize``. Default 1000: deflate's own ceiling is
  /// about 1032:1, so only runs of one repeated byte come near it.
  public var maxCompressionRatio: UInt64
  /// Entries at or below this uncompressed size skip the ratio check (small files compress
  /// absurdly well and are harmless). Default 1 MiB.
  public var compressionRatioMinimumSize: UInt64
  /// The most entries an archive may list. Default 65,536.
  public var maxEntries: Int
  /// The most CPU seconds inflating one entry may take, as the size caps bound its bytes: an
  /// entry that compresses absurdly well under the ratio cap still costs seconds per GiB.
  /// Default 120 (zlib inflates the largest feeds' stop_times.txt in a few seconds).
  public var maxInflateSeconds: Double = 120

  /// Creates limits; every argument defaults to the value documented on its property.
  public init(
    maxEntryUncompressedSize: UInt64 = 4 << 30,
    maxCompressionRatio: UInt64 = 1000,
    compressionRatioMinimumSize: UInt64 = 1 << 20,
    maxEntries: Int = 65_536
  ) {
    self.maxEntryUncompressedSize = maxEntryUncompressedSize
    self.maxCompressionRatio = maxCompressionRatio
    self.compressionRatioMinimumSize = compressionRatioMinimumSize
    self.maxEntries = maxEntries
  }

  /// 4 GiB per entry, 1000:1 above 1 MiB, 65,536 entries, 120 s of inflating per entry.
  public static let `default` = ZipLimits()
}
