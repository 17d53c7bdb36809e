import GTFSRealtime
import Testing
import TransitModel

@testable import Merge

/// Issue 38: realtime values out of range are treated as absent and counted, before any
/// arithmetic meets them (a time of INT64_MIN trapped the merge).
@Suite struct RealtimeBoundsTests {
  typealias B = Build

  @Test func timesPastTheSupportedYearsAreAbsentAndCounted() {
    let trip = B.trip("T1", [("A", "08:00"), ("B", "08:10"), ("C", "08:20")])
    // Stop A: a time of INT64_MIN (dropped; its delay of 60 s stays); B: a usable time 08:12
    // (2 min late); C: INT64_MAX and a scheduled_time of INT64_MIN (both dropped, no delay).
    var a = B.delay(60, sequence: 10)
    a.departure?.time = .min
    var c = TripUpdate.StopTimeUpdate(stopSequence: 30, departure: .init(time: .max, scheduledTime: .min))
    c.arrival = .init(time: -9_000_000_000_000_000_000)
    let update = B.update("T1", stops: [a, B.time(B.at("08:12"), sequence: 20), c])
    let realtime = Reconciler.realtime(trips: [trip], feeds: [B.feed([update])], now: B.now)
    #expect(realtime.report.outOfRangeCount == 4)
    let prediction = realtime.predictions[trip.instance]
    let stops = prediction?.stops ?? []
    #expect(stops.map(\.expectedDeparture) == [B.at("08:01"), B.at("08:12"), B.at("08:22")])
  }

  @Test func feedStampsPastTheSupportedYearsAreUnknownNotTrapped() {
    var feed = B.feed([B.update("T1", stops: [B.delay(60, sequence: 10)])])
    feed.header?.timestamp = .max
    let freshness = Reconciler.freshness(of: RealtimeBounds.bounded([feed]).feeds, now: B.now)
    #expect(freshness.status == .unknown)
    #expect(RealtimeBounds.bounded([feed]).outOfRangeCount == 1)
  }

  @Test func positionsSpeedsAndBearingsOutOfRangeAreAbsent() {
    func vehicle(_ position: Position) -> VehiclePosition {
      VehiclePosition(trip: TripDescriptor(tripID: "T1"), position: position, timestamp: UInt64(B.now.seconds))
    }
    let feed = B.feed(
      [],
      vehicles: [
        vehicle(Position(latitude: 53.3, longitude: -6.3, bearing: 90, odometer: 10, speed: 12)),  // all fine
        vehicle(Position(latitude: .nan, longitude: -6.3, bearing: .infinity, odometer: -1, speed: .nan)),
        vehicle(Position(latitude: 53.3, longitude: 200, bearing: 1e30, odometer: .nan, speed: 3.4e38)),
        vehicle(Position(latitude: 53.3, longitude: -6.3, speed: -.infinity)),
      ])
    let (bounded, count) = RealtimeBounds.bounded([feed])
    let positions = bounded[0].entities.compactMap { $0.vehicle?.position }
    #expect(positions[0] == Position(latitude: 53.3, longitude: -6.3, bearing: 90, odometer: 10, speed: 12))
    // The second and third lose their point (both halves), speed, bearing and odometer.
    #expect(positions[1] == Position())
    #expect(positions[2] == Position())
    #expect(positions[3] == Position(latitude: 53.3, longitude: -6.3))
    // 2: the point, bearing, odometer, speed (4); 3: the same (4); 4: the speed (1).
    #expect(count == 9)
  }

  @Test func aFeedWithNothingOutOfRangeIsLeftAsItIs() {
    let feed = B.feed([B.update("T1", stops: [B.time(B.at("08:12"), sequence: 20)])])
    let (bounded, count) = RealtimeBounds.bounded([feed])
    #expect(count == 0)
    #expect(bounded == [feed])
  }

  @Test(
    arguments: [
      (Double.nan, nil), (.infinity, nil), (-.infinity, nil), (3.4e38, nil), (9.3e18, nil), (2.5, 3), (-2.5, -3), (41.9, 42),
    ] as [(Double, Int?)])
  func floatToIntegerRefusesWhatIsNoInteger(value: Double, expected: Int?) {
    #expect(Int(roundingFinite: value) == expected)
  }
}
