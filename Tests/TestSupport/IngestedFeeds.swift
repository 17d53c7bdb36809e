import Foundation
import GTFS

/// The one cache of ingested timetables every test target shares (one test process runs them
/// all): each data folder is made once per process and key, and tests only read it (a test that
/// changes one works on a `copy(_:into:)`). A real feed takes seconds to ingest, and many suites
/// ask for the same ones. A fixture that failed to be made fails every test that asks for it,
/// each alone, not the run.
public enum IngestedFeeds {
  private static let folders = OncePerKey<TemporaryFolder>()

  /// The data folder for `key`, made the first time it is asked for by `ingest`, which is given
  /// the fresh folder's path (the library's ingest below, or a suite's own: the CLI's tests
  /// ingest as `transit ingest` does).
  public static func folder(key: String, ingest: (_ folder: String) throws -> Void) throws -> String {
    try folders.value(key) {
      let folder = TemporaryFolder()
      try ingest(folder.path)
      return folder
    }.path
  }

  /// A data folder holding the feed at `source` (a ZIP or a folder of .txt files) loaded as
  /// `feed` by the library's ingest (`Timetables.ingest`, stamped as loaded at 1).
  public static func folder(source: String, as feed: String) throws -> String {
    try folder(key: "library\u{0}" + source + "\u{0}" + feed) { folder in
      do {
        try Timetables(directory: folder).ingest(source, as: feed, now: 1)
      } catch {
        throw FixtureError("ingest of \(source): \(error)")
      }
    }
  }

  /// A data folder holding shared/data/static/`file` loaded as `feed` by the library's ingest.
  /// - Throws: when the feed is missing or its ingest failed.
  public static func folder(_ file: String, as feed: String) throws -> String {
    guard let source = SharedData.path("static/" + file) else { throw FixtureError("no shared/data/static/\(file)") }
    return try folder(source: source, as: feed)
  }

  /// The timetable file of shared/data/static/`file` loaded as `feed`.
  public static func path(_ file: String, as feed: String) throws -> String {
    try Timetables(directory: try folder(file, as: feed)).path(of: feed)
  }

  /// A store over `path(file, as: feed)`.
  public static func store(_ file: String, as feed: String) throws -> Store {
    try Store(files: [(feed, try path(file, as: feed))])
  }

  /// Copies every file of the data folder `folder` into `destination` (milliseconds, where an
  /// ingest of a real feed takes seconds).
  public static func copy(_ folder: String, into destination: String) throws {
    let files = FileManager.default
    for name in try files.contentsOfDirectory(atPath: folder) {
      try files.copyItem(atPath: folder + "/" + name, toPath: destination + "/" + name)
    }
  }
}
