import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The feed-keeping entry points (issue 33): `TimetableKeeper` loads, lists, checks, refuses,
/// forces, rolls back and removes timetables in a data folder of its own; the figures are the
/// feeds' own (shared/data/PROVENANCE.md), worked out from their files, not from the code.
@Suite struct TimetableKeeperTests {
  /// Google's sample feed: 1 agency (Demo Transit Authority), 5 routes, 9 stops, 11 trips, 28
  /// stop_times, service 20070101..20101231.
  static let sample = SharedData.path("static/google-sample-feed-1.zip")
  /// BART 2019: another agency, 48 stops, 8 routes, 2,641 trips, service to 20200210.
  static let bart = SharedData.path("static/bart-2019.zip")
  /// 1 December 2026, 07:40 UTC.
  static let now = UnixTime(1_796_110_800)

  static func keeper(_ folder: TemporaryFolder) -> TimetableKeeper {
    let access = FeedAccess(
      configDirectory: folder.path, cacheDirectory: folder.path + "/cache", environment: [:], userAgent: "transit/test",
      deadlineSeconds: 10,
      realtimeSettings: {
        RealtimeSettings(
          budgetSeconds: 5, caps: RealtimeCaps(maxDownloadMegabytes: 32, maxMegabytes: 64, maxEntities: 1000, maxStopUpdates: 1000))
      }, sleep: { _ in }, elapsed: { 0 }, clock: { now.seconds }, absolutePath: { $0.hasPrefix("/") ? $0 : "/" + $0 })
    return TimetableKeeper(dataDirectory: folder.path, feeds: access)
  }

  static func request(_ source: String?, feed: String? = nil, ifChanged: Bool = false, force: Bool = false) -> IngestRequest {
    IngestRequest(
      source: source, feed: feed, ifChanged: ifChanged, isForced: force, limits: { (SwapSettings(), 1536) }, waitSeconds: 0,
      options: { ServiceOptions() }, now: now)
  }

  /// Ingests `request` and returns its one outcome.
  static func ingest(_ keeper: TimetableKeeper, _ request: IngestRequest) throws -> IngestOutcome {
    var outcomes: [IngestOutcome] = []
    try keeper.ingest(request, progress: { _ in }, done: { outcomes.append($0) })
    try #require(outcomes.count == 1)
    return outcomes[0]
  }

  /// The SHA-256 of `path` as sha256sum(1) prints it.
  static func sha256sum(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return String(text.prefix(64))
  }

  @Test func aFirstLoadIsListedWithItsCountsAndServiceAndNeedsAttentionOnceEnded() throws {
    let sample = try #require(Self.sample)
    let folder = TemporaryFolder()
    let keeper = Self.keeper(folder)
    #expect(try keeper.held(now: Self.now).isEmpty)
    #expect(try !keeper.check(now: Self.now).needsAttention)
    guard case .ingested(let answer) = try Self.ingest(keeper, Self.request(sample)) else {
      Issue.record("not ingested")
      return
    }
    // Named from its one agency, "Demo Transit Authority"; a first load has no swap checks.
    #expect(answer.feed == "demo-transit-authority")
    #expect(answer.source == sample)
    #expect(!answer.saysChanged)
    #expect(answer.checks.isEmpty)
    #expect(answer.yourChanges.isEmpty)
    let rows = Dictionary(uniqueKeysWithValues: answer.rows.map { ($0.file, $0.count) })
    #expect(rows["stops.txt"] == 9 && rows["routes.txt"] == 5 && rows["trips.txt"] == 11 && rows["stop_times.txt"] == 28)
    let held = try keeper.held(now: Self.now)
    #expect(held.map(\.name) == ["demo-transit-authority"])
    let feed = try #require(held.first)
    #expect(feed.source == sample)
    #expect(feed.serviceStart == "20070101" && feed.serviceEnd == "20101231")
    #expect(feed.loadedAt == Self.now)
    #expect([feed.stops, feed.routes, feed.trips, feed.stopTimes] == [9, 5, 11, 28] as [Int])
    #expect(feed.status == .ended(lastDay: ServiceDate(year: 2010, month: 12, day: 31)!))
    #expect(feed.previous == nil)
    // Ended in 2010: `--check` needs attention.
    #expect(try keeper.check(now: Self.now).needsAttention)
  }

  @Test func ifChangedKeepsTheSameContentAndSaysItsHash() throws {
    let sample = try #require(Self.sample)
    let folder = TemporaryFolder()
    let keeper = Self.keeper(folder)
    _ = try Self.ingest(keeper, Self.request(sample, feed: "sample"))
    let outcome = try Self.ingest(keeper, Self.request(sample, feed: "sample", ifChanged: true))
    guard case .unchanged(let unchanged) = outcome else {
      Issue.record("loaded again")
      return
    }
    #expect(unchanged.feed == "sample")
    #expect(unchanged.decision == .sameContent(sha256: try Self.sha256sum(sample)))
    // Nothing was swapped: no previous timetable is kept.
    #expect(try keeper.held(now: Self.now).first?.previous == nil)
  }

  @Test func theSwapChecksRefuseAnotherAgencyUntilForcedAndRollbackAndRemoveUndoIt() throws {
    let sample = try #require(Self.sample), bart = try #require(Self.bart)
    let folder = TemporaryFolder()
    let keeper = Self.keeper(folder)
    _ = try Self.ingest(keeper, Self.request(sample, feed: "city"))
    let error = #expect(throws: (any Error).self) { try Self.ingest(keeper, Self.request(bart, feed: "city")) }
    let refusal = try #require(error.flatMap(IngestRefusal.init))
    #expect(refusal.feed == "city")
    // BART shares no agency with the Demo Transit Authority, and its service ended on
    // 2020-02-10; 48 stops against 9, 8 routes against 5 and 2,641 trips against 11 grow.
    let failed = refusal.checks.filter { !$0.passed }.map(\.name)
    #expect(failed == ["service-ended", "same-agency"])
    #expect(try keeper.held(now: Self.now).first?.stops == 9)
    guard case .ingested(let forced) = try Self.ingest(keeper, Self.request(bart, feed: "city", force: true)) else {
      Issue.record("not forced")
      return
    }
    #expect(forced.checks.filter { !$0.passed }.map(\.name) == ["service-ended", "same-agency"])
    let swapped = try #require(try keeper.held(now: Self.now).first)
    #expect(swapped.stops == 48 && swapped.serviceEnd == "20200210")
    #expect(swapped.previous?.serviceEnd == "20101231")
    let back = try keeper.rollback("city", waitSeconds: 0, now: Self.now) { _ in }
    #expect(back.stops == 9 && back.serviceEnd == "20101231")
    #expect(throws: FeedKeepingError.self) { try keeper.rollback("elsewhere", waitSeconds: 0, now: Self.now) { _ in } }
    try keeper.remove("city")
    #expect(try keeper.held(now: Self.now).isEmpty)
    let gone = #expect(throws: FeedKeepingError.self) { try keeper.remove("city") }
    guard case .notHeld("city") = gone else {
      Issue.record("\(String(describing: gone))")
      return
    }
  }

  @Test func withoutASourceTheConfiguredFeedsAreAskedFor() throws {
    let folder = TemporaryFolder()
    let keeper = Self.keeper(folder)
    let nothing = #expect(throws: FeedKeepingError.self) { try Self.ingest(keeper, Self.request(nil)) }
    guard case .nothingToIngest = nothing else {
      Issue.record("\(String(describing: nothing))")
      return
    }
    let unknown = #expect(throws: FeedKeepingError.self) { try Self.ingest(keeper, Self.request(nil, feed: "nowhere")) }
    guard case .notConfigured("nowhere", configured: []) = unknown else {
      Issue.record("\(String(describing: unknown))")
      return
    }
  }
}
