import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// `transit follow --alight STOP` in-process on the demo (issue 35): the stops left and the
/// expected arrival in one frame, as text and JSON, and the errors.
@Suite struct FollowAlarmTests {
  let home = DemoHome()
  var realtime: [String] {
    [
      "--realtime", packageRoot + "/Data/realtime/demo-vehiclepositions.pb", "--realtime",
      packageRoot + "/Data/realtime/demo-tripupdates.pb",
    ]
  }

  func run(_ arguments: [String]) -> CLIResult { home.run(arguments) }

  /// Data/replay's first snapshot (07:36): V27-1 in transit to stop_sequence 60 of
  /// 27-WK-0-0720, 60 s late, 80 skipped. To Tallaght (The Square) (sequence 100, 07:49 in
  /// stop_times.txt): 60, 70, 90, 100 are left, 4 stops, expected 07:49 + 60 s = 07:50, 14 min.
  @Test func onceGivesTheStopsLeftAndTheExpectedArrival() throws {
    let text = run([
      "follow", "V27-1", "--alight", "Tallaght (The Square)", "--once", "--now", "2026-12-01T07:36:00Z",
      "--realtime", packageRoot + "/Data/replay/1796110560-trip-updates.pb", "--realtime",
      packageRoot + "/Data/replay/1796110560-vehicle-positions.pb",
    ])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stdout.contains("get off at Tallaght (The Square): 4 stops, 07:50 (14 min)\n"), "\(text.stdout)")
    #expect(text.stdout.contains("Tallaght (The Square)  ◀ get off"), "\(text.stdout)")
    // Once, nothing rings: the threshold (2 stops) is not reached.
    #expect(!text.stdout.contains("\u{07}"))
  }

  @Test func jsonCarriesTheAlightObject() throws {
    let result = run([
      "follow", "V27-1", "--alight", "TD4530", "--once", "--json", "--now", "2026-12-01T07:40:00Z",
      "--realtime", packageRoot + "/Data/replay/1796110800-trip-updates.pb", "--realtime",
      packageRoot + "/Data/replay/1796110800-vehicle-positions.pb",
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("{") })
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let alight = try #require(object["alight"] as? [String: Any])
    // 07:40: stopped at 70, 60 s late; 90 and 100 left (80 skipped): 2 stops, 07:50, 600 s.
    #expect(alight["stop_id"] as? String == "TD4530")
    #expect(alight["stop_sequence"] as? Int == 100)
    #expect(alight["state"] as? String == "ahead")
    #expect(alight["stops_left"] as? Int == 2)
    #expect(alight["scheduled_arrival"] as? String == "2026-12-01T07:49:00+00:00")
    #expect(alight["expected_arrival"] as? String == "2026-12-01T07:50:00+00:00")
    #expect(alight["seconds_left"] as? Int == 600)
    #expect(alight["from_timetable"] as? Bool == false)
    // The first frame is already within 2 stops: the alarm rings in it.
    #expect(alight["alarm"] as? String == "before")
  }

  @Test func aStopTheTripDoesNotCallAtLaterIsNotFound() throws {
    // Kilnamanagh (sequence 70) is behind the bus at 07:44 (heading to 90).
    let behind = run([
      "follow", "V27-1", "--alight", "TD4527", "--once", "--now", "2026-12-01T07:44:00Z",
      "--realtime", packageRoot + "/Data/replay/1796111040-trip-updates.pb", "--realtime",
      packageRoot + "/Data/replay/1796111040-vehicle-positions.pb",
    ])
    #expect(behind.code == 3)
    #expect(behind.stderr.contains("--alight 'TD4527'"), "\(behind.stderr)")
    #expect(behind.stderr.contains("does not call at"), "\(behind.stderr)")
    let unknown = run(["follow", "V27-3", "--alight", "Nowhere At All", "--once", "--now", "2026-12-01T07:40:00Z"] + realtime)
    #expect(unknown.code == 3)
    #expect(unknown.stderr.contains("no stop with id, code or name 'Nowhere At All'"), "\(unknown.stderr)")
  }

  @Test(arguments: ["0", "two", "3 hours", "51", "121min"])
  func aBadBeforeIsAUsageError(_ value: String) throws {
    let result = run(["follow", "V27-3", "--alight", "TINT", "--before", value, "--once", "--now", "2026-12-01T07:40:00Z"] + realtime)
    #expect(result.code == 2)
    #expect(result.stderr.contains("--before '\(value)'"), "\(result.stderr)")
  }

  @Test func beforeWithoutAlightIsAUsageError() throws {
    let result = run(["follow", "V27-3", "--before", "2", "--once", "--now", "2026-12-01T07:40:00Z"] + realtime)
    #expect(result.code == 2)
    #expect(result.stderr.contains("--before goes with --alight STOP"), "\(result.stderr)")
  }
}
