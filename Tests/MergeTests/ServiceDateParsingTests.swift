import Testing
import TransitModel

/// `ServiceDate(gtfs:)` takes exactly eight ASCII digits that name a real day (GTFS "Date").
@Suite struct ServiceDateParsingTests {
  @Test(arguments: [
    ("20261201", 2026, 12, 1), ("20240229", 2024, 2, 29), ("00010101", 1, 1, 1), ("99991231", 9999, 12, 31),
  ])
  func eightDigitsOfARealDay(_ text: String, year: Int, month: Int, day: Int) throws {
    let date = try #require(ServiceDate(gtfs: text))
    #expect((date.year, date.month, date.day) == (year, month, day))
    // A substring (a field of a larger line) reads the same.
    let line = "x,\(text),y"
    #expect(ServiceDate(gtfs: line.split(separator: ",")[1]) == date)
  }

  @Test(arguments: [
    "", "2026120", "202612011", "2026-12-01", "2026120a", " 20261201", "20261201 ", "20230229", "20261301", "20261200",
    "00000101", "２０２６１２０１", "-2026120",
  ])
  func anythingElseIsNone(_ text: String) {
    #expect(ServiceDate(gtfs: text) == nil)
  }
}
