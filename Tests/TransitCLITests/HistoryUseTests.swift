import Foundation
import GTFSRealtime
import History
import TestSupport
import Testing

/// What the history changes elsewhere: the commute's record line and the learned leave-now
/// margin, on a history where route 27 runs 4 min late at Kilnamanagh (TD4527) at 07:00-08:00.
@Suite struct HistoryUseTests {
  /// The twelve weekdays from Monday 16 November to Tuesday 1 December 2026.
  static let days: [(date: String, midnight: Int64)] = {
    let december1: Int64 = 1_796_083_200
    let november = [16, 17, 18, 19, 20, 23, 24, 25, 26, 27, 30].map { day in
      ("202611\(day)", december1 - Int64(31 - day) * 86_400)
    }
    return november + [("20261201", december1)]
  }()

  /// One day's snapshots of 27-WK-0-0720 running `delay` late (as HistoryCommandTests.day).
  static func files(date: String, midnight: Int64, delay: Int64) -> [(name: String, bytes: [UInt8])] {
    var files: [(String, [UInt8])] = []
    for minute in Int64(15)...56 {
      let time = midnight + 7 * 3600 + minute * 60 + 30
      let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: UInt64(time))
      let stops = HistoryCommandTests.calls.compactMap { call -> TripUpdate.StopTimeUpdate? in
        let predicted = midnight + 7 * 3600 + call.minute * 60 + delay
        guard predicted > time else { return nil }
        return .init(stopSequence: call.sequence, arrival: .init(time: predicted), departure: .init(time: predicted))
      }
      let trip = TripDescriptor(tripID: "27-WK-0-0720", routeID: "R27", startDate: date)
      let entities = stops.isEmpty ? [] : [FeedEntity(id: "t", tripUpdate: TripUpdate(trip: trip, stopTimeUpdates: stops))]
      files.append(("\(time)-trip-updates.pb", FeedMessage(header: header, entities: entities).encoded()))
    }
    return files
  }

  func lateHome(days: Int = 12) throws -> DemoHome {
    let home = DemoHome()
    let folder = TemporaryFolder()
    for day in Self.days.prefix(days) {
      for file in Self.files(date: day.date, midnight: day.midnight, delay: 240) {
        try Data(file.bytes).write(to: URL(fileURLWithPath: folder.path + "/" + file.name))
      }
    }
    let result = home.run(["history", "import", folder.path, "--now", "2026-12-02T06:00:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    return home
  }

  @Test func learnedMarginChangesTheAdvice() throws {
    let home = try lateHome()
    // From Kilnamanagh itself (no walk), at 07:30 on Wednesday 2 December: the 27 at 07:41 is
    // 660 s ahead. The fixed rule: 10 % of 660 = 66 s, leave by 07:39:54, in 594 s: 9 min.
    // Learned: the 90th percentile lateness of 12 calls, all +240 s: leave by 07:37:00, in
    // 420 s: 7 min.
    let ask = ["departures", "4527", "--route", "27", "--from", "53.300000,-6.354000", "--now", "2026-12-02T07:30:00Z"]
    let fixed = home.run(ask)
    #expect(fixed.code == 0, "\(fixed.stderr)")
    #expect(fixed.stdout.contains("07:41 · 11 min  1 min walk, leave in 9 min"), "\(fixed.stdout)")
    #expect(!fixed.stdout.contains("leave-margin"))
    #expect(home.run(["config", "set", "leave-margin", "learned"]).code == 0)
    let learned = home.run(ask)
    #expect(learned.stdout.contains("07:41 · 11 min  1 min walk, leave in 7 min"), "\(learned.stdout)")
    #expect(learned.stdout.contains("leave-margin learned for 27 at TD4527 07:00: +4:00 (90th percentile lateness of 12 calls)\n"))
    // The 08:01 has no history at 08:00: the fixed rule, said so.
    #expect(
      learned.stdout.contains(
        "leave-margin: the fixed rule (10 % of the time ahead, at most 5 min); fewer than 10 calls of 27 at TD4527 08:00 recorded"))
  }

  /// `departures --watch` draws the plain board's advice: the same learned margin for the
  /// 07:41 (7 min, not the fixed rule's 9), and says which rule made it.
  @Test func learnedMarginChangesTheLiveBoard() throws {
    let home = try lateHome()
    let ask = [
      "departures", "4527", "--route", "27", "--from", "53.300000,-6.354000", "--now", "2026-12-02T07:30:00Z", "--watch", "--count",
      "1",
    ]
    let fixed = home.run(ask, environment: ["COLUMNS": "200"])
    #expect(fixed.code == 0, "\(fixed.stderr)")
    let fixedRow = try #require(fixed.stdout.split(separator: "\n").first { $0.contains("07:41") }, "\(fixed.stdout)")
    #expect(fixedRow.hasSuffix("leave in 9 min"), "\(fixed.stdout)")
    #expect(!fixed.stdout.contains("leave-margin"))
    #expect(home.run(["config", "set", "leave-margin", "learned"]).code == 0)
    let learned = home.run(ask, environment: ["COLUMNS": "200"])
    let learnedRow = try #require(learned.stdout.split(separator: "\n").first { $0.contains("07:41") }, "\(learned.stdout)")
    #expect(learnedRow.hasSuffix("leave in 7 min"), "\(learned.stdout)")
    #expect(learned.stdout.contains("leave-margin learned for 27 at TD4527 07:00: +4:00 (90th percentile lateness of 12 calls)\n"))
  }

  /// `departures --line` names the first departure still to be caught, the 27 at 07:39 (540 s
  /// ahead, no walk to speak of), and takes the same margin. The fixed rule: 10 % of 540 = 54 s,
  /// leave by 07:38:06, in 486 s: 8 min. Learned (+240 s in the 07:00 hour, as for the 07:41):
  /// leave by 07:35:00, in 300 s: 5 min.
  @Test func learnedMarginChangesTheStatusLine() throws {
    let home = try lateHome()
    let ask = ["departures", "4527", "--route", "27", "--from", "53.300000,-6.354000", "--now", "2026-12-02T07:30:00Z", "--line"]
    let fixed = home.run(ask)
    #expect(fixed.code == 0, "\(fixed.stderr)")
    #expect(fixed.stdout == "27 07:39 sched · leave in 8 min\n", "\(fixed.stdout)")
    #expect(home.run(["config", "set", "leave-margin", "learned"]).code == 0)
    let learned = home.run(ask)
    #expect(learned.stdout == "27 07:39 sched · leave in 5 min\n", "\(learned.stdout)")
    // The plain board advises the same for that departure.
    let board = home.run(Array(ask.dropLast()))
    #expect(board.stdout.contains("07:39 · 9 min  1 min walk, leave in 5 min"), "\(board.stdout)")
  }

  @Test func learnedMarginNeedsTenCalls() throws {
    let home = try lateHome(days: 9)
    #expect(home.run(["config", "set", "leave-margin", "learned"]).code == 0)
    let result = home.run([
      "departures", "4527", "--route", "27", "--from", "53.300000,-6.354000", "--now", "2026-12-02T07:30:00Z",
    ])
    #expect(result.stdout.contains("07:41 · 11 min  1 min walk, leave in 9 min"), "\(result.stdout)")
    #expect(result.stdout.contains("fewer than 10 calls of 27 at TD4527 07:00 recorded"))
  }

  @Test func commuteSaysHowItsDepartureRan() throws {
    let home = try lateHome()
    #expect(home.run(["commute", "add", "work", "--stop", "4527", "--route", "27", "--arrive-by", "07:45"]).code == 0)
    // The recommended departure is the 07:41 (the latest leaving by 07:45); 12 days at +4 min:
    // late each day (>= +2 min), median +240 s = 4 min.
    let result = home.run(["commute", "work", "--now", "2026-12-02T07:00:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("your 07:41: on time 0 of 12 days, usually 4 min late\n"), "\(result.stdout)")
    let card = home.run(["--now", "2026-12-02T07:00:00Z"])
    #expect(card.stdout.contains(" · your 07:41: on time 0 of 12 days, usually 4 min late"), "\(card.stdout)")
  }

  @Test func commuteWithTwoDaysSaysSo() throws {
    let home = try lateHome(days: 2)
    #expect(home.run(["commute", "add", "work", "--stop", "4527", "--route", "27", "--arrive-by", "07:45"]).code == 0)
    let result = home.run(["commute", "work", "--now", "2026-12-02T07:00:00Z"])
    #expect(result.stdout.hasSuffix("your 07:41: fewer than 3 days recorded (2)\n"), "\(result.stdout)")
  }
}

/// `record --history` takes each new trip-updates snapshot into the history as it records.
@Suite struct RecordHistoryTests {
  @Test func recordingFillsTheHistory() throws {
    let home = DemoHome()
    let realtime = packageRoot + "/Data/realtime"
    let add = home.run([
      "feeds", "add", "demo", "--trip-updates", "file://" + realtime + "/demo-tripupdates.pb", "--vehicle-positions",
      "file://" + realtime + "/demo-vehiclepositions.pb",
    ])
    #expect(add.code == 0, "\(add.stderr)")
    let folder = TemporaryFolder()
    let result = home.run(["record", folder.path, "--history", "--duration", "1s", "--now", "2026-12-01T07:40:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    // One snapshot of each kind; the trip updates (with the vehicles) taken into the history.
    #expect(result.stdout.contains("\nhistory: 1 snapshots taken in"), "\(result.stdout)")
    let status = home.run(["history", "--status", "--json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    #expect(json["snapshots"] as? Int == 1)
    #expect((json["stop_events"] as? Int ?? 0) > 0)
    // The same snapshot imported from the folder afterwards is already there.
    let again = home.run(["history", "import", folder.path, "--now", "2026-12-01T07:40:00Z"])
    #expect(again.stdout.contains("1 already in the history"), "\(again.stdout)")
  }
}
