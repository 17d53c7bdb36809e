import Foundation
import GTFS
import Testing
import TransitModel

/// Wall-clock times around the days clocks change, in a zone east of Greenwich (Dublin) and one
/// west of it (Los Angeles). Expected instants are worked out by hand from the published change
/// times: Dublin goes to IST (+1) at 01:00 UTC on 2026-03-29 and back at 01:00 UTC on
/// 2026-10-25; Los Angeles to PDT (−7) at 10:00 UTC on 2026-03-08 and back to PST (−8) at
/// 09:00 UTC on 2026-11-01.
@Suite struct LocalClockTests {
  let dublin = TimeZone(identifier: "Europe/Dublin")!
  let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

  func utc(_ text: String) -> UnixTime {
    // yyyy-mm-ddThh:mm, read as UTC by hand: days since 1970 from ServiceDate, plus the time.
    let date = ServiceDate(gtfs: text.prefix(10).replacingOccurrences(of: "-", with: ""))!
    let hour = Int(text.dropFirst(11).prefix(2))!, minute = Int(text.dropFirst(14).prefix(2))!
    return UnixTime(Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60))
  }

  func day(_ text: String) -> ServiceDate { ServiceDate(gtfs: text.replacingOccurrences(of: "-", with: ""))! }

  @Test func anOrdinaryDayReadsWithTheDaysOffset() {
    #expect(LocalClock.instant(day("2026-12-01"), secondsAfterMidnight: 7 * 3600 + 30 * 60, in: dublin) == utc("2026-12-01T07:30"))
    #expect(LocalClock.instant(day("2026-07-01"), secondsAfterMidnight: 7 * 3600 + 30 * 60, in: dublin) == utc("2026-07-01T06:30"))
    #expect(LocalClock.instant(day("2026-07-01"), secondsAfterMidnight: 7 * 3600 + 30 * 60, in: losAngeles) == utc("2026-07-01T14:30"))
  }

  @Test func aTimeThatOccursTwiceIsTheEarlierInstantOnBothSidesOfGreenwich() {
    // 01:30 in Dublin on 2026-10-25 is 00:30 UTC (IST) and again 01:30 UTC (GMT).
    #expect(LocalClock.instant(day("2026-10-25"), secondsAfterMidnight: 5400, in: dublin) == utc("2026-10-25T00:30"))
    // 01:30 in Los Angeles on 2026-11-01 is 08:30 UTC (PDT) and again 09:30 UTC (PST).
    #expect(LocalClock.instant(day("2026-11-01"), secondsAfterMidnight: 5400, in: losAngeles) == utc("2026-11-01T08:30"))
  }

  @Test func aTimeInTheSkippedHourComesOutAnHourLater() {
    // 01:30 does not exist in Dublin on 2026-03-29: read as GMT it is 01:30 UTC, 02:30 IST.
    #expect(LocalClock.instant(day("2026-03-29"), secondsAfterMidnight: 5400, in: dublin) == utc("2026-03-29T01:30"))
    // 02:30 does not exist in Los Angeles on 2026-03-08: read as PST it is 10:30 UTC, 03:30 PDT.
    #expect(LocalClock.instant(day("2026-03-08"), secondsAfterMidnight: 9000, in: losAngeles) == utc("2026-03-08T10:30"))
  }

  @Test func dateAndTimeOfDayReadBack() {
    // 23:30 UTC on 2026-07-01 is 00:30 IST on 2 July; 16:30 PDT on 1 July.
    #expect(LocalClock.date(of: utc("2026-07-01T23:30"), in: dublin) == day("2026-07-02"))
    #expect(LocalClock.secondsAfterMidnight(of: utc("2026-07-01T23:30"), in: dublin) == 1800)
    #expect(LocalClock.date(of: utc("2026-07-01T23:30"), in: losAngeles) == day("2026-07-01"))
    #expect(LocalClock.secondsAfterMidnight(of: utc("2026-07-01T23:30"), in: losAngeles) == 16 * 3600 + 1800)
  }
}
