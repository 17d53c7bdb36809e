#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What the operating system says of files and time, for the targets that may ask it (GTFS,
// Fetch, TransitCLI). Kept out of TransitModel, which is the standard library only, so that
// Merge and Routing, which import it, cannot reach the system.

/// What `stat(2)` says of a path.
public enum FileInfo {
  /// Whether `path` is a directory (following links); nil when nothing is there.
  public static func isDirectory(_ path: String) -> Bool? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The size of the file at `path` in bytes; nil when nothing is there.
  public static func size(_ path: String) -> UInt64? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt64(info.st_size)
  }
}

/// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`: it never jumps with the wall clock).
public enum MonotonicClock {
  public static func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

/// Reading files with read(2): the one loop (short reads, EINTR) that the fetcher, `rt dump`
/// and ingest's fingerprint share.
public enum FileReader {
  /// The bytes of `path`, at most `limit` of them; nil when it cannot be opened or read. The
  /// first `expected` bytes (the size the caller saw) are read straight into the array, with
  /// no buffer or `Data` copy beside it: a feed near its size cap is held once.
  public static func bytes(_ path: String, limit: Int = .max, expected: Int = 0) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let first = min(max(expected, 0), limit)
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: first) { buffer, count in
      while count < first {
        let got = read(fd, buffer.baseAddress! + count, first - count)
        if got < 0 && errno == EINTR { continue }
        if got < 0 { failed = true }
        if got <= 0 { break }
        count += got
      }
    }
    guard !failed else { return nil }
    guard bytes.count < limit else { return bytes }
    // A file longer than expected (it grew, or no size was given): the rest, up to `limit`
    // (read in chunks no larger than what is still wanted).
    let complete = chunks(fd, size: min(65_536, limit - bytes.count)) { chunk in
      bytes += chunk.prefix(limit - bytes.count)
      return bytes.count < limit
    }
    return complete == nil ? nil : bytes
  }

  /// Calls `body` with each chunk of `path` in order (at most `chunkSize` bytes; a slice of one
  /// reused buffer, valid only during the call) until the end or until `body` returns false.
  /// Returns nil when the file cannot be opened or a read fails (with `errno` set), else
  /// whether the end was reached.
  @discardableResult
  public static func forEachChunk(
    _ path: String, chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) throws -> Bool
  ) rethrows -> Bool? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    return try chunks(fd, size: chunkSize, body)
  }

  private static func chunks(_ fd: Int32, size: Int, _ body: (ArraySlice<UInt8>) throws -> Bool) rethrows -> Bool? {
    var chunk = [UInt8](repeating: 0, count: max(size, 1))
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { return nil }
      if count == 0 { return true }
      guard try body(chunk[0..<count]) else { return false }
    }
  }
}
