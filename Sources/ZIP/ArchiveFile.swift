import Glibc

/// Positioned reads from an open file descriptor. Does not own the descriptor: ``ZipArchive``
/// opens it and closes it in `deinit`.
struct ArchiveFile {
  let descriptor: Int32
  let path: String
  let size: UInt64

  /// Reads up to `buffer.count` bytes at `offset` with `pread`, retrying short reads and EINTR.
  /// - Returns: the number of bytes read, fewer than `buffer.count` only at the end of the file.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ZipError) -> Int {
    var total = 0
    while total < buffer.count {
      let position = offset.addingReportingOverflow(UInt64(total))
      guard !position.overflow, position.partialValue <= UInt64(Int64.max) else { break }
      let count = pread(
        descriptor, buffer.baseAddress! + total, buffer.count - total, off_t(position.partialValue))
      if count > 0 {
        total += count
      } else if count == 0 {
        break
      } else if errno != EINTR {
        throw .readFailed(archive: path, errno: errno)
      }
    }
    return total
  }

  /// Reads exactly `count` bytes at `offset`.
  /// - Returns: the bytes, or `nil` if the file ends first.
  func bytes(_ count: Int, at offset: UInt64) throws(ZipError) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    let result: Result<Int, ZipError> = bytes.withUnsafeMutableBytes { buffer in
      do throws(ZipError) { return .success(try read(into: buffer, at: offset)) } catch {
        return .failure(error)
      }
    }
    return try result.get() == count ? bytes : nil
  }
}

// MARK: - Little-endian fields

extension Array where Element == UInt8 {
  /// The little-endian UInt16 at `offset` (APPNOTE 4.4.1.1: all values are little-endian).
  func uint16(at offset: Int) -> UInt16 {
    UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
  }

  /// The little-endian UInt32 at `offset`.
  func uint32(at offset: Int) -> UInt32 {
    UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16
  }

  /// The little-endian UInt64 at `offset`.
  func uint64(at offset: Int) -> UInt64 {
    UInt64(uint32(at: offset)) | UInt64(uint32(at: offset + 4)) << 32
  }
}
