/// A saved commute: a stop (and route, destination), a deadline and the days it runs.
public struct SavedCommute: Sendable, Equatable {
  /// Its name ("work").
  public var name: String
  /// The timetable's feed name.
  public var feed: String
  /// The stop boarded at.
  public var stopID: String
  /// Only this route (short name or route_id), when set.
  public var route: String?
  /// Where it goes: a later stop's name (or headsign); the deadline is the arrival there.
  public var destination: String?
  /// The deadline, minutes after local midnight.
  public var arriveByMinutes: Int
  /// The weekdays it runs: bit 0 Monday … bit 6 Sunday.
  public var days: Int
  /// Minutes of walking to the stop.
  public var walkMinutes: Int
  /// Minutes of walking from where you get off (`destination`) to where you are going: the
  /// deadline is your arrival there on foot.
  public var thenWalkMinutes: Int
  /// The stops it may also leave from, after `feed` and `stopID` (a station complex's other
  /// stations, saved without a destination; issue 32): each its feed and stop_id.
  public var otherStops: [Stop]

  /// Creates a commute.
  public init(
    name: String, feed: String, stopID: String, route: String? = nil, destination: String? = nil, arriveByMinutes: Int,
    days: Int = 0b0011111, walkMinutes: Int = 0, thenWalkMinutes: Int = 0, otherStops: [Stop] = []
  ) {
    self.name = name
    self.feed = feed
    self.stopID = stopID
    self.route = route
    self.destination = destination
    self.arriveByMinutes = arriveByMinutes
    self.days = days
    self.walkMinutes = walkMinutes
    self.thenWalkMinutes = thenWalkMinutes
    self.otherStops = otherStops
  }

  /// Every stop it leaves from: `feed` and `stopID`, then `otherStops`.
  public var stops: [Stop] { [Stop(feed: feed, stopID: stopID)] + otherStops }

  /// A stop as the user's data keeps it: its feed and stop_id.
  public struct Stop: Sendable, Hashable {
    public var feed: String
    public var stopID: String

    /// A stop of `feed`.
    public init(feed: String, stopID: String) {
      self.feed = feed
      self.stopID = stopID
    }
  }
}
