import TransitModel

// The router's network as plain values, before `RoutingTimetable` splits its patterns into
// routes whose trips never overtake: trip instances by stop pattern with realtime applied
// (expected times; cancelled trips left out; a trip with skipped stops a route of its own),
// walks. Services gathers them from the store's reads (`Store.routingPatterns`).

/// Realtime for one trip instance, per position of its stops: expected times replace the
/// timetable's, a cancelled trip and skipped stops are left out of journey planning.
public struct RealtimeTrip: Sendable, Hashable {
  /// The instance: feed, trip, service date and (frequency trips) start time.
  public var feed: FeedName
  public var tripID: TripID
  public var serviceDate: ServiceDate
  public var startTime: ServiceTime?
  /// Whether the trip is cancelled (CANCELED or DELETED).
  public var isCancelled: Bool
  /// Per stop of the trip, in order: the expected arrival and departure (nil: as scheduled).
  public var arrivals: [UnixTime?]
  public var departures: [UnixTime?]
  /// Per stop of the trip: whether it is skipped.
  public var skipped: [Bool]

  /// Creates the realtime of one trip instance.
  public init(
    feed: FeedName, tripID: TripID, serviceDate: ServiceDate, startTime: ServiceTime?, isCancelled: Bool,
    arrivals: [UnixTime?], departures: [UnixTime?], skipped: [Bool]
  ) {
    self.feed = feed
    self.tripID = tripID
    self.serviceDate = serviceDate
    self.startTime = startTime
    self.isCancelled = isCancelled
    self.arrivals = arrivals
    self.departures = departures
    self.skipped = skipped
  }
}

/// A trip instance of `RoutingPatterns`.
public struct RoutingTrip: Sendable, Hashable {
  /// The feed it belongs to.
  public var feed: FeedName
  /// The service date it runs on (its times count from that day's noon minus 12 h).
  public var serviceDate: ServiceDate
  /// The start of a frequency-based instance (frequencies.txt), else nil.
  public var startTime: ServiceTime?
  /// Whether realtime gave its times.
  public var isLive: Bool
  /// Where the store finds it: the feed's position in the store, its trip_idx, its pattern.
  package let feedIndex: Int
  package let tripIndex: Int64
  package let pattern: Int64
}

/// A walk from one network stop to another (ingest's footpaths, transfers.txt).
public struct WalkLink: Sendable, Hashable {
  /// The stop reached.
  public var to: Int32
  /// Seconds it takes.
  public var seconds: Int32

  /// A walk to `to` of `seconds`.
  package init(to: Int32, seconds: Int32) {
    self.to = to
    self.seconds = seconds
  }
}

/// The trips of a period as plain values, by stop pattern, for the router (which splits the
/// patterns into routes whose trips never overtake: `Routing`'s business).
///
/// Stop `s` of feed `f` (in `Store.feedNames` order) is `stopOffsets[f] + stop_idx`, so stops
/// of different feeds are distinct. Times are seconds from `origin`.
public struct RoutingPatterns: Sendable {
  /// One pattern's trips: `arrivals[t * stops.count + p]` is trip `t`'s time at position `p`.
  public struct Group: Sendable {
    public package(set) var pattern: Int64
    public package(set) var stops: [Int32]
    public package(set) var canBoard: [Bool]
    public package(set) var canAlight: [Bool]
    public package(set) var arrivals: [Int32] = []
    public package(set) var departures: [Int32] = []
    /// Indices into `trips`.
    public package(set) var trips: [Int32] = []
  }

  /// How many network stops there are.
  public let stopCount: Int
  /// The instant times count from.
  public let origin: UnixTime
  /// The trips by pattern (a trip with skipped stops has a group of its own).
  public package(set) var groups: [Group] = []
  /// Trip instances; the groups' `trips` index this.
  public package(set) var trips: [RoutingTrip] = []
  /// Per network stop, the walks from it.
  public package(set) var footpaths: [[WalkLink]]
  /// Per network stop, the minimum change time there (transfers.txt type 2 to itself).
  public package(set) var changeSeconds: [Int32]
  /// Where each feed's stops start.
  public package(set) var stopOffsets: [Int32] = []

  /// An empty network of `stopCount` stops whose times count from `origin`.
  package init(stopCount: Int, origin: UnixTime) {
    self.stopCount = stopCount
    self.origin = origin
    footpaths = Array(repeating: [], count: stopCount)
    changeSeconds = Array(repeating: 0, count: stopCount)
  }

  /// The absolute time of a router time.
  public func time(_ seconds: Int32) -> UnixTime { origin + Int64(seconds) }
  /// The router time of an absolute time (clamped to what 32 bits hold).
  public func seconds(_ time: UnixTime) -> Int32 { Int32(clamping: time - origin) }
}

/// A pattern's network stops, where one may board and alight, and its group in the builder.
package struct NetworkPattern {
  var stops: [Int32]
  var canBoard: [Bool]
  var canAlight: [Bool]
  var group: Int = -1

  /// The pattern of these network stops (in no group yet).
  package init(stops: [Int32], canBoard: [Bool], canAlight: [Bool]) {
    self.stops = stops
    self.canBoard = canBoard
    self.canAlight = canAlight
  }
}

/// A trip instance of a feed: its trip_idx, service date and (frequency trips) start time.
package struct RoutingInstanceKey: Hashable {
  var trip: Int64
  var date: ServiceDate
  var start: Int32?

  /// The instance of trip `trip` on `date`, started at `start`.
  package init(trip: Int64, date: ServiceDate, start: Int32?) {
    self.trip = trip
    self.date = date
    self.start = start
  }
}

/// Turns the timetable's trip instances into instances of the builder's groups, with their
/// realtime (a struct, so that its buffers are checked for exclusive access at compile time,
/// not on every access).
package struct RoutingInstanceCollector {
  var patterns: [Int64: NetworkPattern]
  let live: [RoutingInstanceKey: RealtimeTrip]
  let originSeconds: Int64
  let feed: FeedName
  let feedIndex: Int

  /// A collector of feed `feed` (at `feedIndex` in the store) for a network whose times count
  /// from `originSeconds`: `patterns` by pattern_idx, `live` the realtime by instance.
  package init(
    patterns: [Int64: NetworkPattern], live: [RoutingInstanceKey: RealtimeTrip], originSeconds: Int64, feed: FeedName,
    feedIndex: Int
  ) {
    self.patterns = patterns
    self.live = live
    self.originSeconds = originSeconds
    self.feed = feed
    self.feedIndex = feedIndex
  }

  /// Adds the instance of trip `trip` (on `pattern`) of `serviceDate`, whose clock starts at
  /// `dayStart` (Unix seconds), started at `start` (frequency trips), whose service-day times
  /// are `arrivals`/`departures` moved by `shift`, with its realtime when there is some.
  package mutating func add(
    to builder: inout RoutingPatterns, pattern: Int64, trip: Int64, serviceDate: ServiceDate, dayStart: Int64, start: Int32?,
    shift: Int32, arrivals: [Int32], departures: [Int32]
  ) {
    guard let group = patterns[pattern]?.group, let width = patterns[pattern]?.stops.count else { return }
    let base = Int32(clamping: dayStart - originSeconds) + shift
    let update = live.isEmpty ? nil : live[RoutingInstanceKey(trip: trip, date: serviceDate, start: start)]
    if update?.isCancelled == true { return }
    let reference = Int32(builder.trips.count)
    builder.trips.append(
      RoutingTrip(
        feed: feed, serviceDate: serviceDate, startTime: start.map { ServiceTime(seconds: $0) }, isLive: update != nil,
        feedIndex: feedIndex, tripIndex: trip, pattern: pattern))
    guard let update else {
      // No realtime: the timetable's times, into the pattern's group.
      let index: Int
      if group >= 0 {
        index = group
      } else {
        index = builder.groups.count
        let shape = patterns[pattern]!
        builder.groups.append(
          RoutingPatterns.Group(pattern: pattern, stops: shape.stops, canBoard: shape.canBoard, canAlight: shape.canAlight))
        patterns[pattern]!.group = index
      }
      for position in 0..<width {
        builder.groups[index].arrivals.append(arrivals[position] + base)
        builder.groups[index].departures.append(departures[position] + base)
      }
      builder.groups[index].trips.append(reference)
      return
    }
    var shape = patterns[pattern]!
    var arrive = arrivals.map { $0 + base }
    var depart = departures.map { $0 + base }
    var ownRoute = false
    for position in 0..<min(width, update.arrivals.count) {
      if let time = update.arrivals[position] { arrive[position] = Int32(clamping: time.seconds - originSeconds) }
      if let time = update.departures[position] { depart[position] = Int32(clamping: time.seconds - originSeconds) }
      if position < update.skipped.count && update.skipped[position] {
        shape.canBoard[position] = false
        shape.canAlight[position] = false
        ownRoute = true
      }
    }
    // Predictions never run backwards along the trip, nor depart before they arrive.
    for position in 0..<width {
      if position > 0 { arrive[position] = max(arrive[position], depart[position - 1]) }
      depart[position] = max(depart[position], arrive[position])
    }
    let index: Int
    if !ownRoute && group >= 0 {
      index = group
    } else {
      index = builder.groups.count
      builder.groups.append(
        RoutingPatterns.Group(pattern: pattern, stops: shape.stops, canBoard: shape.canBoard, canAlight: shape.canAlight))
      if !ownRoute { patterns[pattern]!.group = index }
    }
    builder.groups[index].arrivals += arrive
    builder.groups[index].departures += depart
    builder.groups[index].trips.append(reference)
  }
}
