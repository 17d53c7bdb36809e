import Foundation
import SQLite
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// The search tables made at ingest (`StopSearchTables`) and the paths of `Store.search` that
/// read them (issue 18).
@Suite struct StopSearchTests {
  /// A tiny feed whose stops are `stops` (id, name, lat, lon) besides S1-S3.
  static func feed(_ directory: TestDirectory, _ name: String, _ stops: [(String, String, Double, Double)]) throws -> String {
    let rows = stops.map { "\($0.0),,\"\($0.1)\",\($0.2),\($0.3)" }.joined(separator: "\n")
    let files = TinyFeed.with(["stops.txt": TinyFeed.files["stops.txt"]! + rows + "\n"])
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(directory.feed(files, named: name), as: name, now: 1)
    return try timetables.path(of: name)
  }

  /// Word matches: fewest words in the name, then the shortest name, then stop_id (worked out
  /// by hand below), whatever order the feed lists them in.
  @Test func wordMatchesFewestWordsThenShortestThenID() throws {
    let directory = TestDirectory()
    let path = try Self.feed(
      directory, "words",
      [
        ("M4", "Old Main Street North", 53.3, -6.3), ("M3", "Main Street Station", 53.3, -6.3),
        ("M2b", "Main Street", 53.3, -6.3), ("M2a", "Main Street", 53.3, -6.3), ("M1", "Main St North", 53.3, -6.3),
        ("X1", "Mainland Road", 53.3, -6.3),
      ])
    let store = try Store(files: [("words", path)])
    // "main st": 2 words (twice, by id), 3 words and 13 letters, 3 words and 19 letters, 4
    // words; not "Mainland Road" (no word starting with "st").
    #expect(try store.search("main st", limit: 10).map(\.stop.id.rawValue) == ["M2a", "M2b", "M1", "M3", "M4"])
    #expect(try store.search("main st", limit: 10).allSatisfy { $0.kind == .words })
    // The limit cuts the same order.
    #expect(try store.search("main st", limit: 2).map(\.stop.id.rawValue) == ["M2a", "M2b"])
    // "main street": M2a and M2b are the whole name, then the word matches (not "Main St
    // North": no word starts with "street").
    #expect(try store.search("MAIN STREET", limit: 10).map(\.stop.id.rawValue) == ["M2a", "M2b", "M3", "M4"])
    #expect(try store.search("MAIN STREET", limit: 10).map(\.kind) == [.name, .name, .words, .words])
  }

  /// A word that starts more vocabulary words than are merged one by one (`mergedWordsLimit`)
  /// reads them as one range of the index: "ab" starts 70 words here ("Ab0" ... "Ab69", and
  /// "Abbey"). The expected order worked out by hand: two-word names before three, shorter
  /// names first ("Ab0 Road" ... "Ab9 Road" are 8 letters, "Ab10 Road" 9), then stop_id.
  @Test func aShortWordReadsItsWordsAsOneRange() throws {
    let directory = TestDirectory()
    var stops = (0..<70).map { ("R\(100 + $0)", "Ab\($0) Road", 53.3, -6.3) }
    stops += [("B1", "Abbey Street", 53.3, -6.3), ("B2", "Ab3 Old Road", 53.3, -6.3), ("B3", "Road", 53.3, -6.3)]
    // "ro" must reach more stops than "ab" (72), so that "ab" is the word the search starts from.
    stops += (1...5).map { ("C\($0)", "Rover \($0)", 53.3, -6.3) }
    let path = try Self.feed(directory, "range", stops)
    let store = try Store(files: [("range", path)])
    #expect(StopSearchTests.wordsStarting("ab", in: stops) > FeedReader.mergedWordsLimit)
    #expect(try store.search("ab ro", limit: 12).map(\.stop.id.rawValue) == (100..<110).map { "R\($0)" } + ["R110", "R111"])
    // With every match: 70 two-word names, then the three-word one; never "Abbey Street" (no
    // word starts "ro") or "Road" (none starts "ab").
    let all = try store.search("ab ro", limit: 100).map(\.stop.id.rawValue)
    #expect(all.count == 71 && all.last == "B2" && !all.contains("B1") && !all.contains("B3") && !all.contains("C1"))
  }

  /// The distinct folded words starting with `prefix` in `stops`' names (worked out apart from
  /// the store).
  static func wordsStarting(_ prefix: String, in stops: [(String, String, Double, Double)]) -> Int {
    Set(stops.flatMap { $0.1.lowercased().split(separator: " ").map(String.init) }.filter { $0.hasPrefix(prefix) }).count
  }

  /// A slip in a short last word ("Stt": too short for a typo) still finds the name: the last
  /// word less its last letter is a start, listed as a typo.
  @Test func aSlipInTheLastWord() throws {
    let directory = TestDirectory()
    let path = try Self.feed(
      directory, "slip", [("P1", "3rd Ave & Pike St", 47.61, -122.34), ("P2", "3rd Ave & Pine St", 47.61, -122.34)])
    let store = try Store(files: [("slip", path)])
    let found = try store.search("3rd Ave & Pike Stt", limit: 10)
    #expect(found.map(\.stop.id.rawValue) == ["P1"])
    #expect(found.map(\.kind) == [.typo])
    #expect(try store.search("3rd Ave & Pike Sx", limit: 10).isEmpty)  // "sx": too short to shorten
  }

  /// The search tables are the only name index (layout 8): no FTS5 table, and no `words` or
  /// `stop_words` beside `search_words`, so an open parses none of them. The typo vocabulary
  /// is every distinct word of the demo's stop and station names, folded here with
  /// Foundation (case and accents: "Páirc" is "pairc"), split at anything not a letter or digit.
  @Test func theSearchTablesAreTheOnlyNameIndex() throws {
    let db = try Connection(path: try demoTimetable(), mode: .readOnly)
    let select = try db.prepare("SELECT name FROM sqlite_master")
    var objects: Set<String> = []
    while try select.step() { objects.insert(select.text(0)) }
    #expect(objects.isDisjoint(with: ["stops_fts", "stops_fts_data", "stops_fts_idx", "words", "stop_words"]), "\(objects.sorted())")
    #expect(objects.isSuperset(of: ["search_names", "search_name_stops", "search_words", "search_word_stops"]))
    let text = try String(contentsOfFile: packageRoot + "/Data/gtfs/stops.txt", encoding: .utf8)
    var lines = text.split(whereSeparator: \.isNewline).map { TestCSV.fields(of: $0) }
    let header = lines.removeFirst()
    let name = try #require(header.firstIndex(of: "stop_name")), type = header.firstIndex(of: "location_type")
    var expected: Set<String> = []
    for line in lines where type.map({ ["", "0", "1"].contains(line[$0]) }) ?? true {
      let folded = line[name].folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
      let words = folded.split { !$0.isLetter && !$0.isNumber }
      for word in words { expected.insert(String(word)) }
    }
    let store = try demoStore()
    let vocabulary = try #require(store.feeds.first).typoVocabulary()
    #expect(Set(vocabulary.words) == expected)
  }

  /// Near a point, feeds are asked nearest box first and a feed whose box lies beyond the
  /// matches still needed is skipped: the answer is every match sorted by distance (worked
  /// out here with the haversine of each stop), as if every feed were asked.
  @Test func nearAPointAcrossFeeds() throws {
    let directory = TestDirectory()
    let markets: [String: [(String, String, Double, Double)]] = [
      "north": [("N1", "Market", 60.0, 10.0), ("N2", "Market", 60.01, 10.0)],
      "south": [("S4", "Market", 10.0, 10.0), ("S5", "Market", 10.02, 10.0)],
      "east": [("E1", "Market", 35.0, 40.0)],
    ]
    var files: [(name: String, path: String)] = []
    for (name, stops) in markets.sorted(by: { $0.key < $1.key }) { files.append((name, try Self.feed(directory, name, stops))) }
    let store = try Store(files: files)
    let everything = markets.values.joined()
    for point in [
      Coordinate(latitude: 10.03, longitude: 10.0), Coordinate(latitude: 59.0, longitude: 10.5), Coordinate(latitude: 36, longitude: 39),
    ] {
      let expected = everything.sorted {
        point.distanceMeters(to: Coordinate(latitude: $0.2, longitude: $0.3))
          < point.distanceMeters(to: Coordinate(latitude: $1.2, longitude: $1.3))
      }.map(\.0)
      for limit in 1...6 {
        let found = try store.search("market", near: point, limit: limit)
        #expect(found.map(\.stop.id.rawValue) == Array(expected.prefix(limit)), "\(point) limit \(limit)")
      }
    }
    // Without a point, feeds in order (east, north, south), each feed's stops by stop_id.
    #expect(try store.search("market", limit: 3).map(\.stop.id.rawValue) == ["E1", "N1", "N2"])
  }

  /// The merged read of a word's stops runs in index order: no sort of every match.
  @Test func theRankedReadNeedsNoSort() throws {
    let reader = try #require(try demoStore().feeds.first)
    let sql =
      "SELECT rank, stop_idx, name_idx FROM search_word_stops WHERE word = ? UNION ALL SELECT rank, stop_idx, name_idx FROM search_word_stops WHERE word = ? ORDER BY 1"
    let plan = try reader.db.prepare(sql).queryPlan().joined(separator: "\n")
    #expect(plan.contains("MERGE"))
    #expect(!plan.contains("TEMP B-TREE"))
    #expect(plan.contains("PRIMARY KEY (word=?)"))
  }

  /// A word within the mistakes allowed lacks at most that many of the query word's letters:
  /// the mask test never drops a word the edit distance would keep.
  @Test func theLetterMaskKeepsEveryWordWithinReach() {
    let vocabulary = ["kingswood", "kingston", "tallaght", "belgard", "cookstown", "hospital", "square", "thiomoin", "x"]
    for query in ["kingswod", "tallagt", "belgrad", "cokstown", "hopsital", "sqaure", "thiomon", "zzzz"] {
      let q = Array(query)
      let allowed = TextFolding.allowedMistakes(q.count)
      for word in vocabulary {
        let c = Array(word)
        guard FeedReader.mistakes(q, c) != nil else { continue }
        #expect((FeedReader.letterMask(q) & ~FeedReader.letterMask(c)).nonzeroBitCount <= allowed, "\(query) \(word)")
      }
    }
  }
}
