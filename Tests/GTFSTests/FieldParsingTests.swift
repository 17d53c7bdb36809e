import Testing
import TransitModel

@testable import GTFS

@Suite struct FieldParsingTests {
  static let times: [(String, Int32?)] = [
    ("00:00:00", 0), ("5:00:00", 18_000), ("08:30:15", 30_615), ("25:49:00", 92_940),
    ("29:39:00", 106_740), (" 07:05:00 ", nil), ("25:61:00", nil), ("12:00:60", nil), ("12:00", nil),
    ("", nil), ("ab:cd:ef", nil), ("-1:00:00", nil), ("1000:00:00", nil),
  ]

  @Test(arguments: times)
  func parsesTimes(text: String, expected: Int32?) {
    let value = Array(text.utf8).withUnsafeBytes { FieldParsing.time($0) }
    #expect(value == expected)
  }

  @Test func serviceTimeTrimsAndPrints() {
    #expect(ServiceTime(gtfs: " 07:05:00 ")?.seconds == 25_500)
    #expect(ServiceTime(seconds: 93_000).description == "25:50:00")
  }

  static let integers: [(String, Int?)] = [("0", 0), ("42", 42), ("-3", -3), ("3.0", 3), ("3.5", nil), ("", nil), ("x", nil)]

  static let doubles: [String] = [
    "53.2875", "-6.3664", "0", "-0.5", "37.5070864356", "-122.2602873955", "12027.5", "0.000001", "1e5", "123456789012345678", ".5", "5.",
  ]

  @Test(arguments: doubles)
  func parsesDoublesExactlyAsStrtod(text: String) {
    #expect(Array(text.utf8).withUnsafeBytes { FieldParsing.double($0) } == Double(text))
  }

  @Test func rejectsNonNumbers() {
    for text in ["", "-", ".", "abc", "1.2.3"] { #expect(Array(text.utf8).withUnsafeBytes { FieldParsing.double($0) } == nil, "\(text)") }
  }

  @Test(arguments: integers)
  func parsesIntegers(text: String, expected: Int?) {
    #expect(Array(text.utf8).withUnsafeBytes { FieldParsing.integer($0) } == expected)
  }

  @Test func serviceDates() throws {
    let date = try #require(ServiceDate(gtfs: "20240229"))
    #expect(date.yyyymmdd == 20_240_229)
    #expect(date.weekday == 4)  // a Thursday
    #expect(date.adding(days: 1).description == "20240301")
    #expect(ServiceDate(gtfs: "20230229") == nil)
    #expect(ServiceDate(gtfs: "2024-02-01") == nil)
    #expect(ServiceDate(daysSinceEpoch: 0).description == "19700101")
  }

  @Test func interpolatesUntimedStopsEvenlyOrByDistance() {
    func row(_ seq: Int64, _ time: Int32?, _ distance: Double? = nil) -> FeedImporter.PendingStopTime {
      .init(
        sequence: seq, stop: 1, arrival: time, departure: time, headsign: nil, pickup: 0, dropOff: 0, timepoint: nil, distance: distance,
        line: Int(seq))
    }
    var even = [row(1, 100), row(2, nil), row(3, nil), row(4, 400), row(5, nil)]
    #expect(FeedImporter.interpolate(&even) == 2)
    #expect(even.map(\.isInterpolated) == [false, true, true, false, false])
    #expect(even.map(\.departure) == [100, 200, 300, 400, nil])  // trailing stays empty

    var byDistance = [row(1, 0, 0), row(2, nil, 900), row(3, 100, 1000)]
    #expect(FeedImporter.interpolate(&byDistance) == 1)
    #expect(byDistance[1].arrival == 90)
  }
}
