// libFuzzer target for the ZIP reader (central directory, local headers, stored and deflate
// entries, CRC-32, ZIP64); built and run by Fuzz/run.
//
// Any input must open or throw a ZipError, and every entry must read to its end or throw one;
// nothing may trap. An entry that reads to its end without an error holds exactly its declared
// size (the CRC-32 was checked), and never more than the limits allow.

import ZIP

#if canImport(Glibc)
  import Glibc
#endif

/// The archive is read from a file: the input is written to this one, in memory where possible.
private let path: String = {
  let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
  return "\(folder)/transit-zip-fuzz-\(getpid()).zip"
}()

private let limits = ZipLimits(
  maxEntryUncompressedSize: 1 << 20, maxCompressionRatio: 1000, compressionRatioMinimumSize: 1 << 16, maxEntries: 256)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  precondition(fd >= 0, "cannot write \(path)")
  if let data, size > 0 { precondition(write(fd, data, size) == size) }
  close(fd)
  let archive: ZipArchive
  do {
    archive = try ZipArchive(path: path, limits: limits)
  } catch {
    precondition(!error.description.isEmpty)
    return 0
  }
  precondition(archive.entries.count <= limits.maxEntries)
  var buffer = [UInt8](repeating: 0, count: 4096)
  for entry in archive.entries.prefix(32) {
    precondition(entry.uncompressedSize <= limits.maxEntryUncompressedSize)
    precondition(archive.entry(named: entry.name) != nil)
    do {
      let reader = try archive.reader(for: entry)
      var total: UInt64 = 0
      while true {
        let count = try buffer.withUnsafeMutableBytes { bytes throws(ZipError) in try reader.read(into: bytes) }
        if count == 0 { break }
        total += UInt64(count)
        precondition(total <= entry.uncompressedSize, "read past the declared size")
      }
      precondition(total == entry.uncompressedSize, "ended short of the declared size without an error")
    } catch {
      precondition(!"\(error)".isEmpty)
    }
  }
  return 0
}
