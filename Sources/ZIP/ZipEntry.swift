/// One file (or folder) listed in an archive's central directory.
///
/// Every size and checksum here comes from the central directory, never from the local header,
/// which may hold zeros (data descriptors, APPNOTE 4.4.4 bit 3) or lie.
public struct ZipEntry: Sendable, Hashable {
  /// The path inside the archive, with `/` separators as stored (folders end in `/`).
  /// Decoded as UTF-8 when valid, else byte for byte as Latin-1.
  public let name: String
  /// The compression method: 0 stored, 8 deflate (others are listed but cannot be read).
  public let method: UInt16
  /// The size of the stored (compressed) data in bytes.
  public let compressedSize: UInt64
  /// The declared size of the content in bytes; reading checks it.
  public let uncompressedSize: UInt64
  /// The declared CRC-32 of the content; reading checks it.
  public let crc32: UInt32
  /// Where the entry's local file header starts in the archive.
  public let localHeaderOffset: UInt64
  /// The general purpose bit flags (APPNOTE 4.4.4): bit 0 encrypted, bit 3 data descriptor,
  /// bit 11 UTF-8 name.
  public let flags: UInt16

  /// Whether the entry is a folder (its name ends in `/`).
  public var isDirectory: Bool { name.hasSuffix("/") }

  /// Whether the entry is encrypted (flag bit 0, or bit 6 for strong encryption); such entries
  /// are listed but cannot be read.
  public var isEncrypted: Bool { flags & 0x0041 != 0 }

  init(
    name: String, method: UInt16, compressedSize: UInt64, uncompressedSize: UInt64, crc32: UInt32,
    localHeaderOffset: UInt64, flags: UInt16
  ) {
    self.name = name
    self.method = method
    self.compressedSize = compressedSize
    self.uncompressedSize = uncompressedSize
    self.crc32 = crc32
    self.localHeaderOffset = localHeaderOffset
    self.flags = flags
  }
}
