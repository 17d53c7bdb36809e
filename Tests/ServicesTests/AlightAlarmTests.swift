import Merge
import Services
import Testing
import TransitModel

/// The get-off alarm's rule (issue 35): once per threshold, "next stop" after "N stops", both
/// at once ring once, nothing for a passed or skipped stop.
@Suite struct AlightAlarmTests {
  let trip = TripInstance(tripID: TripID("T"), serviceDate: ServiceDate(year: 2026, month: 12, day: 1)!, startTime: nil)

  func status(_ state: AlightStatus.State, left: Int?, arrival: Int64 = 1000, skipped: Bool = false) -> AlightStatus {
    var view = VehicleView()
    view.isEstimated = false
    var status = AlightStatus(target: AlightTarget(trip: trip, stopID: StopID("S"), stopSequence: 9, name: "S"), view: view)
    status.state = state
    status.stopsLeft = left
    status.expectedArrival = UnixTime(arrival)
    status.isSkipped = skipped
    return status
  }

  @Test func stopsThresholdThenNextStopEachOnce() {
    var alarm = AlightAlarm()
    let sequence: [(AlightStatus.State, Int?)] = [
      (.ahead, 5), (.ahead, 3), (.ahead, 2), (.ahead, 2), (.nextStop, 1), (.nextStop, 1), (.atStop, 0),
    ]
    let rings = sequence.map { alarm.check(status($0.0, left: $0.1), now: UnixTime(0)) }
    #expect(rings == [nil, nil, .before, nil, .nextStop, nil, nil])
  }

  @Test func bothThresholdsAtOnceRingOnceForNextStop() {
    var alarm = AlightAlarm(before: .stops(3))
    #expect(alarm.check(status(.nextStop, left: 1), now: UnixTime(0)) == .nextStop)
    #expect(alarm.check(status(.ahead, left: 2), now: UnixTime(0)) == nil)
  }

  @Test func minutesThreshold() {
    var alarm = AlightAlarm(before: .seconds(180))
    #expect(alarm.check(status(.ahead, left: 4, arrival: 1000), now: UnixTime(1000 - 181)) == nil)
    #expect(alarm.check(status(.ahead, left: 4, arrival: 1000), now: UnixTime(1000 - 180)) == .before)
    #expect(alarm.check(status(.ahead, left: 3, arrival: 1000), now: UnixTime(1000 - 100)) == nil)
    #expect(alarm.check(status(.nextStop, left: 1, arrival: 1000), now: UnixTime(1000 - 60)) == .nextStop)
  }

  @Test func passedOrSkippedNeverRings() {
    var alarm = AlightAlarm()
    #expect(alarm.check(status(.passed, left: nil), now: UnixTime(0)) == nil)
    #expect(alarm.check(status(.nextStop, left: nil, skipped: true), now: UnixTime(0)) == nil)
    #expect(alarm.rung.isEmpty)
  }
}
