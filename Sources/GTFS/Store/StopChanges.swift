import FoundationEssentials
import SQLite
import TransitModel

/// What a refresh changed at one of the user's stops: the part of "what changed" a rider
/// cares about after a cron ingest.
public struct StopChange: Sendable, Equatable {
  /// What happened to the stop.
  public enum Kind: Sendable, Equatable {
    /// The new timetable has no stop with this id.
    case removed
    /// The stop is now this many metres from where it was (more than `movedMeters`).
    case moved(meters: Double)
    /// These routes (short names, else route_ids) called here and no longer do.
    case routesGone([String])
  }

  /// The stop's id.
  public var stopID: String
  /// What changed.
  public var kind: Kind

  public init(stopID: String, kind: Kind) {
    self.stopID = stopID
    self.kind = kind
  }
}

extension Timetables {
  /// A stop counts as moved beyond this distance.
  public static let movedMeters = 50.0

  /// What changed at `stops` between `feed`'s previous timetable (`NAME.sqlite.prev`) and its
  /// current one: stops removed, moved more than 50 m, or no longer served by a route that
  /// served them (a station counts its platforms' routes). Empty when no previous timetable is
  /// kept.
  /// - Complexity: a few index lookups per stop in each file.
  public func changes(of feed: String, at stops: [String]) throws -> [StopChange] {
    let current = try path(of: feed)
    guard !stops.isEmpty, FileManager.default.fileExists(atPath: current + ".prev") else { return [] }
    let old = try Connection(path: current + ".prev", mode: .readOnly)
    let new = try Connection(path: current, mode: .readOnly)
    var result: [StopChange] = []
    for stop in stops {
      guard let before = try Self.place(of: stop, in: old) else { continue }  // not there before either
      guard let after = try Self.place(of: stop, in: new) else {
        result.append(StopChange(stopID: stop, kind: .removed))
        continue
      }
      if let a = before.coordinate, let b = after.coordinate {
        let meters = a.distanceMeters(to: b)
        if meters > Self.movedMeters { result.append(StopChange(stopID: stop, kind: .moved(meters: meters))) }
      }
      let gone = try Self.routes(at: stop, in: old).subtracting(try Self.routes(at: stop, in: new))
      if !gone.isEmpty { result.append(StopChange(stopID: stop, kind: .routesGone(gone.sorted()))) }
    }
    return result
  }

  /// A stop found in a timetable, with its position when it has one.
  private struct Place {
    var coordinate: Coordinate?
  }

  private static func place(of stop: String, in db: Connection) throws -> Place? {
    let select = try db.cached("SELECT lat, lon FROM stops WHERE stop_id = ?")
    select.bind(stop, at: 1)
    guard try select.step() else { return nil }
    return Place(
      coordinate: select.isNull(0) || select.isNull(1) ? nil : Coordinate(latitude: select.double(0), longitude: select.double(1)))
  }

  private static func routes(at stop: String, in db: Connection) throws -> Set<String> {
    let select = try db.cached(
      """
      SELECT DISTINCT coalesce(nullif(r.short_name, ''), r.route_id) FROM stops s
      JOIN pattern_stops ps ON ps.stop_idx = s.stop_idx JOIN patterns p ON p.pattern_idx = ps.pattern_idx
      JOIN routes r ON r.route_idx = p.route_idx WHERE s.stop_id = ?1 OR s.parent_station = ?1
      """)
    select.bind(stop, at: 1)
    var result = Set<String>()
    while try select.step() { result.insert(select.text(0)) }
    return result
  }
}
