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
  /// - Complexity: one indexed lookup and one range scan of the trip's pattern.
  public func stopTimes(ofTrip tripID: String) throws -> [StopTime] {
    let select = try db.cached(
      """
      SELECT s.stop_id, ps.stop_sequence, ps.pickup_type, ps.drop_off_type, ps.stop_headsign,
             ps.shape_dist_traveled, tt.times, tt.interpolated
      FROM trips t JOIN trip_times tt USING (trip_idx) JOIN pattern_stops ps USING (pattern_idx)
      JOIN stops s ON s.stop_idx = ps.stop_idx
      WHERE t.trip_id = ? ORDER BY ps.position
      """)
    select.bind(tripID, at: 1)
    var result: [StopTime] = []
    while try select.step() {
      let position = result.count
      let times = TripTimes(blob: select.blob(6), interpolated: select.blob(7))
      result.append(
        StopTime(
          stopID: select.text(0), stopSequence: select.int(1), arrival: times.arrival(at: position),
          departure: times.departure(at: position), isInterpolated: times.isInterpolated(at: position),
          pickupType: select.int(2), dropOffType: select.int(3), stopHeadsign: select.optionalText(4),
          shapeDistTraveled: select.optionalDouble(5)))
    }
    return result
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
