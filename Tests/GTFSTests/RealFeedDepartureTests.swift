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

  /// The reference: everything loaded into memory once per feed (both tests of a feed share it).
  struct Reference: Sendable {
    /// A trip's call at a stop: the trip (its index in `trips`) and the call's position.
    struct Call {
      var trip: Int
      var position: Int
    }
    /// A trip as the reference needs it, its strings looked up once.
    struct Trip {
      var id: String
      /// Its service's index in `services`.
      var service: Int
      var calls: [Timetable.StopTime]
      var frequencies: [(start: Int, end: Int, headway: Int)]
    }
    var zone: TimeZone
    var calendar: [String: (weekdays: Int, start: Int, end: Int)] = [:]
    var exceptions: [String: [Int: Int]] = [:]
    var services: [String] = []
    var trips: [Trip] = []
    var callsAt: [String: [Call]] = [:]
    var children: [String: [String]] = [:]

    init(path: String) throws {
      let db = try Connection(path: path, mode: .readOnly)
      zone = TimeZone(identifier: try db.scalarText("SELECT timezone FROM agency LIMIT 1")!)!
      var select = try db.prepare(
        "SELECT s.service_id, c.weekdays, c.start_date, c.end_date FROM calendar c JOIN services s USING (service_idx)")
      while try select.step() { calendar[select.text(0)] = (select.int(1), select.int(2), select.int(3)) }
      select = try db.prepare("SELECT s.service_id, d.date, d.exception_type FROM calendar_dates d JOIN services s USING (service_idx)")
      while try select.step() { exceptions[select.text(0), default: [:]][select.int(1)] = select.int(2) }
      var tripService: [String: String] = [:]
      select = try db.prepare("SELECT t.trip_id, s.service_id FROM trips t JOIN services s USING (service_idx)")
      while try select.step() { tripService[select.text(0)] = select.text(1) }
      var frequencies: [String: [(start: Int, end: Int, headway: Int)]] = [:]
      select = try db.prepare("SELECT t.trip_id, f.start_time, f.end_time, f.headway_secs FROM frequencies f JOIN trips t USING (trip_idx)")
      while try select.step() { frequencies[select.text(0), default: []].append((select.int(1), select.int(2), select.int(3))) }
      select = try db.prepare("SELECT stop_id, parent_station FROM stops WHERE parent_station IS NOT NULL AND location_type = 0")
      while try select.step() { children[select.text(1), default: []].append(select.text(0)) }
      services = Array(Set(tripService.values)).sorted()
      let serviceIndex = Dictionary(uniqueKeysWithValues: services.enumerated().map { ($1, $0) })
      let timetable = try Timetable(path: path)
      for (trip, service) in tripService.sorted(by: { $0.key < $1.key }) {
        let calls = try timetable.stopTimes(ofTrip: trip)
        for (position, call) in calls.enumerated() {
          callsAt[call.stopID, default: []].append(Call(trip: trips.count, position: position))
        }
        trips.append(Trip(id: trip, service: serviceIndex[service]!, calls: calls, frequencies: frequencies[trip] ?? []))
      }
    }

    func runs(_ service: String, on date: DateComponents) -> Bool {
      let yyyymmdd = date.year! * 10_000 + date.month! * 100 + date.day!
      if let exception = exceptions[service]?[yyyymmdd] { return exception == 1 }
      guard let row = calendar[service], row.start <= yyyymmdd, yyyymmdd <= row.end else { return false }
      let mondayFirst = Self.weekday(year: date.year!, month: date.month!, day: date.day!)
      return row.weekdays & (1 << mondayFirst) != 0
    }

    /// The day of the week, Monday 0 … Sunday 6, by plain arithmetic on the proleptic Gregorian
    /// calendar (days since 1970-01-01, a Thursday): Howard Hinnant's days_from_civil.
    static func weekday(year: Int, month: Int, day: Int) -> Int {
      let y = month <= 2 ? year - 1 : year
      let era = (y >= 0 ? y : y - 399) / 400
      let yearOfEra = y - era * 400
      let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
      let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
      let days = era * 146_097 + dayOfEra - 719_468
      return ((days % 7) + 7 + 3) % 7  // 1970-01-01 was a Thursday (3)
    }

    /// A service day: its date and its start (noon minus 12 h, found with Foundation's
    /// Calendar in the agency's zone).
    struct ServiceDay {
      var date: DateComponents
      var yyyymmdd: Int
      var base: Int64
    }

    /// The service days whose departures may fall in [from, until): from four days before (a
    /// trip may run for days past its service date's start) to the day after (a service day
    /// may begin the evening before its date: noon - 12 h on a spring-forward date is 23:00
    /// of the day before).
    func serviceDays(from: Int64, until: Int64) -> [ServiceDay] {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      var days: [ServiceDay] = []
      let first = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(from) - 4 * 86_400))
      var day = calendar.date(from: first)!
      while day.timeIntervalSince1970 <= Double(until) + 86_400 {
        defer { day = calendar.date(byAdding: .day, value: 1, to: day)! }
        var parts = calendar.dateComponents([.year, .month, .day], from: day)
        parts.hour = 12
        let base = Int64(calendar.date(from: parts)!.timeIntervalSince1970) - 43_200
        days.append(ServiceDay(date: parts, yyyymmdd: parts.year! * 10_000 + parts.month! * 100 + parts.day!, base: base))
      }
      return days
    }

    /// Every departure at `stop` (and its platforms) with its time in [from, until); `days`
    /// are `serviceDays(from:until:)`, worked out once for many stops.
    func departures(at stop: String, from: Int64, until: Int64, days: [ServiceDay]? = nil) -> [Seen] {
      var result: [Seen] = []
      for day in days ?? serviceDays(from: from, until: until) {
        let (parts, base, yyyymmdd) = (day.date, day.base, day.yyyymmdd)
        // Per service (by index): whether it runs that day, worked out on first need.
        var running = [Bool?](repeating: nil, count: services.count)
        for id in [stop] + (children[stop] ?? []) {
          for call in callsAt[id] ?? [] {
            let trip = trips[call.trip]
            let runsToday = running[trip.service] ?? runs(services[trip.service], on: parts)
            running[trip.service] = runsToday
            guard runsToday else { continue }
            let calls = trip.calls
            let here = calls[call.position]
            guard call.position < calls.count - 1, here.pickupType != 1, let time = here.departure ?? here.arrival else { continue }
            var starts: [Int64] = [0]
            if !trip.frequencies.isEmpty {
              let windows = trip.frequencies
              let tripStart = Int64(calls.compactMap(\.departure).first!)
              starts = windows.flatMap { window in
                stride(from: window.start, to: window.end, by: window.headway).map { Int64($0) - tripStart }
              }
            }
            for shift in starts {
              let at = base + Int64(time) + shift
              if at >= from && at < until {
                result.append(Seen(trip: trip.id, stop: id, serviceDate: yyyymmdd, time: UnixTime(at)))
              }
            }
          }
        }
      }
      return result
    }
  }

  /// A shared feed ingested as `feed` once per process, with its reference (built once per
  /// feed) and a store of the test's own.
  struct Loaded {
    let path: String
    let reference: Reference
    let store: Store

    init(_ file: String) throws {
      let path = try IngestedFeeds.path(file, as: "feed")
      self.path = path
      reference = try RealFeedDepartureTests.references.value(path) { try Reference(path: path) }
      store = try Store(files: [("feed", path)])
    }
  }

  /// The references, one per timetable file, each built once.
  static let references = OncePerKey<Reference>()

  static func order(_ a: Seen, _ b: Seen) -> Bool {
    (a.time, a.trip, a.serviceDate, a.stop) < (b.time, b.trip, b.serviceDate, b.stop)
  }

  /// The reference's own weekday arithmetic, against days read off a printed calendar.
  @Test func referenceWeekdays() {
    #expect(Reference.weekday(year: 1970, month: 1, day: 1) == 3)  // a Thursday
    #expect(Reference.weekday(year: 2019, month: 5, day: 28) == 1)  // a Tuesday
    #expect(Reference.weekday(year: 2000, month: 2, day: 29) == 1)  // a Tuesday, leap day
    #expect(Reference.weekday(year: 2020, month: 3, day: 8) == 6)  // a Sunday (US DST began)
    #expect(Reference.weekday(year: 1969, month: 12, day: 31) == 2)  // a Wednesday
  }

  @Test(arguments: feeds)
  func departuresEqualTheReference(file: String) throws {
    let loaded = try Loaded(file)
    let (path, reference, store) = (loaded.path, loaded.reference, loaded.store)
    let db = try Connection(path: path, mode: .readOnly)

    // Sampled stops: every k-th stop served by a trip, and a few stations.
    var stops: [String] = []
    let served = reference.callsAt.keys.sorted()
    stride(from: 0, to: served.count, by: max(1, served.count / 12)).forEach { stops.append(served[$0]) }
    let stations = try db.prepare("SELECT stop_id FROM stops WHERE location_type = 1 ORDER BY stop_id LIMIT 3")
    while try stations.step() { stops.append(stations.text(0)) }

    // Sampled times: a weekday, a Saturday and a Sunday near the start of service, at several
    // times of day including the hours after midnight.
    let start = try #require(
      try db.scalarText(
        "SELECT min(date) FROM (SELECT start_date AS date FROM calendar UNION SELECT date FROM calendar_dates WHERE exception_type = 1)"))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = reference.zone
    let first = calendar.date(
      from: DateComponents(year: Int(start.prefix(4))!, month: Int(start.dropFirst(4).prefix(2))!, day: Int(start.suffix(2))!, hour: 0))!
    var windows: [(Int64, Int64)] = []
    for dayOffset in [1, 3, 4, 5, 6] {
      for (hour, minute) in [(0, 20), (7, 30), (16, 45), (23, 30)] {
        let moment = calendar.date(byAdding: DateComponents(day: dayOffset, hour: hour, minute: minute), to: first)!
        let from = Int64(moment.timeIntervalSince1970)
        windows.append((from, from + 90 * 60))
      }
    }

    var compared = 0
    let days = windows.map { reference.serviceDays(from: $0.0, until: $0.1) }
    for stop in stops {
      let value = try #require(try store.stop(StopID(stop), feed: "feed"))
      for ((from, until), days) in zip(windows, days) {
        let expected = reference.departures(at: stop, from: from, until: until, days: days).sorted(by: Self.order)
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

  /// Every feed here whose calendar has fixed-time departures (ctran-flex has none).
  static let dstFeeds = feeds + ["hart-2020.zip", "bart-2023.zip", "kcm-vp-subset-2021.zip"]

  /// The DST transitions in `zone` between two instants.
  static func transitions(in zone: TimeZone, from: Date, to: Date) -> [Date] {
    var result: [Date] = []
    var cursor = from
    while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < to {
      result.append(next)
      cursor = next
    }
    return result
  }

  /// Service day D begins at noon minus 12 h of D: on a spring-forward date that is 23:00 of
  /// the evening before, on a fall-back date 01:00 (the first one). Around the start of every
  /// such day in every feed, departures must equal the reference's, which finds each service
  /// day's start with Foundation's Calendar, not with the code under test. (Issue 17: HART's
  /// 00:00:00 trips of 2021-03-14, at 23:00 on the 13th, were missing.)
  @Test(arguments: dstFeeds)
  func departuresAroundEveryDSTChangeEqualTheReference(file: String) throws {
    let loaded = try Loaded(file)
    let (path, reference, store) = (loaded.path, loaded.reference, loaded.store)
    let db = try Connection(path: path, mode: .readOnly)

    let range = try db.prepare(
      """
      SELECT min(date), max(date) FROM (SELECT start_date AS date FROM calendar UNION ALL SELECT end_date FROM calendar
      UNION ALL SELECT date FROM calendar_dates WHERE exception_type = 1)
      """)
    #expect(try range.step())
    func day(_ yyyymmdd: Int) -> DateComponents {
      DateComponents(year: yyyymmdd / 10_000, month: yyyymmdd / 100 % 100, day: yyyymmdd % 100)
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = reference.zone
    let first = calendar.date(from: day(range.int(0)))!, last = calendar.date(from: day(range.int(1)))!
    let changes = Self.transitions(in: reference.zone, from: first, to: last)

    var compared = 0
    for change in changes {
      // The service date whose day the change falls in, and the start of that day (noon - 12 h).
      var parts = calendar.dateComponents([.year, .month, .day], from: change)
      parts.hour = 12
      let dayStart = Int64(calendar.date(from: parts)!.timeIntervalSince1970) - 43_200
      let windows: [(Int64, Int64)] = [(dayStart - 120, dayStart + 180), (dayStart - 5400, dayStart + 5400)]
      // Stops with something to show in the wide window: of at most 400 sampled, at most 40.
      let wide = windows[1]
      let days = windows.map { reference.serviceDays(from: $0.0, until: $0.1) }
      let served = reference.callsAt.keys.sorted()
      let busy = stride(from: 0, to: served.count, by: max(1, served.count / 400)).map { served[$0] }
        .filter { !reference.departures(at: $0, from: wide.0, until: wide.1, days: days[1]).isEmpty }
      let stops = stride(from: 0, to: busy.count, by: max(1, busy.count / 40)).map { busy[$0] }
      for stop in stops {
        let value = try #require(try store.stop(StopID(stop), feed: "feed"))
        for ((from, until), days) in zip(windows, days) {
          let expected = reference.departures(at: stop, from: from, until: until, days: days).sorted(by: Self.order)
          let actual = try store.departures(at: value, DepartureQuery(from: UnixTime(from), until: UnixTime(until)))
            .map(\.seen).sorted(by: Self.order)
          #expect(actual == expected, "\(file) stop \(stop) around the DST change at \(change), window from \(from)")
          compared += expected.count
        }
      }
    }
    // BART 2023 has no service from 2023-02-21 to 2023-04-02, around its only change.
    if !changes.isEmpty, file != "bart-2023.zip" {
      #expect(compared > 0, "\(file): \(changes.count) DST changes but no departure around any")
    }
  }

  /// The window is half-open: a departure exactly at its end is not in it.
  @Test func theWindowEndIsNotIncluded() throws {
    let loaded = try Loaded("caltrain-2023.zip")
    let (reference, store) = (loaded.reference, loaded.store)
    let stop = try #require(try store.stop(StopID("palo_alto"), feed: "feed"))
    // Wednesday 2023-11-08, from 07:00 Pacific (15:00Z) for two hours.
    let from: Int64 = 1_699_455_600
    let all = reference.departures(at: "palo_alto", from: from, until: from + 7200).sorted(by: Self.order)
    let third = try #require(all.dropFirst(2).first)
    let upToThird = try store.departures(at: stop, DepartureQuery(from: UnixTime(from), until: third.time))
    #expect(upToThird.map(\.seen).sorted(by: Self.order) == Array(all.prefix(2)))
    let fromThird = try store.departures(at: stop, DepartureQuery(from: third.time, until: UnixTime(from + 7200)))
    #expect(fromThird.map(\.seen).sorted(by: Self.order) == Array(all.dropFirst(2)))
  }

  /// The issue's own case: at HART stop 8011 on 2021-03-13 from 22:58 EST for 5 minutes, trip
  /// 1542009 of service day 2021-03-14 (00:00:00, which is 23:00 EST on the 13th) and trip
  /// 1541685 of the 13th both leave.
  @Test func theEveningBeforeSpringForwardHasTheNextServiceDaysFirstTrips() throws {
    let store = try IngestedFeeds.store("hart-2020.zip", as: "feed")
    let stop = try #require(try store.stop(StopID("8011"), feed: "feed"))
    let from: Int64 = 1_615_694_280  // 2021-03-13T22:58:00-05:00
    let calls = try store.departures(at: stop, DepartureQuery(from: UnixTime(from), until: UnixTime(from + 300)))
    let seen = calls.map { "\($0.tripID.rawValue) \($0.serviceDate.yyyymmdd) \($0.scheduledTime!.seconds)" }.sorted()
    // 23:00 EST is 04:00Z on the 14th: 1,615,694,400.
    #expect(seen.contains("1542009 20210314 1615694400"), "\(seen)")
    #expect(seen.contains { $0.hasPrefix("1541685 20210313 ") }, "\(seen)")
  }
}
