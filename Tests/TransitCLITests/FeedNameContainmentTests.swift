import Foundation
import GTFS
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// A feed name becomes a file name (`feeds/NAME.sqlite`, downloads, recordings): none may
/// reach outside its folder, wherever it comes from (issue 23, case 1: `ingest --remove
/// ../user` deleted the user's favourites, places and commutes).
@Suite struct FeedNameContainmentTests {
  let demoFeed = packageRoot + "/Data/gtfs"

  /// A data folder holding the demo feed and a user.sqlite with a place in it, and a
  /// `victim.sqlite` two levels up from the feeds folder.
  func setUp() throws -> (home: TemporaryFolder, outside: String) {
    let home = TemporaryFolder()
    #expect(transit(["ingest", demoFeed, "--feed", "demo", "--data-dir", home.path]).code == 0)
    #expect(transit(["places", "add", "home", "53.2875,-6.3664", "--data-dir", home.path]).code == 0)
    let outside = home.path + "/victim.sqlite"
    #expect(FileManager.default.createFile(atPath: outside, contents: Data("keep".utf8)))
    return (home, outside)
  }

  func userDataIntact(_ home: TemporaryFolder, _ outside: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(FileManager.default.fileExists(atPath: home.path + "/user.sqlite"), sourceLocation: sourceLocation)
    #expect(transit(["places", "list", "--data-dir", home.path]).stdout.contains("home"), sourceLocation: sourceLocation)
    #expect(FileManager.default.contents(atPath: outside) == Data("keep".utf8), sourceLocation: sourceLocation)
    #expect(transit(["ingest", "--list", "--data-dir", home.path]).stdout.contains("demo"), sourceLocation: sourceLocation)
  }

  @Test(arguments: ["../user", "../victim", "../../victim", "/tmp/x", ".", "..", "a/b", "-x", "demo.sqlite", "a b", "ü"])
  func removeRefusesANameThatIsNotAFeedName(_ name: String) throws {
    let (home, outside) = try setUp()
    // '--remove=NAME', so that '-x' reaches the name check (a bare '-x' is refused earlier as
    // an option where a value was wanted).
    let result = transit(["ingest", "--remove=" + name, "--data-dir", home.path])
    #expect(result.code == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.hasPrefix(
        "transit: --remove '\(name)': a feed name must be 1 to 64 letters, digits, '-' or '_', not starting with '-' (usage: "))
    userDataIntact(home, outside)
  }

  @Test func ingestRefusesABadFeedNameBeforeLoading() throws {
    let (home, outside) = try setUp()
    let result = transit(["ingest", demoFeed, "--feed", "../user", "--data-dir", home.path])
    #expect(result.code == 2)
    #expect(result.stderr.hasPrefix("transit: --feed '../user': a feed name must be"))
    userDataIntact(home, outside)
    // Nothing was built beside the user's database either.
    let files = try FileManager.default.contentsOfDirectory(atPath: home.path)
    #expect(!files.contains { $0.hasPrefix("user.sqlite.") })
  }

  @Test func aConfiguredFeedWithABadNameIsRefusedWhenTheConfigurationIsRead() throws {
    let (home, outside) = try setUp()
    let config = #"{"feeds": [{"name": "../user", "gtfs": "file:///nonexistent.zip", "headers": []}]}"#
    try config.write(toFile: home.path + "/feeds.json", atomically: true, encoding: .utf8)
    let result = transit(["ingest", "--data-dir", home.path])
    #expect(result.code == 1)
    #expect(
      result.stderr
        == "transit: \(home.path)/feeds.json: feed name '../user' must be 1 to 64 letters, digits, '-' or '_', not starting with '-'\n")
    userDataIntact(home, outside)
  }

  @Test func feedsAddRefusesABadName() throws {
    let home = TemporaryFolder()
    let result = transit(["feeds", "add", "../user", "--gtfs", "https://example.org/g.zip", "--data-dir", home.path])
    #expect(result.code == 2)
    #expect(!FileManager.default.fileExists(atPath: home.path + "/feeds.json"))
  }

  @Test func theLibraryRefusesToo() throws {
    let (home, outside) = try setUp()
    let timetables = Timetables(directory: home.path)
    #expect(throws: IngestError.invalidFeedName("../user")) { try timetables.remove("../user") }
    #expect(throws: IngestError.invalidFeedName("../../victim")) { try timetables.path(of: "../../victim") }
    #expect(throws: IngestError.invalidFeedName("../user")) {
      try timetables.ingest(demoFeed, as: "../user", now: 0)
    }
    userDataIntact(home, outside)
  }

  @Test(arguments: [
    ("demo", true), ("dublin-bus", true), ("feed_2", true), ("A1", true), (String(repeating: "a", count: 64), true),
    ("", false), (String(repeating: "a", count: 65), false), ("-a", false), (".a", false), ("a.b", false),
    ("a/b", false), ("..", false), ("é", false), ("a\u{0}", false), ("a b", false),
  ])
  func theOneRule(name: String, valid: Bool) {
    #expect(FeedName.isValid(name) == valid)
  }
}
