/// A way from the origin to the destination: walks and rides, in order.
public struct Journey: Sendable, Hashable {
  /// When to leave the origin (the latest time that still catches the first ride).
  public var departure: Int32
  /// When the destination is reached.
  public var arrival: Int32
  /// The legs, in order.
  public var legs: [JourneyLeg]

  /// Creates a journey.
  public init(departure: Int32, arrival: Int32, legs: [JourneyLeg]) {
    self.departure = departure
    self.arrival = arrival
    self.legs = legs
  }

  /// The number of trips ridden.
  public var rides: Int { legs.reduce(0) { $0 + ($1.isRide ? 1 : 0) } }
  /// The number of changes between trips (rides minus one, never below zero).
  public var transfers: Int { max(0, rides - 1) }
}

/// One part of a journey.
public enum JourneyLeg: Sendable, Hashable {
  /// From the origin to `stop`, walking `seconds` (0 when the origin is that stop).
  case access(stop: Int32, seconds: Int32, departure: Int32)
  /// Trip `trip` of route `route` from its stop at `boardPosition` to `alightPosition`.
  case ride(route: Int32, trip: Int32, boardPosition: Int32, alightPosition: Int32, departure: Int32, arrival: Int32)
  /// A walk between two stops along a footpath.
  case transfer(from: Int32, to: Int32, departure: Int32, seconds: Int32)
  /// From `stop` to the destination, walking `seconds` (0 when the destination is that stop).
  case egress(stop: Int32, seconds: Int32, departure: Int32)
  /// The whole way on foot.
  case walk(seconds: Int32, departure: Int32)

  /// Whether this leg is a ride.
  public var isRide: Bool {
    if case .ride = self { return true }
    return false
  }
}

/// Where a search starts or ends: a stop and the walk between it and the place asked for.
public struct StopWalk: Sendable, Hashable {
  /// The stop.
  public var stop: Int32
  /// The walk between the place and the stop (0 at the stop itself).
  public var seconds: Int32

  /// Creates a stop reached on foot in `seconds`.
  public init(stop: Int32, seconds: Int32) {
    self.stop = stop
    self.seconds = seconds
  }
}

/// What to search for.
public struct RoutingQuery: Sendable {
  /// The stops the origin reaches on foot.
  public var access: [StopWalk]
  /// The stops from which the destination is reached on foot.
  public var egress: [StopWalk]
  /// At most this many trips (transfers + 1).
  public var maxRides: Int
  /// When the whole way can be walked, how long that takes.
  public var directWalkSeconds: Int32?
  /// With a filter, only the stops and trips it allows (a wheelchair user's journeys); nil:
  /// every stop and trip.
  public var wheelchair: WheelchairFilter?

  /// Creates a query.
  public init(access: [StopWalk], egress: [StopWalk], maxRides: Int = 5, directWalkSeconds: Int32? = nil) {
    self.access = access
    self.egress = egress
    self.maxRides = maxRides
    self.directWalkSeconds = directWalkSeconds
  }
}

/// The stops and trips a wheelchair user can use: rides board and alight only at allowed stops
/// and only on allowed trips (walks are not restricted). What the caller does not know counts as
/// it decides; the GTFS reader's callers count "unknown" as not allowed.
public struct WheelchairFilter: Sendable, Hashable {
  /// Per stop index of the timetable: whether one may board and alight there.
  public var stops: [Bool]
  /// Per trip reference (the values in routes' `tripReferences`): whether the trip is usable.
  public var trips: [Bool]

  /// A filter from per-stop and per-trip-reference flags; stops or references beyond the
  /// arrays count as not allowed.
  public init(stops: [Bool], trips: [Bool]) {
    self.stops = stops
    self.trips = trips
  }

  /// Whether one may board and alight at `stop`.
  @inline(__always) func allows(stop: Int) -> Bool { stop < stops.count && stops[stop] }
  /// Whether trip reference `reference` is usable.
  @inline(__always) func allows(trip reference: Int32) -> Bool { reference >= 0 && Int(reference) < trips.count && trips[Int(reference)] }
}
