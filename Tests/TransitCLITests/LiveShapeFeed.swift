import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// The feed the shape tests of live answers share (issue 33): one bus, its trip update and an
/// alert, every value chosen so that the expected JSON can be worked out by hand.
///
/// The timetable (UTC, every day of 2026-2027; agency "Main Lines"): route R1 ("1", "Alder -
/// Cedar", bus, colours 00AA55 on FFFFFF) runs trip T1 (headsign Cedar, direction 0, block B1,
/// wheelchair accessible 1) from Alder (A, 10.0,10.0, wheelchair_boarding 1) at 08:00 by Birch
/// (B, 10.0078125,10.0) at 08:10 to Cedar (C, 10.015625,10.0) at 08:20; the block then runs T2
/// (headsign Alder, direction 1) from Cedar at 08:30 by Birch at 08:40 to Alder at 08:50.
/// Route R2 ("2", "Birch - Dogwood", bus, no colours) runs trip U1 (headsign Dogwood, no block,
/// wheelchair access unknown) from Birch at 08:45 to Dogwood (D, 10.0234375,10.0) at 08:55.
///
/// The realtime at `now`, 2026-06-01T08:05:00Z (1_780_301_100), each feed stamped 08:04:30:
/// vehicle V1 ("Bus 1") on T1 of 20260601 at 10.00390625,10.0, bearing 8, 4.5 m/s, IN_TRANSIT_TO
/// Birch (sequence 2), its position stamped 08:04:30; T1's update says Birch 120 s late (arrival
/// and departure); alert "a1" (DETOUR, CONSTRUCTION) informs route R1 from 08:00 to 09:00.
enum LiveShapeFeed {
  static let now = "2026-06-01T08:05:00Z"
  /// 2026-06-01T08:04:30Z, the feeds' and the vehicle's stamp.
  static let stamp: UInt64 = 1_780_301_070

  /// A data folder holding the timetable, and the `--realtime` arguments of the three feeds.
  static func home() throws -> (folder: TemporaryFolder, realtime: [String]) {
    let home = TemporaryFolder()
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Main Lines,https://example.org,UTC\n",
      "stops.txt": """
      stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
      A,1001,Alder,10.0,10.0,0,,1
      B,1002,Birch,10.0078125,10.0,0,,
      C,1003,Cedar,10.015625,10.0,0,,
      D,1004,Dogwood,10.0234375,10.0,0,,

      """,
      "routes.txt":
        "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\nR1,A,1,Alder - Cedar,3,00AA55,FFFFFF\nR2,A,2,Birch - Dogwood,3,,\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20271231\n",
      "trips.txt": """
      route_id,service_id,trip_id,trip_headsign,direction_id,block_id,wheelchair_accessible
      R1,S,T1,Cedar,0,B1,1
      R1,S,T2,Alder,1,B1,1
      R2,S,U1,Dogwood,0,,

      """,
      "stop_times.txt": """
      trip_id,arrival_time,departure_time,stop_id,stop_sequence
      T1,08:00:00,08:00:00,A,1
      T1,08:10:00,08:10:00,B,2
      T1,08:20:00,08:20:00,C,3
      T2,08:30:00,08:30:00,C,1
      T2,08:40:00,08:40:00,B,2
      T2,08:50:00,08:50:00,A,3
      U1,08:45:00,08:45:00,B,1
      U1,08:55:00,08:55:00,D,2

      """,
    ]
    try ingest(files, into: home)

    let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: stamp)
    let trip = TripDescriptor(tripID: "T1", routeID: "R1", startDate: "20260601")
    let vehicle = VehiclePosition(
      trip: trip, vehicle: VehicleDescriptor(id: "V1", label: "Bus 1"),
      position: Position(latitude: 10.00390625, longitude: 10.0, bearing: 8, speed: 4.5), currentStopSequence: 2,
      stopID: "B", currentStatus: .inTransitTo, timestamp: stamp)
    let update = TripUpdate(
      trip: trip, vehicle: VehicleDescriptor(id: "V1", label: "Bus 1"),
      stopTimeUpdates: [.init(stopSequence: 2, arrival: .init(delay: 120), departure: .init(delay: 120))])
    func english(_ text: String) -> TranslatedString { TranslatedString(translations: [.init(text: text, language: "en")]) }
    let alert = Alert(
      activePeriods: [TimeRange(start: 1_780_300_800, end: 1_780_304_400)], informedEntities: [EntitySelector(routeID: "R1")],
      cause: .construction, effect: .detour, url: english("https://example.org/a1"), headerText: english("1 diverted at Birch"),
      descriptionText: english("Birch is served from Elm Road."))
    let feeds = [
      ("vehicle-positions.pb", FeedMessage(header: header, entities: [FeedEntity(id: "v1", vehicle: vehicle)])),
      ("trip-updates.pb", FeedMessage(header: header, entities: [FeedEntity(id: "t1", tripUpdate: update)])),
      ("alerts.pb", FeedMessage(header: header, entities: [FeedEntity(id: "a1", alert: alert)])),
    ]
    var realtime: [String] = []
    for (name, message) in feeds {
      try Data(message.encoded()).write(to: URL(fileURLWithPath: home.path + "/" + name))
      realtime += ["--realtime", home.path + "/" + name]
    }
    return (home, realtime)
  }
}
