import Fetch
import GTFS

/// The run-time versions of the C libraries transit runs on (`transit --version`): they may be
/// newer than the headers it was built with.
public enum LibraryVersions {
  public static var sqlite: String { TimetableLibraries.sqlite }
  /// libcurl's, or "not found" when it cannot be loaded (it is opened at first use).
  public static var curl: String { HTTPClient.libraryVersion }
  public static var zlib: String { TimetableLibraries.zlib }
}
