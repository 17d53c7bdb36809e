import Foundation
import GTFS
import GTFSRealtime
import Services
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// `transit vehicles` on the real vehicle-position captures in shared/data (PROVENANCE.md):
/// every vehicle listed once, and matched to the timetable as often as the pair allows.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct VehiclesRealCaptureTests {
  static let pairs = [
    RealPair(feed: "caltrain-2023.zip", capture: "caltrain-vehiclepositions-20231108T010559Z.pb", minimumMatchShare: 1.0),
    RealPair(feed: "kcm-vp-subset-2021.zip", capture: "kcm-vehiclepositions-20210902T153156Z.pb", minimumMatchShare: 1.0),
    RealPair(feed: "kcm-vp-subset-2021.zip", capture: "kcm-vehiclepositions-20210902T160830Z.pb", minimumMatchShare: 1.0),
  ]

  @Test(arguments: pairs)
  func everyVehicleOnceAndMatched(_ pair: RealPair) throws {
    let loaded = try LoadedPair(pair)
    let home = loaded.home, capture = loaded.capturePath, message = loaded.message
    let stamp = try #require(message.header?.timestamp)
    let ids = message.entities.compactMap { $0.vehicle?.vehicle?.id }
    let result = transit([
      "vehicles", "--json", "--live-only", "--realtime", capture, "--now", "@\(stamp)", "--data-dir", home.path,
    ])
    try #require(result.code == 0, "\(result.stderr)")
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    let listedIDs = listed.compactMap { $0["vehicle_id"] as? String }
    #expect(listedIDs.count == listed.count)
    #expect(Set(listedIDs).count == listedIDs.count, "a vehicle is listed twice")
    #expect(Set(listedIDs) == Set(ids))
    #expect(listed.allSatisfy { $0["estimated"] as? Bool == false })
    let withTrip = listed.filter { $0["trip_id"] is String }
    let matched = withTrip.filter { $0["route_short_name"] is String && $0["current_stop_id"] is String }
    let share = withTrip.isEmpty ? 1 : Double(matched.count) / Double(withTrip.count)
    print("\(pair.capture): \(listed.count) vehicles, \(matched.count) of \(withTrip.count) with a trip placed on it")
    #expect(share >= pair.minimumMatchShare)
  }

  @Test func caltrainText() throws {
    let home = try RealHome("caltrain-2023.zip")
    let vehicles = try #require(SharedData.path("rt/caltrain-vehiclepositions-20231108T010559Z.pb"))
    let result = transit([
      "vehicles", "--realtime", vehicles, "--now", "2023-11-07T17:06:30-08:00", "--data-dir", home.path,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "14 live vehicles, 3 estimated from the timetable · 17:06")
    #expect(lines.dropFirst(2).filter { $0.hasSuffix("live") }.count == 14)
    #expect(lines.dropFirst(2).filter { $0.hasSuffix("estimated") }.count == 3)
    #expect(result.stdout.contains("L4  San Francisco     411"))

    let route = transit([
      "vehicles", "--route", "B7", "--live-only", "--realtime", vehicles, "--now", "2023-11-07T17:06:30-08:00",
      "--data-dir", home.path,
    ])
    #expect(route.stdout.split(separator: "\n").count == 4)

    // Rule 9 along the shape: each estimated train lies on its trip's shape, not on the
    // straight line between two stations.
    let json = transit([
      "vehicles", "--json", "--realtime", vehicles, "--now", "2023-11-07T17:06:30-08:00", "--data-dir", home.path,
    ])
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    let estimated = listed.filter { $0["estimated"] as? Bool == true }
    #expect(estimated.count == 3)
    let store = try Store(directory: home.path)
    let feed = try #require(try Timetables(directory: home.path).list().first?.name)
    for vehicle in estimated {
      let tripID = try #require(vehicle["trip_id"] as? String)
      let shapeID = try #require(try store.shapeID(ofTrip: TripID(tripID), feed: FeedName(feed)))
      let shape = try #require(ShapePath(try store.shape(shapeID, feed: FeedName(feed))))
      let at = Coordinate(latitude: try #require(vehicle["lat"] as? Double), longitude: try #require(vehicle["lon"] as? Double))
      let onShape = shape.coordinate(at: shape.locate(at))
      #expect(at.distanceMeters(to: onShape) < 1, "\(tripID) is \(at.distanceMeters(to: onShape)) m off its shape")
    }
    let near = transit([
      "vehicles", "--near", "37.37046,-121.99604", "--radius", "100", "--realtime", vehicles,
      "--now", "2023-11-07T17:06:30-08:00", "--data-dir", home.path,
    ])
    #expect(near.stdout.split(separator: "\n").count == 3, "\(near.stdout)")
    // A saved place is a position too, as --near's completion offers it.
    #expect(transit(["places", "add", "desk", "37.37046,-121.99604", "--data-dir", home.path]).code == 0)
    let place = transit([
      "vehicles", "--near", "desk", "--radius", "100", "--realtime", vehicles,
      "--now", "2023-11-07T17:06:30-08:00", "--data-dir", home.path,
    ])
    #expect(place.stdout == near.stdout)
    let unknown = transit(["vehicles", "--near", "gym", "--realtime", vehicles, "--data-dir", home.path])
    #expect(unknown.code == 2)
    #expect(unknown.stderr.hasPrefix("transit: --near 'gym' is neither a position LAT,LON nor a saved place"))
  }
}

/// The text pieces of `vehicles`.
@Suite struct VehicleTextTests {
  @Test(arguments: zip([0.0, 22, 23, 90, 180, 269, 315, 359, -45, 720], ["↑", "↑", "↗", "→", "↓", "←", "↖", "↑", "↖", "↑"]))
  func headingArrows(bearing: Double, arrow: String) {
    #expect(RideText.arrow(bearing) == arrow)
  }

  @Test func delays() {
    // Classed as the answers class them at the default thresholds (late from +2 min, early
    // from -1 min): the text takes the class, it has no thresholds of its own.
    func delayText(_ delay: Int64?) -> String {
      RideText.delay(delay, status: delay.map(ServiceOptions().status(delaySeconds:)))
    }
    #expect(delayText(nil) == "")
    #expect(delayText(119) == "on time")
    #expect(delayText(120) == "2 min late")
    #expect(delayText(-60) == "1 min early")
  }

  @Test func radiusNeedsNear() {
    let result = transit(["vehicles", "--radius", "300", "--data-dir", "/nonexistent"])
    #expect(result.code == 2)
  }
}
