import GTFS
import Services
import Testing
import TransitModel

/// Where `--at`/`--depart` and `--date` put a query's start (one rule for departures and plan).
@Suite struct RequestedTimeTests {
  // UTC if the machine's tz database lacks it: then the Dublin-time tests fail, one by one.
  let dublin = (try? LocalZone(named: "Europe/Dublin")) ?? LocalZone.utc
  // 2026-12-01T09:15:20Z (Dublin is on GMT in December): 20,788 days after 1970-01-01.
  let now = UnixTime(20_788 * 86_400 + 9 * 3600 + 15 * 60 + 20)

  @Test func nothingGivenIsNow() {
    #expect(RequestedTime.start(nil, on: nil, now: now, zone: dublin) == now)
  }

  @Test func aClockTimeIsTodayOnTheAgencysClock() {
    #expect(
      RequestedTime.start(.clock(minutes: 7 * 60 + 30), on: nil, now: now, zone: dublin)
        == UnixTime(20_788 * 86_400 + 7 * 3600 + 1800))
  }

  @Test func aDateAloneKeepsTheTimeOfDay() {
    // 2026-07-01 is day 20,635; Dublin is on IST (+1), so 09:15:20 local is 08:15:20 UTC.
    let july = ServiceDate(year: 2026, month: 7, day: 1)!
    #expect(july.daysSinceEpoch == 20_635)
    #expect(RequestedTime.start(nil, on: july, now: now, zone: dublin) == UnixTime(20_635 * 86_400 + 8 * 3600 + 15 * 60 + 20))
  }

  @Test func aClockTimeOnADate() {
    let july = ServiceDate(year: 2026, month: 7, day: 1)!
    #expect(
      RequestedTime.start(.clock(minutes: 23 * 60 + 59), on: july, now: now, zone: dublin)
        == UnixTime(20_635 * 86_400 + 22 * 3600 + 59 * 60))
  }

  @Test func aFullInstantStandsAlone() {
    #expect(RequestedTime.start(.instant(UnixTime(1_000)), on: nil, now: now, zone: dublin) == UnixTime(1_000))
  }
}
