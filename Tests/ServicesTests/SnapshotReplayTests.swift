import Foundation
import GTFSRealtime
import Services
import TestSupport
import Testing
import TransitModel

/// One replay stepper for `follow --replay` and `plan --watch --replay`: a folder's snapshots
/// in time order, each moment keeping the newest file of each kind recorded by then, played
/// from the one at or before the start and waiting its gap to the next at the speed asked.
@Suite struct SnapshotReplayTests {
  static let caps = RealtimeCaps(maxDownloadMegabytes: 1, maxMegabytes: 1, maxEntities: 1000, maxStopUpdates: 1000)

  /// A folder of `names`, each file holding the demo's trip updates or vehicle positions as
  /// its name says; and a file that is no snapshot.
  static func folder(_ names: [String]) throws -> TemporaryFolder {
    let folder = TemporaryFolder()
    for name in names {
      let source = name.contains("vehicle") ? "demo-vehiclepositions.pb" : "demo-tripupdates.pb"
      try FileManager.default.copyItem(atPath: packageRoot + "/Data/realtime/" + source, toPath: folder.path + "/" + name)
    }
    try Data("not a snapshot".utf8).write(to: URL(fileURLWithPath: folder.path + "/notes.txt"))
    return folder
  }

  @Test func momentsKeepTheNewestOfEachKindAndWaitTheirGapAtTheSpeed() throws {
    // 100: both kinds; 160: trip updates only; 400: vehicles only.
    let names = ["100-trip-updates.pb", "100-vehicle-positions.pb", "160-trip-updates.pb", "400-vehicle-positions.pb"]
    let folder = try Self.folder(names)
    let path = folder.path + "/"
    let snapshots = try SnapshotFolder(path: folder.path).snapshots()
    #expect(snapshots.map(\.time.seconds) == [100, 160, 400])
    #expect(snapshots.map(\.paths.count) == [2, 1, 1])

    var replay = try SnapshotFolder(path: folder.path).replay(from: nil, speed: 2, caps: Self.caps)
    #expect(replay.prelude.isEmpty)
    // Gaps 60 s and 240 s at twice the speed: 30 s and 120 s; none after the last.
    var steps: [SnapshotReplay.Step] = []
    while let step = try replay.next() { steps.append(step) }
    #expect(steps.map(\.time.seconds) == [100, 160, 400])
    #expect(steps.map(\.wait) == [30, 120, nil])
    #expect(replay.lastGap == 120)
    // Each moment: the newest file of each kind so far, two feeds from the second on.
    #expect(
      replay.moments.map(\.paths) == [
        [path + "100-trip-updates.pb", path + "100-vehicle-positions.pb"],
        [path + "100-vehicle-positions.pb", path + "160-trip-updates.pb"],
        [path + "160-trip-updates.pb", path + "400-vehicle-positions.pb"],
      ])
    #expect(steps.map(\.feeds.count) == [2, 2, 2])
  }

  /// Captures kept compressed (`.pb.gz`, as `history import` takes them) are snapshots too:
  /// the same moments and the same feeds as the plain files, a kind each whatever the suffix.
  @Test func compressedSnapshotsReplayAsThePlainOnes() throws {
    let plain = try Self.folder(["100-trip-updates.pb", "100-vehicle-positions.pb", "160-trip-updates.pb"])
    let packed = try Self.folder(["100-trip-updates.pb", "100-vehicle-positions.pb", "160-trip-updates.pb"])
    for name in ["100-trip-updates.pb", "100-vehicle-positions.pb", "160-trip-updates.pb"] {
      let gzip = Process()
      gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
      gzip.arguments = [packed.path + "/" + name]
      try gzip.run()
      gzip.waitUntilExit()
      #expect(gzip.terminationStatus == 0)
    }
    #expect(!FileManager.default.fileExists(atPath: packed.path + "/100-trip-updates.pb"))
    #expect(SnapshotNaming.kind(of: packed.path + "/160-trip-updates.pb.gz") == "trip-updates")
    #expect(SnapshotNaming.named("160-trip-updates.pb.gz")?.time == 160)
    #expect(SnapshotNaming.named("160-trip-updates.gz") == nil && SnapshotNaming.named("trip-updates.pb") == nil)
    var replays = [
      try SnapshotFolder(path: plain.path).replay(from: nil, speed: 1, caps: Self.caps),
      try SnapshotFolder(path: packed.path).replay(from: nil, speed: 1, caps: Self.caps),
    ]
    #expect(
      replays[1].moments.map { $0.paths.map { $0.split(separator: "/").last! } } == [
        ["100-trip-updates.pb.gz", "100-vehicle-positions.pb.gz"], ["100-vehicle-positions.pb.gz", "160-trip-updates.pb.gz"],
      ])
    for _ in 0..<2 {
      let plainStep = try #require(try replays[0].next())
      let packedStep = try #require(try replays[1].next())
      #expect(plainStep.time == packedStep.time)
      #expect(plainStep.feeds == packedStep.feeds)
      #expect(packedStep.feeds.count == 2)
    }
  }

  @Test func aStartPlaysFromTheMomentAtOrBeforeItTheEarlierOnesSetTheScene() throws {
    let folder = try Self.folder(["100-trip-updates.pb", "160-trip-updates.pb", "400-trip-updates.pb"])
    let inside = try SnapshotFolder(path: folder.path).replay(from: UnixTime(399), speed: 1, caps: Self.caps)
    #expect(inside.prelude.map(\.time.seconds) == [100])
    #expect(inside.upcoming?.time.seconds == 160)
    let before = try SnapshotFolder(path: folder.path).replay(from: UnixTime(99), speed: 1, caps: Self.caps)
    #expect(before.prelude.isEmpty)
    #expect(before.upcoming?.time.seconds == 100)
    // The state at a time, as a realtime source: the moment at or before it.
    let state = try SnapshotFolder(path: folder.path).realtime(at: UnixTime(200), caps: Self.caps)
    #expect(state.time.seconds == 160)
    #expect(state.files == [folder.path + "/160-trip-updates.pb"])
  }

  @Test func aFolderWithoutSnapshotsOrUnreadableSaysSo() throws {
    let empty = try Self.folder([])
    #expect(throws: SnapshotFolderError.empty(empty.path)) { try SnapshotFolder(path: empty.path).snapshots() }
    #expect(throws: SnapshotFolderError.unreadable(empty.path + "/none")) {
      try SnapshotFolder(path: empty.path + "/none").snapshots()
    }
    // A snapshot file that is no feed fails the step, naming the file.
    let bad = try Self.folder(["100-trip-updates.pb"])
    try Data("junk".utf8).write(to: URL(fileURLWithPath: bad.path + "/200-trip-updates.pb"))
    var replay = try SnapshotFolder(path: bad.path).replay(from: nil, speed: 1, caps: Self.caps)
    #expect(try replay.next()?.time.seconds == 100)
    let failure = #expect(throws: LibraryFailure.self) { try replay.next() }
    #expect(failure?.reason.hasPrefix(bad.path + "/200-trip-updates.pb: ") == true)
  }
}
