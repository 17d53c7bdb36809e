import Testing
import TransitModel

/// `UnixTime.wallClockText`, which both ISO 8601 writers (the command line's, with the zone's
/// offset, and the fetcher's, in UTC) call. Expected texts from Python's
/// `datetime.utcfromtimestamp`.
@Suite struct WallClockTextTests {
  @Test func datesAndTimesAcrossEpochAndLeapDays() {
    let cases: [(Int64, String)] = [
      (0, "1970-01-01T00:00:00"),
      (-1, "1969-12-31T23:59:59"),
      (-86_401, "1969-12-30T23:59:59"),
      (951_782_400, "2000-02-29T00:00:00"),
      (1_699_405_534, "2023-11-08T01:05:34"),
    ]
    for (seconds, text) in cases { #expect(UnixTime.wallClockText(localSeconds: seconds) == text, "\(seconds)") }
  }
}
