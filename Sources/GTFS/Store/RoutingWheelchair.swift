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
  /// Per trip instance asked: `wheelchair_accessible`.
  public var trips: [Int?]
}

extension Store {
  /// The wheelchair fields of a network's `stopCount` stops (stop `s` of feed `f`, in
  /// `feedNames` order, is `stopOffsets[f] + stop_idx`) and of its trip instances (`trips`:
  /// each a feed's position and a trip_idx).
  /// - Complexity: one scan of each feed's stops, and of the trips of feeds with instances.
  public func wheelchairValues(
    stopCount: Int, stopOffsets: [Int32], trips: [(feed: Int, trip: Int64)]
  ) throws -> RoutingWheelchairValues {
    var stops = [RoutingWheelchairValues.StopValues](repeating: .init(own: nil, parent: nil), count: stopCount)
    var tripValues: [[Int64: Int]] = Array(repeating: [:], count: feeds.count)
    let usedFeeds = Set(trips.map(\.feed))
    for (index, feed) in feeds.enumerated() where index < stopOffsets.count {
      let offset = Int(stopOffsets[index])
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
    return RoutingWheelchairValues(stops: stops, trips: trips.map { tripValues[$0.feed][$0.trip] })
  }
}
