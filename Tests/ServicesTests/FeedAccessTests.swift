import Foundation
import GTFSRealtime
import Services
import TestSupport
import Testing
import TransitModel

/// `FeedAccess` (issue 33): the feed configuration as `feeds add`, `list` and `remove` keep it,
/// and `feeds check` of local files, the expected values worked out from the files themselves.
@Suite struct FeedAccessTests {
  /// The real clock stands still at 2023-11-08T01:06:00Z (66 s after the Caltrain capture's
  /// header timestamp, 1699405534).
  static let clock: Int64 = 1_699_405_600

  static func access(_ folder: TemporaryFolder, environment: [String: String] = [:]) -> FeedAccess {
    FeedAccess(
      configDirectory: folder.path, cacheDirectory: folder.path + "/cache", environment: environment, userAgent: "transit/test",
      deadlineSeconds: 10,
      realtimeSettings: {
        RealtimeSettings(
          budgetSeconds: 5, caps: RealtimeCaps(maxDownloadMegabytes: 32, maxMegabytes: 64, maxEntities: 10_000, maxStopUpdates: 10_000))
      }, sleep: { _ in }, elapsed: { 0 }, clock: { clock }, absolutePath: { "/base/" + $0 })
  }

  static func setup(_ name: String, gtfs: String? = nil, alerts: String? = nil, headers: [String] = []) -> FeedSetup {
    FeedSetup(name: name, gtfs: gtfs, tripUpdates: nil, vehiclePositions: nil, alerts: alerts, headers: headers, pollSeconds: nil)
  }

  @Test func addingKeepsPathsAsFileURLsMasksSecretsAndNamesMissingVariables() throws {
    let folder = TemporaryFolder()
    let access = Self.access(folder)
    #expect(try access.configuredFeeds().isEmpty)
    let added = try access.add(
      Self.setup(
        "city", gtfs: "feeds/city.zip", alerts: "https://example.org/alerts?key=$KEY",
        headers: ["x-api-key: $KEY", "Authorization: Bearer abc123", "Accept: application/x-protobuf"]))
    #expect(!added.isReplacement)
    #expect(added.missingVariables == ["KEY"])
    #expect(added.feed.gtfs == "file:///base/feeds/city.zip")
    #expect(added.feed.kinds == ["gtfs", "alerts"])
    // A variable stays as written; a credential header's value is masked; others are shown.
    #expect(added.feed.headers == ["x-api-key: $KEY", "Authorization: <redacted>", "Accept: application/x-protobuf"])
    #expect(added.feed.periodSeconds == 30)
    let again = try access.add(Self.setup("city", gtfs: "https://example.org/city.zip"))
    #expect(again.isReplacement)
    #expect(try access.configuredFeeds().map(\.gtfs) == ["https://example.org/city.zip"])
    try access.remove("city")
    #expect(try access.configuredFeeds().isEmpty)
    #expect(throws: FeedKeepingError.self) { try access.remove("city") }
  }

  @Test func aSetupIsRefusedForWhatItHoldsBeforeAnythingIsSaved() throws {
    let folder = TemporaryFolder()
    let access = Self.access(folder)
    #expect(throws: FeedSetup.Problem.invalidName("a b")) { try access.add(Self.setup("a b", gtfs: "https://x")) }
    #expect(throws: FeedSetup.Problem.noURL) { try access.add(Self.setup("none")) }
    #expect(throws: FeedSetup.Problem.unsupportedScheme(.gtfs, shown: "ftp://example.org/x.zip")) {
      try access.add(Self.setup("ftp", gtfs: "ftp://example.org/x.zip"))
    }
    #expect(throws: FeedSetup.Problem.controlCharacter(.alerts)) { try access.add(Self.setup("tab", alerts: "https://x/\ty")) }
    #expect(throws: FeedSetup.Problem.malformedHeader) { try access.add(Self.setup("h", gtfs: "https://x", headers: ["novalue"])) }
    #expect(throws: FeedSetup.Problem.headerLineBreak) {
      try access.add(Self.setup("h", gtfs: "https://x", headers: ["a: b\r\nX-Injected: 1"]))
    }
    #expect(try access.configuredFeeds().isEmpty)
  }

  @Test func checkingLocalFilesGivesTheirSizesAndTheFeedsAge() throws {
    let zip = try #require(SharedData.path("static/caltrain-2023.zip"))
    let updates = try #require(SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb"))
    let folder = TemporaryFolder()
    let access = Self.access(folder)
    let feed = FeedDefinition(name: "caltrain", gtfs: "file://" + zip, tripUpdates: "file://" + updates)
    let checks = try access.check([feed])
    func size(_ path: String) throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) }
    #expect(checks.map(\.kind) == ["gtfs", "trip-updates"])
    #expect(checks.map(\.problem) == [nil, nil])
    #expect(checks[0].bytes == (try size(zip)))
    #expect(checks[1].bytes == (try size(updates)))
    // The header says 1699405534; the clock, 1699405600.
    #expect(checks[1].ageSeconds == 66)
    #expect(checks[1].configuredPeriodSeconds == 30)
    #expect(checks.map(\.url) == ["file://" + zip, "file://" + updates])
  }
}
