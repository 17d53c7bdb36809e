import Merge
import TransitModel

/// A busy station's board as groups: the next few departures of each route and direction
/// (issue 20, `departures --group`), so the board covers more than the next few minutes.
public enum DepartureGroups {
  /// Departures shown per group unless asked otherwise.
  public static let defaultPerGroup = 3

  /// One route in one direction.
  public struct Group: Sendable, Hashable {
    /// The route's short name (else its id).
    public var route: String
    /// The direction: the feed's direction_id when it has one.
    public var directionID: Int?
    /// The headsign of the group's first departure (what the direction is called).
    public var headsign: String
    /// The group's departures, soonest first, at most the number asked for.
    public var departures: [Departure]
  }

  /// Groups `departures` (sorted soonest first) by route and direction, keeping the first
  /// `perGroup` of each; groups are ordered by their first departure. A direction is the
  /// feed's `direction_id`; trips without one are told apart by headsign.
  /// - Complexity: O(n) in the number of departures.
  public static func group(_ departures: [Departure], perGroup: Int) -> [Group] {
    struct Key: Hashable {
      var feed: FeedName
      var route: RouteID
      var direction: Int?
      var headsign: String?
    }
    var order: [Key] = []
    var groups: [Key: Group] = [:]
    for departure in departures {
      let call = departure.call
      let key = Key(
        feed: call.feed, route: call.routeID, direction: call.directionID, headsign: call.directionID == nil ? call.headsign : nil)
      if groups[key] == nil {
        order.append(key)
        groups[key] = Group(
          route: call.routeShortName.isEmpty ? call.routeID.rawValue : call.routeShortName, directionID: call.directionID,
          headsign: call.headsign, departures: [])
      }
      if groups[key]!.departures.count < perGroup { groups[key]!.departures.append(departure) }
    }
    return order.map { groups[$0]! }
  }
}

/// Which rows of a live board changed between two fetches, so the board can highlight them
/// for a moment (issue 20).
public enum BoardChanges {
  /// A departure's identity on a board: its trip instance and its call.
  public struct Key: Sendable, Hashable {
    public var feed: FeedName
    public var tripID: TripID
    public var serviceDate: ServiceDate
    public var startTime: ServiceTime?
    public var stopSequence: Int

    /// The key of `departure`.
    public init(_ departure: Departure) {
      let call = departure.call
      feed = call.feed
      tripID = call.tripID
      serviceDate = call.serviceDate
      startTime = call.startTime
      stopSequence = call.stopSequence
    }
  }

  /// The rows of `current` that are new since `previous`, or whose expected time, delay or
  /// status differs; nothing on the first fetch (`previous` nil).
  /// - Complexity: O(n + m).
  public static func changed(from previous: [Departure]?, to current: [Departure]) -> Set<Key> {
    guard let previous else { return [] }
    var before: [Key: Departure] = [:]
    for departure in previous { before[Key(departure)] = departure }
    var changed: Set<Key> = []
    for departure in current {
      let key = Key(departure)
      guard let old = before[key] else {
        changed.insert(key)
        continue
      }
      if old.expected != departure.expected || old.status != departure.status || old.delaySeconds != departure.delaySeconds {
        changed.insert(key)
      }
    }
    return changed
  }
}
