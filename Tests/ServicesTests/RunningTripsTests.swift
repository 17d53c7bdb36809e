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
    let home = try SharedHome.holding("caltrain-2023.zip", as: "caltrain")
    let kept = try Store(directory: home.path)
    // 2023-11-06 to 2023-11-12 (a week of Pacific Standard Time), at 08:00, 13:00 and 00:30
    // local: six dates and more, so the oldest kept are let go and read again.
    let monday: Int64 = 1_699_257_600 + 8 * 3600  // 2023-11-06T00:00-08:00
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
          let fresh = try Store(directory: home.path).runningTrips(at: UnixTime(time))
          #expect(answer == fresh.map { "\($0.serviceDate.yyyymmdd) \($0.tripID.rawValue)" }, "at \(time)")
        }
      }
    }
    // Not empty answers: weekday mornings run trains, and 00:30 finds the last of the night.
    #expect(answers[monday + 8 * 3600]?.isEmpty == false)
    #expect(answers.values.contains { $0.contains { $0.hasPrefix("20231106 ") } && $0.count < 10 })
  }
}
