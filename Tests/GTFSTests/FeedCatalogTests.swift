import Foundation
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// The catalog beside the timetables (`FeedCatalog`, issue 36): a process opens only the
/// timetables its question reaches, and the catalog is checked against each file, never
/// trusted blindly.
@Suite struct FeedCatalogTests {
  /// Three small feeds, each with its own stop (K1, L1, M1) besides TinyFeed's S1-S3.
  static func holdThree(in directory: TestDirectory) throws -> Timetables {
    let timetables = Timetables(directory: directory.path)
    for (feed, stop, name) in [("k", "K1", "Kiln Street"), ("l", "L1", "Lark Lane"), ("m", "M1", "Mill Road")] {
      try timetables.ingest(directory.feed(FeedKeyFilterTests.files([(stop, "50\(stop.last!)", name)]), named: feed), as: feed, now: 1)
    }
    return timetables
  }

  @Test func aSecondProcessOpensOnlyTheFeedItAsksAbout() throws {
    let directory = TestDirectory()
    _ = try Self.holdThree(in: directory)
    // Each ingest rewrote the catalog after its swap.
    #expect(FeedCatalog.read(from: directory.path + "/feeds").entries.keys.sorted() == ["k", "l", "m"])
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { !$0.isOpen })
    #expect(store.held.map(\.name) == ["k", "l", "m"])
    #expect(store.held.map { $0.meta["timezone"] } == ["Europe/Dublin", "Europe/Dublin", "Europe/Dublin"])
    let found = try store.resolveStop("L1")
    #expect(found == .found(try #require(try store.stop("L1", feed: "l"))))
    #expect(store.feeds.filter(\.isOpen).map(\.name) == ["l"])
    // A name only one feed holds opens that feed alone too.
    #expect(try store.resolveStop("Mill Road") == .found(try #require(try store.stop("M1", feed: "m"))))
    #expect(store.feeds.filter(\.isOpen).map(\.name) == ["l", "m"])
  }

  /// Networks of the same street names far apart (as copies of one agency's feed, or towns
  /// with a Main Street each): finding whether a stop is part of a complex across feeds does
  /// not open the feeds whose stops all lie beyond the complex radius (their box, from the
  /// catalog), and still joins the one nearby.
  @Test func aComplexAcrossFeedsOpensOnlyTheFeedsNearby() throws {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    // (feed, latitude shift): "near" is 150 m north of "home", the others 50 km and more away.
    for (feed, shift) in [("home", 0.0), ("near", 0.00135), ("far1", 0.5), ("far2", 1.0)] {
      let stops = ["S1,101,First Street,53.28,-6.36", "S2,102,Second Street,53.29,-6.37", "S3,103,Third Street,53.30,-6.38"]
        .map { line -> String in
          var fields = line.split(separator: ",").map(String.init)
          fields[3] = String(Double(fields[3])! + shift)
          return fields.joined(separator: ",")
        }
      let files = TinyFeed.with(["stops.txt": "stop_id,stop_code,stop_name,stop_lat,stop_lon\n" + stops.joined(separator: "\n") + "\n"])
      try timetables.ingest(directory.feed(files, named: feed), as: feed, now: 1)
    }
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { !$0.isOpen })
    let first = try #require(try store.stop("S1", feed: "home"))
    let complex = try #require(try store.complex(containing: first))
    #expect(Set(complex.parts.map(\.feed.rawValue)) == ["home", "near"])
    #expect(store.feeds.filter(\.isOpen).map(\.name.rawValue).sorted() == ["home", "near"])
  }

  @Test func aTimetableReplacedBehindTheCatalogIsReadAgain() throws {
    let directory = TestDirectory()
    let timetables = try Self.holdThree(in: directory)
    _ = try Store(directory: directory.path)
    // The feed k is ingested again with another stop: the catalog's entry no longer matches
    // its file (a new inode), so the new stop is found and the old one is not (now: 2026-01-02,
    // in service, for the swap gate).
    try timetables.ingest(
      directory.feed(FeedKeyFilterTests.files([("K9", "599", "Quay Road")]), named: "k2"), as: "k", now: 1_767_312_000)
    // The ingest rewrote the catalog after its swap: the next process opens nothing.
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { !$0.isOpen })
    #expect(try store.resolveStop("K9") == .found(try #require(try store.stop("K9", feed: "k"))))
    guard case .notFound = try store.resolveStop("K1") else {
      Issue.record("K1 is still found after the feed that held it was replaced")
      return
    }
    // Replaced by hand behind the catalog's back (a new inode), the feed is read again.
    let path = try timetables.path(of: "l")
    try FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.moveItem(atPath: path + ".copy", toPath: path)
    let mended = try Store(directory: directory.path)
    #expect(mended.feeds.filter(\.isOpen).map(\.name) == ["l"])
    // A feed removed leaves the catalog with it.
    try timetables.remove("m")
    let after = try Store(directory: directory.path)
    #expect(after.held.map(\.name) == ["k", "l"])
    #expect(FeedCatalog.read(from: directory.path + "/feeds").entries.keys.sorted() == ["k", "l"])
  }

  @Test(arguments: [[UInt8](), Array("transit feed catalog 1\n".utf8) + [9, 9, 9], Array(repeating: 0x41, count: 300)])
  func aDamagedCatalogIsIgnoredAndWrittenAgain(bytes: [UInt8]) throws {
    let directory = TestDirectory()
    _ = try Self.holdThree(in: directory)
    let path = directory.path + "/feeds/catalog"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let store = try Store(directory: directory.path)
    #expect(store.feeds.allSatisfy { $0.isOpen })
    #expect(try store.resolveStop("M1") == .found(try #require(try store.stop("M1", feed: "m"))))
    #expect(FeedCatalog.read(from: directory.path + "/feeds").entries.keys.sorted() == ["k", "l", "m"])
    #expect(try Store(directory: directory.path).feeds.allSatisfy { !$0.isOpen })
  }

  /// What is written is what is read, key filter bytes and all; cut short anywhere, it is
  /// not a catalog.
  @Test func theFormatReadsBackWhatItWrote() throws {
    var catalog = FeedCatalog()
    let filter: FeedKeyFilter = try #require(FeedKeyFilter(bytes: [1, 2, 3, 255], hashes: 7))
    catalog.entries["a"] = FeedCatalog.Entry(
      identity: FeedCatalog.Identity(device: 1, inode: 2, size: 3, modified: -4),
      meta: ["timezone": "America/New_York", "stop_box": "1,2,3,4", "é": "ü"],
      filter: filter)
    catalog.entries["b"] = FeedCatalog.Entry(
      identity: FeedCatalog.Identity(device: 9, inode: 8, size: 7, modified: 6), meta: [:], filter: nil)
    let bytes = catalog.encoded()
    #expect(FeedCatalog.decode(bytes)?.entries == catalog.entries)
    for cut in stride(from: 0, to: bytes.count, by: 7) { #expect(FeedCatalog.decode(Array(bytes[0..<cut])) == nil, "\(cut)") }
  }
}
