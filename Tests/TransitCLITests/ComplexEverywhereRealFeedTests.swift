import Foundation
import TestSupport
import Testing

/// Times Sq-42 St (issue 32) named where a STOP is accepted beyond the board: `timetable` and
/// `routes --stop`, checked against the subway feed's own trips.txt and stop_times.txt.
@Suite(.enabled(if: SharedData.path("static/nyct-subway-multi-2023.zip") != nil, "needs ../shared/data"))
struct TimesSquareEverywhereTests {
  static let feed = "nyct-subway-multi-2023.zip"
  var home: String { get throws { try SharedHome.holding(Self.feed, as: "nyct").path } }
  static let stations: Set<String> = ["127", "725", "902", "R16"]

  /// The timetable of the complex on Memorial Day 2023: every departure of the service day at
  /// the four stations' platforms (its own trips only, times to 30:00:00), each block one
  /// station's.
  @Test func theTimetableOfTheComplexIsThatOfItsFourStations() throws {
    let platforms = try platforms(Self.feed, of: Self.stations)
    let expected = try expectedDepartures(
      Self.feed, stops: platforms, date: "20230529", weekday: "monday", previous: "19000101", previousWeekday: "sunday", from: 0,
      until: 30 * 3600, hasCalendar: false
    ).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
    try #require(expected.count > 100)
    let result = transit([
      "timetable", "Times Sq-42 St", "--date", "2023-05-29", "--json", "--now", "2023-05-29T08:00:00-04:00", "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try #require(result.json as? [String: Any])
    var parentOf: [String: String] = [:]
    for row in try cachedRows(Self.feed, "stops.txt") { parentOf[row["stop_id"] ?? ""] = row["parent_station"] }
    var got: [String] = []
    for block in (json["blocks"] as? [[String: Any]]) ?? [] {
      let part = block["part_stop_id"] as? String
      for hour in (block["hours"] as? [[String: Any]]) ?? [] {
        for entry in (hour["departures"] as? [[String: Any]]) ?? [] {
          let stop = entry["stop_id"] as? String ?? ""
          got.append("\(entry["trip_id"] as? String ?? "") \(stop)")
          #expect(part == parentOf[stop], "\(stop) in the block of \(part ?? "none")")
        }
      }
    }
    #expect(Set(got) == Set(expected))
    #expect(got.count == expected.count)
    #expect(((json["complex"] as? [String: Any])?["name"]) as? String == "Times Sq-42 St")
  }

  /// `routes --stop` of the complex: the routes of every trip calling at one of its platforms.
  @Test func theRoutesAtTheComplexAreThoseOfItsStations() throws {
    let platforms = try platforms(Self.feed, of: Self.stations)
    var routeOf: [String: String] = [:]
    for trip in try cachedRows(Self.feed, "trips.txt") { routeOf[trip["trip_id"] ?? ""] = trip["route_id"] }
    var expected: Set<String> = []
    for row in try cachedRows(Self.feed, "stop_times.txt") where platforms.contains(row["stop_id"] ?? "") {
      if let route = routeOf[row["trip_id"] ?? ""] { expected.insert(route) }
    }
    let result = transit(["routes", "--stop", "Times Sq-42 St", "--json", "--data-dir", try home])
    #expect(result.code == 0, "\(result.stderr)")
    let routes = (result.json as? [[String: Any]]) ?? []
    try #require(expected.count > 1)
    #expect(Set(routes.compactMap { $0["route_id"] as? String }) == expected)
  }
}
