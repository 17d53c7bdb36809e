import FoundationEssentials
import SQLite
import TransitModel

/// What stops.txt says about a stop beyond `Stop`: its accessibility (and its station's, which
/// it inherits), and its description, for platform labels.
public struct StopAttributes: Sendable, Hashable {
  /// `wheelchair_boarding` as stored: 0 or nil no information, 1 accessible, 2 not.
  public var wheelchairBoarding: Int?
  /// The parent station's `wheelchair_boarding`, when the stop has a parent.
  public var parentWheelchairBoarding: Int?
  /// `stop_desc`, when not empty.
  public var description: String?

  /// Creates stop attributes.
  public init(wheelchairBoarding: Int?, parentWheelchairBoarding: Int?, description: String?) {
    self.wheelchairBoarding = wheelchairBoarding
    self.parentWheelchairBoarding = parentWheelchairBoarding
    self.description = description
  }
}

/// What trips.txt says about a trip beyond `TripDetails`.
public struct TripAttributes: Sendable, Hashable {
  /// `wheelchair_accessible` as stored: 0 or nil no information, 1 accessible, 2 not.
  public var wheelchairAccessible: Int?
  /// `direction_id`.
  public var directionID: Int?
  /// `trip_short_name` (a train number), when not empty.
  public var shortName: String?

  /// Creates trip attributes.
  public init(wheelchairAccessible: Int?, directionID: Int?, shortName: String?) {
    self.wheelchairAccessible = wheelchairAccessible
    self.directionID = directionID
    self.shortName = shortName
  }
}

extension Store {
  /// The accessibility and description of `id` in `feed`, with its parent station's
  /// accessibility; nil when the stop is unknown.
  /// - Complexity: one indexed lookup.
  public func attributes(ofStop id: StopID, feed: FeedName) throws -> StopAttributes? {
    guard let reader = reader(feed) else { return nil }
    let select = try reader.db.cached(
      """
      SELECT s.wheelchair_boarding, p.wheelchair_boarding, s.description
      FROM stops s LEFT JOIN stops p ON p.stop_idx = s.parent_idx WHERE s.stop_id = ?
      """)
    select.bind(id.rawValue, at: 1)
    guard try select.step() else { return nil }
    let description = select.optionalText(2)?.trimmingSpaces()
    return StopAttributes(
      wheelchairBoarding: select.isNull(0) ? nil : select.int(0), parentWheelchairBoarding: select.isNull(1) ? nil : select.int(1),
      description: description?.isEmpty == false ? description : nil)
  }

  /// The accessibility, direction and short name of `tripID` in `feed`; nil when unknown.
  /// - Complexity: one indexed lookup.
  public func attributes(ofTrip tripID: TripID, feed: FeedName) throws -> TripAttributes? {
    guard let reader = reader(feed) else { return nil }
    let select = try reader.db.cached("SELECT wheelchair_accessible, direction_id, short_name FROM trips WHERE trip_id = ?")
    select.bind(tripID.rawValue, at: 1)
    guard try select.step() else { return nil }
    let shortName = select.optionalText(2)
    return TripAttributes(
      wheelchairAccessible: select.isNull(0) ? nil : select.int(0), directionID: select.isNull(1) ? nil : select.int(1),
      shortName: shortName?.isEmpty == false ? shortName : nil)
  }

  /// The trip of `feed` (else of the first feed holding it) whose `trip_short_name` is `name`
  /// (a train number riders know), when exactly one has it.
  /// - Complexity: one scan of the feed's trips.
  public func trip(shortName name: String, feed: FeedName? = nil) throws -> TripID? {
    for reader in feeds where feed == nil || reader.name == feed {
      let select = try reader.db.cached("SELECT trip_id FROM trips WHERE short_name = ? LIMIT 2")
      select.bind(name, at: 1)
      var found: [String] = []
      while try select.step() { found.append(select.text(0)) }
      if found.count == 1 { return TripID(found[0]) }
    }
    return nil
  }
}
