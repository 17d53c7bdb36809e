import Foundation
import SQLite
import TestSupport
import Testing
import UserData

@testable import GTFS

@Suite struct IngestTests {
  @Test func loadsATinyFeedAndInterpolates() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    let (name, summary) = try timetables.ingest(directory.feed(TinyFeed.files), now: 1_000)
    #expect(name == "tiny-transit")
    #expect(summary.count("stop_times.txt") == 3)
    #expect(summary.interpolatedStopTimes == 1)
    let db = try Connection(path: timetables.path(of: name), mode: .readOnly)
    let calls = try Timetable(path: timetables.path(of: name)).stopTimes(ofTrip: "T1")
    #expect(calls.map(\.departure) == [28_800, 29_100, 29_400] as [Int32?])
    #expect(calls.map(\.isInterpolated) == [false, true, false])
    #expect(calls.map(\.stopID) == ["S1", "S2", "S3"])
    #expect(try db.scalarText("SELECT value FROM feed_meta WHERE key = 'timezone'") == "Europe/Dublin")
    #expect(try db.scalarText("SELECT value FROM feed_meta WHERE key = 'loaded_at'") == "1000")
  }

  static let badFeeds: [(String, [String: String?], String)] = [
    ("no stop_times", ["stop_times.txt": nil], "stop_times.txt: required file stop_times.txt is missing"),
    ("no calendar", ["calendar.txt": nil], "calendar.txt: required file calendar.txt or calendar_dates.txt is missing"),
    (
      "missing column", ["agency.txt": "agency_id,agency_url,agency_timezone\nA,https://x,Europe/Dublin\n"],
      "agency.txt:1: required column agency_name is missing from the header"
    ),
    (
      "bad time",
      [
        "stop_times.txt":
          "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,25:61:00,25:61:00,S2,2\n"
      ],
      "stop_times.txt:3: arrival_time '25:61:00' is not a time (H:MM:SS, minutes and seconds below 60)"
    ),
    (
      "bad latitude", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,abc,-6.3\n"],
      "stops.txt:2: stop_lat 'abc' is not a number"
    ),
    (
      "latitude out of range", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,91,-6.3\n"],
      "stops.txt:2: stop_lat '91' is not a number between -90 and 90"
    ),
    (
      "duplicate stop", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,53,-6.3\nS1,B,53,-6.3\n"],
      "stops.txt:3: stop_id 'S1' appears twice"
    ),
    (
      "duplicate sequence",
      [
        "stop_times.txt":
          "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:05:00,08:05:00,S2,1\n"
      ],
      "stop_times.txt:3: trip 'T1' has stop_sequence 1 twice"
    ),
    (
      "bad time zone", ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,T,https://x,Mars/Olympus\n"],
      "agency.txt:2: agency_timezone 'Mars/Olympus' is not a time zone from the tz database (Europe/Dublin)"
    ),
    ("empty agency", ["agency.txt": ""], "agency.txt: file is empty (not even a header)"),
  ]

  @Test(arguments: badFeeds)
  func refusesBadFeedAndKeepsThePreviousTimetable(name: String, changes: [String: String?], message: String) throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    try timetables.ingest(directory.feed(TinyFeed.files, named: "good"), as: "tiny", now: 1)
    let bad = directory.feed(TinyFeed.with(changes), named: "bad")
    let error = #expect(throws: (any Error).self) { try timetables.ingest(bad, as: "tiny", now: 2) }
    #expect(error.map { "\($0)" } == message)
    // The previous timetable is still in place and answers.
    let db = try Connection(path: timetables.path(of: "tiny"), mode: .readOnly)
    #expect(try Timetable(path: timetables.path(of: "tiny")).stopTimeCount() == 3)
    #expect(try db.scalarText("SELECT value FROM feed_meta WHERE key = 'loaded_at'") == "1")
    #expect(!FileManager.default.fileExists(atPath: (try timetables.path(of: "tiny")) + ".new"))
  }

  @Test func keepsThePreviousTimetableAsPrev() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let feed = directory.feed(TinyFeed.files)
    // Loaded within the feed's service (2026-05-28), so the swap checks pass.
    try timetables.ingest(feed, as: "tiny", now: 1_780_000_000)
    try timetables.ingest(feed, as: "tiny", now: 1_780_000_001)
    let prev = try Connection(path: timetables.path(of: "tiny") + ".prev", mode: .readOnly)
    #expect(try prev.scalarText("SELECT value FROM feed_meta WHERE key = 'loaded_at'") == "1780000000")
    #expect(try timetables.list().map(\.name) == ["tiny"])
    #expect(try timetables.remove("tiny"))
    #expect(try timetables.list().isEmpty)
    #expect(try !timetables.remove("tiny"))
  }

  @Test func secondFeedDoesNotDisturbTheFirst() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(directory.feed(TinyFeed.files, named: "a"), as: "first", now: 1)
    let other = TinyFeed.with(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,X,1,1\nS2,Y,1,1\nS3,Z,1,1\nS4,W,1,1\n"])
    try timetables.ingest(directory.feed(other, named: "b"), as: "second", now: 2)
    let feeds = try timetables.list()
    #expect(feeds.map(\.name) == ["first", "second"])
    #expect(feeds.map { $0.rows("stops.txt") } == [3, 4])
  }

  @Test func loadsAStopsJSONList() throws {
    let directory = TestDirectory()
    let path = directory.path + "/stops.json"
    let json =
      #"[{"stop_id": 7602, "stop_code": 2, "stop_name": "Parnell Square", "stop_lat": 53.352, "stop_lon": -6.263}, {"stop_id": "8220DB000003", "stop_code": "3", "stop_name": "Parnell Square West", "stop_lat": "53.3523", "stop_lon": "-6.2634"}]"#
    _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
    let timetables = Timetables(directory: directory.path + "/data")
    let (name, summary) = try timetables.ingest(path, now: 1)
    #expect(name == "stops")
    #expect(summary.count("stops.json") == 2)
    let db = try Connection(path: timetables.path(of: name), mode: .readOnly)
    #expect(try db.scalarText("SELECT code FROM stops WHERE stop_id = '7602'") == "2")
    #expect(try db.scalarInt("SELECT count(*) FROM stops_rtree") == 2)
  }

  @Test func mergesATripWhoseRowsAreSplitAcrossTheFile() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let split = TinyFeed.with([
      "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\n",
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\nT1,,,S2,2\nT1,08:20:00,08:20:00,S3,3\n",
    ])
    let (name, summary) = try timetables.ingest(directory.feed(split), now: 1)
    #expect(summary.count("stop_times.txt") == 5)
    #expect(summary.interpolatedStopTimes == 1)
    #expect(summary.warnings.contains { $0.hasPrefix("stop_times.txt: 1 trips have their rows split") })
    let calls = try Timetable(path: timetables.path(of: name)).stopTimes(ofTrip: "T1")
    #expect(calls.map(\.departure) == [28_800, 29_400, 30_000] as [Int32?])
  }

  @Test func refusesASecondIngestWhileOneRuns() throws {
    let directory = TestDirectory()
    let lock = try IngestLock(directory: directory.path)
    let error = #expect(throws: IngestError.self) {
      try Timetables(directory: directory.path).ingest(directory.feed(TinyFeed.files), now: 1)
    }
    #expect("\(error!)".hasPrefix("another ingest is running"))
    _ = lock
  }

  @Test func favouritesSurviveReingest() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    let feed = directory.feed(TinyFeed.files)
    try timetables.ingest(feed, as: "tiny", now: 1_780_000_000)
    try UserStore(directory: directory.path).addFavourite(feed: "tiny", stopID: "S1", label: "home", now: 1)
    try timetables.ingest(feed, as: "tiny", now: 1_780_000_001)
    try timetables.remove("tiny")
    try timetables.ingest(feed, as: "tiny", now: 1_780_000_002)
    #expect(try UserStore(directory: directory.path).favourites() == [.init(feed: "tiny", stopID: "S1", label: "home")])
  }
}
