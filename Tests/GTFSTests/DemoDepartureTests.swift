import Foundation
import SQLite
import Testing
import TransitModel

@testable import GTFS

/// Departures on the demo network, against times read by hand from Data/gtfs (Data/README.md
/// lists the cases). In December Dublin keeps GMT, so wall-clock times equal UTC.
@Suite struct DemoDepartureTests {
  /// Route 27 starts at Crumlin Hospital (TD4521) in direction 0; direction 1 ends there.
  @Test func weekdayAtATerminus() throws {
    let store = try demoStore()
    let calls = try store.departures("TD4521", from: wallClock("2026-12-01 07:30"), minutes: 60)  // a Tuesday
    #expect(
      calls.map(\.seen) == [
        Seen(trip: "27-WK-0-0740", stop: "TD4521", serviceDate: 20261201, time: wallClock("2026-12-01 07:40")),
        Seen(trip: "27-WK-0-0800", stop: "TD4521", serviceDate: 20261201, time: wallClock("2026-12-01 08:00")),
        Seen(trip: "27-WK-0-0820", stop: "TD4521", serviceDate: 20261201, time: wallClock("2026-12-01 08:20")),
      ])
    #expect(calls.allSatisfy { $0.headsign == "Tallaght Interchange" && $0.routeShortName == "27" && $0.stopSequence == 10 })
    // Trips ending here (27 towards Crumlin, pickup_type 1) are arrivals, listed only on request.
    let arrivals = try store.departures("TD4521", from: wallClock("2026-12-01 07:30"), minutes: 60, arrivals: true)
    let ending = arrivals.filter(\.isLastStop)
    #expect(ending.map(\.tripID.rawValue) == ["27-WK-1-0710", "27-WK-1-0730", "27-WK-1-0750"])  // 30 minutes end to end
    #expect(ending.allSatisfy { $0.scheduledDeparture == nil && $0.pickupType == 1 })
  }

  /// 2026-12-25 is a Friday running the Sunday timetable (calendar_dates: WK removed, SU added).
  @Test func holidayRunsTheSundayTimetable() throws {
    let store = try demoStore()
    // The window is [from, until): 121 minutes reach the 09:30.
    let thursday = try store.departures("TD4521", from: wallClock("2026-12-24 07:30"), minutes: 121)
    #expect(
      thursday.map(\.tripID.rawValue) == [
        "27-WK-0-0740", "27-WK-0-0800", "27-WK-0-0820", "27-WK-0-0840", "27-WK-0-0900", "27-WK-0-0920", "27-WK-0-0930",
      ])
    let christmas = try store.departures("TD4521", from: wallClock("2026-12-25 07:30"), minutes: 121)
    #expect(
      christmas.map(\.seen) == [
        Seen(trip: "27-SU-0-0800", stop: "TD4521", serviceDate: 20261225, time: wallClock("2026-12-25 08:00")),
        Seen(trip: "27-SU-0-0930", stop: "TD4521", serviceDate: 20261225, time: wallClock("2026-12-25 09:30")),
      ])
    // Saturday 26th: SA removed, SU added. The tram starts at 07:00 (SU), not 06:30 (SA).
    let tram = try store.departures("TINT-C", from: wallClock("2026-12-26 06:00"), minutes: 75)
    #expect(tram.map(\.tripID.rawValue) == ["Red-SU-0-template", "Red-SU-0-template"])
    #expect(tram.map(\.scheduledTime) == [wallClock("2026-12-26 07:00"), wallClock("2026-12-26 07:10")])
  }

  /// Times past 24:00:00 come from the service day before, only when it runs that service.
  @Test func afterMidnightComesFromYesterday() throws {
    let store = try demoStore()
    // Wednesday 00:00: Tuesday's WK trips at 24:15 and 25:05.
    let wednesday = try store.departures("TD4521", from: wallClock("2026-12-02 00:00"), minutes: 90)
    #expect(
      wednesday.map(\.seen) == [
        Seen(trip: "27-WK-0-2415", stop: "TD4521", serviceDate: 20261201, time: wallClock("2026-12-02 00:15")),
        Seen(trip: "27-WK-0-2505", stop: "TD4521", serviceDate: 20261201, time: wallClock("2026-12-02 01:05")),
      ])
    // Sunday 00:00: Saturday's SA trips; Monday 00:00: Sunday (SU) has none after midnight.
    let sunday = try store.departures("TD4521", from: wallClock("2026-12-06 00:00"), minutes: 90)
    #expect(sunday.map(\.tripID.rawValue) == ["27-SA-0-2415", "27-SA-0-2505"])
    #expect(sunday.allSatisfy { $0.serviceDate.yyyymmdd == 20261205 })
    #expect(try store.departures("TD4521", from: wallClock("2026-12-07 00:00"), minutes: 90).isEmpty)
    // Early on Saturday the 26th: Friday the 25th had WK removed, so no 24:15 / 25:05.
    #expect(try store.departures("TD4521", from: wallClock("2026-12-26 00:00"), minutes: 90).isEmpty)
    // A stop mid-route, straddling midnight: 23:40's trip at 24:09 is on the same day's timetable.
    let square = try store.departures("TD4530", from: wallClock("2026-12-01 23:50"), minutes: 30, route: "27")
    #expect(
      square.map(\.seen) == [
        Seen(trip: "27-WK-1-2350", stop: "TD4530", serviceDate: 20261201, time: wallClock("2026-12-01 23:51")),
        Seen(trip: "27-WK-0-2340", stop: "TD4530", serviceDate: 20261201, time: wallClock("2026-12-02 00:09")),
      ])
  }

  /// The window is half-open: a call exactly at its end belongs to the next window.
  @Test func theWindowEndIsNotIncluded() throws {
    let store = try demoStore()
    let exactly = try store.departures("TD4521", from: wallClock("2026-12-25 07:30"), minutes: 120)
    #expect(exactly.map(\.tripID.rawValue) == ["27-SU-0-0800"])
    let next = try store.departures("TD4521", from: wallClock("2026-12-25 09:30"), minutes: 1)
    #expect(next.map(\.tripID.rawValue) == ["27-SU-0-0930"])
  }

  /// The tram: template trips expanded every 600 s to 19:00, then every 900 s to 24:30.
  @Test func frequencyRouteInstances() throws {
    let store = try demoStore()
    let first = try store.departures("TINT-C", from: wallClock("2026-12-01 18:45"), minutes: 46)
    #expect(first.map(\.scheduledTime) == ["18:50", "19:00", "19:15", "19:30"].map { wallClock("2026-12-01 " + $0) })
    #expect(first.map(\.startTime) == [67_800, 68_400, 69_300, 70_200].map { ServiceTime(seconds: $0) })
    #expect(first.allSatisfy { $0.tripID == "Red-WK-0-template" && $0.headsign == "Suir Road" })
    // Kingswood (RED05) is 8 minutes from the start: instances at 18:40, 18:50 and 19:00.
    let kingswood = try store.departures("RED05", from: wallClock("2026-12-01 18:45"), minutes: 30, to: "suir")
    #expect(kingswood.map(\.scheduledTime) == ["18:48", "18:58", "19:08"].map { wallClock("2026-12-01 " + $0) })
    #expect(kingswood.map(\.startTime) == [67_200, 67_800, 68_400].map { ServiceTime(seconds: $0) })
    // The last instances start at 24:00 and 24:15 (before end_time 24:30), on the previous
    // day's service.
    let late = try store.departures("TINT-C", from: wallClock("2026-12-02 00:00"), minutes: 60)
    #expect(
      late.map(\.seen)
        == ["00:00", "00:15"].map {
          Seen(trip: "Red-WK-0-template", stop: "TINT-C", serviceDate: 20261201, time: wallClock("2026-12-02 " + $0))
        })
    // The template's own time is not a departure outside the instances: none before 05:30.
    #expect(try store.departures("TINT-C", from: wallClock("2026-12-01 04:00"), minutes: 89).isEmpty)
  }

  /// A station lists its platforms' departures; `to` and `route` filter.
  @Test func stationWithPlatforms() throws {
    let store = try demoStore()
    let calls = try store.departures("TINT", from: wallClock("2026-12-01 07:40"), minutes: 30)
    #expect(Set(calls.map(\.stopID.rawValue)) == ["TINT-A", "TINT-B", "TINT-C"])
    #expect(calls.map(\.scheduledTime!) == calls.map(\.scheduledTime!).sorted())
    #expect(calls.prefix(3).map(\.tripID.rawValue) == ["Red-WK-0-template", "27-WK-1-0750", "Red-WK-0-template"])
    // 27-WK-0-0720 arrives at TINT-A at 07:50 and ends there: not a departure.
    #expect(!calls.contains { $0.tripID == "27-WK-0-0720" })
    let withArrivals = try store.departures("TINT", from: wallClock("2026-12-01 07:40"), minutes: 30, arrivals: true)
    #expect(withArrivals.contains { $0.tripID == "27-WK-0-0720" && $0.isLastStop && $0.scheduledArrival == wallClock("2026-12-01 07:50") })
    // --to matches a later stop's name, not only the headsign: 27 towards Crumlin passes Kimmage.
    let kimmage = try store.departures("TINT", from: wallClock("2026-12-01 07:40"), minutes: 30, to: "kimmage")
    #expect(!kimmage.isEmpty && kimmage.allSatisfy { $0.routeShortName == "27" && $0.headsign == "Crumlin Hospital" })
    let route = try store.departures("TINT", from: wallClock("2026-12-01 07:40"), minutes: 30, route: "r54a")
    #expect(!route.isEmpty && route.allSatisfy { $0.routeShortName == "54A" && $0.stopID == "TINT-B" })
    // 54A waits at TINT-B: the departure (06:36), not the arrival (06:35), is listed.
    let wait = try store.departures("TINT-B", from: wallClock("2026-12-01 06:30"), minutes: 10, route: "54A")
    #expect(wait.filter { $0.tripID == "54A-WK-1-0625" }.map(\.scheduledTime) == [wallClock("2026-12-01 06:36")])
    #expect(try store.departures("TINT", from: wallClock("2026-12-01 07:40"), minutes: 30, limit: 4).count == 4)
  }

  /// stop_headsign wins over trip_headsign where it is set (49 at its first three stops).
  @Test func stopHeadsign() throws {
    let store = try demoStore()
    let calls = try store.departures("TINT-B", from: wallClock("2026-12-01 07:00"), minutes: 120, route: "49")
    let outbound = calls.filter { $0.directionID == 0 }
    #expect(!outbound.isEmpty && outbound.allSatisfy { $0.headsign == "Templeogue Village via Old Bawn" })
  }

  /// SQLite answers the two departure statements from the indexes, never a table scan.
  @Test func queryPlansUseTheIndexes() throws {
    let plans = try demoStore().departureQueryPlans(feed: "demo")
    let patterns = try #require(plans["patterns"]).joined(separator: "\n")
    let trips = try #require(plans["trips"]).joined(separator: "\n")
    // The by-stop index covers what departures read of each call: one seek per pattern.
    #expect(patterns.contains("USING COVERING INDEX pattern_stops_by_stop (stop_idx=?)"), "\(patterns)")
    #expect(trips.contains("trip_times_by_pattern (pattern_idx=? AND first_departure>? AND first_departure<?)"), "\(trips)")
    #expect(!patterns.contains("SCAN") && !trips.contains("SCAN"), "\(patterns)\n\(trips)")
    // frequencies.txt is the outer loop, never a scan of every trip.
    let frequencies = try #require(plans["frequencies"]).joined(separator: "\n")
    #expect(frequencies.contains("SCAN f") && !frequencies.contains("SCAN tt"), "\(frequencies)")
  }
}
