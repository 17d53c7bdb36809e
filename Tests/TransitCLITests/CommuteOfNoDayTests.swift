import Foundation
import Testing
import UserData

@testable import TransitCLI

/// A commute saved with no weekday (a mask of 0, as a hand-edited or older user.sqlite can
/// hold) runs on no day: `commute` says so and goes on, where it looked for its next day
/// forever.
@Suite struct CommuteOfNoDayTests {
  @Test func aCommuteOfNoWeekdaySaysSoAndTheOthersStillShow() throws {
    let home = DemoHome()
    #expect(home.run(["commute", "add", "work", "--stop", "4530", "--arrive-by", "07:55"]).code == 0)
    let store = try UserStore(directory: home.path)
    try store.saveCommute(
      UserStore.Commute(name: "never", feed: "demo", stopID: "TD4530", arriveByMinutes: 8 * 60, days: 0), now: 1)
    let result = home.run(["commute", "--now", "2026-12-01T07:40:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "commute 'never' runs on no day of the week; save it again with --days (see 'transit commute add --help')\n"),
      "\(result.stdout)")
    #expect(result.stdout.contains("commute 'work': "), "\(result.stdout)")
    let json = home.run(["commute", "never", "--json", "--now", "2026-12-01T07:40:00Z"])
    let documents = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(documents.first?["runs_on_no_day"] as? Bool == true)
  }
}
