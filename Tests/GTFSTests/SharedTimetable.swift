import Foundation
import GTFS
import TestSupport

/// Each feed of shared/data ingested once per test process, under a feed name, for the suites
/// that only query it: a real feed takes seconds to ingest, and several suites ask for the same
/// ones. Tests must not change these timetables (ingest tests make their own).
enum SharedTimetable {
  private static let timetables = OncePerKey<(TestDirectory, String)>()

  struct SetUpError: Error, CustomStringConvertible {
    var description: String
  }

  /// The timetable file of shared/data/static/`file` ingested as `feed`.
  /// - Throws: when the feed is missing or its ingest failed (each test asking fails alone).
  static func path(_ file: String, as feed: String) throws -> String {
    try timetables.value(file + "\u{0}" + feed) {
      guard let source = SharedData.path("static/" + file) else { throw SetUpError(description: "no shared/data/static/\(file)") }
      let directory = TestDirectory()
      let timetables = Timetables(directory: directory.path)
      do {
        try timetables.ingest(source, as: feed, now: 1)
        return (directory, try timetables.path(of: feed))
      } catch {
        throw SetUpError(description: "ingest of \(file): \(error)")
      }
    }.1
  }

  /// A store over `path(file, as: feed)`.
  static func store(_ file: String, as feed: String) throws -> Store {
    try Store(files: [(feed, try path(file, as: feed))])
  }
}
