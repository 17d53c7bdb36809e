import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// `transit follow --alight STOP` in a real terminal (issue 35): the built executable inside
/// tmux plays back a sequence; every byte it writes to the pane is kept (tmux pipe-pane) so
/// the bells can be counted, and a fake `notify-send` on PATH records what it was given.
@Suite(.enabled(if: transitExecutable != nil && tmuxExecutable != nil, "needs the built executable and tmux"))
struct FollowAlarmTerminalTests {
  /// One run of the alarm in tmux: the bells rung and the notifications sent.
  struct Outcome {
    var screen: String
    var bells: Int
    var notifications: [[String]]
  }

  /// Runs `transit ARGUMENTS --data-dir HOME` in tmux (100 × 40, UTF-8, a desktop session with
  /// the fake notify-send first on PATH), waits for it to end, and returns what it rang.
  func runInTmux(_ arguments: [String], home: String) throws -> Outcome {
    let folder = TemporaryFolder()
    let go = folder.path + "/go", raw = folder.path + "/pane.raw", log = folder.path + "/notified"
    let script = folder.path + "/notify-send"
    // One line per call: the arguments joined by a unit separator.
    try "#!/bin/sh\n(IFS=$(printf '\\037'); printf '%s\\n' \"$*\") >> \(log)\n".write(toFile: script, atomically: true, encoding: .utf8)
    #expect(chmod(script, 0o755) == 0)
    let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    // The command waits for `go`, so the pane's output is piped before its first byte.
    let command =
      "while [ ! -e \(TmuxSession.quoted(go)) ]; do sleep 0.05; done; exec env LANG=C.UTF-8 DISPLAY=:99 PATH=\(TmuxSession.quoted(path)) "
      + ([transitExecutable!] + arguments + ["--data-dir", home]).map(TmuxSession.quoted).joined(separator: " ")
    let tmux = try TmuxSession(columns: 100, rows: 40, ["sh", "-c", command], socketPrefix: "i35-")
    defer { tmux.kill() }
    try tmux.run(["pipe-pane", "-o", "cat >> " + TmuxSession.quoted(raw)])
    #expect(FileManager.default.createFile(atPath: go, contents: Data()))
    let screen = try tmux.waitForPane(seconds: 60) { $0.contains("exit=") }
    #expect(screen.contains("exit=0"), "\(screen)")
    let bytes = FileManager.default.contents(atPath: raw) ?? Data()
    let notified = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    let calls = notified.split(separator: "\n").map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
    return Outcome(screen: screen, bells: bytes.filter { $0 == 0x07 }.count, notifications: calls)
  }

  /// The demo's recorded sequence (`DemoReplaySequence`): bus V27-1 on 27-WK-0-0720, getting
  /// off at Tallaght (The Square), stop_sequence 100, scheduled 07:49 (Data/gtfs/stop_times.txt).
  /// By hand from the sequence: 07:36 in transit to 60 (60, 70, 90, 100 left; 80 skipped):
  /// 4 stops; 07:40 at 70, 60 s late: 90 and 100 left, 2 stops, expected 07:50, 10 min away:
  /// the first ring; 07:44 in transit to 90, 30 s late: still 2 stops, no ring; 07:48 out of the
  /// feed, the timetable (07:47 at 90, 07:49 at 100) puts it between them: next stop, 07:49:
  /// the second ring; 07:52 and 08:07 it is on the next trip of its block: passed, no ring.
  @Test func demoAlarmRingsOncePerThreshold() throws {
    let home = DemoHome()
    let outcome = try runInTmux(
      ["follow", "V27-1", "--alight", "Tallaght (The Square)", "--replay", packageRoot + "/Data/replay", "--speed", "240"],
      home: home.path)
    #expect(outcome.bells == 2, "\(outcome.screen)")
    #expect(
      outcome.notifications == [
        ["transit", "get off at Tallaght (The Square): 2 stops, 07:50 (10 min)"],
        ["transit", "get off at Tallaght (The Square): next stop, 07:49 (timetable: not reporting)"],
      ])
  }

  /// `--before 5min` on the demo: the first frame within 5 minutes of the expected arrival rings
  /// (07:44, arrival 07:49:30 with 30 s late: 5.5 min, no; 07:48 from the timetable, 07:49:
  /// 1 min, and it is also the next stop: one ring, for "next stop"), so a single bell.
  @Test func demoAlarmByMinutesRingsOnceWhenBothThresholdsComeTogether() throws {
    let home = DemoHome()
    let outcome = try runInTmux(
      [
        "follow", "V27-1", "--alight", "TD4530", "--before", "5min", "--replay", packageRoot + "/Data/replay", "--speed", "240",
      ], home: home.path)
    #expect(outcome.bells == 1, "\(outcome.screen)")
    #expect(outcome.notifications == [["transit", "get off at Tallaght (The Square): next stop, 07:49 (timetable: not reporting)"]])
  }

  /// Caltrain train 127 (northbound, capture of 2023-11-08T01:05:34Z), followed from trip
  /// updates alone: a sequence derived from the capture, one snapshot 20 s before each
  /// predicted arrival from Mountain View on, each listing only the stops not yet reached (so
  /// the train is heading to the lowest one listed, rule 8). Getting off at "Palo Alto Caltrain
  /// Station" (a name the station and its two platforms share: the trip's call wins). The
  /// snapshots start heading to Mountain View (4 stops left: Mountain View, San Antonio,
  /// California Avenue, Palo Alto). Expected: one ring heading to California Avenue (2 stops
  /// left), one heading to Palo Alto (next stop), none after it.
  @Test(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil, "needs shared/data"))
  func caltrainAlarmFromTripUpdatesAlone() throws {
    let capture = try FeedMessage(
      decoding: [UInt8](try #require(FileManager.default.contents(atPath: SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb")!)))
    )
    let update = try #require(capture.entities.first { $0.tripUpdate?.trip?.tripID == "127" }?.tripUpdate)
    let calls = Array(update.stopTimeUpdates)
    // Palo Alto northbound is stop 70171 in the timetable.
    let target = try #require(calls.first { $0.stopID == "70171" })
    let targetSequence = try #require(target.stopSequence)
    let arrivalAt = try #require(target.arrival?.time)
    let replay = TemporaryFolder()
    var snapshots: [(time: Int64, left: Int)] = []
    for (index, call) in calls.enumerated() where (call.stopSequence ?? 0) >= targetSequence - 3 {
      let time = try #require(call.arrival?.time) - 20
      let ahead = Array(calls[index...])
      var copy = update
      copy.stopTimeUpdates = TripUpdate.StopTimeUpdates(ahead)
      copy.timestamp = UInt64(time)
      let header = FeedHeader(gtfsRealtimeVersion: "1.0", incrementality: .fullDataset, timestamp: UInt64(time))
      let message = FeedMessage(header: header, entities: [FeedEntity(id: "127", tripUpdate: copy)])
      try Data(message.encoded()).write(to: URL(fileURLWithPath: replay.path + "/\(time)-trip-updates.pb"))
      snapshots.append((time, ahead.filter { ($0.stopSequence ?? 0) <= targetSequence }.count))
      if (call.stopSequence ?? 0) > targetSequence { break }
    }
    // The snapshots step 4, 3, 2, 1 stops left, then past it.
    #expect(snapshots.map(\.left) == [4, 3, 2, 1, 0])
    let home = TemporaryFolder()
    let ingest = transit(["ingest", SharedData.path("static/caltrain-2023.zip")!, "--feed", "caltrain", "--quiet", "--data-dir", home.path])
    try #require(ingest.code == 0, "\(ingest.stderr)")
    let outcome = try runInTmux(
      ["follow", "--trip", "127", "--alight", "Palo Alto Caltrain Station", "--replay", replay.path, "--speed", "600"], home: home.path)
    // The expected arrival on Caltrain's clock (America/Los_Angeles), and the minutes left at
    // the snapshot two stops out, worked out here from the capture's own times.
    let formatter = DateFormatter()
    formatter.timeZone = TimeZone(identifier: "America/Los_Angeles")
    formatter.dateFormat = "HH:mm"
    let clock = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(arrivalAt)))
    let twoOut = snapshots[2].time
    #expect(outcome.bells == 2, "\(outcome.screen)")
    try #require(outcome.notifications.count == 2, "\(outcome.notifications)")
    #expect(outcome.notifications[0].first == "transit")
    #expect(outcome.notifications[0].last?.hasPrefix("get off at Palo Alto Caltrain Station: 2 stops, \(clock) (") ?? false)
    #expect(outcome.notifications[0].last?.contains("\((arrivalAt - twoOut) / 60) min") ?? false, "\(outcome.notifications)")
    #expect(outcome.notifications[1] == ["transit", "get off at Palo Alto Caltrain Station: next stop, \(clock)"])
  }
}
