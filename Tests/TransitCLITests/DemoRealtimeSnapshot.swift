import Foundation
import GTFSRealtime
import TestSupport

/// The realtime snapshot of the demo network in `Data/realtime/`: what it holds, written with
/// the test encoder. `DemoRealtimeTests` checks the committed files equal these bytes;
/// `TRANSIT_WRITE_DEMO_REALTIME=1 swift test --filter DemoRealtimeTests` rewrites them.
///
/// The moment: Tuesday 2026-12-01, feed stamped 07:39:30 (Dublin keeps GMT in December).
enum DemoRealtimeSnapshot {
  /// 2026-12-01T07:39:30Z.
  static let timestamp: UInt64 = 1_796_110_770
  /// The unix time of 2026-12-01 `hh:mm:ss` (GMT).
  static func at(_ hour: Int64, _ minute: Int64, _ second: Int64 = 0) -> Int64 {
    1_796_083_200 + hour * 3600 + minute * 60 + second
  }

  static let tripUpdatesPath = "Data/realtime/demo-tripupdates.pb"
  static let vehiclePositionsPath = "Data/realtime/demo-vehiclepositions.pb"
  static let alertsPath = "Data/realtime/demo-alerts.pb"

  static func trip(
    _ id: String, route: String, start: String? = nil, _ relationship: TripDescriptor.ScheduleRelationship? = nil
  ) -> TripDescriptor {
    TripDescriptor(tripID: id, routeID: route, startTime: start, startDate: "20261201", scheduleRelationship: relationship)
  }

  static func delay(_ sequence: UInt32, _ seconds: Int32) -> TripUpdate.StopTimeUpdate {
    .init(stopSequence: sequence, arrival: .init(delay: seconds), departure: .init(delay: seconds))
  }

  /// The trip updates: one of each thing Merge handles.
  static var tripUpdates: FeedMessage {
    let updates: [(String, TripUpdate)] = [
      // 27 towards Crumlin: leaves 3 min late, an absolute time; its bus is V27-3.
      (
        "27-WK-1-0750",
        TripUpdate(
          trip: trip("27-WK-1-0750", route: "R27"), vehicle: VehicleDescriptor(id: "V27-3", label: "27 · 3"),
          stopTimeUpdates: [.init(stopSequence: 10, stopID: "TINT-A", departure: .init(time: at(7, 53)))],
          timestamp: timestamp)
      ),
      // Tram 07:50 instance (frequency trip, matched by start_time): 1 min late.
      (
        "Red-0750",
        TripUpdate(trip: trip("Red-WK-0-template", route: "RED", start: "07:50:00"), stopTimeUpdates: [delay(10, 60)])
      ),
      // Tram 08:00 instance: on time.
      ("Red-0800", TripUpdate(trip: trip("Red-WK-0-template", route: "RED", start: "08:00:00"), stopTimeUpdates: [delay(10, 0)])),
      // 54A to Kingswood recovering: 5 min late at Tallaght Stadium, 2 min at Belgard Road;
      // Tallaght Interchange, between them, is interpolated.
      ("54A-WK-0-0745", TripUpdate(trip: trip("54A-WK-0-0745", route: "R54A"), stopTimeUpdates: [delay(40, 300), delay(70, 120)])),
      // 54A to Killinarden: 90 s late at Tallaght Hospital, carried forward to the Interchange.
      ("54A-WK-1-0755", TripUpdate(trip: trip("54A-WK-1-0755", route: "R54A"), stopTimeUpdates: [delay(40, 90)])),
      // 49: does not call at the Interchange this time (SKIPPED), then on time.
      (
        "49-WK-0-0800",
        TripUpdate(
          trip: trip("49-WK-0-0800", route: "R49"),
          stopTimeUpdates: [.init(stopSequence: 10, scheduleRelationship: .skipped), delay(40, 0)])
      ),
      // 77X 08:05: cancelled.
      ("77X-WK-0-0805", TripUpdate(trip: trip("77X-WK-0-0805", route: "R77X", .canceled))),
      // An extra 27 the timetable lacks, leaving at 07:57.
      (
        "27-X-0757",
        TripUpdate(
          trip: trip("27-X-0757", route: "R27", .new), vehicle: VehicleDescriptor(id: "V27-9"),
          stopTimeUpdates: [
            .init(stopSequence: 1, stopID: "TINT-A", departure: .init(time: at(7, 57))),
            .init(stopSequence: 2, stopID: "TD4530", arrival: .init(time: at(7, 58)), departure: .init(time: at(7, 58))),
            .init(stopSequence: 3, stopID: "TD4529", arrival: .init(time: at(8, 0))),
          ],
          tripProperties: TripUpdate.TripProperties(tripHeadsign: "Crumlin Hospital (extra)"))
      ),
    ]
    return FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: timestamp),
      entities: updates.map { FeedEntity(id: $0.0, tripUpdate: $0.1) })
  }

  /// Vehicle positions for two of the trips.
  static var vehiclePositions: FeedMessage {
    FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: timestamp),
      entities: [
        FeedEntity(
          id: "V27-3",
          vehicle: VehiclePosition(
            trip: trip("27-WK-1-0750", route: "R27"), vehicle: VehicleDescriptor(id: "V27-3", label: "27 · 3"),
            position: Position(latitude: 53.2879, longitude: -6.3752, bearing: 90, speed: 0), stopID: "TINT-A",
            currentStatus: .stoppedAt, timestamp: timestamp - 10)),
        FeedEntity(
          id: "V54A-1",
          vehicle: VehiclePosition(
            trip: trip("54A-WK-0-0745", route: "R54A"), vehicle: VehicleDescriptor(id: "V54A-1"),
            position: Position(latitude: 53.2805, longitude: -6.3810, bearing: 45, speed: 8.5),
            currentStopSequence: 40, currentStatus: .inTransitTo, timestamp: timestamp - 5)),
      ])
  }

  static func english(_ text: String) -> TranslatedString {
    TranslatedString(translations: [.init(text: text, language: "en")])
  }

  /// Two alerts: a 77X detour active now, and a Red line closure next week (not active).
  static var alerts: FeedMessage {
    FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: timestamp),
      entities: [
        FeedEntity(
          id: "detour-77x",
          alert: Alert(
            activePeriods: [TimeRange(start: UInt64(at(6, 0)), end: UInt64(at(10, 0)))],
            informedEntities: [EntitySelector(routeID: "R77X")], cause: .construction, effect: .detour,
            headerText: english("77X diverted via Belgard Road until 10:00 (roadworks at Citywest)"),
            descriptionText: english("Stops at Cookstown Way are not served."))),
        FeedEntity(
          id: "red-closure",
          alert: Alert(
            activePeriods: [TimeRange(start: UInt64(at(6, 0)) + 7 * 86_400, end: UInt64(at(23, 0)) + 7 * 86_400)],
            informedEntities: [EntitySelector(routeID: "RED")], cause: .maintenance, effect: .noService,
            headerText: english("No Red line trams on 8 December"))),
      ])
  }
}
