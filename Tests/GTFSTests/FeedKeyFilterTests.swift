import Foundation
import SQLite
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// The key filter each timetable stores (`FeedKeyFilter`), by which lookups skip the feeds
/// that cannot hold their key when many feeds are held (issue 18).
@Suite struct FeedKeyFilterTests {
  /// A tiny feed with S1-S3 and `stops` (id, code, name) near them.
  static func files(_ stops: [(String, String, String)]) -> [String: String] {
    let rows = stops.map { "\($0.0),\($0.1),\"\($0.2)\",53.3,-6.3" }.joined(separator: "\n")
    return TinyFeed.with(["stops.txt": TinyFeed.files["stops.txt"]! + rows + "\n"])
  }

  /// Every stop_id, stop_code, folded name and start of a name word of a real feed is held
  /// (read here with plain SQL from the tables ingest made); of 5,000 keys the feed does not
  /// have, few pass (the filter is sized for 1 %).
  @Test(.enabled(if: SharedData.root != nil, "needs ../shared/data"), arguments: ["kcm-vp-subset-2021.zip", "cdmx-2018.zip"])
  func holdsEveryKeyOfARealFeed(file: String) throws {
    // The timetable ingest made, shared with the other suites that only read it.
    let db = try Connection(path: try IngestedFeeds.path(file, as: "feed"), mode: .readOnly)
    let filter = try #require(FeedKeyFilter.read(from: db))
    func column(_ sql: String) throws -> [String] {
      let select = try db.prepare(sql)
      var values: [String] = []
      while try select.step() { values.append(select.text(0)) }
      return values
    }
    let ids = try column("SELECT stop_id FROM stops")
    let codes = try column("SELECT code FROM stops WHERE code IS NOT NULL")
    let names = try column("SELECT folded FROM search_names")
    let words = try column("SELECT word FROM search_words")
    #expect(ids.count > 400 && names.count > 400 && words.count > 200)
    #expect(ids.allSatisfy { filter.mayContain(.init(.stopID, $0)) })
    #expect(codes.allSatisfy { filter.mayContain(.init(.code, $0)) })
    #expect(names.allSatisfy { filter.mayContain(.init(.name, $0)) })
    for word in words {
      let scalars = Array(word.unicodeScalars)
      for length in 1...scalars.count {
        var start = ""
        start.unicodeScalars.append(contentsOf: scalars[..<length])
        #expect(filter.mayContain(.init(.wordStart, start)), "\(word): \(start)")
      }
    }
    // Keys it does not have: ids and names that are no stop's (checked against the lists).
    let known = Set(ids)
    let absent = (0..<5_000).map { "absent-\($0)" }.filter { !known.contains($0) }
    let passed = absent.filter { filter.mayContain(.init(.stopID, $0)) }.count
    #expect(Double(passed) / Double(absent.count) < 0.03, "\(passed) of \(absent.count)")
    // A stop_id is not a name: the kind is part of the key.
    let idsAsNames = ids.filter { !Set(names).contains($0) && filter.mayContain(.init(.name, $0)) }.count
    #expect(Double(idsAsNames) / Double(ids.count) < 0.03)
  }

  /// A stop_id held by two feeds is still ambiguous, and one held by one feed is found there;
  /// codes and names too.
  @Test func aKeyInTwoFeedsIsStillAmbiguous() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(
      directory.feed(Self.files([("A1", "701", "Ash Lane"), ("X", "900", "Common Road")]), named: "a"), as: "a", now: 1)
    try timetables.ingest(
      directory.feed(Self.files([("B1", "801", "Birch Lane"), ("X", "900", "Common Road")]), named: "b"), as: "b", now: 1)
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { $0.keyFilter != nil })
    guard case .ambiguous(let both) = try store.resolveStop("X") else {
      Issue.record("X is in both feeds")
      return
    }
    #expect(Set(both.map { "\($0.feed.rawValue):\($0.id.rawValue)" }) == ["a:X", "b:X"])
    // S1 (TinyFeed's) is in both too.
    guard case .ambiguous(let s1) = try store.resolveStop("S1") else {
      Issue.record("S1 is in both feeds")
      return
    }
    #expect(s1.count == 2)
    #expect(try store.resolveStop("B1") == .found(try #require(try store.stop("B1", feed: "b"))))
    #expect(try store.resolveStop("a:X") == .found(try #require(try store.stop("X", feed: "a"))))
    #expect(try store.resolveStop("701") == .found(try #require(try store.stop("A1", feed: "a"))))
    #expect(try store.resolveStop("Birch Lane") == .found(try #require(try store.stop("B1", feed: "b"))))
    #expect(try store.search("900", limit: 10).map { "\($0.stop.feed.rawValue):\($0.stop.id.rawValue)" } == ["a:X", "b:X"])
    #expect(try store.search("birch la", limit: 10).map(\.stop.id.rawValue) == ["B1"])
    #expect(try store.stop("B1", feed: "a") == nil)
  }

  /// A feed replaced by ingest answers from its new timetable in a new Store, never from what
  /// the old one held; a Store opened before keeps answering from the old timetable, whole
  /// (its filter lives in the file it describes), and does not stop the ingest.
  @Test func aReplacedFeedGivesNoStaleAnswers() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(
      directory.feed(Self.files([("OLD", "901", "Old Quay")]), named: "v1"), as: "town", now: 1_780_000_000)
    let before = try Store(directory: directory.path)
    #expect(try before.resolveStop("OLD") == .found(try #require(try before.stop("OLD", feed: "town"))))
    try timetables.ingest(
      directory.feed(Self.files([("NEW", "902", "New Quay")]), named: "v2"), as: "town", now: 1_780_000_100)
    let after = try Store(directory: directory.path)
    guard case .notFound = try after.resolveStop("OLD") else {
      Issue.record("OLD is gone from the new timetable")
      return
    }
    #expect(try after.resolveStop("NEW") == .found(try #require(try after.stop("NEW", feed: "town"))))
    #expect(try after.search("902", limit: 10).map(\.stop.id.rawValue) == ["NEW"])
    #expect(try after.search("901", limit: 10).isEmpty)
    #expect(try after.search("old quay", limit: 10).isEmpty)
    #expect(try after.search("new qu", limit: 10).map(\.stop.id.rawValue) == ["NEW"])
    // The Store opened before: the old timetable, as it was.
    #expect(try before.search("901", limit: 10).map(\.stop.id.rawValue) == ["OLD"])
    guard case .notFound = try before.resolveStop("NEW") else {
      Issue.record("NEW is not in the old timetable")
      return
    }
  }

  /// A timetable made before the filter (no `key_filter`) asks the feed for every key.
  @Test func aTimetableWithoutTheFilterAsksTheFeed() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(directory.feed(Self.files([("K1", "501", "Kiln Street")]), named: "k"), as: "k", now: 1)
    let db = try Connection(path: timetables.path(of: "k"), mode: .readWrite)
    try db.execute("DROP TABLE key_filter")
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { $0.keyFilter == nil })
    #expect(try store.resolveStop("K1") == .found(try #require(try store.stop("K1", feed: "k"))))
    #expect(try store.search("501", limit: 10).map(\.stop.id.rawValue) == ["K1"])
    #expect(try store.search("kiln st", limit: 10).map(\.stop.id.rawValue) == ["K1"])
  }

  /// The trip filter (`trip_filter`, issue 36) holds every trip_id of a real feed (read here
  /// with plain SQL), and of 5,000 ids the feed does not have, few pass.
  @Test(.enabled(if: SharedData.root != nil, "needs ../shared/data"), arguments: ["kcm-vp-subset-2021.zip", "bart-2019.zip"])
  func theTripFilterHoldsEveryTripOfARealFeed(file: String) throws {
    let db = try Connection(path: try IngestedFeeds.path(file, as: "feed"), mode: .readOnly)
    let filter = try #require(FeedKeyFilter.readTrips(from: db))
    let select = try db.prepare("SELECT trip_id FROM trips")
    var ids: [String] = []
    while try select.step() { ids.append(select.text(0)) }
    #expect(ids.count > 1_000)
    #expect(ids.allSatisfy { filter.mayContain(.init(.tripID, $0)) })
    let known = Set(ids)
    // Ids shaped like the feed's own (its first id with a suffix), and others.
    let absent = ((0..<2_500).map { "\(ids[0])-\($0)" } + (0..<2_500).map { "absent-\($0)" }).filter { !known.contains($0) }
    let passed = absent.filter { filter.mayContain(.init(.tripID, $0)) }.count
    #expect(Double(passed) / Double(absent.count) < 0.03, "\(passed) of \(absent.count)")
    // A trip_id is not a stop_id: the kind is part of the key.
    let stops = try #require(FeedKeyFilter.read(from: db))
    let tripsAsStops = ids.prefix(2_000).filter { stops.mayContain(.init(.stopID, $0)) }.count
    #expect(Double(tripsAsStops) / 2_000 < 0.03)
  }

  /// A trip is looked up through the filter: a filter that says no is believed (the lookup
  /// asks no SQL, so a feed of trips the timetable does not hold costs a few hashes a trip),
  /// and a timetable made before it (no `trip_filter`) asks the feed for every id.
  @Test func aTripIsLookedUpThroughItsFilter() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(directory.feed(Self.files([("K1", "501", "Kiln Street")]), named: "k"), as: "k", now: 1)
    let path = try timetables.path(of: "k")
    #expect(try Store(directory: directory.path).tripDetails(TripID("T1"))?.feed.rawValue == "k")
    #expect(try Store(directory: directory.path).tripDetails(TripID("T2")) == nil)
    // A filter of no key at all: T1 is no longer found, so the filter was asked first.
    let db = try Connection(path: path, mode: .readWrite)
    try db.execute("UPDATE trip_filter SET bits = zeroblob(length(bits))")
    #expect(try Store(directory: directory.path).tripDetails(TripID("T1")) == nil)
    // Without the table, the index is asked.
    try db.execute("DROP TABLE trip_filter")
    let store = try Store(directory: directory.path)
    #expect(try store.tripDetails(TripID("T1"))?.feed.rawValue == "k")
    #expect(try store.feeds[0].tripFilter == nil)
  }

  /// Typos across feeds: each feed answers from its own words (a name in one feed and the
  /// other words in another make no match), fewest mistakes first whatever the feed.
  @Test func typosAcrossFeeds() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(
      directory.feed(Self.files([("N1", "", "Kingswood Road"), ("N2", "", "Kingston Road")]), named: "n"), as: "north", now: 1)
    try timetables.ingest(
      directory.feed(Self.files([("S1X", "", "Harbour Square"), ("S2X", "", "Kingswood Square")]), named: "s"), as: "south", now: 1)
    let store = try Store(directory: directory.path)
    // "kingswod" (8 letters: two mistakes allowed): Kingswood 1 (a letter missing), Kingston
    // 2 (w-t, d-n); by mistakes, then the shorter name: N1 (14 letters), S2X (16), N2.
    #expect(try store.search("kingswod", limit: 10).map(\.stop.id.rawValue) == ["N1", "S2X", "N2"])
    #expect(try store.search("kingswod", limit: 10).allSatisfy { $0.kind == .typo })
    // "kingswod sqare" (square less its u): only south has both words.
    #expect(try store.search("kingswod sqare", limit: 10).map(\.stop.id.rawValue) == ["S2X"])
    // "harbor roaf": harbour is south's, road north's: no stop has both.
    #expect(try store.search("harbor roaf", limit: 10).isEmpty)
    #expect(try store.search("harbor", limit: 10).map(\.stop.id.rawValue) == ["S1X"])
  }
}
