import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TestSupport
import Testing
import TransitModel

/// The session's vehicle list and route map (issue 33), on the demo timetable and its
/// realtime snapshot, compared with values read here from the feed files themselves.
@Suite struct SessionVehiclesTests {
  /// The demo's vehicle positions alone (Data/realtime/demo-vehiclepositions.pb).
  static func positions() throws -> FeedMessage {
    let path = packageRoot + "/Data/realtime/demo-vehiclepositions.pb"
    return try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: path))))
  }

  /// The rows of a feed file, each a dictionary by column name.
  static func rows(_ file: String) throws -> [[String: String]] { try demoRows(file) }

  /// The JSON of `value` as Foundation reads it back.
  static func json(_ value: some Encodable) throws -> Any {
    try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value))
  }

  @Test func theListHoldsEachVehicleOfTheFeedOnceWithItsPositionAndAge() throws {
    let feed = try Self.positions()
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions(), realtime: FixedRealtime([feed]))
    let now = DemoTimetable.now
    let answer = try session.vehicles(VehiclesRequest(includeEstimated: false), now: now)
    let vehicles = feed.entities.compactMap(\.vehicle)
    try #require(!vehicles.isEmpty)
    #expect(Set(answer.views.compactMap(\.vehicleID)) == Set(vehicles.compactMap { $0.vehicle?.id }))
    #expect(answer.views.count == vehicles.count)
    #expect(answer.liveCount == vehicles.count)
    #expect(answer.estimatedCount == 0)
    #expect(answer.now == now)
    #expect(answer.realtimeProblems.isEmpty)
    #expect(answer.report.vehicleCount == vehicles.count)

    // The JSON: one object per vehicle, its position and its report's age from the feed.
    let listed = try #require(try Self.json(answer) as? [[String: Any]])
    #expect(listed.count == vehicles.count)
    for vehicle in vehicles {
      let id = try #require(vehicle.vehicle?.id)
      let object = try #require(listed.first { $0["vehicle_id"] as? String == id }, "\(id)")
      let position = try #require(vehicle.position)
      #expect(object["lat"] as? Double == position.latitude.map(Double.init))
      #expect(object["lon"] as? Double == position.longitude.map(Double.init))
      #expect(object["trip_id"] as? String == vehicle.trip?.tripID)
      let stamp = try #require(vehicle.timestamp)
      #expect(object["age_seconds"] as? Int == Int(now.seconds) - Int(stamp))
      #expect(object["estimated"] as? Bool == false)
    }
  }

  @Test func theListIsNarrowedToARouteAndAPlace() throws {
    let feed = try Self.positions()
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions(), realtime: FixedRealtime([feed]))
    // Data/gtfs/trips.txt: the trips of route R27 (short name 27, routes.txt).
    let route27 = Set(try Self.rows("trips.txt").filter { $0["route_id"] == "R27" }.compactMap { $0["trip_id"] })
    let vehicles = feed.entities.compactMap(\.vehicle)
    let on27 = vehicles.filter { $0.trip?.tripID.map(route27.contains) ?? false }
    try #require(!on27.isEmpty && on27.count < vehicles.count)
    let answer = try session.vehicles(VehiclesRequest(route: "27", includeEstimated: false), now: DemoTimetable.now)
    #expect(Set(answer.views.compactMap(\.vehicleID)) == Set(on27.compactMap { $0.vehicle?.id }))

    // Around the first vehicle's own position, 1 m: that vehicle alone (the others are apart).
    let first = try #require(on27.first)
    let here = Coordinate(
      latitude: Double(try #require(first.position?.latitude)), longitude: Double(try #require(first.position?.longitude)))
    let near = try session.vehicles(
      VehiclesRequest(near: here, radiusMeters: 1, includeEstimated: false), now: DemoTimetable.now)
    #expect(near.views.map(\.vehicleID) == [first.vehicle?.id])
    #expect(try Self.json(near) as? [[String: Any]] != nil)
    // No route of that name: an empty list, an empty array.
    let none = try session.vehicles(VehiclesRequest(route: "no-such-route"), now: DemoTimetable.now)
    #expect(none.views.isEmpty)
    #expect((try Self.json(none) as? [Any])?.isEmpty == true)
  }

  @Test func withoutRealtimeTheTimetablesRunningTripsAreEstimated() throws {
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let answer = try session.vehicles(VehiclesRequest(route: "27"), now: DemoTimetable.now)
    // Data/gtfs: the weekday trips of R27 that have left their first stop and not passed
    // their last at 07:40 (one arriving there at 07:40 is there); 2026-12-01 is a Tuesday,
    // and Dublin's clock is UTC in December.
    let trips = try Self.rows("trips.txt").filter { $0["route_id"] == "R27" && $0["service_id"] == "WK" }
    let ids = Set(trips.compactMap { $0["trip_id"] })
    var spans: [String: (Int, Int)] = [:]
    func seconds(_ text: String) -> Int {
      let parts = text.split(separator: ":").compactMap { Int($0) }
      return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
    for row in try Self.rows("stop_times.txt") {
      guard let trip = row["trip_id"], ids.contains(trip), let time = row["departure_time"], !time.isEmpty else { continue }
      let t = seconds(time)
      let span = spans[trip] ?? (t, t)
      spans[trip] = (min(span.0, t), max(span.1, t))
    }
    let at = 7 * 3600 + 40 * 60
    let running = Set(spans.filter { $0.value.0 <= at && at <= $0.value.1 }.map(\.key))
    try #require(!running.isEmpty)
    #expect(Set(answer.views.compactMap { $0.tripID?.rawValue }) == running)
    #expect(answer.views.allSatisfy { $0.isEstimated })
    #expect(answer.liveCount == 0)
  }

  @Test func aReplayReadsItsSnapshotsFilesAndAnswersAtItsTime() throws {
    let folder = packageRoot + "/Data/realtime/"
    let files = [folder + "demo-tripupdates.pb", folder + "demo-vehiclepositions.pb"]
    let caps = RealtimeCaps(maxDownloadMegabytes: 1, maxMegabytes: 1, maxEntities: 1000, maxStopUpdates: 1000)
    let replay = ReplayRealtime(time: UnixTime(1_796_110_770), files: files, caps: caps)
    // Each file is read as a capture: one that is not there fails the read, naming it.
    let missing = ReplayRealtime(time: UnixTime(1_796_110_770), files: [folder + "nothing.pb"], caps: caps)
    let failure = #expect(throws: LibraryFailure.self) { try missing.read(preferring: nil) }
    #expect(failure?.reason == folder + "nothing.pb: no such file")
    #expect(replay.now(asked: nil) == UnixTime(1_796_110_770))
    #expect(replay.now(asked: DemoTimetable.now) == DemoTimetable.now)
    #expect(replay.periodSeconds(preferring: nil) == nil)
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions(), realtime: replay)
    let answer = try session.vehicles(VehiclesRequest(includeEstimated: false), now: replay.now(asked: nil))
    let vehicleIDs = Set(try Self.positions().entities.compactMap { $0.vehicle?.vehicle?.id })
    #expect(vehicleIDs.isSubset(of: Set(answer.views.compactMap(\.vehicleID))))
    #expect(answer.now == UnixTime(1_796_110_770))
  }

  @Test func aRoutesMapHoldsItsShapesAndStops() throws {
    let session = TransitSession(store: try DemoTimetable.store(), options: ServiceOptions())
    let map = try #require(try session.routeMap(route: "27", on: DemoTimetable.now))
    // Data/gtfs/shapes.txt: each shape of R27's trips, its points in sequence.
    let trips = try Self.rows("trips.txt").filter { $0["route_id"] == "R27" }
    let shapeIDs = Set(trips.compactMap { $0["shape_id"] })
    var shapes: [String: [(Int, Coordinate)]] = [:]
    for row in try Self.rows("shapes.txt") where shapeIDs.contains(row["shape_id"] ?? "") {
      let point = Coordinate(latitude: Double(row["shape_pt_lat"]!)!, longitude: Double(row["shape_pt_lon"]!)!)
      shapes[row["shape_id"]!, default: []].append((Int(row["shape_pt_sequence"]!)!, point))
    }
    let expected = Set(shapes.values.map { $0.sorted { $0.0 < $1.0 }.map(\.1) })
    #expect(Set(map.lines.map(\.points)) == expected)
    #expect(Set(map.lines.compactMap(\.shapeID)) == shapeIDs)
    // Its stops: every stop its weekday trips call at, once.
    let weekday = Set(trips.filter { $0["service_id"] == "WK" }.compactMap { $0["trip_id"] })
    let stopIDs = Set(try Self.rows("stop_times.txt").filter { weekday.contains($0["trip_id"] ?? "") }.compactMap { $0["stop_id"] })
    let stops = try Self.rows("stops.txt").filter { stopIDs.contains($0["stop_id"] ?? "") }.map {
      Coordinate(latitude: Double($0["stop_lat"]!)!, longitude: Double($0["stop_lon"]!)!)
    }
    #expect(Set(map.stops) == Set(stops))
    #expect(map.stops.count == Set(stops).count)
    #expect(map.termini.count >= 2)
    #expect(try session.routeMap(route: "no-such-route", on: DemoTimetable.now) == nil)
  }
}
