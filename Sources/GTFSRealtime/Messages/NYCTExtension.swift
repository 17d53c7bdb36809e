// NYCT's GTFS-Realtime extension (../shared/spec/nyct-subway.proto): field 1001 of FeedHeader,
// TripDescriptor and StopTimeUpdate. Decoded like the rest (Generated/), only where a feed
// carries it; its semantics are DESIGN.md's merge rule 16.

/// A route whose trips the feed replaces for a while: within `replacementPeriod`, a scheduled
/// trip of `routeID` that the feed does not list is not running.
///
/// The proto's `TripReplacementPeriod` (nyct-subway.proto).
public struct TripReplacementPeriod: Sendable, Equatable {
  /// The route the replacement period is for.
  ///
  /// Proto field 1: `optional string route_id`.
  public var routeID: String?
  /// The period; NYCT omits its start (now) and sets its end to about 30 min ahead.
  ///
  /// Proto field 2: `optional TimeRange replacement_period`.
  public var replacementPeriod: TimeRange?

  /// A `TripReplacementPeriod` with every field unset.
  public init() {}

  /// A `TripReplacementPeriod` with the given fields; those not given are unset.
  public init(routeID: String? = nil, replacementPeriod: TimeRange? = nil) {
    self.routeID = routeID
    self.replacementPeriod = replacementPeriod
  }
}

/// NYCT's extension of the feed header: the extension's version and the routes whose trips the
/// feed replaces.
///
/// The proto's `NyctFeedHeader` (nyct-subway.proto, FeedHeader field 1001).
public struct NyctFeedHeader: Sendable, Equatable {
  /// The version of NYCT's extensions ("1.0").
  ///
  /// Proto field 1: `required string nyct_subway_version`.
  public var nyctSubwayVersion: String?
  /// Per route, the period within which the feed replaces the timetable ("a full dataset: if a
  /// trip from the static GTFS is not found in the GTFS-realtime feed, it should be considered
  /// as cancelled").
  ///
  /// Proto field 2: `repeated TripReplacementPeriod trip_replacement_period`.
  public var tripReplacementPeriods: [TripReplacementPeriod] = []

  /// A `NyctFeedHeader` with every field unset.
  public init() {}

  /// A `NyctFeedHeader` with the given fields; those not given are unset.
  public init(nyctSubwayVersion: String? = nil, tripReplacementPeriods: [TripReplacementPeriod] = []) {
    self.nyctSubwayVersion = nyctSubwayVersion
    self.tripReplacementPeriods = tripReplacementPeriods
  }
}

/// NYCT's extension of the trip descriptor: the train's operations id, whether a train is
/// assigned to the trip, and its direction.
///
/// The proto's `NyctTripDescriptor` (nyct-subway.proto, TripDescriptor field 1001).
public struct NyctTripDescriptor: Sendable, Equatable {
  /// The ATS train id (`06 0123+ PEL/BBR`: trip type, line, origin time, origin/destination).
  ///
  /// Proto field 1: `optional string train_id`.
  public var trainID: String?
  /// Whether a physical train is assigned: if not, the trip has not been given to a train yet
  /// (it may be stored, or assigned later).
  ///
  /// Proto field 2: `optional bool is_assigned`.
  public var isAssigned: Bool?
  /// The direction the train is moving (uptown and Bronx-bound are NORTH).
  ///
  /// Proto field 3: `optional Direction direction`.
  public var direction: Direction?

  /// A `NyctTripDescriptor` with every field unset.
  public init() {}

  /// A `NyctTripDescriptor` with the given fields; those not given are unset.
  public init(trainID: String? = nil, isAssigned: Bool? = nil, direction: Direction? = nil) {
    self.trainID = trainID
    self.isAssigned = isAssigned
    self.direction = direction
  }

  /// The direction a NYCT train moves in.
  public enum Direction: ProtoEnum {
    /// `NORTH`: uptown and Bronx-bound (and the Times Square shuttle to Grand Central).
    case north
    /// `EAST`: not used currently.
    case east
    /// `SOUTH`: downtown and Brooklyn-bound (and the shuttle to Times Square).
    case south
    /// `WEST`: not used currently.
    case west
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 1: self = .north
      case 2: self = .east
      case 3: self = .south
      case 4: self = .west
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .north: 1
      case .east: 2
      case .south: 3
      case .west: 4
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`NORTH`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .north: "NORTH"
      case .east: "EAST"
      case .south: "SOUTH"
      case .west: "WEST"
      case .unrecognized: nil
      }
    }
  }
}

/// NYCT's extension of a stop time update: the track the train is planned to use and the one
/// it is on.
///
/// The proto's `NyctStopTimeUpdate` (nyct-subway.proto, StopTimeUpdate field 1001).
public struct NyctStopTimeUpdate: Sendable, Equatable {
  /// The planned arrival track (in Manhattan: 1 southbound local, 2 southbound express, 3
  /// northbound express, 4 northbound local).
  ///
  /// Proto field 1: `optional string scheduled_track`.
  public var scheduledTrack: String?
  /// The track the train is on, known shortly before it reaches the station (set only for the
  /// first station of the remaining trip); one that differs from `scheduledTrack` means the train
  /// was rerouted off its planned path.
  ///
  /// Proto field 2: `optional string actual_track`.
  public var actualTrack: String?

  /// A `NyctStopTimeUpdate` with every field unset.
  public init() {}

  /// A `NyctStopTimeUpdate` with the given fields; those not given are unset.
  public init(scheduledTrack: String? = nil, actualTrack: String? = nil) {
    self.scheduledTrack = scheduledTrack
    self.actualTrack = actualTrack
  }

  /// The actual track when it differs from the scheduled one (a train rerouted off its plan).
  public var changedTrack: (actual: String, scheduled: String)? {
    guard let actualTrack, let scheduledTrack, !actualTrack.isEmpty, actualTrack != scheduledTrack else { return nil }
    return (actualTrack, scheduledTrack)
  }
}

// MARK: - The extension fields

extension FeedHeader {
  /// NYCT's extension of the header (field 1001), when the feed is NYCT's.
  public var nyctFeedHeader: NyctFeedHeader? {
    get { nyctFeedHeaderBox?.value }
    set { nyctFeedHeaderBox = newValue.map(Box.init) }
  }
}

extension TripDescriptor {
  /// NYCT's extension of the descriptor (field 1001), when the feed is NYCT's.
  public var nyctTripDescriptor: NyctTripDescriptor? {
    get { nyctTripDescriptorBox?.value }
    set { nyctTripDescriptorBox = newValue.map(Box.init) }
  }
}

extension TripUpdate.StopTimeUpdate {
  /// NYCT's extension of the stop time update (field 1001), when the feed is NYCT's.
  public var nyctStopTimeUpdate: NyctStopTimeUpdate? {
    get { rareBox?.value.nyctStopTimeUpdate }
    set { setRare(\.nyctStopTimeUpdate, newValue) }
  }
}
