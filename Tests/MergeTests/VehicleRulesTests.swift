import GTFSRealtime
import Testing
import TransitModel

@testable import Merge

/// Rules 8–10: where a vehicle is, where an untracked trip should be, and block continuation.
@Suite struct VehicleRulesTests {
  typealias B = Build

  /// Three stops about 556 m apart going north, 08:10 / 08:20 (waits a minute) / 08:30.
  let trip = ScheduledTrip(
    instance: TripInstance(tripID: "T1", serviceDate: B.date), routeID: "R1",
    stops: [
      ScheduledStop(stopID: "A", stopSequence: 10, arrival: B.at("08:10"), departure: B.at("08:10")),
      ScheduledStop(stopID: "B", stopSequence: 20, arrival: B.at("08:20"), departure: B.at("08:21")),
      ScheduledStop(stopID: "C", stopSequence: 30, arrival: B.at("08:30"), departure: B.at("08:30")),
    ])
  let places: [StopID: Coordinate] = [
    "A": Coordinate(latitude: 53.2800, longitude: -6.37),
    "B": Coordinate(latitude: 53.2850, longitude: -6.37),
    "C": Coordinate(latitude: 53.2900, longitude: -6.37),
  ]

  // MARK: - Rule 8

  @Test func theVehiclesOwnStopWins() {
    let vehicle = VehiclePosition(currentStopSequence: 20, stopID: "C", currentStatus: .stoppedAt)
    let update = TripUpdate(stopTimeUpdates: [B.delay(60, sequence: 30)])
    #expect(
      Reconciler.currentStop(of: trip, vehicle: vehicle, update: update)
        == VehicleLocation(stopSequence: 20, stopID: "B", isAtStop: true, basis: .vehicle))
    let byStopID = VehiclePosition(stopID: "C")
    #expect(
      Reconciler.currentStop(of: trip, vehicle: byStopID, update: nil)
        == VehicleLocation(stopSequence: 30, stopID: "C", isAtStop: false, basis: .vehicle))
  }

  @Test func elseTheFirstStopStillInTheTripUpdate() {
    // Stop A has dropped out of the update: the bus is past it, on its way to B.
    let update = TripUpdate(stopTimeUpdates: [B.delay(60, sequence: 20), B.delay(60, sequence: 30)])
    #expect(
      Reconciler.currentStop(of: trip, vehicle: VehiclePosition(), update: update)
        == VehicleLocation(stopSequence: 20, stopID: "B", isAtStop: false, basis: .tripUpdate))
  }

  @Test func stopsAlreadyPassedInTheTripUpdateAreSkippedGivenNow() {
    // Some feeds (Caltrain) keep listing the stops a train has left, with times in the past.
    let update = TripUpdate(stopTimeUpdates: [
      B.time(B.at("08:10"), sequence: 10), B.time(B.at("08:20"), sequence: 20), B.time(B.at("08:30"), sequence: 30),
    ])
    #expect(
      Reconciler.currentStop(of: trip, vehicle: VehiclePosition(), update: update, now: B.at("08:25"))
        == VehicleLocation(stopSequence: 30, stopID: "C", isAtStop: false, basis: .tripUpdate))
    #expect(Reconciler.currentStop(of: trip, vehicle: nil, update: update)?.stopSequence == 10)
  }

  @Test func elseItsPositionAgainstTheStops() {
    func at(_ latitude: Double, _ longitude: Double = -6.37) -> VehicleLocation? {
      let vehicle = VehiclePosition(position: Position(latitude: Float(latitude), longitude: Float(longitude)))
      return Reconciler.currentStop(of: trip, vehicle: vehicle, update: nil, stopCoordinates: places)
    }
    #expect(at(53.2870) == VehicleLocation(stopSequence: 30, stopID: "C", isAtStop: false, basis: .position))
    #expect(at(53.2820, -6.3705) == VehicleLocation(stopSequence: 20, stopID: "B", isAtStop: false, basis: .position))
    #expect(at(53.2851) == VehicleLocation(stopSequence: 20, stopID: "B", isAtStop: true, basis: .position))
    #expect(Reconciler.currentStop(of: trip, vehicle: VehiclePosition(), update: nil, stopCoordinates: places) == nil)
  }

  // MARK: - Rule 9

  @Test func untrackedTripsArePlacedByTheTimetable() {
    #expect(Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:05")) == nil)
    #expect(Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:31")) == nil)
    let halfway = Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:15"))
    #expect(halfway?.stopSequence == 20 && halfway?.isAtStop == false)
    #expect(abs((halfway?.coordinate.latitude ?? 0) - 53.2825) < 1e-9)
    let waiting = Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:20") + 30)
    #expect(waiting == EstimatedPosition(coordinate: places["B"]!, stopSequence: 20, isAtStop: true))
  }

  @Test func estimatesFollowPredictionsWhenThereAreSome() {
    var report = MergeReport()
    let prediction = Reconciler.predict(
      trip, update: TripUpdate(stopTimeUpdates: [B.delay(300, sequence: 10)]), options: .init(), report: &report)
    // Five minutes late: at 08:15 it is only just leaving A.
    let late = Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:15"), prediction: prediction)
    #expect(late == EstimatedPosition(coordinate: places["A"]!, stopSequence: 10, isAtStop: true))
  }

  /// The road from A to B goes east 1 km then back west (a U round a block), so halfway in
  /// time is at the far corner, not on the straight line between the stops.
  var detour: ShapePath {
    ShapePath([
      ShapePoint(coordinate: Coordinate(latitude: 53.2800, longitude: -6.37), distance: 0),
      ShapePoint(coordinate: Coordinate(latitude: 53.2800, longitude: -6.355), distance: 1000),
      ShapePoint(coordinate: Coordinate(latitude: 53.2850, longitude: -6.355), distance: 1556),
      ShapePoint(coordinate: Coordinate(latitude: 53.2850, longitude: -6.37), distance: 2556),
      ShapePoint(coordinate: Coordinate(latitude: 53.2900, longitude: -6.37), distance: 3112),
    ])!
  }

  @Test func untrackedTripsFollowTheShape() throws {
    // 08:15 is half of A→B's time: half of its 2,556 m of road, 1,278 m along, on the
    // northbound side of the U, 278 m up it.
    let halfway = try #require(Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:15"), shape: detour))
    #expect(halfway.stopSequence == 20 && !halfway.isAtStop)
    #expect(abs(halfway.coordinate.longitude - -6.355) < 1e-6)
    #expect(abs(halfway.coordinate.distanceMeters(to: Coordinate(latitude: 53.2800, longitude: -6.355)) - 278) < 5)
    // Stops placed by their shape_dist_traveled give the same answer as stops projected.
    var measured = trip
    for (index, distance) in [0.0, 2556, 3112].enumerated() { measured.stops[index].shapeDistance = distance }
    let byDistance = try #require(
      Reconciler.estimatedPosition(of: measured, stopCoordinates: places, at: B.at("08:15"), shape: detour))
    #expect(byDistance.coordinate.distanceMeters(to: halfway.coordinate) < 1)
    // Between B and C the road is straight, so the shape agrees with the line.
    let later = try #require(Reconciler.estimatedPosition(of: trip, stopCoordinates: places, at: B.at("08:25") + 30, shape: detour))
    #expect(abs(later.coordinate.latitude - 53.2875) < 1e-6)
  }

  /// A loop that starts and ends at the same stop, S (08:00) → F (08:10) → S (08:20): out
  /// north on one street and back south on the next one east.
  static let loop: (ScheduledTrip, [StopID: Coordinate], ShapePath) = (
    ScheduledTrip(
      instance: TripInstance(tripID: "L", serviceDate: B.date), routeID: "R",
      stops: [
        ScheduledStop(stopID: "S", stopSequence: 1, arrival: B.at("08:00"), departure: B.at("08:00")),
        ScheduledStop(stopID: "F", stopSequence: 2, arrival: B.at("08:10"), departure: B.at("08:10")),
        ScheduledStop(stopID: "S", stopSequence: 3, arrival: B.at("08:20"), departure: B.at("08:20")),
      ]),
    ["S": Coordinate(latitude: 53.28, longitude: -6.37), "F": Coordinate(latitude: 53.29, longitude: -6.37)],
    ShapePath(
      [(53.28, -6.37), (53.29, -6.37), (53.29, -6.36), (53.28, -6.36), (53.28, -6.37)].map {
        ShapePoint(coordinate: Coordinate(latitude: $0.0, longitude: $0.1))
      })!
  )

  @Test func aLoopsStopsArePlacedInOrder() throws {
    // A loop that starts and ends at the same stop: S (08:00) → far point (08:10) → S (08:20).
    // The last stop projects onto the start of the shape too; it must be placed at its end.
    let (loop, coordinates, shape) = Self.loop
    // 08:15: halfway from F back to S along the road (F → east → south → west), on the
    // eastern side, not on the straight line F–S.
    let position = try #require(Reconciler.estimatedPosition(of: loop, stopCoordinates: coordinates, at: B.at("08:15"), shape: shape))
    #expect(position.stopSequence == 3)
    #expect(position.coordinate.longitude > -6.3625)
  }

  @Test func aVehicleOnALoopIsPlacedAlongTheShape() throws {
    // Out north on one street, back south on the next one east: by the stops alone a bus on
    // the way back is on the way out (both legs are the same straight line).
    let (loop, coordinates, shape) = Self.loop
    let returning = VehiclePosition(position: Position(latitude: 53.285, longitude: -6.36))
    let byStops = Reconciler.currentStop(of: loop, vehicle: returning, update: nil, stopCoordinates: coordinates)
    #expect(byStops?.stopSequence == 2)
    let byShape = Reconciler.currentStop(of: loop, vehicle: returning, update: nil, stopCoordinates: coordinates, shape: shape)
    #expect(byShape == VehicleLocation(stopSequence: 3, stopID: "S", isAtStop: false, basis: .position))
    let outbound = VehiclePosition(position: Position(latitude: 53.285, longitude: -6.37))
    #expect(
      Reconciler.currentStop(of: loop, vehicle: outbound, update: nil, stopCoordinates: coordinates, shape: shape)
        == VehicleLocation(stopSequence: 2, stopID: "F", isAtStop: false, basis: .position))
    let atFar = VehiclePosition(position: Position(latitude: 53.29, longitude: -6.37))
    #expect(
      Reconciler.currentStop(of: loop, vehicle: atFar, update: nil, stopCoordinates: coordinates, shape: shape)
        == VehicleLocation(stopSequence: 2, stopID: "F", isAtStop: true, basis: .position))
  }

  @Test func shapePathMeasuresAndSlices() throws {
    let path = detour
    #expect(abs(path.length - 3112) < 10)
    #expect(path.coordinate(at: -5) == path.points[0].coordinate)
    #expect(path.coordinate(at: 1e9) == path.points[4].coordinate)
    #expect(try #require(path.metres(atTraveled: 500)) == path.metres[1] / 2)
    #expect(path.metres(atTraveled: 9999) == nil)
    let slice = path.slice(from: path.metres[1] / 2, to: path.metres[3])
    #expect(slice.count == 4)  // the cut, two corners, the end at a point
    #expect(slice[1] == path.points[1].coordinate && slice[2] == path.points[2].coordinate)
    #expect(ShapePath([ShapePoint(coordinate: Coordinate(latitude: 53.28, longitude: -6.37))]) == nil)
  }

  // MARK: - Rule 10

  @Test func aVehicleContinuesOnTheNextTripOfItsBlock() {
    let first = B.trip("27-0720", [("X", "07:20"), ("TINT", "07:50")], route: "R27")
    let second = B.trip("77X-0805", [("TINT", "08:05"), ("Y", "08:21")], route: "R77X")
    let third = B.trip("77X-0845", [("Y", "08:45"), ("TINT", "09:01")], route: "R77X")
    let block = [third, first, second]
    #expect(Reconciler.nextTrip(after: first, in: block) == second)
    #expect(Reconciler.nextTrip(after: second, in: block) == third)
    #expect(Reconciler.nextTrip(after: third, in: block) == nil)
  }
}
