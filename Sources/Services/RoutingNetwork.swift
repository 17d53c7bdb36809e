import GTFS
import Routing
import TransitModel

/// The router's timetable for a period, with what is needed to describe its journeys: the
/// store's trips by pattern, split by `Routing` into routes whose trips never overtake.
public struct RoutingNetwork: Sendable {
  /// The router's arrays.
  public let timetable: RoutingTimetable
  /// The store's plain values it was built from (stops, trips, offsets).
  public let patterns: RoutingPatterns

  /// The instant times count from.
  public var origin: UnixTime { patterns.origin }
  /// Trip instances; a route's `tripReferences` index this.
  public var trips: [RoutingTrip] { patterns.trips }

  /// The network of `patterns`.
  public init(_ patterns: RoutingPatterns) {
    self.patterns = patterns
    timetable = RoutingTimetable(
      stopCount: patterns.stopCount,
      patterns: patterns.groups.map { group in
        PatternTrips(
          reference: Int32(truncatingIfNeeded: group.pattern), stops: group.stops, canBoard: group.canBoard,
          canAlight: group.canAlight, arrivals: group.arrivals, departures: group.departures, trips: group.trips)
      },
      footpaths: patterns.footpaths.map { links in links.map { Footpath(to: $0.to, seconds: $0.seconds) } },
      changeSeconds: patterns.changeSeconds)
  }

  /// The absolute time of a router time.
  public func time(_ seconds: Int32) -> UnixTime { patterns.time(seconds) }
  /// The router time of an absolute time (clamped to what 32 bits hold).
  public func seconds(_ time: UnixTime) -> Int32 { patterns.seconds(time) }
}

extension Store {
  /// The router's network for the trips calling between `from` and `until` (see
  /// `routingPatterns`).
  public func routingNetwork(
    from: UnixTime, until: UnixTime, modes: Set<TransitMode> = [], walking: WalkingModel = .init(),
    realtime: [RealtimeTrip] = [], scope: RoutingScope? = nil
  ) throws -> RoutingNetwork {
    RoutingNetwork(try routingPatterns(from: from, until: until, modes: modes, walking: walking, realtime: realtime, scope: scope))
  }

  /// The network's stops for `stop`: itself and, for a station, its platforms.
  public func routingStops(at stop: Stop, in network: RoutingNetwork) throws -> [Int32] {
    try routingStops(at: stop, stopOffsets: network.patterns.stopOffsets)
  }

  /// The network's stops within `radiusMeters` of `point`, nearest first.
  public func routingStops(
    near point: Coordinate, radiusMeters: Double, in network: RoutingNetwork
  ) throws -> [(
    stop: Int32, meters: Double
  )] {
    try routingStops(near: point, radiusMeters: radiusMeters, stopOffsets: network.patterns.stopOffsets)
  }

  /// The stop behind a network stop index.
  public func routingStop(_ stop: Int32, in network: RoutingNetwork) throws -> Stop? {
    try routingStop(stop, stopOffsets: network.patterns.stopOffsets)
  }

  /// What ride `trip` of route `route` from `board` to `alight` (positions) is.
  public func routingRide(route: Int32, trip: Int32, board: Int32, alight: Int32, in network: RoutingNetwork) throws -> RoutingRide {
    let instance = network.trips[Int(network.timetable.routes[Int(route)].tripReferences[Int(trip)])]
    return try routingRide(
      feed: instance.feedIndex, trip: instance.tripIndex, pattern: instance.pattern, serviceDate: instance.serviceDate,
      startTime: instance.startTime, isLive: instance.isLive, board: board, alight: alight)
  }

  /// The wheelchair fields of every stop and trip instance of `network`.
  public func wheelchairValues(of network: RoutingPatterns) throws -> RoutingWheelchairValues {
    try wheelchairValues(
      stopCount: network.stopCount, stopOffsets: network.stopOffsets, trips: network.trips.map { ($0.feedIndex, $0.tripIndex) })
  }
}
