import Foundation
import TestSupport
import Testing

/// A command that reads the configured realtime without offering `--refresh` (`stops search`,
/// `stops show`) never refreshes and never asks for the option: the debug build asserted "--refresh
/// is read but not declared" and trapped (exit 132) as soon as a feed was configured.
@Suite struct RefreshDeclaredTests {
  @Test(arguments: [["stops", "search", "Tallaght"], ["stops", "show", "TINT"]])
  func aCommandWithoutRefreshReadsTheConfiguredRealtime(command: [String]) throws {
    let home = DemoHome()
    // A URL nothing answers at: the fetch fails at once and the command answers from the timetable.
    let add = home.run(["feeds", "add", "demo", "--trip-updates", "http://127.0.0.1:1/tu.pb"])
    try #require(add.code == 0, "\(add.stderr)")
    let result = home.run(command + ["--now", "2026-12-01T07:40:00Z"], environment: ["TRANSIT_FETCH_RETRIES": "0"])
    #expect(result.code == 0, "\(command): exit \(result.code): \(result.stderr.suffix(300))")
  }
}
