import Foundation
import SQLite
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// Departures from real feeds against a straightforward computation written separately here:
/// services from the calendar tables by plain SQL and Foundation's Calendar, every trip's calls
/// from `Timetable.stopTimes(ofTrip:)`, a loop over all of them, and frequencies expanded by
/// hand. Nothing here goes through the departure queries' SQL or their date arithmetic.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct RealFeedDepartureTests {
  static let feeds = [
    "caltrain-2023.zip", "bart-2019.zip", "wmata-rail-2026.zip", "cairns-2014.zip", "trimet-2routes-2021.zip",
    "cdmx-2018.zip", "google-sample-feed-1.zip", "transitfeed-only-calendar-dates.zip", "usf-bullrunner.zip",
  ]

  /// The reference: everything loaded into memory once.
  struct Reference {
    struct Call {
      var trip: String
      var position: Int
    }
    var zone: TimeZone
    var calendar: [String: (weekdays: Int, start: Int, end: Int)] = [:]
    var exceptions: [String: [Int: Int]] = [:]
    var tripService: [String: String] = [:]
    var frequencies: [String: [(start: Int, end: Int, headway: Int)]] = [:]
    var stopTimes: [String: [Timetable.StopTime]] = [:]
    var callsAt: [String: [Call]] = [:]
    var children: [String: [String]] = [:]

    init(path: String) throws {
      let db = try Connection(path: path, mode: .readOnly)
      zone = TimeZone(identifier: try db.scalarText("SELECT timezone FROM agency LIMIT 1")!)!
      var select = try db.prepare("SELECT s.service_id, c.weekdays, c.start_date, c.end_date FROM calendar c JOIN services s USING (service_idx)")
      while try select.step() { calendar[select.text(0)] = (select.int(1), select.int(2), select.int(3)) }
      select = try db.prepare("SELECT s.service_id, d.date, d.exception_type FROM calendar_dates d JOIN services s USING (service_idx)")
      while try select.step() { exceptions[select.text(0), default: [:]][select.int(1)] = select.int(2) }
      select = try db.prepare("SELECT t.trip_id, s.service_id FROM trips t JOIN services s USING (service_idx)")
      while try select.step() { tripService[select.text(0)] = select.text(1) }
      select = try db.prepare("SELECT t.trip_id, f.start_time, f.end_time, f.headway_secs FROM frequencies f JOIN trips t USING (trip_idx)")
      while try select.step() { frequencies[select.text(0), default: []].append((select.int(1), select.int(2), select.int(3))) }
      select = try db.prepare("SELECT stop_id, parent_station FROM stops WHERE parent_station IS NOT NULL AND location_type = 0")
      while try select.step() { children[select.text(1), default: []].append(select.text(0)) }
      let timetable = try Timetable(path: path)
      for trip in tripService.keys {
        let calls = try timetable.stopTimes(ofTrip: trip)
        stopTimes[trip] = calls
        for (position, call) in calls.enumerated() { callsAt[call.stopID, default: []].append(Call(trip: trip, position: position)) }
      }
    }

    func runs(_ service: String, on date: DateComponents) -> Bool {
      let yyyymmdd = date.year! * 10_000 + date.month! * 100 + date.day!
      if let exception = exceptions[service]?[yyyymmdd] { return exception == 1 }
      guard let row = calendar[service], row.start <= yyyymmdd, yyyymmdd <= row.end else { return false }
      var utc = Calendar(identifier: .gregorian)
      utc.timeZone = TimeZone(identifier: "UTC")!
      let weekday = utc.component(.weekday, from: utc.date(from: date)!)  // 1 is Sunday
      let mondayFirst = (weekday + 5) % 7  // Monday 0 ... Sunday 6
      return row.weekdays & (1 << mondayFirst) != 0
    }

    /// Every departure at `stop` (and its platforms) with its time in from...until.
    func departures(at stop: String, from: Int64, until: Int64) -> [Seen] {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      var result: [Seen] = []
      let first = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(from) - 4 * 86_400))
      var day = calendar.date(from: first)!
      while day.timeIntervalSince1970 <= Double(until) {
        defer { day = calendar.date(byAdding: .day, value: 1, to: day)! }
        var parts = calendar.dateComponents([.year, .month, .day], from: day)
        parts.hour = 12
        let base = Int64(calendar.date(from: parts)!.timeIntervalSince1970) - 43_200
        let yyyymmdd = parts.year! * 10_000 + parts.month! * 100 + parts.day!
        for id in [stop] + (children[stop] ?? []) {
          for call in callsAt[id] ?? [] {
            guard runs(tripService[call.trip]!, on: parts) else { continue }
            let calls = stopTimes[call.trip]!
            let here = calls[call.position]
            guard call.position < calls.count - 1, here.pickupType != 1, let time = here.departure ?? here.arrival else { continue }
            var starts: [Int64] = [0]
            if let windows = frequencies[call.trip] {
              let tripStart = Int64(calls.compactMap(\.departure).first!)
              starts = windows.flatMap { window in
                stride(from: window.start, to: window.end, by: window.headway).map { Int64($0) - tripStart }
              }
            }
            for shift in starts {
              let at = base + Int64(time) + shift
              if at >= from && at <= until {
                result.append(Seen(trip: call.trip, stop: id, serviceDate: yyyymmdd, time: UnixTime(at)))
              }
            }
          }
        }
      }
      return result
    }
  }

  static func order(_ a: Seen, _ b: Seen) -> Bool {
    (a.time, a.trip, a.serviceDate, a.stop) < (b.time, b.trip, b.serviceDate, b.stop)
  }

  @Test(arguments: feeds)
  func departuresEqualTheReference(file: String) throws {
    let source = try #require(SharedData.path("static/" + file))
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(source, as: "feed", now: 1)
    let path = try timetables.path(of: "feed")
    let reference = try Reference(path: path)
    let store = try Store(files: [("feed", path)])
    let db = try Connection(path: path, mode: .readOnly)

    // Sampled stops: every k-th stop served by a trip, and a few stations.
    var stops: [String] = []
    let served = reference.callsAt.keys.sorted()
    stride(from: 0, to: served.count, by: max(1, served.count / 12)).forEach { stops.append(served[$0]) }
    let stations = try db.prepare("SELECT stop_id FROM stops WHERE location_type = 1 ORDER BY stop_id LIMIT 3")
    while try stations.step() { stops.append(stations.text(0)) }

    // Sampled times: a weekday, a Saturday and a Sunday near the start of service, at several
    // times of day including the hours after midnight.
    let start = try #require(try db.scalarText("SELECT min(date) FROM (SELECT start_date AS date FROM calendar UNION SELECT date FROM calendar_dates WHERE exception_type = 1)"))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = reference.zone
    let first = calendar.date(from: DateComponents(year: Int(start.prefix(4))!, month: Int(start.dropFirst(4).prefix(2))!, day: Int(start.suffix(2))!, hour: 0))!
    var windows: [(Int64, Int64)] = []
    for dayOffset in [1, 3, 4, 5, 6] {
      for (hour, minute) in [(0, 20), (7, 30), (16, 45), (23, 30)] {
        let moment = calendar.date(byAdding: DateComponents(day: dayOffset, hour: hour, minute: minute), to: first)!
        let from = Int64(moment.timeIntervalSince1970)
        windows.append((from, from + 90 * 60))
      }
    }

    var compared = 0
    for stop in stops {
      let value = try #require(try store.stop(StopID(stop), feed: "feed"))
      for (from, until) in windows {
        let expected = reference.departures(at: stop, from: from, until: until).sorted(by: Self.order)
        let actual = try store.departures(at: value, DepartureQuery(from: UnixTime(from), until: UnixTime(until)))
          .map(\.seen).sorted(by: Self.order)
        #expect(actual == expected, "\(file) stop \(stop) from \(from)")
        // With a limit the window is read in slices; the first few must be the same.
        let limited = try store.departures(at: value, DepartureQuery(from: UnixTime(from), until: UnixTime(until), limit: 4))
        #expect(limited.map(\.scheduledTime!) == expected.prefix(4).map(\.time), "\(file) stop \(stop) from \(from), limit 4")
        compared += expected.count
      }
    }
    #expect(compared > 0, "\(file): no departures sampled at all")
  }
}
