import FoundationEssentials
import SQLite
import TransitModel

/// The wheelchair fields of a routing network's stops and trips, as stored (the rules that
/// read them are the caller's).
public struct RoutingWheelchairValues: Sendable {
  /// One stop's `wheelchair_boarding` and its parent station's (nil: empty or no parent).
  public struct StopValues: Sendable, Hashable {
    public var own: Int?
    public var parent: Int?
  }

  /// Per network stop index.
  public var stops: [StopValues]
  /// Per trip instance of the network (`RoutingPatterns.trips`): `wheelchair_accessible`.
  public var trips: [Int?]
}

extension Store {
  /// The wheelchair fields of every stop and trip instance of `network`.
  /// - Complexity: one scan of each feed's stops, and of the trips of feeds with instances.
  public func wheelchairValues(of network: RoutingPatterns) throws -> RoutingWheelchairValues {
    var stops = [RoutingWheelchairValues.StopValues](repeating: .init(own: nil, parent: nil), count: network.stopCount)
    var tripValues: [[Int64: Int]] = Array(repeating: [:], count: feeds.count)
    let usedFeeds = Set(network.trips.map(\.feedIndex))
    for (index, feed) in feeds.enumerated() where index < network.stopOffsets.count {
      let offset = Int(network.stopOffsets[index])
      let select = try feed.db.cached(
        "SELECT s.stop_idx, s.wheelchair_boarding, p.wheelchair_boarding FROM stops s LEFT JOIN stops p ON p.stop_idx = s.parent_idx")
      while try select.step() {
        let at = offset + Int(select.int64(0))
        guard at >= 0 && at < stops.count else { continue }
        stops[at] = .init(own: select.optionalInt(1).map(Int.init), parent: select.optionalInt(2).map(Int.init))
      }
      guard usedFeeds.contains(index) else { continue }
      let trips = try feed.db.cached("SELECT trip_idx, wheelchair_accessible FROM trips WHERE wheelchair_accessible IS NOT NULL")
      while try trips.step() { tripValues[index][trips.int64(0)] = trips.int(1) }
    }
    return RoutingWheelchairValues(stops: stops, trips: network.trips.map { tripValues[$0.feedIndex][$0.tripIndex] })
  }
}
