import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// Issue 38, finding 1: no number a feed or the command line sends traps the program. Each
/// case runs the built executable (a trap is exit 132 or 133, and would take an in-process
/// test run down with it) on the demo network with a demo capture altered by the test encoder.
@Suite(.enabled(if: transitExecutable != nil, "needs the built transit executable"))
struct HostileNumbersTests {
  static let now = "2026-12-01T07:40:00Z"

  /// The demo capture `name`, decoded, changed by `change`, encoded into a file of its own.
  static func altered(_ name: String, _ change: (inout FeedMessage) -> Void) throws -> (path: String, folder: TemporaryFolder) {
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: ConventionsTests.realtime + "/" + name)))
    var feed = try FeedMessage(decoding: bytes)
    change(&feed)
    let folder = TemporaryFolder()
    let path = folder.path + "/" + name
    #expect(FileManager.default.createFile(atPath: path, contents: Data(feed.encoded())))
    return (path, folder)
  }

  /// The demo trip updates with every stop time update's arrival and departure time set to `time`.
  static func tripUpdates(time: Int64) throws -> (path: String, folder: TemporaryFolder) {
    try altered("demo-tripupdates.pb") { feed in
      for index in feed.entities.indices {
        guard var update = feed.entities[index].tripUpdate else { continue }
        for stop in update.stopTimeUpdates.indices {
          update.stopTimeUpdates[stop].arrival = .init(time: time)
          update.stopTimeUpdates[stop].departure = .init(time: time)
        }
        feed.entities[index].tripUpdate = update
      }
    }
  }

  /// Exit code and output of the executable in `home`.
  static func run(_ arguments: [String], home: DemoHome) throws -> CLIResult {
    try runExecutable(arguments + ["--data-dir", home.path])
  }

  @Test(arguments: [Int64.min, Int64.min + 1, -9_000_000_000_000_000_000, Int64.max, 9_000_000_000_000_000_000])
  func stopTimesFarOutOfRangeAreIgnored(time: Int64) throws {
    let home = DemoHome()
    let feed = try Self.tripUpdates(time: time)
    for json in [false, true] {
      let result = try Self.run(
        ["departures", "TINT", "--realtime", feed.path, "--now", Self.now] + (json ? ["--json"] : []), home: home)
      #expect(result.code == 0, "time \(time), json \(json): exit \(result.code): \(result.stderr)")
      #expect(!result.stdout.isEmpty)
      // Each stop time update's arrival and departure time: counted and said.
      #expect(result.stderr.contains(" values out of range (a time past the years 1900-9999"), "\(result.stderr)")
    }
    for arguments in [["vehicles"], ["trip", "show", "V27-3"], ["follow", "V27-3", "--once"]] {
      let result = try Self.run(
        arguments + ["--realtime", feed.path, "--realtime", ConventionsTests.vehiclePositions, "--now", Self.now], home: home)
      #expect(result.code == 0, "\(arguments): exit \(result.code): \(result.stderr)")
    }
  }

  @Test(arguments: [Float.nan, .infinity, -.infinity, 3.4e38, -5])
  func vehicleSpeedsThatAreNoSpeedAreNotShown(speed: Float) throws {
    let home = DemoHome()
    let feed = try Self.altered("demo-vehiclepositions.pb") { feed in
      for index in feed.entities.indices {
        guard var vehicle = feed.entities[index].vehicle, var position = vehicle.position else { continue }
        position.speed = speed
        position.bearing = speed
        vehicle.position = position
        feed.entities[index].vehicle = vehicle
      }
    }
    for arguments in [["vehicles"], ["vehicles", "--json"], ["follow", "V27-3", "--once"], ["trip", "show", "V27-3"]] {
      let result = try Self.run(arguments + ["--realtime", feed.path, "--now", Self.now], home: home)
      #expect(result.code == 0, "speed \(speed), \(arguments): exit \(result.code): \(result.stderr)")
      #expect(!result.stdout.contains("km/h"), "speed \(speed) shown: \(result.stdout)")
    }
  }

  @Test func positionsOffTheGlobeAndTimestampsPastYear9999AreIgnored() throws {
    let home = DemoHome()
    let feed = try Self.altered("demo-vehiclepositions.pb") { feed in
      feed.header?.timestamp = .max
      for index in feed.entities.indices {
        guard var vehicle = feed.entities[index].vehicle, var position = vehicle.position else { continue }
        position.latitude = .nan
        position.longitude = 1e30
        position.odometer = -.infinity
        vehicle.position = position
        vehicle.timestamp = .max
        feed.entities[index].vehicle = vehicle
      }
    }
    for arguments in [["vehicles"], ["vehicles", "--json"], ["vehicles", "--near", "53.2875,-6.3664"], ["follow", "V27-3", "--once"]] {
      let result = try Self.run(arguments + ["--realtime", feed.path, "--now", Self.now], home: home)
      #expect(result.code == 0 || result.code == 3, "\(arguments): exit \(result.code): \(result.stderr)")
      #expect(result.code < 64, "\(arguments) trapped")
    }
  }

  @Test(
    arguments: [(UInt64.max, UInt64.max), (1 << 63 + 5, 0), (0, 1 << 63), (UInt64(Int64.max), UInt64(Int64.max))] as [(UInt64, UInt64)])
  func alertPeriodsPastYear9999AreOpenEnded(start: UInt64, end: UInt64) throws {
    let home = DemoHome()
    let feed = try Self.altered("demo-alerts.pb") { feed in
      for index in feed.entities.indices {
        guard var alert = feed.entities[index].alert else { continue }
        alert.activePeriods = [TimeRange(start: start, end: end)]
        feed.entities[index].alert = alert
      }
    }
    for arguments in [["alerts", "--all"], ["alerts", "--all", "--json"], ["alerts"], ["status", "27", "77X"], ["departures", "TINT"]] {
      let result = try Self.run(arguments + ["--realtime", feed.path, "--now", Self.now], home: home)
      #expect(result.code == 0, "\(arguments) with a period \(start)...\(end): exit \(result.code): \(result.stderr)")
    }
  }

  @Test(arguments: ["@9223372036854775807", "@-9223372036854775808", "@253402300800", "@-2208988801"])
  func nowOutsideTheSupportedYearsIsAUsageError(now: String) throws {
    let home = DemoHome()
    let commands: [[String]] = [
      ["departures", "TINT"], ["stops", "show", "TINT"], ["plan", "Red Cow", "Fettercairn"], ["ingest", "--list"],
      ["trip", "show", "27-WK-1-0750"],
    ]
    for command in commands {
      let result = try Self.run(command + ["--now", now], home: home)
      #expect(result.code == 2, "\(command) --now \(now): exit \(result.code): \(result.stderr)")
      #expect(result.stderr.contains("--now '\(now)' is outside the years 1900 to 9999"), "\(result.stderr)")
    }
  }

  @Test(arguments: ["@253402300799", "@-2208988800", "9999-12-31T23:00:00Z", "1900-01-01T00:00:00Z"])
  func nowAtTheEdgesOfTheSupportedYearsAnswers(now: String) throws {
    let home = DemoHome()
    for command in [["departures", "TINT"], ["stops", "show", "TINT"], ["ingest", "--list"], ["trip", "show", "27-WK-1-0750"]] {
      let result = try Self.run(command + ["--now", now], home: home)
      #expect(result.code < 64, "\(command) --now \(now) trapped: exit \(result.code): \(result.stderr)")
    }
  }
}
