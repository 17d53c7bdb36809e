import ZIP

#if canImport(Glibc)
  import Glibc
#endif

/// A stream of bytes a CSV file is read from: a ZIP entry or a plain file.
public protocol ByteSource: AnyObject {
  /// Fills up to `buffer.count` bytes; returns 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ZipEntryReader: ByteSource {}

/// A plain file read with `read(2)`.
public final class FileByteSource: ByteSource {
  private let fd: Int32
  /// The file's path.
  public let path: String
  /// Bytes read so far.
  public private(set) var bytesRead: UInt64 = 0

  /// Opens `path` for reading.
  public init(path: String) throws(GTFSError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw GTFSError(file: path, .unreadable(String(cString: strerror(errno))))
    }
    self.fd = fd
    self.path = path
  }

  deinit { close(fd) }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if count >= 0 {
        bytesRead += UInt64(count)
        return count
      }
      if errno == EINTR { continue }
      throw GTFSError(file: path, .unreadable(String(cString: strerror(errno))))
    }
  }
}
