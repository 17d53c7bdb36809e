import Foundation
import GTFS
import TestSupport

/// Each feed of shared/data ingested once per test process, under a feed name, for the suites
/// that only query it: a real feed takes seconds to ingest, and several suites ask for the same
/// ones. Tests must not change these timetables (ingest tests make their own).
enum SharedTimetable {
  private static let lock = NSLock()
  /// One entry per feed and name, each with its own lock: a test waits only for the ingest of
  /// the feed it asks for, not for others' (a test blocked on a lock holds one of the few
  /// threads the tests run on).
  nonisolated(unsafe) private static var entries: [String: Entry] = [:]

  private final class Entry: @unchecked Sendable {
    let lock = NSLock()
    var result: Result<(TestDirectory, String), SetUpError>?
  }

  struct SetUpError: Error, CustomStringConvertible {
    var description: String
  }

  /// The timetable file of shared/data/static/`file` ingested as `feed`.
  /// - Throws: when the feed is missing or its ingest failed (each test asking fails alone).
  static func path(_ file: String, as feed: String) throws -> String {
    let key = file + "\u{0}" + feed
    lock.lock()
    let entry = entries[key] ?? Entry()
    entries[key] = entry
    lock.unlock()
    entry.lock.lock()
    defer { entry.lock.unlock() }
    if entry.result == nil {
      entry.result = Result {
        guard let source = SharedData.path("static/" + file) else { throw SetUpError(description: "no shared/data/static/\(file)") }
        let directory = TestDirectory()
        let timetables = Timetables(directory: directory.path)
        try timetables.ingest(source, as: feed, now: 1)
        return (directory, try timetables.path(of: feed))
      }.mapError { $0 as? SetUpError ?? SetUpError(description: "ingest of \(file): \($0)") }
    }
    return try entry.result!.get().1
  }

  /// A store over `path(file, as: feed)`.
  static func store(_ file: String, as feed: String) throws -> Store {
    try Store(files: [(feed, try path(file, as: feed))])
  }
}
