import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// `transit rt check`: match counts with reasons, and the validator rules by id, on hand-built
/// feeds against the demo timetable (trip 27-WK-0-0600 calls TD4521 at 06:00, TD4522 at 06:02).
@Suite struct RtCheckTests {
  static let header = FeedHeader(gtfsRealtimeVersion: "2.0", timestamp: 1_796_110_560)  // 2026-12-01T07:36:00Z
  static let now = "2026-12-01T07:36:30Z"

  func write(_ feed: FeedMessage, in folder: TemporaryFolder, name: String = "feed.pb") throws -> String {
    let path = folder.path + "/" + name
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    return path
  }

  func check(_ paths: [String], home: DemoHome, json: Bool = true) -> CLIResult {
    home.run(["rt", "check"] + paths + ["--now", Self.now] + (json ? ["--json"] : []))
  }

  func rules(_ result: CLIResult) throws -> [String: Int] {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let rules = try #require(object["rules"] as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as! String, $0["count"] as! Int) })
  }

  @Test func aCleanFeedPassesEveryRule() throws {
    let home = DemoHome(), folder = TemporaryFolder()
    var stu = TripUpdate.StopTimeUpdate(stopSequence: 20, stopID: "TD4522")
    stu.departure = TripUpdate.StopTimeEvent(time: 1_796_110_560 + 120)
    let update = TripUpdate(trip: TripDescriptor(tripID: "27-WK-0-0600", startDate: "20261201"), stopTimeUpdates: [stu])
    let path = try write(FeedMessage(header: Self.header, entities: [FeedEntity(id: "1", tripUpdate: update)]), in: folder)
    let result = check([path], home: home)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(try rules(result).values.allSatisfy { $0 == 0 })
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let updates = try #require(object["trip_updates"] as? [String: Any])
    #expect(updates["by_rule"] as? [String: Int] == ["trip_id": 1])
  }

  /// One of each fault, each counted once (or as built), and the exit code 1.
  @Test func eachRuleFiresOnItsFault() throws {
    let home = DemoHome(), folder = TemporaryFolder()
    func event(_ time: Int64) -> TripUpdate.StopTimeEvent { TripUpdate.StopTimeEvent(time: time) }
    let t = Int64(1_796_110_560)
    // E011 (stop), E022 (times go back), E025 (departure before arrival), E037 (same stop twice).
    var a = TripUpdate.StopTimeUpdate(stopSequence: 20, stopID: "TD4522")
    a.arrival = event(t + 300)
    a.departure = event(t + 240)  // E025
    var b = TripUpdate.StopTimeUpdate(stopSequence: 30, stopID: "TD4522")  // E037
    b.departure = event(t + 200)  // E022: before 240
    var c = TripUpdate.StopTimeUpdate(stopSequence: 30, stopID: "NOSTOP")  // E036, E011
    c.departure = event(t + 400)
    var update = TripUpdate(trip: TripDescriptor(tripID: "27-WK-0-0600", startDate: "20261201"), stopTimeUpdates: [a, b, c])
    update.timestamp = UInt64(t + 30)  // E012: after the header
    let unknown = TripUpdate(trip: TripDescriptor(tripID: "no-such-trip", routeID: "NOROUTE"), stopTimeUpdates: [])  // E003, E004
    func vehicle(_ id: String, lat: Float, lon: Float, bearing: Float? = nil, speed: Float? = nil) -> VehiclePosition {
      VehiclePosition(
        trip: TripDescriptor(tripID: "27-WK-0-0600"), vehicle: VehicleDescriptor(id: id),
        position: Position(latitude: lat, longitude: lon, bearing: bearing, speed: speed))
    }
    let entities = [
      FeedEntity(id: "tu1", tripUpdate: update), FeedEntity(id: "tu2", tripUpdate: unknown),
      // E027, W004; E029: 340 m from shape R27_0 (worked out by hand from Data/gtfs/shapes.txt).
      FeedEntity(id: "v1", vehicle: vehicle("V1", lat: 53.29, lon: -6.37, bearing: 400, speed: 40)),
      FeedEntity(id: "v2", vehicle: vehicle("V1", lat: 91, lon: -6.37)),  // E052, E026
      FeedEntity(id: "v3", vehicle: vehicle("V3", lat: 48.85, lon: 2.35)),  // E028: Paris
    ]
    var stale = Self.header
    stale.timestamp = 1_796_110_560 - 300  // W008 against --now; E018 after the first
    let first = try write(FeedMessage(header: Self.header, entities: entities), in: folder, name: "a.pb")
    let second = try write(FeedMessage(header: stale, entities: []), in: folder, name: "b.pb")
    let result = check([first, second], home: home)
    #expect(result.code == 1)
    let counts = try rules(result)
    let expected = [
      "E003": 1, "E004": 1, "E011": 1, "E012": 1, "E017": 0, "E018": 1, "E022": 1, "E025": 1, "E026": 1, "E027": 1, "E028": 1,
      "E029": 1, "E036": 1, "E037": 1, "E050": 0, "E052": 1, "W004": 1, "W008": 1,
    ]
    #expect(counts == expected)
    let text = check([first, second], home: home, json: false)
    #expect(text.code == 1)
    #expect(text.stdout.contains("FAIL E003 trip_id not in the GTFS (and not ADDED): 1 (e.g. entity tu2: trip_id no-such-trip)"))
    #expect(text.stdout.contains("trip updates: 1 of 2 matched"))
    #expect(text.stdout.contains("1 unmatched, unknown_trip: trip no-such-trip"))
  }

  /// E029: a vehicle on its trip's shape (at one of R27_0's points) passes; one about 1 km east
  /// of every point of it fires; an alert with effect DETOUR for the trip spares it.
  @Test func aVehicleFarFromItsShapeFiresUnlessOnADetour() throws {
    let home = DemoHome(), folder = TemporaryFolder()
    func vehicle(_ id: String, lat: Float, lon: Float) -> FeedEntity {
      FeedEntity(
        id: id,
        vehicle: VehiclePosition(
          trip: TripDescriptor(tripID: "27-WK-0-0600"), vehicle: VehicleDescriptor(id: id),
          position: Position(latitude: lat, longitude: lon)))
    }
    let on = vehicle("on", lat: 53.323841, lon: -6.313396)
    let off = vehicle("off", lat: 53.323841, lon: -6.298)
    let plain = try write(FeedMessage(header: Self.header, entities: [on, off]), in: folder, name: "plain.pb")
    #expect(try rules(check([plain], home: home))["E029"] == 1)
    let text = check([plain], home: home, json: false).stdout
    #expect(text.contains("E029") && text.contains("entity off"), "\(text)")
    var detour = Alert()
    detour.effect = .detour
    detour.informedEntities = [EntitySelector(trip: TripDescriptor(tripID: "27-WK-0-0600"))]
    let spared = try write(
      FeedMessage(header: Self.header, entities: [on, off, FeedEntity(id: "a1", alert: detour)]), in: folder, name: "detour.pb")
    #expect(try rules(check([spared], home: home))["E029"] == 0)
  }

  @Test func aMissingFileIsOneLineAndExit1() {
    let home = DemoHome()
    let result = home.run(["rt", "check", "/no/such.pb"])
    #expect(result.code == 1)
    #expect(result.stderr == "transit: /no/such.pb: no such file\n")
  }
}
