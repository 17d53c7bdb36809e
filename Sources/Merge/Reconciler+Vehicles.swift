import GTFSRealtime
import TransitModel

/// Where a vehicle is along its trip (DESIGN.md rule 8).
public struct VehicleLocation: Hashable, Sendable {
  /// What the location was worked out from.
  public enum Basis: String, Hashable, Sendable {
    /// The vehicle's own `current_stop_sequence` / `stop_id`.
    case vehicle
    /// The first stop still listed in its trip update (the ones passed have dropped out).
    case tripUpdate
    /// Its position against the trip's stops.
    case position
  }

  /// The stop the vehicle is at, or heading to.
  public var stopSequence: Int
  /// That stop's id.
  public var stopID: StopID
  /// Whether it is standing at the stop (else on its way to it).
  public var isAtStop: Bool
  /// What this was worked out from.
  public var basis: Basis

  /// Creates a location.
  public init(stopSequence: Int, stopID: StopID, isAtStop: Bool, basis: Basis) {
    self.stopSequence = stopSequence
    self.stopID = stopID
    self.isAtStop = isAtStop
    self.basis = basis
  }
}

/// A timetable estimate of where an untracked trip is (DESIGN.md rule 9).
public struct EstimatedPosition: Hashable, Sendable {
  /// Straight between the stops before and after, by time.
  public var coordinate: Coordinate
  /// The stop it is at, or heading to.
  public var stopSequence: Int
  /// Whether it is standing at that stop by the timetable.
  public var isAtStop: Bool

  /// Creates an estimate.
  public init(coordinate: Coordinate, stopSequence: Int, isAtStop: Bool) {
    self.coordinate = coordinate
    self.stopSequence = stopSequence
    self.isAtStop = isAtStop
  }
}

extension Reconciler {
  /// A vehicle within this many metres of a stop is taken to be at it.
  static let atStopMeters = 30.0

  /// Where the vehicle serving `trip` is (rule 8): its own `current_stop_sequence` (else
  /// `stop_id`) when sent; else the first stop its trip update still lists; else its
  /// position against the trip's stops: along its shape when there is one (the first stop
  /// past the vehicle's place on it), else the nearest leg between two consecutive stops.
  ///
  /// - Parameters:
  ///   - stopCoordinates: where the trip's stops are, for the last way.
  ///   - now: when given, trip-update stops whose absolute time is already past are passed
  ///     over (feeds such as Caltrain's keep listing the stops a train has left).
  ///   - shape: the trip's shape, when the feed has one.
  /// - Returns: nil when nothing says.
  public static func currentStop(
    of trip: ScheduledTrip, vehicle: VehiclePosition?, update: TripUpdate?, stopCoordinates: [StopID: Coordinate] = [:],
    now: UnixTime? = nil, shape: ShapePath? = nil
  ) -> VehicleLocation? {
    let stops = trip.stops
    guard !stops.isEmpty else { return nil }
    if let vehicle {
      let index =
        vehicle.currentStopSequence.flatMap { sequence in stops.firstIndex { $0.stopSequence == Int(sequence) } }
        ?? vehicle.stopID.flatMap { id in stops.firstIndex { $0.stopID.rawValue == id } }
      if let index {
        return VehicleLocation(
          stopSequence: stops[index].stopSequence, stopID: stops[index].stopID,
          isAtStop: vehicle.currentStatusOrDefault == .stoppedAt, basis: .vehicle)
      }
    }
    if let update {
      for stu in update.stopTimeUpdates {
        if let now, let time = stu.departure?.time ?? stu.arrival?.time, UnixTime(time) < now { continue }
        let index =
          stu.stopSequence.flatMap { sequence in stops.firstIndex { $0.stopSequence == Int(sequence) } }
          ?? stu.stopID.flatMap { id in stops.firstIndex { $0.stopID.rawValue == id } }
        if let index {
          return VehicleLocation(stopSequence: stops[index].stopSequence, stopID: stops[index].stopID, isAtStop: false, basis: .tripUpdate)
        }
      }
    }
    guard let position = vehicle?.position, let latitude = position.latitude, let longitude = position.longitude else {
      return nil
    }
    let point = Coordinate(latitude: Double(latitude), longitude: Double(longitude))
    let placed = stops.compactMap { stop in stopCoordinates[stop.stopID].map { (stop, $0) } }
    guard let first = placed.first else { return nil }
    func location(_ stop: ScheduledStop, at: Bool) -> VehicleLocation {
      VehicleLocation(stopSequence: stop.stopSequence, stopID: stop.stopID, isAtStop: at, basis: .position)
    }
    guard placed.count > 1 else { return location(first.0, at: point.distanceMeters(to: first.1) <= atStopMeters) }
    if let shape {
      let along = metresAlong(shape, placed.map { ($0.1, $0.0.shapeDistance) })
      let here = shape.locate(point)
      if let index = along.firstIndex(where: { $0 >= here }) {
        if point.distanceMeters(to: placed[index].1) <= atStopMeters { return location(placed[index].0, at: true) }
        if index > 0, point.distanceMeters(to: placed[index - 1].1) <= atStopMeters { return location(placed[index - 1].0, at: true) }
        return location(placed[index].0, at: false)
      }
      let last = placed[placed.count - 1]
      return location(last.0, at: point.distanceMeters(to: last.1) <= atStopMeters)
    }
    // The leg the point lies nearest to, by distances alone (no projection needed).
    var best: (distance: Double, leg: Int, fraction: Double)?
    for leg in 0..<(placed.count - 1) {
      let a = point.distanceMeters(to: placed[leg].1), b = point.distanceMeters(to: placed[leg + 1].1)
      let length = placed[leg].1.distanceMeters(to: placed[leg + 1].1)
      var fraction = 0.0, distance = a
      if length > 0 {
        fraction = min(1, max(0, (a * a - b * b + length * length) / (2 * length * length)))
        distance = max(0, a * a - (fraction * length) * (fraction * length)).squareRoot()
        if fraction == 1 { distance = b }
      }
      if best == nil || distance < best!.distance { best = (distance, leg, fraction) }
    }
    guard let best else { return nil }
    let from = placed[best.leg], to = placed[best.leg + 1]
    if point.distanceMeters(to: from.1) <= atStopMeters { return location(from.0, at: true) }
    if point.distanceMeters(to: to.1) <= atStopMeters { return location(to.0, at: true) }
    return location(to.0, at: false)
  }

  /// Where an untracked trip should be at `now` by its times (rule 9): at a stop between its
  /// arrival and departure, else between the stop before and the stop after by the share of the
  /// time between them: along `shape` when there is one (each stop placed by its
  /// `shape_dist_traveled`, else by projecting it onto the shape in order), on the straight line
  /// between the two stops otherwise.
  ///
  /// - Parameters:
  ///   - prediction: expected times to use instead of the timetable's, when there are some.
  ///   - shape: the trip's shape, when the feed has one.
  /// - Returns: nil before the trip starts, after it ends, or without stop positions.
  public static func estimatedPosition(
    of trip: ScheduledTrip, stopCoordinates: [StopID: Coordinate], at now: UnixTime, prediction: TripPrediction? = nil,
    shape: ShapePath? = nil
  ) -> EstimatedPosition? {
    struct Timed {
      var sequence: Int
      var coordinate: Coordinate
      var arrival: UnixTime
      var departure: UnixTime
      var shapeDistance: Double?
    }
    let expected = Dictionary(
      (prediction?.stops ?? []).map { ($0.stop.stopSequence, $0) }, uniquingKeysWith: { first, _ in first })
    let timed: [Timed] = trip.stops.compactMap { stop in
      guard let coordinate = stopCoordinates[stop.stopID] else { return nil }
      let predicted = expected[stop.stopSequence]
      if predicted?.isSkipped == true { return nil }
      guard let arrival = predicted?.expectedArrival ?? stop.arrival ?? stop.departure,
        let departure = predicted?.expectedDeparture ?? stop.departure ?? stop.arrival
      else { return nil }
      return Timed(
        sequence: stop.stopSequence, coordinate: coordinate, arrival: arrival, departure: max(arrival, departure),
        shapeDistance: stop.shapeDistance)
    }
    guard let first = timed.first, let last = timed.last, now >= first.arrival, now <= last.departure else { return nil }
    for (index, stop) in timed.enumerated() {
      if now >= stop.arrival && now <= stop.departure {
        return EstimatedPosition(coordinate: stop.coordinate, stopSequence: stop.sequence, isAtStop: true)
      }
      guard index + 1 < timed.count else { break }
      let next = timed[index + 1]
      if now > stop.departure && now < next.arrival {
        let fraction = Double(now - stop.departure) / Double(next.arrival - stop.departure)
        if let shape {
          // Place the stops in order up to the next one: a loop passes some places twice.
          let along = metresAlong(shape, timed[...(index + 1)].map { ($0.coordinate, $0.shapeDistance) })
          let from = along[index], to = along[index + 1]
          if to > from {
            return EstimatedPosition(
              coordinate: shape.coordinate(at: from + (to - from) * fraction), stopSequence: next.sequence, isAtStop: false)
          }
        }
        let coordinate = Coordinate(
          latitude: stop.coordinate.latitude + (next.coordinate.latitude - stop.coordinate.latitude) * fraction,
          longitude: stop.coordinate.longitude + (next.coordinate.longitude - stop.coordinate.longitude) * fraction)
        return EstimatedPosition(coordinate: coordinate, stopSequence: next.sequence, isAtStop: false)
      }
    }
    return nil
  }

  /// How far along `shape` each of `stops` lies, in metres, in order: by its
  /// `shape_dist_traveled` when it and the shape carry one, else by projecting it onto the shape
  /// no earlier than the stop before (a loop passes some places twice).
  static func metresAlong(_ shape: ShapePath, _ stops: [(coordinate: Coordinate, shapeDistance: Double?)]) -> [Double] {
    var along: [Double] = []
    along.reserveCapacity(stops.count)
    for stop in stops {
      let floor = along.last ?? 0
      let byDistance = stop.shapeDistance.flatMap { shape.metres(atTraveled: $0) }
      along.append(max(floor, byDistance ?? shape.locate(stop.coordinate, notBefore: floor)))
    }
    return along
  }

  /// The trip the same vehicle runs after `trip` (rule 10): among `block`, the trips sharing
  /// its `block_id` on its service date (any route), the first to start once `trip` has ended.
  public static func nextTrip(after trip: ScheduledTrip, in block: [ScheduledTrip]) -> ScheduledTrip? {
    guard let end = trip.span?.upperBound else { return nil }
    return block.filter { $0.instance != trip.instance && ($0.span?.lowerBound).map { $0 >= end } == true }
      .min { a, b in
        let sa = a.span!.lowerBound, sb = b.span!.lowerBound
        return sa != sb ? sa < sb : a.instance < b.instance
      }
  }
}
