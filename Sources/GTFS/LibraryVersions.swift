import SQLite
import ZIP

/// The run-time versions of the C libraries the timetables are read with.
public enum TimetableLibraries {
  /// SQLite's, as the loaded library reports it.
  public static var sqlite: String { Connection.libraryVersion }
  /// zlib's, as the loaded library reports it.
  public static var zlib: String { Zlib.libraryVersion }
}
