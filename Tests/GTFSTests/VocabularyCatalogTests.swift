import Foundation
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// The typo vocabulary of every timetable held, kept in `feeds/catalog.words`
/// (`VocabularyCatalog`, issue 36): a typo search opens only the feeds where every word of the
/// query reaches a word, and the file is checked against the timetables, never trusted blindly.
@Suite struct VocabularyCatalogTests {
  /// Four feeds, each with one stop besides TinyFeed's "First/Second/Third Street" (S1-S3):
  /// "street" is in every feed, "kiln" only in "a" and "d", "mill" only in "c", "road" in "c"
  /// and "d". (The distance is Levenshtein's: the slips below are letters left out or changed.)
  static let names = [("a", "K1", "Kiln Street"), ("b", "L1", "Lark Lane"), ("c", "M1", "Mill Road"), ("d", "K2", "Kiln Road")]

  static func holdFour(in directory: TestDirectory) throws -> Timetables {
    let timetables = Timetables(directory: directory.path)
    for (feed, stop, name) in names {
      try timetables.ingest(directory.feed(FeedKeyFilterTests.files([(stop, "50\(stop.last!)", name)]), named: feed), as: feed, now: 1)
    }
    return timetables
  }

  static func path(_ directory: TestDirectory) -> String { directory.path + "/feeds/catalog.words" }

  /// The typo search's answer as (feed, stop).
  static func typos(_ store: Store, _ text: String) throws -> [String] {
    try store.search(text, limit: 10).filter { $0.kind == .typo }.map { "\($0.stop.feed.rawValue)/\($0.stop.id.rawValue)" }
  }

  @Test func aTypoSearchOpensOnlyTheFeedsWithinReach() throws {
    let directory = TestDirectory()
    _ = try Self.holdFour(in: directory)
    // Each ingest left the file describing the feeds held.
    #expect(FileManager.default.fileExists(atPath: Self.path(directory)))
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { !$0.isOpen })
    // "kiln stret": one letter missing from "street"; "Kiln Street" is the one name with both,
    // and only "a" and "d" have words near both ("d" has "Kiln Road" and TinyFeed's streets).
    #expect(try Self.typos(store, "kiln stret") == ["a/K1"])
    #expect(store.feeds.filter(\.isOpen).map(\.name.rawValue) == ["a", "d"])
    // "mil roaf": "Mill Road" in c ("mil" starts "mill", "roaf" one letter off "road"); d has
    // "road" but no "mill".
    let second = try Store(directory: directory.path)
    #expect(try Self.typos(second, "mil roaf") == ["c/M1"])
    #expect(second.feeds.filter(\.isOpen).map(\.name.rawValue) == ["c"])
    // Without the file the answers are the same, every feed being read for its words.
    try FileManager.default.removeItem(atPath: Self.path(directory))
    let reading = try Store(directory: directory.path)
    #expect(try Self.typos(reading, "kiln stret") == ["a/K1"])
    #expect(reading.feeds.allSatisfy { $0.isOpen })
    #expect(try Self.typos(reading, "mil roaf") == ["c/M1"])
    // ... and it is written again, so the next process opens only "a" and "d" once more.
    let next = try Store(directory: directory.path)
    #expect(try Self.typos(next, "kiln stret") == ["a/K1"])
    #expect(next.feeds.filter(\.isOpen).map(\.name.rawValue) == ["a", "d"])
  }

  /// A feed ingested again with other names: its old words are gone from the file, its new ones
  /// found, the other feeds' words kept (and their timetables not read to rebuild it).
  @Test func aFeedIngestedAgainBringsItsNewWords() throws {
    let directory = TestDirectory()
    let timetables = try Self.holdFour(in: directory)
    _ = try Store(directory: directory.path).sharedVocabulary()
    // now: 2026-01-02, in service, for the swap gate.
    try timetables.ingest(
      directory.feed(FeedKeyFilterTests.files([("Q1", "599", "Quarry Avenue")]), named: "b2"), as: "b", now: 1_767_312_000)
    let store = try Store(directory: directory.path)
    #expect(try Self.typos(store, "quary avenu") == ["b/Q1"])
    #expect(store.feeds.filter(\.isOpen).map(\.name.rawValue) == ["b"])
    #expect(try Self.typos(store, "larc lame").isEmpty)
    let kept = try #require(VocabularyCatalog.read(from: directory.path + "/feeds"))
    #expect(kept.feeds.map(\.name) == ["a", "b", "c", "d"])
    let words = Set(kept.shared.vocabulary.words)
    #expect(words.isSuperset(of: ["quarry", "avenue", "kiln", "mill", "road", "street"]))
    #expect(words.isDisjoint(with: ["lark", "lane"]))
    // "street" is held by every feed (TinyFeed's names), "kiln" by a and d, "quarry" by b.
    let at = Dictionary(uniqueKeysWithValues: kept.shared.vocabulary.words.enumerated().map { ($1, $0) })
    #expect(kept.shared.holders[try #require(at["street"])] == [0, 1, 2, 3])
    #expect(kept.shared.holders[try #require(at["kiln"])] == [0, 3])
    #expect(kept.shared.holders[try #require(at["quarry"])] == [1])
    // A feed removed leaves the file with it.
    try timetables.remove("a")
    #expect(try Self.typos(Store(directory: directory.path), "kiln stret").isEmpty)
    #expect(VocabularyCatalog.read(from: directory.path + "/feeds")?.feeds.map(\.name) == ["b", "c", "d"])
  }

  /// The file is used only when it lists exactly the timetables held with their identities:
  /// a timetable replaced behind its back (a new inode) is read again.
  @Test func aTimetableReplacedBehindTheFileIsReadAgain() throws {
    let directory = TestDirectory()
    let timetables = try Self.holdFour(in: directory)
    let other = TestDirectory()
    let replacement = try StopSearchTests.feed(other, "x", [("Z1", "Zebra Crossing", 53.3, -6.3)])
    let path = try timetables.path(of: "c")
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.copyItem(atPath: replacement, toPath: path)
    let store = try Store(directory: directory.path)
    #expect(try Self.typos(store, "zebrs crosing") == ["c/Z1"])
    #expect(try Self.typos(store, "mil roaf").isEmpty)
    #expect(VocabularyCatalog.read(from: directory.path + "/feeds")?.shared.vocabulary.words.contains("zebra") == true)
  }

  @Test(arguments: [
    [UInt8](), Array("transit feed words 1\n".utf8) + [9, 9, 9], Array("transit feed words 0\n".utf8), Array(repeating: 0x41, count: 300),
  ])
  func aDamagedFileIsIgnoredAndWrittenAgain(bytes: [UInt8]) throws {
    let directory = TestDirectory()
    _ = try Self.holdFour(in: directory)
    try Data(bytes).write(to: URL(fileURLWithPath: Self.path(directory)))
    let store = try Store(directory: directory.path)
    #expect(try Self.typos(store, "kiln stret") == ["a/K1"])
    #expect(store.feeds.allSatisfy { $0.isOpen })
    #expect(VocabularyCatalog.read(from: directory.path + "/feeds")?.feeds.map(\.name) == ["a", "b", "c", "d"])
    let next = try Store(directory: directory.path)
    #expect(try Self.typos(next, "kiln stret") == ["a/K1"])
    #expect(next.feeds.filter(\.isOpen).map(\.name.rawValue) == ["a", "d"])
  }

  /// What is written is what is read; cut short anywhere, or with a byte more, it is not a
  /// vocabulary, nor with a holder past the feeds or a word twice.
  @Test func theFormatReadsBackWhatItWrote() throws {
    func decode(_ bytes: [UInt8]) -> VocabularyCatalog? { bytes.withUnsafeBytes { VocabularyCatalog.decode($0) } }
    var catalog = VocabularyCatalog()
    catalog.feeds = [
      ("a", FeedCatalog.Identity(device: 1, inode: 2, size: 3, modified: -4)),
      ("é", FeedCatalog.Identity(device: .max, inode: 8, size: 7, modified: 1 << 40)),
    ]
    catalog.shared.vocabulary.words = ["kiln", "páirc", String(repeating: "x", count: 200)]
    catalog.shared.vocabulary.masks = [0b1011, .max, 1 << 63]
    catalog.shared.vocabulary.lengths = [4, 5, 200]
    catalog.shared.holders = [[0, 1], [1], [0]]
    let bytes = catalog.encoded()
    let read = try #require(decode(bytes))
    #expect(read.feeds.map(\.name) == ["a", "é"] && read.feeds.map(\.identity) == catalog.feeds.map(\.identity))
    #expect(read.shared.vocabulary.words == catalog.shared.vocabulary.words)
    #expect(read.shared.vocabulary.masks == catalog.shared.vocabulary.masks)
    #expect(read.shared.vocabulary.lengths == catalog.shared.vocabulary.lengths)
    #expect(read.shared.holders == catalog.shared.holders)
    for cut in 0..<bytes.count { #expect(decode(Array(bytes[0..<cut])) == nil, "\(cut)") }
    #expect(decode(bytes + [0]) == nil)
    var past = catalog
    past.shared.holders[1] = [2]
    #expect(decode(past.encoded()) == nil)
    var twice = catalog
    twice.shared.vocabulary.words[2] = "kiln"
    #expect(decode(twice.encoded()) == nil)
  }
}
