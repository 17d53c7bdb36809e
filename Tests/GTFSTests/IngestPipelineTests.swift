import Foundation
import SQLite
import TestSupport
import Testing

@testable import GTFS

/// The ingest's pipeline (issue 37: stop_times.txt read and parsed on a thread of its own while
/// this one writes) makes the same timetable as the sequential path (`threads: 1`), row for
/// row in every table, and fails the same way: the same message and line, the previous
/// timetable kept, and no thread left running.
@Suite struct IngestPipelineTests {
  /// Feeds of different shapes: HART (438,421 stop_times, the realistic feed's source), KCM
  /// (stop_headsigns, three agencies), WMATA rail (stations and platforms), NYCT (its own
  /// trip names), CDMX (frequencies) and Caltrain; about 1.2 M stop_times in all.
  static let feeds = [
    "hart-2020.zip", "kcm-vp-subset-2021.zip", "wmata-rail-2026.zip", "nyct-subway-multi-2023.zip", "cdmx-2018.zip",
    "caltrain-2023.zip",
  ]

  @Test(.enabled(if: SharedData.root != nil, "needs ../shared/data"), arguments: feeds)
  func pipelineWritesTheSameRowsAsTheSequentialPath(file: String) throws {
    let path = try #require(SharedData.path("static/" + file))
    let directory = TestDirectory()
    let sequential = Timetables(directory: directory.path + "/one")
    let pipelined = Timetables(directory: directory.path + "/two")
    let (_, one) = try sequential.ingest(path, as: "feed", now: 1, threads: 1)
    let (_, two) = try pipelined.ingest(path, as: "feed", now: 1, threads: 2)
    #expect(one.warnings == two.warnings)
    #expect(one.rows.map(\.file) == two.rows.map(\.file))
    #expect(one.rows.map(\.count) == two.rows.map(\.count))
    #expect(one.interpolatedStopTimes == two.interpolatedStopTimes)
    // The pipeline says so in its steps; the sequential path does not.
    #expect(two.steps.contains { $0.0 == "stop_times (overlapped)" })
    #expect(!one.steps.contains { $0.0 == "stop_times (overlapped)" })
    try Self.expectSameRows(try sequential.path(of: "feed"), try pipelined.path(of: "feed"))
  }

  /// Every table of `first` (the schema's tables, the search tables, the R*Tree's own tables,
  /// ANALYZE's statistics) holds exactly the rows of the same table in `second`: the same
  /// count, and no row of either missing from the other (compared by SQLite, value by value,
  /// blobs byte by byte).
  static func expectSameRows(_ first: String, _ second: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let db = try Connection(path: first, mode: .readOnly)
    try db.execute("ATTACH DATABASE '\(second.replacingOccurrences(of: "'", with: "''"))' AS other")
    func names(_ schema: String) throws -> [String] {
      let select = try db.prepare("SELECT name FROM \(schema).sqlite_master WHERE type = 'table' ORDER BY name")
      var names: [String] = []
      while try select.step() { names.append(select.text(0)) }
      return names
    }
    let tables = try names("main")
    #expect(tables == (try names("other")), sourceLocation: sourceLocation)
    #expect(tables.contains("trip_times") && tables.contains("pattern_stops"), sourceLocation: sourceLocation)
    for table in tables {
      let quoted = "\"\(table)\""
      let count = try db.scalarInt("SELECT count(*) FROM main.\(quoted)")
      #expect(count == (try db.scalarInt("SELECT count(*) FROM other.\(quoted)")), "\(table)", sourceLocation: sourceLocation)
      let missing = try db.scalarInt(
        "SELECT (SELECT count(*) FROM (SELECT * FROM main.\(quoted) EXCEPT SELECT * FROM other.\(quoted)))"
          + " + (SELECT count(*) FROM (SELECT * FROM other.\(quoted) EXCEPT SELECT * FROM main.\(quoted)))")
      #expect(missing == 0, "\(table): \(missing ?? -1) rows differ", sourceLocation: sourceLocation)
    }
  }

  /// A feed of `trips` trips of three stops each (3 × `trips` stop_times, several of the
  /// pipeline's batches), whose stop_times.txt ends with `lastLines`.
  static func longFeed(trips: Int, lastLines: String) -> [String: String] {
    var tripRows = "route_id,service_id,trip_id,trip_headsign\n"
    var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    for trip in 0..<trips {
      tripRows += "R1,WK,T\(trip),Third Street\n"
      let minute = trip % 40
      stopTimes += "T\(trip),08:\(10 + minute):00,08:\(10 + minute):00,S1,1\n"
      stopTimes += "T\(trip),08:\(11 + minute):00,08:\(11 + minute):00,S2,2\n"
      stopTimes += "T\(trip),08:\(12 + minute):00,08:\(12 + minute):00,S3,3\n"
    }
    tripRows += "R1,WK,LAST,Third Street\n"
    return TinyFeed.with(["trips.txt": tripRows, "stop_times.txt": stopTimes + lastLines])
  }

  static let lateErrors: [(String, String, String)] = [
    // Found by the parser thread, after 60,000 rows handed over.
    ("bad time", "LAST,08:00:00,08:00:00,S1,1\nLAST,08:61:00,08:61:00,S2,2\n", ":60003: arrival_time '08:61:00' is not a time"),
    // Found by the writer (a trip's rows together), while the parser may still be reading.
    (
      "repeated stop_sequence", "LAST,08:00:00,08:00:00,S1,1\nLAST,08:05:00,08:05:00,S2,1\n",
      ":60003: trip 'LAST' has stop_sequence 1 twice"
    ),
  ]

  @Test(arguments: lateErrors)
  func anErrorLateInStopTimesFailsAsTheSequentialPathDoes(name: String, lastLines: String, message: String) throws {
    let directory = TestDirectory()
    let bad = directory.feed(Self.longFeed(trips: 20_000, lastLines: lastLines), named: "bad")
    var messages: [String] = []
    for threads in [1, 2] {
      let timetables = Timetables(directory: directory.path + "/data\(threads)")
      try timetables.ingest(directory.feed(TinyFeed.files, named: "good"), as: "tiny", now: 1, threads: threads)
      let error = #expect(throws: GTFSError.self) { try timetables.ingest(bad, as: "tiny", now: 2, threads: threads) }
      messages.append(error.map { "\($0)" } ?? "no error")
      // The previous timetable is still in place and answers.
      let db = try Connection(path: timetables.path(of: "tiny"), mode: .readOnly)
      #expect(try Timetable(path: timetables.path(of: "tiny")).stopTimeCount() == 3)
      #expect(try db.scalarText("SELECT value FROM feed_meta WHERE key = 'loaded_at'") == "1")
      #expect(!FileManager.default.fileExists(atPath: (try timetables.path(of: "tiny")) + ".new"))
    }
    #expect(messages[0] == messages[1])
    #expect(messages[1].hasPrefix("stop_times.txt" + message), "\(messages[1])")
  }

  /// An error in the first rows: the writer stops the parser before it has read the file, and
  /// the ingest returns (the parser's thread joined) with the sequential path's message.
  @Test func anEarlyErrorStopsTheParserThread() throws {
    let directory = TestDirectory()
    let feed = Self.longFeed(trips: 30_000, lastLines: "")
    var stopTimes = feed["stop_times.txt"]!
    stopTimes = stopTimes.replacingOccurrences(of: "T0,08:11:00,08:11:00,S2,2", with: "T0,08:11:00,08:11:00,S2,1")
    let bad = directory.feed(TinyFeed.with(["trips.txt": feed["trips.txt"]!, "stop_times.txt": stopTimes]), named: "bad")
    var messages: [String] = []
    for threads in [1, 2] {
      let timetables = Timetables(directory: directory.path + "/data\(threads)")
      let error = #expect(throws: GTFSError.self) { try timetables.ingest(bad, as: "tiny", now: 2, threads: threads) }
      messages.append(error.map { "\($0)" } ?? "no error")
    }
    #expect(messages[0] == messages[1])
    #expect(messages[1] == "stop_times.txt:3: trip 'T0' has stop_sequence 1 twice")
  }

  /// A long feed with no error loads the same both ways (batches handed over, the last one
  /// short), and trips split across the file are merged the same way.
  @Test func aLongFeedWithSplitTripsLoadsTheSameBothWays() throws {
    let directory = TestDirectory()
    // LAST's rows come in two places: at the start and at the end.
    var feed = Self.longFeed(trips: 20_000, lastLines: "LAST,09:10:00,09:10:00,S3,3\n")
    feed["stop_times.txt"] = feed["stop_times.txt"]!.replacingOccurrences(
      of: "stop_sequence\n", with: "stop_sequence\nLAST,09:00:00,09:00:00,S1,1\nLAST,09:05:00,09:05:00,S2,2\n")
    let source = directory.feed(feed, named: "long")
    let one = Timetables(directory: directory.path + "/one")
    let two = Timetables(directory: directory.path + "/two")
    let (_, first) = try one.ingest(source, as: "long", now: 1, threads: 1)
    let (_, second) = try two.ingest(source, as: "long", now: 1, threads: 2)
    #expect(first.count("stop_times.txt") == 60_003)
    #expect(second.count("stop_times.txt") == 60_003)
    #expect(first.warnings == second.warnings)
    #expect(second.warnings.contains("stop_times.txt: 1 trips have their rows split across the file; merged"))
    try Self.expectSameRows(try one.path(of: "long"), try two.path(of: "long"))
  }
}
