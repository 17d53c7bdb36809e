import Foundation
import GTFS
import TestSupport
import Testing
import TransitModel

/// `Store.runningTrips(at:)` keeps each service date's trip spans for the next call: a store
/// asked again, at other times and other dates (more than it keeps), answers as a store asked
/// once does.
@Suite struct RunningTripsTests {
  @Test(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil))
  func askedAgainAndAgainItAnswersAsAFreshStore() throws {
    let home = try IngestedFeeds.folder("caltrain-2023.zip", as: "caltrain")
    let kept = try Store(directory: home)
    // 2023-11-06 to 2023-11-12 (a week of Pacific Standard Time), at 08:00, 13:00 and 00:30
    // local: six dates and more, so the oldest kept are let go and read again.
    let monday: Int64 = 1_699_257_600  // 2023-11-06T00:00-08:00
    var times: [Int64] = []
    for day in 0..<7 {
      for hour: Int64 in [8, 13, 24] { times.append(monday + Int64(day) * 86_400 + hour * 3600 + (hour == 24 ? 1800 : 0)) }
    }
    var answers: [Int64: [String]] = [:]
    for pass in 0..<2 {
      for time in pass == 0 ? times : times.reversed() {
        let answer = try kept.runningTrips(at: UnixTime(time)).map { "\($0.serviceDate.yyyymmdd) \($0.tripID.rawValue)" }
        if let first = answers[time] {
          #expect(answer == first, "at \(time)")
        } else {
          answers[time] = answer
          let fresh = try Store(directory: home).runningTrips(at: UnixTime(time))
          #expect(answer == fresh.map { "\($0.serviceDate.yyyymmdd) \($0.tripID.rawValue)" }, "at \(time)")
        }
      }
    }
    // Not empty answers: weekday mornings run trains, and 00:30 finds the last of the night.
    #expect(answers[monday + 8 * 3600]?.isEmpty == false)
    #expect(answers.values.contains { $0.contains { $0.hasPrefix("20231106 ") } && $0.count < 10 })
  }

  /// What runs on Monday 2023-11-06 at 08:00 and 13:00, worked out from the feed's own files:
  /// the services of that Monday (calendar.txt, then calendar_dates.txt), each trip's first
  /// departure and last arrival (stop_times.txt, by hand). Caltrain has no frequencies.txt and
  /// no trip past 24:00 at those hours, and it is winter time (a service day starts at midnight).
  @Test(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil))
  func whatRunsIsWhatTheFeedsFilesSay() throws {
    let home = try IngestedFeeds.folder("caltrain-2023.zip", as: "caltrain")
    let store = try Store(directory: home)
    var services = Set<String>()
    for row in try sharedRows("caltrain-2023.zip", "calendar.txt")
    where row["monday"] == "1" && row["start_date"]! <= "20231106" && row["end_date"]! >= "20231106" {
      services.insert(row["service_id"]!)
    }
    for row in try sharedRows("caltrain-2023.zip", "calendar_dates.txt") where row["date"] == "20231106" {
      if row["exception_type"] == "1" { services.insert(row["service_id"]!) } else { services.remove(row["service_id"]!) }
    }
    let running = Set(
      try sharedRows("caltrain-2023.zip", "trips.txt").filter { services.contains($0["service_id"]!) }.map { $0["trip_id"]! })
    var spans: [String: (first: Int, last: Int)] = [:]
    for row in try sharedRows("caltrain-2023.zip", "stop_times.txt") where running.contains(row["trip_id"]!) {
      let departure = try #require(gtfsSeconds(row["departure_time"]!))
      let arrival = try #require(gtfsSeconds(row["arrival_time"]!))
      let known = spans[row["trip_id"]!] ?? (departure, arrival)
      spans[row["trip_id"]!] = (min(known.first, departure), max(known.last, arrival))
    }
    let midnight: Int64 = 1_699_257_600  // 2023-11-06T00:00-08:00
    for hour in [8, 13] {
      let seconds = hour * 3600
      let expected = Set(spans.filter { $0.value.first <= seconds && $0.value.last >= seconds }.keys)
      let answer = try store.runningTrips(at: UnixTime(midnight + Int64(seconds)))
      #expect(!expected.isEmpty)
      #expect(Set(answer.filter { $0.serviceDate.yyyymmdd == 20231106 }.map(\.tripID.rawValue)) == expected, "at \(hour):00")
      #expect(answer.allSatisfy { $0.serviceDate.yyyymmdd == 20231106 })
    }
  }
}
