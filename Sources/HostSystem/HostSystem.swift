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
