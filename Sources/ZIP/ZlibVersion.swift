import CZlib

/// The zlib the process runs on.
public enum Zlib {
  /// The version of the zlib library in use ("1.2.13"), as it reports itself at run time.
  public static var libraryVersion: String { String(cString: zlibVersion()) }
}
