import GTFS
import TransitModel

/// A ride's wheelchair access: its trip's, and its boarding and alighting stops' (a platform
/// inheriting its station's), with the raw values behind them.
public struct RideAccess: Sendable, Hashable {
  /// The trip's `wheelchair_accessible` as stored, and what it means.
  public var tripValue: Int?
  public var trip: WheelchairAccess
  /// The boarding and alighting stops' own `wheelchair_boarding` as stored, and what they mean
  /// (their station's value inherited when the stop's is 0 or empty).
  public var boardValue: Int?
  public var board: WheelchairAccess
  public var alightValue: Int?
  public var alight: WheelchairAccess

  /// Whether a wheelchair user can take this ride: the trip and both stops say so (what the
  /// feed does not say counts as not accessible).
  public var isAccessible: Bool { trip.passesFilter && board.passesFilter && alight.passesFilter }

  /// The access of `ride`.
  /// - Throws: the store's errors.
  /// - Complexity: three indexed lookups.
  public init(_ ride: RoutingRide, store: Store) throws {
    tripValue = try store.attributes(ofTrip: ride.tripID, feed: ride.feed)?.wheelchairAccessible
    trip = Accessibility.trip(tripValue)
    let first = try ride.stops.first.flatMap { try store.attributes(ofStop: $0.stop.id, feed: $0.stop.feed) }
    let last = try ride.stops.last.flatMap { try store.attributes(ofStop: $0.stop.id, feed: $0.stop.feed) }
    boardValue = first?.wheelchairBoarding
    board = Accessibility.stop(own: first?.wheelchairBoarding, parent: first?.parentWheelchairBoarding)
    alightValue = last?.wheelchairBoarding
    alight = Accessibility.stop(own: last?.wheelchairBoarding, parent: last?.parentWheelchairBoarding)
  }
}
