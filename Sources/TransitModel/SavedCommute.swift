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

  /// The deadline as the clock shows it: "08:30".
  public var arriveByText: String { Self.clockText(minutes: arriveByMinutes) }

  /// The days it runs in words: "mon-fri", "sat,sun", "daily".
  public var daysText: String { Self.daysText(days) }

  /// "08:30" for 510 minutes after midnight.
  public static func clockText(minutes: Int) -> String {
    let hours = minutes / 60, rest = minutes % 60
    return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
  }

  /// The weekdays, Monday first, as `--days` names them.
  public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

  /// A weekday mask (bit 0 Monday ... bit 6 Sunday) in words: runs of three days or more as a
  /// range ("mon-fri"), shorter ones listed ("sat,sun"), every day "daily".
  public static func daysText(_ mask: Int) -> String {
    if mask == 0b1111111 { return "daily" }
    var parts: [String] = []
    var day = 0
    while day < 7 {
      guard mask & (1 << day) != 0 else {
        day += 1
        continue
      }
      var end = day
      while end + 1 < 7 && mask & (1 << (end + 1)) != 0 { end += 1 }
      parts.append(end - day >= 2 ? "\(dayNames[day])-\(dayNames[end])" : (day...end).map { dayNames[$0] }.joined(separator: ","))
      day = end + 1
    }
    return parts.joined(separator: ",")
  }
}
