/// One call of a scheduled trip instance, with absolute times: what propagation walks along.
public struct ScheduledStop: Hashable, Sendable {
  /// The stop called at.
  public var stopID: StopID
  /// `stop_times.stop_sequence` (realtime updates match on it).
  public var stopSequence: Int
  /// The scheduled arrival, nil when the timetable has none.
  public var arrival: UnixTime?
  /// The scheduled departure, nil when the timetable has none.
  public var departure: UnixTime?
  /// `stop_times.shape_dist_traveled`: how far along the trip's shape the stop lies, in the
  /// feed's unit, when the feed says.
  public var shapeDistance: Double?

  /// Creates a call; times already absolute.
  public init(stopID: StopID, stopSequence: Int, arrival: UnixTime?, departure: UnixTime?, shapeDistance: Double? = nil) {
    self.stopID = stopID
    self.stopSequence = stopSequence
    self.arrival = arrival
    self.departure = departure
    self.shapeDistance = shapeDistance
  }

  /// The time the stop is passed by on the timetable: the departure, else the arrival.
  public var reference: UnixTime? { departure ?? arrival }
}
