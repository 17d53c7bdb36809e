import Foundation
import SQLite
import TestSupport
import Testing
import ZIP

@testable import GTFS

/// Ingests every real feed in shared/data and checks counts against PROVENANCE.md's figures,
/// which were measured with Python's csv module, not with this code.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct SharedFeedTests {
  struct Expected: Sendable, CustomStringConvertible {
    var file: String
    var agencies: Int, routes: Int, stops: Int, trips: Int, stopTimes: Int
    var description: String { file }
  }

  static let feeds: [Expected] = [
    .init(file: "google-sample-feed-1.zip", agencies: 1, routes: 5, stops: 9, trips: 11, stopTimes: 28),
    .init(file: "caltrain-2023.zip", agencies: 1, routes: 9, stops: 109, trips: 176, stopTimes: 3_498),
    .init(file: "bart-2019.zip", agencies: 1, routes: 8, stops: 48, trips: 2_641, stopTimes: 32_185),
    .init(file: "bart-2023.zip", agencies: 1, routes: 14, stops: 186, trips: 4_225, stopTimes: 61_853),
    .init(file: "kcm-vp-subset-2021.zip", agencies: 3, routes: 133, stops: 6_257, trips: 1_016, stopTimes: 38_561),
    .init(file: "usf-bullrunner.zip", agencies: 1, routes: 6, stops: 125, trips: 15, stopTimes: 473),
    .init(file: "hart-2020.zip", agencies: 1, routes: 37, stops: 2_349, trips: 13_217, stopTimes: 438_421),
    .init(file: "wmata-rail-2026.zip", agencies: 1, routes: 7, stops: 2_175, trips: 16_514, stopTimes: 352_668),
    .init(file: "cdmx-2018.zip", agencies: 8, routes: 145, stops: 6_021, trips: 1_741, stopTimes: 70_714),
    .init(file: "trimet-2routes-2021.zip", agencies: 2, routes: 2, stops: 103, trips: 2_341, stopTimes: 43_813),
    .init(file: "cairns-2014.zip", agencies: 1, routes: 22, stops: 416, trips: 1_339, stopTimes: 37_790),
    .init(file: "transitfeed-only-calendar-dates.zip", agencies: 1, routes: 5, stops: 9, trips: 11, stopTimes: 28),
  ]

  @Test(arguments: feeds)
  func rowCountsMatchTheCSV(expected: Expected) throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let path = try #require(SharedData.path("static/" + expected.file))
    let (name, summary) = try timetables.ingest(path, as: "feed", now: 1)
    let db = try Connection(path: timetables.path(of: name), mode: .readOnly)
    #expect(try db.scalarInt("SELECT count(*) FROM agency") == Int64(expected.agencies))
    #expect(try db.scalarInt("SELECT count(*) FROM routes") == Int64(expected.routes))
    #expect(try db.scalarInt("SELECT count(*) FROM stops") == Int64(expected.stops))
    #expect(try db.scalarInt("SELECT count(*) FROM trips") == Int64(expected.trips))
    #expect(try Timetable(path: timetables.path(of: name)).stopTimeCount() == expected.stopTimes)
    #expect(summary.count("stop_times.txt") == expected.stopTimes)
    #expect(try db.scalarInt("SELECT count(*) FROM stops_rtree") ?? 0 > 0)
  }

  @Test func caltrainValuesRoundTrip() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let (name, _) = try timetables.ingest(try #require(SharedData.path("static/caltrain-2023.zip")), now: 1)
    #expect(name == "caltrain")
    let db = try Connection(path: timetables.path(of: name), mode: .readOnly)
    #expect(try db.scalarText("SELECT name FROM stops WHERE stop_id = '22nd_street'") == "22nd Street")
    #expect(try db.scalarInt("SELECT location_type FROM stops WHERE stop_id = '22nd_street'") == 1)
    #expect(try db.scalarText("SELECT lat || ',' || lon FROM stops WHERE stop_id = 'SCS'") == "37.5070864356,-122.2602873955")
    #expect(try db.scalarText("SELECT headsign FROM trips WHERE trip_id = '501'") == "San Francisco")
    let timetable = try Timetable(path: timetables.path(of: name))
    let trip501 = try timetable.stopTimes(ofTrip: "501")
    #expect(trip501.first?.departure == Int32(5 * 3600))
    #expect(trip501.first?.stopID == "70271")
    #expect(trip501.first?.shapeDistTraveled == 0)
    #expect(try timetable.latestArrival() == Int32(25 * 3600 + 49 * 60))
    #expect(try db.scalarInt("SELECT count(*) FROM stops WHERE parent_idx IS NOT NULL") == 62)
    #expect(try db.scalarInt("SELECT sum(length(points)) / 28 FROM shapes") == 12_027)
    #expect(try db.scalarInt("SELECT count(*) FROM calendar_dates") == 20)
    // Search and nearest-stop indexes answer.
    #expect(try db.scalarInt("SELECT count(*) FROM search_words WHERE word >= 'millbr' AND word < 'millbs'") ?? 0 > 0)
  }

  /// Every trip's calls, read on one timetable (the pattern stops kept from trip to trip), equal
  /// the rows joined here by plain SQL with the times decoded by hand from the blob (little-endian
  /// int32 arrival and departure a position, -1 for none), trips asked in a shuffled order.
  @Test func everyTripsCallsEqualTheStoredRows() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let (name, _) = try timetables.ingest(try #require(SharedData.path("static/bart-2019.zip")), now: 1)
    let db = try Connection(path: timetables.path(of: name), mode: .readOnly)
    let timetable = try Timetable(path: timetables.path(of: name))
    var trips: [String] = []
    var indexes: [String: Int64] = [:]
    let list = try db.prepare("SELECT trip_id, trip_idx FROM trips ORDER BY trip_idx")
    while try list.step() {
      trips.append(list.text(0))
      indexes[list.text(0)] = list.int64(1)
    }
    #expect(trips.count > 2_000)
    // A fixed shuffle: every 7th trip first, so one pattern's trips are not asked in a row.
    let order = (0..<7).flatMap { start in stride(from: start, to: trips.count, by: 7).map { trips[$0] } }
    let rows = try db.prepare(
      """
      SELECT s.stop_id, ps.stop_sequence, ps.pickup_type, ps.drop_off_type, ps.stop_headsign, ps.position, tt.times
      FROM trips t JOIN trip_times tt ON tt.trip_idx = t.trip_idx JOIN pattern_stops ps ON ps.pattern_idx = tt.pattern_idx
      JOIN stops s ON s.stop_idx = ps.stop_idx WHERE t.trip_id = ? ORDER BY ps.position
      """)
    func time(_ blob: [UInt8], _ offset: Int) -> Int32? {
      let value = Int32(
        bitPattern: UInt32(blob[offset]) | UInt32(blob[offset + 1]) << 8 | UInt32(blob[offset + 2]) << 16 | UInt32(blob[offset + 3]) << 24)
      return value < 0 ? nil : value
    }
    for trip in order {
      rows.reset()
      rows.bind(trip, at: 1)
      var expected: [String] = []
      while try rows.step() {
        let blob = rows.blob(6)
        let position = rows.int(5)
        expected.append(
          "\(rows.text(0)) \(rows.int(1)) \(rows.int(2)) \(rows.int(3)) \(rows.optionalText(4) ?? "-") "
            + "\(time(blob, position * 8).map(String.init) ?? "-") \(time(blob, position * 8 + 4).map(String.init) ?? "-")")
      }
      let calls = try timetable.stopTimes(ofTrip: trip).map {
        "\($0.stopID) \($0.stopSequence) \($0.pickupType) \($0.dropOffType) \($0.stopHeadsign ?? "-") "
          + "\($0.arrival.map(String.init) ?? "-") \($0.departure.map(String.init) ?? "-")"
      }
      #expect(calls == expected, "\(trip)")
      // By the trip's number, as `Store.stopTimes(of:)` reads it.
      let byIndex = try timetable.stopTimes(ofTripIndex: try #require(indexes[trip]))
      #expect(byIndex == (try timetable.stopTimes(ofTrip: trip)), "\(trip)")
      #expect(!calls.isEmpty, "\(trip)")
    }
    #expect(try timetable.stopTimes(ofTrip: "no such trip").isEmpty)
  }

  @Test func cairnsUntimedStopsAreInterpolated() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let (name, summary) = try timetables.ingest(try #require(SharedData.path("static/cairns-2014.zip")), now: 1)
    #expect(summary.interpolatedStopTimes == 65)  // 130 empty values: 65 rows with both empty
    let timetable = try Timetable(path: timetables.path(of: name))
    let call = try timetable.stopTimes(ofTrip: "CNS2014-CNS_MUL-Weekday-00-4165903").first { $0.stopSequence == 15 }
    #expect(call?.departure == Int32(18 * 3600 + 30 * 60))
    #expect(call?.isInterpolated == true)
    #expect(try timetable.latestArrival() == Int32(29 * 3600 + 39 * 60))
  }

  @Test func flexFeedLoadsWithoutFixedTimes() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let (_, summary) = try timetables.ingest(try #require(SharedData.path("static/ctran-flex-2025.zip")), as: "flex", now: 1)
    #expect(summary.count("stops.txt") == 293)
    #expect(summary.count("trips.txt") == 1_389)
  }

  static let badArchives: [(String, String)] = [
    ("bad/not-a-zip.zip", "not a ZIP archive"),
    ("bad/transitfeed-unknown_format.zip", "not a ZIP archive"),
    ("bad/no-gtfs-files.zip", "no stops.txt found"),
    ("bad/nested-zip.zip", "holds another archive"),
    ("bad/transitfeed-missing_stop_times.zip", "stop_times.txt: required file stop_times.txt is missing"),
    ("bad/transitfeed-missing_column.zip", "agency.txt:1: required column agency_name is missing"),
    ("bad/transitfeed-empty_file.zip", "agency.txt: file is empty"),
    ("bad/transitfeed-utf16.zip", "is UTF-16"),
    ("bad/transitfeed-bad_utf8.zip", "not valid UTF-8"),
    ("bad/transitfeed-contains_null.zip", "stops.txt:"),
    ("bad/transitfeed-duplicate_stop_sequence.zip", "has stop_sequence 10 twice"),
    ("bad/example-errors.zip", "stops.txt:6: stop_lat '-100' is not a number between -90 and 90"),
  ]

  @Test(arguments: badArchives)
  func badArchiveIsRefusedAndTheTimetableKept(file: String, message: String) throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(try #require(SharedData.path("static/google-sample-feed-1.zip")), as: "feed", now: 1)
    let error = #expect(throws: (any Error).self) { try timetables.ingest(try #require(SharedData.path(file)), as: "feed", now: 2) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains(message), "\(text)")
    #expect(!text.contains("\n"))
    #expect(try Timetable(path: timetables.path(of: "feed")).stopTimeCount() == 28)
  }

  static let acceptedOddities = [
    "bad/nested-dir.zip", "bad/example-with-malformed-csv.zip", "bad/transitfeed-utf8bom.zip",
    "bad/transitfeed-bad_eol.zip", "bad/transitfeed-missing_row_cells.zip", "bad/transitfeed-extra_row_cells.zip",
  ]

  @Test(arguments: acceptedOddities)
  func oddButUsableFeedsLoad(file: String) throws {
    let directory = TestDirectory()
    let (_, summary) = try Timetables(directory: directory.path).ingest(try #require(SharedData.path(file)), as: "feed", now: 1)
    #expect(summary.count("stops.txt") > 0)
    if file.contains("row_cells") { #expect(summary.warnings.contains { $0.hasPrefix("routes.txt:") }) }
  }
}

/// Archives damaged on purpose: each is refused with one line naming the problem, and the
/// timetable it would have replaced still answers.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct DamagedArchiveTests {
  let sample = SharedData.path("static/google-sample-feed-1.zip")

  func refuse(_ bytes: [UInt8], expecting fragment: String) throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(try #require(sample), as: "feed", now: 1)
    let path = directory.path + "/damaged.zip"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    let error = #expect(throws: (any Error).self) { try timetables.ingest(path, as: "feed", now: 2) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains(fragment), "\(text)")
    #expect(!text.contains("\n"))
    #expect(try Timetable(path: timetables.path(of: "feed")).stopTimeCount() == 28)
  }

  @Test func truncatedArchive() throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try #require(sample))))
    try refuse(Array(bytes.prefix(bytes.count / 2)), expecting: "damaged.zip")
  }

  @Test func corruptedStopTimes() throws {
    let path = try #require(sample)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let entry = try #require(try ZipArchive(path: path).entry(named: "stop_times.txt"))
    let header = Int(entry.localHeaderOffset)
    let nameLength = Int(bytes[header + 26]) | Int(bytes[header + 27]) << 8
    let extraLength = Int(bytes[header + 28]) | Int(bytes[header + 29]) << 8
    let data = header + 30 + nameLength + extraLength
    bytes[data + Int(entry.compressedSize) / 2] ^= 0x55
    try refuse(bytes, expecting: "stop_times.txt")
  }

  @Test func zipBomb() throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("ZIPTests/Fixtures/bomb-size.zip")
    try refuse([UInt8](Data(contentsOf: fixture)), expecting: "zip bomb")
  }
}
