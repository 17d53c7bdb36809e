import Foundation
import GTFSRealtime
import History
import TestSupport
import Testing

/// `transit history` end to end on the demo network: snapshot folders written with the test
/// encoder (a bus running a known number of minutes late each day), imported, then asked.
@Suite struct HistoryCommandTests {
  /// The unix time of `date` (2026-11-dd or 2026-12-dd, Dublin in winter: GMT) at hh:mm:ss.
  static func at(day: Int, _ hour: Int64, _ minute: Int64, _ second: Int64 = 0) -> Int64 {
    // 2026-12-01T00:00:00Z is 1_796_083_200; days before December count back from it.
    let midnight = 1_796_083_200 + Int64(day <= 30 && day > 4 ? day - 31 : day - 1) * 86_400
    return midnight + hour * 3600 + minute * 60 + second
  }

  /// Trip 27-WK-0-0720's stops: sequence and scheduled minutes after 07:00.
  static let calls: [(sequence: UInt32, minute: Int64)] = [
    (10, 20), (20, 22), (30, 26), (40, 29), (50, 35), (60, 38), (70, 41), (80, 45), (90, 47), (100, 49), (110, 50),
  ]

  /// The trip-updates files of one day on which 27-WK-0-0720 runs `delay` seconds late: one
  /// snapshot a minute (at :30) from 07:15:30 to 07:56:30, each listing the stops still to come.
  static func day(_ date: String, dayOfMonth: Int, delay: Int64) -> [(name: String, bytes: [UInt8])] {
    var files: [(String, [UInt8])] = []
    for minute in Int64(15)...56 {
      let time = at(day: dayOfMonth, 7, minute, 30)
      let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(time))
      let stops = calls.compactMap { call -> TripUpdate.StopTimeUpdate? in
        let predicted = at(day: dayOfMonth, 7, call.minute) + delay
        guard predicted > time else { return nil }
        return .init(stopSequence: call.sequence, arrival: .init(time: predicted), departure: .init(time: predicted))
      }
      var entities: [FeedEntity] = []
      if !stops.isEmpty {
        let trip = TripDescriptor(tripID: "27-WK-0-0720", routeID: "R27", startDate: date)
        entities.append(FeedEntity(id: "27-WK-0-0720", tripUpdate: TripUpdate(trip: trip, stopTimeUpdates: stops)))
      }
      files.append(("\(time)-trip-updates.pb", FeedMessage(header: header, entities: entities).encoded()))
    }
    return files
  }

  /// Five weekdays, Monday 30 November to Friday 4 December 2026, with the bus 0, 1, 2, 4 and
  /// 0.5 minutes late.
  static let week: [(date: String, day: Int, delay: Int64)] = [
    ("20261130", 30, 0), ("20261201", 1, 60), ("20261202", 2, 120), ("20261203", 3, 240), ("20261204", 4, 30),
  ]

  static func write(_ files: [(name: String, bytes: [UInt8])], to folder: TemporaryFolder) throws {
    for file in files { try Data(file.bytes).write(to: URL(fileURLWithPath: folder.path + "/" + file.name)) }
  }

  static let now = "2026-12-05T12:00:00Z"

  func importedWeek() throws -> (DemoHome, TemporaryFolder) {
    let home = DemoHome()
    let snapshots = TemporaryFolder()
    try Self.write(Self.week.flatMap { Self.day($0.date, dayOfMonth: $0.day, delay: $0.delay) }, to: snapshots)
    let result = home.run(["history", "import", snapshots.path, "--now", Self.now])
    #expect(result.code == 0, "\(result.stderr)")
    return (home, snapshots)
  }

  @Test func importInfersEveryCallAndIsIdempotent() throws {
    let (home, snapshots) = try importedWeek()
    let status = home.run(["history", "--status", "--json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    // 42 snapshots a day for 5 days; 11 calls a day, each inferred (no vehicle positions).
    #expect(json["snapshots"] as? Int == 210)
    #expect(json["inferred_actuals"] as? Int == 55)
    #expect(json["observed_actuals"] as? Int == 0)
    // R27's other trips the timetable has running at the checks (every 5 min from 07:15:30)
    // that were watched for 10 min more (the recording ends at 07:56:30, so checks up to
    // 07:46:30): 27-WK-0-0700 (07:00-07:30) and 27-WK-1-0710 (07:10-07:40) at 07:15:30,
    // 27-WK-1-0730 (07:30-08:00) at 07:30:30, 27-WK-0-0740 (07:40-08:10) at 07:40:30; not
    // 27-WK-1-0750 (first due at 07:50:30). Four a day.
    let ghosts = try HistoryStore(directory: home.path).tripEvents(routeIDs: nil, from: 0, to: .max)
    #expect(json["ghost_trips"] as? Int == 20)
    #expect(Set(ghosts.map(\.trip.tripID)) == ["27-WK-0-0700", "27-WK-1-0710", "27-WK-1-0730", "27-WK-0-0740"])
    let again = home.run(["history", "import", snapshots.path, "--now", Self.now])
    #expect(again.code == 0)
    #expect(again.stdout.hasPrefix("imported 0 snapshots"))
    #expect(again.stdout.contains("210 already in the history"))
    let after = home.run(["history", "--status", "--json"])
    let second = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
    #expect(second["inferred_actuals"] as? Int == 55)
    #expect(second["ghost_trips"] as? Int == 20)
  }

  @Test func stopAnswerGolden() throws {
    let (home, _) = try importedWeek()
    let result = home.run(["history", "4527", "--now", Self.now])
    #expect(result.code == 0, "\(result.stderr)")
    // Kilnamanagh (TD4527) at 07:41: delays 0, +60, +120, +240, +30 s. On time (-60 < d < 120):
    // 0, 60, 30 = 3 of 5; late (>= 120): 2. Nearest rank: median rank 3 of [0 30 60 120 240]
    // = +1:00, p90 rank 5 = +4:00. Minutes 0 0 1 2 4: bins 0:2 1:1 2:1 3:0 4:1 (the widest
    // 40 blocks). Predictions: exact (the update's time is the actual), one per bucket a day.
    let expected = """
      history of stop 4527 Kilnamanagh
      2026-11-05 to 2026-12-05: 5 calls with an actual (0 observed, 5 inferred)
      early at or below -1:00, late at or above +2:00

      on time 3 of 5 (60%), early 0, late 2
      median +1:00, 90th percentile +4:00 (of 5)

      delay (actual - scheduled), one-minute bins:
          0 min │████████████████████████████████████████ 2
         +1 min │████████████████████ 1
         +2 min │████████████████████ 1
         +3 min │ 0
         +4 min │████████████████████ 1

      by hour:
        07:00  on time 3 of 5 (60%), median +1:00, p90 +4:00

      prediction accuracy (ETA Accuracy Benchmark: accurate / predictions per bucket):
        route  stop    0-3 min  3-6 min  6-10 min  10-15 min  score
        27     TD4527      5/5      5/5       5/5        5/5   100%

      ghost trips and cancellations, by day:
        2026-11-30  4 ghost trips, 0 cancelled
        2026-12-01  4 ghost trips, 0 cancelled
        2026-12-02  4 ghost trips, 0 cancelled
        2026-12-03  4 ghost trips, 0 cancelled
        2026-12-04  4 ghost trips, 0 cancelled

      """
    #expect(result.stdout == expected)
    #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
    let ascii = home.run(["history", "4527", "--ascii", "--now", Self.now])
    #expect(ascii.stdout.contains("    0 min |######################################## 2\n"))
    #expect(ascii.stdout.contains("   +3 min | 0\n"))
  }

  @Test func fewerThanThreeObservationsClaimsNothing() throws {
    let (home, _) = try importedWeek()
    // Only the calls of Thursday and Friday (07:41) fall in the 3 days before Saturday noon.
    let result = home.run(["history", "4527", "--days", "3", "--now", Self.now])
    #expect(result.code == 0)
    #expect(result.stdout.contains("\nfewer than 3 observations (2): nothing claimed\n"))
    #expect(!result.stdout.contains("median"))
    #expect(!result.stdout.contains("one-minute bins"))
    let none = home.run(["history", "4527", "--hours", "08-09", "--now", Self.now])
    #expect(none.stdout.contains("\nfewer than 3 observations (0): nothing claimed\n"))
  }

  @Test func jsonAndCSVHoldTheRows() throws {
    let (home, _) = try importedWeek()
    let json = home.run(["history", "4527", "--json", "--now", Self.now])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let rows = try #require(object["rows"] as? [[String: Any]])
    #expect(rows.compactMap { $0["delay_seconds"] as? Int } == [0, 60, 120, 240, 30])
    #expect(rows.allSatisfy { $0["actual_kind"] as? String == "inferred" })
    let overall = try #require(object["overall"] as? [String: Any])
    #expect(overall["on_time"] as? Int == 3)
    #expect(overall["p90_seconds"] as? Int == 240)
    let csv = home.run(["history", "4527", "--csv", "--now", Self.now])
    let lines = csv.stdout.split(separator: "\n")
    #expect(lines.count == 6)
    #expect(lines[0].hasPrefix("trip_id,service_date,route_id,headsign,stop_id,stop_sequence,scheduled,actual,actual_kind"))
    // Monday's call: scheduled 07:41 on 2026-11-30 = 1_796_083_200 - 86_400 + 7*3600 + 41*60.
    let monday: Int64 = 1_796_083_200 - 86_400 + 25_200 + 2_460
    #expect(
      lines[1]
        == "27-WK-0-0720,20261130,R27,Tallaght Interchange,TD4527,70,\(monday),\(monday),inferred,\(monday - 30),\(monday + 30),0,\(monday)"
    )
  }

  @Test func routeAndWeekdayAndHourFilters() throws {
    let (home, _) = try importedWeek()
    let route = home.run(["history", "route", "27", "--json", "--now", Self.now])
    #expect(route.code == 0, "\(route.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(route.stdout.utf8)) as? [String: Any])
    #expect((object["rows"] as? [Any])?.count == 55)
    let none = home.run(["history", "route", "49", "--json", "--now", Self.now])
    let empty = try #require(try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any])
    #expect((empty["rows"] as? [Any])?.count == 0)
    let bad = home.run(["history", "4527", "--hours", "9-7"])
    #expect(bad.code == 2)
    #expect(bad.stderr.contains("option '--hours' takes two hours HH-HH"))
    let unknown = home.run(["history", "nowhere-stop-xyz"])
    #expect(unknown.code == 3)
  }

  @Test func noHistoryIsAClearError() {
    let home = DemoHome()
    let result = home.run(["history", "4527"])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: no history yet; fill it with 'transit history import DIR' or 'transit record DIR --history'\n")
    let status = home.run(["history", "--status"])
    #expect(status.code == 0)
    #expect(status.stdout.hasPrefix("no history yet"))
  }

  /// A snapshot that cannot be decoded stops the import there: a one-line error naming it,
  /// exit 1, the snapshots before it in the history with their open calls; once it is moved
  /// away, importing again takes in the rest, and the history is the one a clean folder gives.
  @Test func aDamagedSnapshotStopsTheImportAndLosesNothing() throws {
    var files = Self.day("20261201", dayOfMonth: 1, delay: 60)
    #expect(files.count == 42)
    // The 30th: its header intact, an entity after it whose trip update runs past its end.
    let damaged = files[29].name
    files[29].bytes += [0x12, 0x05, 0x0A, 0x01, 0x78, 0x1A, 0x02]
    let snapshots = TemporaryFolder()
    try Self.write(files, to: snapshots)
    let home = DemoHome()
    let result = home.run(["history", "import", snapshots.path, "--now", Self.now])
    #expect(result.code == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("transit: \(snapshots.path)/\(damaged): "))
    #expect(
      result.stderr.hasSuffix(
        "; the 29 snapshots before it are in the history (import again once the file is mended or moved away)\n"))
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    let status = home.run(["history", "--status", "--json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    #expect(json["snapshots"] as? Int == 29)

    try FileManager.default.removeItem(atPath: snapshots.path + "/" + damaged)
    let again = home.run(["history", "import", snapshots.path, "--now", Self.now])
    #expect(again.code == 0, "\(again.stderr)")
    #expect(again.stdout.hasPrefix("imported 12 snapshots"))
    #expect(again.stdout.contains("29 already in the history"))

    // The same 41 snapshots imported at once.
    let clean = TemporaryFolder()
    try Self.write(files.filter { $0.name != damaged }, to: clean)
    let straight = DemoHome()
    #expect(straight.run(["history", "import", clean.path, "--now", Self.now]).code == 0)
    struct Actual: Equatable {
      var key: HistoryCallKey
      var actual: Int64?
      var kind: ActualKind?
    }
    func actuals(_ home: DemoHome) throws -> [Actual] {
      try HistoryStore(directory: home.path).allEvents().map { Actual(key: $0.key, actual: $0.actual, kind: $0.kind) }
        .sorted { $0.key < $1.key }
    }
    let resumed = try actuals(home)
    // The 11 calls of 27-WK-0-0720, each inferred, a minute late (the update's own times):
    // the call at 07:20 at 07:21, and so on.
    #expect(resumed.count == 11)
    #expect(resumed.allSatisfy { $0.kind == .inferred })
    #expect(resumed.map(\.actual) == Self.calls.map { Self.at(day: 1, 7, $0.minute) + 60 })
    #expect(resumed == (try actuals(straight)))
  }
}
