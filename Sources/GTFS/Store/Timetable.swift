import SQLite

/// One feed's timetable, opened read-only: the queries the rest of transit asks of it.
public final class Timetable {
  let db: Connection
  /// The file it reads.
  public let path: String

  /// Opens the timetable at `path` read-only.
  public init(path: String) throws {
    self.path = path
    db = try Connection(path: path, mode: .readOnly)
    let version = try db.scalarInt("PRAGMA user_version") ?? 0
    guard version == Int64(Schema.version) else {
      throw IngestError.incompatibleLayout(path: path, found: Int(version), expected: Schema.version)
    }
  }

  /// A trip's call at one stop, as the timetable has it.
  public struct StopTime: Sendable, Equatable {
    public var stopID: String
    public var stopSequence: Int
    /// Seconds from the service day's start (past 24 h after midnight); nil for untimed calls.
    public var arrival: Int32?
    public var departure: Int32?
    /// Whether ingest filled the time in between timed stops.
    public var isInterpolated: Bool
    public var pickupType: Int
    public var dropOffType: Int
    public var stopHeadsign: String?
    public var shapeDistTraveled: Double?
  }

  /// The calls of `tripID` in stop_sequence order; empty when there is no such trip.
  /// - Complexity: one indexed lookup of the trip's times, and its pattern's stops (one range
  ///   scan, kept for the trips after it: trips share a few patterns, and a realtime step reads
  ///   dozens of trips; it was a four-way join a stop, its times copied again for each).
  public func stopTimes(ofTrip tripID: String) throws -> [StopTime] {
    let select = try db.cached(
      "SELECT tt.pattern_idx, tt.times, tt.interpolated FROM trips t JOIN trip_times tt USING (trip_idx) WHERE t.trip_id = ?")
    select.bind(tripID, at: 1)
    return try stopTimes(select)
  }

  /// The calls of the trip whose `trips.trip_idx` is `index` (`stopTimes(ofTrip:)`, the trip
  /// found by its number, not its id).
  public func stopTimes(ofTripIndex index: Int64) throws -> [StopTime] {
    let select = try db.cached("SELECT pattern_idx, times, interpolated FROM trip_times WHERE trip_idx = ?")
    select.bind(index, at: 1)
    return try stopTimes(select)
  }

  /// The calls of the trip `select` (pattern_idx, times, interpolated) found.
  private func stopTimes(_ select: Statement) throws -> [StopTime] {
    defer { select.reset() }
    guard try select.step() else { return [] }
    let pattern = select.int64(0)
    let times = TripTimes(blob: select.blob(1), interpolated: select.blob(2))
    return try patternStops(pattern).enumerated().map { position, stop in
      StopTime(
        stopID: stop.stopID, stopSequence: stop.stopSequence, arrival: times.arrival(at: position),
        departure: times.departure(at: position), isInterpolated: times.isInterpolated(at: position),
        pickupType: stop.pickupType, dropOffType: stop.dropOffType, stopHeadsign: stop.stopHeadsign,
        shapeDistTraveled: stop.shapeDistTraveled)
    }
  }

  /// A pattern's stops, in order, with the timetable's columns for each (a `StopTime` without
  /// its times).
  private struct PatternStop {
    var stopID: String
    var stopSequence: Int
    var pickupType: Int
    var dropOffType: Int
    var stopHeadsign: String?
    var shapeDistTraveled: Double?
  }

  /// The patterns read so far (at most `patternCacheLimit`; then it starts again). The file is
  /// read-only and replaced whole by an ingest, never changed under an open connection.
  private var patterns: [Int64: [PatternStop]] = [:]
  private static let patternCacheLimit = 4_096

  private func patternStops(_ pattern: Int64) throws -> [PatternStop] {
    if let known = patterns[pattern] { return known }
    let select = try db.cached(
      """
      SELECT s.stop_id, ps.stop_sequence, ps.pickup_type, ps.drop_off_type, ps.stop_headsign, ps.shape_dist_traveled
      FROM pattern_stops ps JOIN stops s ON s.stop_idx = ps.stop_idx WHERE ps.pattern_idx = ? ORDER BY ps.position
      """)
    select.bind(pattern, at: 1)
    var stops: [PatternStop] = []
    while try select.step() {
      stops.append(
        PatternStop(
          stopID: select.text(0), stopSequence: select.int(1), pickupType: select.int(2), dropOffType: select.int(3),
          stopHeadsign: select.optionalText(4), shapeDistTraveled: select.optionalDouble(5)))
    }
    if patterns.count >= Self.patternCacheLimit { patterns.removeAll(keepingCapacity: true) }
    patterns[pattern] = stops
    return stops
  }

  /// The number of stop times held (the rows of stop_times.txt that were loaded).
  public func stopTimeCount() throws -> Int {
    Int(try db.scalarInt("SELECT coalesce(sum(p.stop_count), 0) FROM trip_times tt JOIN patterns p USING (pattern_idx)") ?? 0)
  }

  /// The latest time any trip reaches a stop, in seconds from its service day's start.
  public func latestArrival() throws -> Int32? {
    try db.scalarInt("SELECT max(last_arrival) FROM trip_times").map { Int32($0) }
  }
}

/// A trip's times as stored: per position an arrival and a departure, little-endian int32
/// seconds (-1 for none), and a bit per position for times filled in at ingest.
struct TripTimes {
  let blob: [UInt8]
  let interpolated: [UInt8]

  private func value(_ offset: Int) -> Int32? {
    guard offset + 4 <= blob.count else { return nil }
    var raw: UInt32 = 0
    for index in 0..<4 { raw |= UInt32(blob[offset + index]) << (8 * UInt32(index)) }
    let value = Int32(bitPattern: raw)
    return value < 0 ? nil : value
  }

  func arrival(at position: Int) -> Int32? { value(position * 8) }
  func departure(at position: Int) -> Int32? { value(position * 8 + 4) }
  func isInterpolated(at position: Int) -> Bool {
    position / 8 < interpolated.count && interpolated[position / 8] & (1 << UInt8(position % 8)) != 0
  }
}
