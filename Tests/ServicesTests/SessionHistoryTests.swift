import Foundation
import GTFS
import GTFSRealtime
import Services
import TestSupport
import Testing
import TransitModel

/// The session's history answers (issue 33): `history import DIR` over the demo's recorded
/// snapshots (Data/replay, named `<unix-seconds>-<kind>.pb` as `record` writes them), then the
/// history of a station and of a route, and `history --status`.
@Suite struct SessionHistoryTests {
  let store: Store

  init() throws {
    store = try DemoTimetable.store()
  }

  /// The replay's snapshot files (the follow captures beside them are not snapshots).
  static func replayFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Data/replay").filter { $0.hasSuffix(".pb") }.sorted()
  }

  /// A session whose user data (and history) is in `folder`.
  func session(_ folder: TemporaryFolder) -> TransitSession {
    TransitSession(store: store, options: ServiceOptions(), userData: UserDataAccess(directory: folder.path))
  }

  /// A folder holding copies of `names` from Data/replay.
  static func folder(with names: [String]) throws -> TemporaryFolder {
    let folder = TemporaryFolder()
    for name in names {
      try FileManager.default.copyItem(atPath: packageRoot + "/Data/replay/" + name, toPath: folder.path + "/" + name)
    }
    return folder
  }

  static func request(_ directory: String) -> HistoryImportRequest {
    HistoryImportRequest(
      directory: directory, caps: RealtimeCaps(maxDownloadMegabytes: 1, maxMegabytes: 1, maxEntities: 1000, maxStopUpdates: 1000),
      importedAt: 0, retentionDays: 180)
  }

  /// 2026-12-01T08:30:00Z, after the replay's last moment (07:47 UTC).
  static let now = UnixTime(1_796_113_800)

  @Test func anImportTakesEachMomentOnceAndAgainReadsNamesOnly() throws {
    let names = try Self.replayFiles()
    // The moments are the names' times: each has a trip-updates file and a vehicle-positions one.
    let moments = Set(names.map { $0.prefix { $0.isNumber } })
    try #require(moments.count == 6 && names.count == 12)
    let home = TemporaryFolder()
    let snapshots = try Self.folder(with: names)
    let first = try session(home).importHistory(Self.request(snapshots.path), now: Self.now)
    #expect(first.counts.snapshots == moments.count)
    #expect(first.alreadyImported == 0 && first.olderThanHistory == 0)
    #expect(first.folder == snapshots.path)
    // A snapshot already taken in is known by its name: its files are not read again (one is
    // no feed at all now).
    try Data([0xFF, 0xFF]).write(to: URL(fileURLWithPath: snapshots.path + "/" + names[0]))
    let second = try session(home).importHistory(Self.request(snapshots.path), now: Self.now)
    #expect(second.counts.snapshots == 0)
    #expect(second.alreadyImported == moments.count)
  }

  @Test func aFolderOfLaterMomentsTakesInOnlyTheNewOnes() throws {
    let names = try Self.replayFiles()
    let times = Array(Set(names.map { String($0.prefix { $0.isNumber }) })).sorted()
    let home = TemporaryFolder()
    let early = try Self.folder(with: names.filter { times.prefix(3).contains(String($0.prefix { $0.isNumber })) })
    #expect(try session(home).importHistory(Self.request(early.path), now: Self.now).counts.snapshots == 3)
    let all = try Self.folder(with: names)
    let answer = try session(home).importHistory(Self.request(all.path), now: Self.now)
    #expect(answer.counts.snapshots == times.count - 3)
    #expect(answer.alreadyImported == 3)
  }

  @Test func aFolderWithoutSnapshotsOrNoFolderIsSaid() throws {
    let home = TemporaryFolder()
    let empty = TemporaryFolder()
    let none = #expect(throws: HistoryImportFailure.self) {
      try session(home).importHistory(Self.request(empty.path), now: Self.now)
    }
    guard case .noSnapshots(let path) = none else {
      Issue.record("\(String(describing: none))")
      return
    }
    #expect(path == empty.path)
    let missing = #expect(throws: HistoryImportFailure.self) {
      try session(home).importHistory(Self.request(empty.path + "/missing"), now: Self.now)
    }
    guard case .unreadableFolder(let folder) = missing else {
      Issue.record("\(String(describing: missing))")
      return
    }
    #expect(folder == empty.path + "/missing")
  }

  @Test func theHistoryOfAStationIsOfItsPlatformsAndOfARouteOfItsTrips() throws {
    let home = TemporaryFolder()
    let session = session(home)
    guard case .found(let route) = try session.route(named: "27").outcome else { throw FixtureError("route 27") }
    let nothing = #expect(throws: HistoryFailure.self) {
      try session.history(HistoryRequest(subject: .route(route), subjectText: "route 27"), now: Self.now)
    }
    guard case .noHistory = nothing else {
      Issue.record("\(String(describing: nothing))")
      return
    }
    let snapshots = try Self.folder(with: try Self.replayFiles())
    _ = try session.importHistory(Self.request(snapshots.path), now: Self.now)

    let trips = Set(try demoRows("trips.txt").filter { $0["route_id"] == "R27" }.compactMap { $0["trip_id"] })
    let byRoute = try session.history(HistoryRequest(subject: .route(route), subjectText: "route 27"), now: Self.now)
    #expect(byRoute.subject == "route 27")
    #expect(!byRoute.rows.isEmpty)
    #expect(byRoute.rows.allSatisfy { $0.event.routeID == "R27" && trips.contains($0.event.key.trip.tripID) })
    // The last 30 days before now.
    #expect(byRoute.from == Self.now.seconds - 30 * 86_400 && byRoute.to == Self.now.seconds)

    let platforms = Set(try demoRows("stops.txt").filter { $0["parent_station"] == "TINT" }.compactMap { $0["stop_id"] })
    try #require(platforms.count == 3)
    let station = try #require(try store.stop(StopID("TINT"), feed: FeedName("demo")))
    let byStop = try session.history(HistoryRequest(subject: .place(.stop(station)), subjectText: "TINT"), now: Self.now)
    #expect(!byStop.rows.isEmpty)
    #expect(byStop.rows.allSatisfy { platforms.contains($0.event.stopID) || $0.event.stopID == "TINT" })
    // Only the hour 06:00-07:00 asked: the replay's calls are all after 07:30.
    var early = HistoryQuery()
    early.hours = 6...7
    let none = try session.history(HistoryRequest(subject: .route(route), subjectText: "", filters: early), now: Self.now)
    #expect(none.rows.isEmpty)
  }

  @Test func theStatusSaysWhatTheHistoryHolds() throws {
    let home = TemporaryFolder()
    let before = try session(home).historyStatus(retentionDays: 90)
    #expect(before.path == home.path + "/history.sqlite")
    #expect(before.status == nil && before.estimatedBytes == nil && before.retentionDays == 90)
    let snapshots = try Self.folder(with: try Self.replayFiles())
    _ = try session(home).importHistory(Self.request(snapshots.path), now: Self.now)
    let after = try session(home).historyStatus(retentionDays: 90)
    #expect(after.status?.snapshots == 6)
    // The replay spans 31 minutes (1796110560 to 1796112420): under an hour, no estimate.
    #expect(after.estimatedBytes == nil)
  }

  @Test func anEstimateIsTheRateOfTheDaysRecordedTimesTheRetention() throws {
    let home = TemporaryFolder()
    let snapshots = try Self.folder(with: try Self.replayFiles())
    _ = try session(home).importHistory(Self.request(snapshots.path), now: Self.now)
    var status = try #require(try session(home).historyStatus(retentionDays: 90).status)
    // Two hours on one day: the day's bytes, 90 times; 25 hours touch two days: half, 90 times.
    status.firstSnapshot = 1_000_000
    status.lastSnapshot = 1_000_000 + 7200
    status.bytes = 1_000
    #expect(HistoryStatusAnswer.estimatedBytes(status, retentionDays: 90) == 90_000)
    status.lastSnapshot = 1_000_000 + 25 * 3600
    #expect(HistoryStatusAnswer.estimatedBytes(status, retentionDays: 90) == 45_000)
  }

  @Test func aCommuteNotSavedIsSaidByItsName() throws {
    let home = TemporaryFolder()
    let error = #expect(throws: HistoryFailure.self) {
      try session(home).savedCommute(named: "Work")
    }
    guard case .noCommute(let name) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(name == "work")
  }
}
