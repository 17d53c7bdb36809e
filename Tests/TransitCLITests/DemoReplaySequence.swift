import Foundation
import GTFSRealtime
import TestSupport

/// The recorded sequence of the demo network in `Data/replay/`, for `follow --replay`: written
/// with the test encoder; `FollowCommandTests` checks the committed files equal these bytes and
/// `TRANSIT_WRITE_DEMO_REPLAY=1 swift test --filter FollowCommandTests` rewrites them.
///
/// Bus `V27-1` on block B1 (Tuesday 2026-12-01, GMT): on 27-WK-0-0720 towards Tallaght it
/// moves along, skips Tallaght Village, drops out of the feed for two snapshots (07:48, 07:52),
/// and reappears at 08:07 on 77X-WK-0-0805, the next trip of its block, under route 77X.
enum DemoReplaySequence {
  static let directory = "Data/replay"

  /// The unix time of 2026-12-01 `hh:mm:ss` (GMT).
  static func at(_ hour: Int64, _ minute: Int64, _ second: Int64 = 0) -> UInt64 {
    UInt64(1_796_083_200 + hour * 3600 + minute * 60 + second)
  }

  struct Sighting {
    var tripID: String
    var routeID: String
    var latitude: Float
    var longitude: Float
    var bearing: Float
    var speed: Float
    var stopSequence: UInt32
    var status: VehiclePosition.VehicleStopStatus
    var delays: [(UInt32, Int32)]
    var skipped: [UInt32]
  }

  /// Snapshot times and where the bus is (nil: not in the feed).
  static let snapshots: [(UInt64, Sighting?)] = [
    (
      at(7, 36),
      Sighting(
        tripID: "27-WK-0-0720", routeID: "R27", latitude: 53.3060, longitude: -6.3365, bearing: 240, speed: 9,
        stopSequence: 60, status: .inTransitTo, delays: [(60, 60)], skipped: [80])
    ),
    (
      at(7, 40),
      Sighting(
        tripID: "27-WK-0-0720", routeID: "R27", latitude: 53.3000, longitude: -6.3540, bearing: 225, speed: 0,
        stopSequence: 70, status: .stoppedAt, delays: [(70, 60)], skipped: [80])
    ),
    (
      at(7, 44),
      Sighting(
        tripID: "27-WK-0-0720", routeID: "R27", latitude: 53.2895, longitude: -6.3612, bearing: 250, speed: 7.5,
        stopSequence: 90, status: .inTransitTo, delays: [(90, 30)], skipped: [])
    ),
    (at(7, 48), nil),
    (at(7, 52), nil),
    (
      at(8, 7),
      Sighting(
        tripID: "77X-WK-0-0805", routeID: "R77X", latitude: 53.2925, longitude: -6.3835, bearing: 300, speed: 10,
        stopSequence: 30, status: .inTransitTo, delays: [(30, 30)], skipped: [])
    ),
  ]

  /// The files of one snapshot: `<unix>-vehicle-positions.pb` and `<unix>-trip-updates.pb`.
  static func files(_ time: UInt64, _ sighting: Sighting?) -> [(name: String, bytes: [UInt8])] {
    let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: time)
    var vehicles: [FeedEntity] = []
    var updates: [FeedEntity] = []
    if let s = sighting {
      let trip = TripDescriptor(tripID: s.tripID, routeID: s.routeID, startDate: "20261201")
      let bus = VehicleDescriptor(id: "V27-1", label: "27 · 1")
      vehicles.append(
        FeedEntity(
          id: "V27-1",
          vehicle: VehiclePosition(
            trip: trip, vehicle: bus,
            position: Position(latitude: s.latitude, longitude: s.longitude, bearing: s.bearing, speed: s.speed),
            currentStopSequence: s.stopSequence, currentStatus: s.status, timestamp: time - 10)))
      let stops: [TripUpdate.StopTimeUpdate] =
        s.delays.map { .init(stopSequence: $0.0, arrival: .init(delay: $0.1), departure: .init(delay: $0.1)) }
        + s.skipped.map { .init(stopSequence: $0, scheduleRelationship: .skipped) }
      updates.append(
        FeedEntity(id: s.tripID, tripUpdate: TripUpdate(trip: trip, vehicle: bus, stopTimeUpdates: stops, timestamp: time - 10)))
    }
    return [
      ("\(time)-trip-updates.pb", FeedMessage(header: header, entities: updates).encoded()),
      ("\(time)-vehicle-positions.pb", FeedMessage(header: header, entities: vehicles).encoded()),
    ]
  }

  /// Every file of the sequence.
  static var allFiles: [(name: String, bytes: [UInt8])] { snapshots.flatMap { files($0.0, $0.1) } }
}
