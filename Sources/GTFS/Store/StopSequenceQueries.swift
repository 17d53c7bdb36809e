import FoundationEssentials
import SQLite
import TransitModel

/// One trip running on a service day, with the stops it calls at.
public struct TripStopSequence: Sendable, Hashable {
  public var tripID: TripID
  /// `trips.direction_id`.
  public var directionID: Int?
  /// Its stops in calling order (trips of one stored pattern share one array).
  public var stops: [Stop]
  /// The stored pattern it follows: trips with the same one call at the same stops (two
  /// patterns may still share a stop sequence, differing in pickup or drop-off).
  public var pattern: Int64
}

extension Store {
  /// Every trip of `routeID` in `feed` whose service runs on `date`, with its stop sequence
  /// (a frequency-based trip once, not once per instance).
  /// - Complexity: one lookup of the route's trips (`trips_by_route`), the stops of each of
  ///   their patterns, and the calendar of `date`.
  public func stopSequences(route routeID: RouteID, feed: FeedName, on date: ServiceDate) throws -> [TripStopSequence] {
    guard let reader = reader(feed) else { return [] }
    let services = try reader.calendar.services(on: date)
    let select = try reader.db.cached(
      """
      SELECT t.trip_id, t.direction_id, t.service_idx, tt.pattern_idx
      FROM routes r JOIN trips t ON t.route_idx = r.route_idx JOIN trip_times tt ON tt.trip_idx = t.trip_idx
      WHERE r.route_id = ? ORDER BY t.trip_idx
      """)
    select.bind(routeID.rawValue, at: 1)
    var rows: [(TripID, Int?, Int64)] = []
    while try select.step() {
      guard services.contains(select.int64(2)) else { continue }
      rows.append((TripID(select.text(0)), select.optionalInt(1).map(Int.init), select.int64(3)))
    }
    let stopsSelect = try reader.db.cached(
      """
      SELECT \(FeedReader.stopColumns) FROM pattern_stops ps JOIN stops s ON s.stop_idx = ps.stop_idx
      WHERE ps.pattern_idx = ? ORDER BY ps.position
      """)
    var patterns: [Int64: [Stop]] = [:]
    var result: [TripStopSequence] = []
    for (tripID, direction, pattern) in rows {
      if patterns[pattern] == nil {
        stopsSelect.reset()
        stopsSelect.bind(pattern, at: 1)
        var stops: [Stop] = []
        while try stopsSelect.step() { stops.append(reader.readStop(stopsSelect)) }
        patterns[pattern] = stops
      }
      result.append(TripStopSequence(tripID: tripID, directionID: direction, stops: patterns[pattern]!, pattern: pattern))
    }
    return result
  }
}
