import Foundation
import Testing
import TransitModel

@testable import GTFS

/// GTFS times count from noon minus 12 h of the service date in the agency's zone, so on the
/// days clocks change "01:30:00" is not 01:30 on the wall clock. New York, 2026: clocks go
/// forward at 02:00 on 8 March and back at 02:00 on 1 November. Expectations are in UTC.
@Suite struct TimeZoneDepartureTests {
  static let files: [String: String] = [
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nNY,Night Owl,https://example.org,America/New_York\n",
    "stops.txt": "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,1,First,40.75,-73.99\nS2,2,Second,40.76,-73.98\n",
    "routes.txt": "route_id,route_short_name,route_type\nN,N,3\n",
    // calendar_dates only: the service runs on the Saturdays and Sundays of both changes.
    "calendar_dates.txt": "service_id,date,exception_type\nD,20260307,1\nD,20260308,1\nD,20261031,1\nD,20261101,1\n",
    "trips.txt": "route_id,service_id,trip_id,trip_headsign\nN,D,T0030,Second\nN,D,T0130,Second\nN,D,T0300,Second\nN,D,T2530,Second\n",
    "stop_times.txt": """
    trip_id,arrival_time,departure_time,stop_id,stop_sequence
    T0030,00:30:00,00:30:00,S1,1
    T0030,00:40:00,00:40:00,S2,2
    T0130,01:30:00,01:30:00,S1,1
    T0130,01:40:00,01:40:00,S2,2
    T0300,03:00:00,03:00:00,S1,1
    T0300,03:10:00,03:10:00,S2,2
    T2530,25:30:00,25:30:00,S1,1
    T2530,25:40:00,25:40:00,S2,2

    """,
  ]

  func store() throws -> (Store, TestDirectory) {
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path + "/data")
    let (name, _) = try timetables.ingest(directory.feed(Self.files), as: "ny", now: 1)
    return (try Store(files: [("ny", timetables.path(of: name))]), directory)
  }

  func utc(_ text: String) -> UnixTime { wallClock(text, "UTC") }

  @Test func springForward() throws {
    let (store, directory) = try store()
    defer { _ = directory }
    // 8 March: noon is EDT (16:00Z), so the day counts from 04:00Z (23:00 EST on the 7th).
    let calls = try store.departures("S1", from: utc("2026-03-08 04:00"), minutes: 4 * 60, feed: "ny")
    #expect(
      calls.map(\.seen)
        == [
          Seen(trip: "T2530", stop: "S1", serviceDate: 20260307, time: utc("2026-03-08 06:30")),  // 7 March counts from 05:00Z
          Seen(trip: "T0030", stop: "S1", serviceDate: 20260308, time: utc("2026-03-08 04:30")),
          Seen(trip: "T0130", stop: "S1", serviceDate: 20260308, time: utc("2026-03-08 05:30")),  // 00:30 EST on the wall
          Seen(trip: "T0300", stop: "S1", serviceDate: 20260308, time: utc("2026-03-08 07:00")),  // 03:00 EDT
        ].sorted { ($0.time, $0.trip) < ($1.time, $1.trip) })
    #expect(store.time(5400, on: ServiceDate(year: 2026, month: 3, day: 8)!, feed: "ny") == utc("2026-03-08 05:30"))
  }

  @Test func fallBackRepeatedHour() throws {
    let (store, directory) = try store()
    defer { _ = directory }
    // 1 November: noon is EST (17:00Z), so the day counts from 05:00Z (01:00 EDT). 00:30 is
    // 01:30 EDT (the first 01:30), 01:30 is 01:30 EST (the repeated one).
    let calls = try store.departures("S1", from: utc("2026-11-01 05:00"), minutes: 4 * 60, feed: "ny")
    #expect(
      calls.map(\.seen) == [
        Seen(trip: "T0030", stop: "S1", serviceDate: 20261101, time: utc("2026-11-01 05:30")),
        Seen(trip: "T2530", stop: "S1", serviceDate: 20261031, time: utc("2026-11-01 05:30")),  // 31 Oct counts from 04:00Z
        Seen(trip: "T0130", stop: "S1", serviceDate: 20261101, time: utc("2026-11-01 06:30")),
        Seen(trip: "T0300", stop: "S1", serviceDate: 20261101, time: utc("2026-11-01 08:00")),  // 03:00 EST
      ])
  }

  @Test func ordinaryDayStartsAtMidnight() throws {
    for (date, zone) in [("2026-07-15", "America/New_York"), ("2026-01-15", "Europe/Dublin"), ("2026-07-15", "Australia/Brisbane")] {
      let parts = date.split(separator: "-").map { Int($0)! }
      let service = ServiceDate(year: parts[0], month: parts[1], day: parts[2])!
      #expect(ServiceCalendar.start(of: service, in: TimeZone(identifier: zone)!) == wallClock(date + " 00:00", zone))
    }
  }
}
