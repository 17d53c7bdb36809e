import GTFS
import TransitModel

// How `Store.routingNetwork` gathers the router's arrays from the store's plain reads
// (`Store.routingRows`, `forEachRoutingInstance`, `routingWalks`): each feed's trips of the
// window by stop pattern, realtime applied (Routing splits the patterns into routes whose trips
// never overtake); footpaths and transfers.txt; walks between feeds.

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
  let feedIndex: Int
  let tripIndex: Int64
  let pattern: Int64
}

/// A walk from one network stop to another (ingest's footpaths, transfers.txt).
public struct WalkLink: Sendable, Hashable {
  /// The stop reached.
  public var to: Int32
  /// Seconds it takes.
  public var seconds: Int32
}

/// The trips of a period as plain values, by stop pattern, for the router (which splits the
/// patterns into routes whose trips never overtake: `Routing`'s business).
///
/// Stop `s` of feed `f` (in `Store.feedNames` order) is `stopOffsets[f] + stop_idx`, so stops
/// of different feeds are distinct. Times are seconds from `origin`.
public struct RoutingPatterns: Sendable {
  /// One pattern's trips: `arrivals[t * stops.count + p]` is trip `t`'s time at position `p`.
  public struct Group: Sendable {
    public internal(set) var pattern: Int64
    public internal(set) var stops: [Int32]
    public internal(set) var canBoard: [Bool]
    public internal(set) var canAlight: [Bool]
    public internal(set) var arrivals: [Int32] = []
    public internal(set) var departures: [Int32] = []
    /// Indices into `trips`.
    public internal(set) var trips: [Int32] = []
  }

  /// How many network stops there are.
  public let stopCount: Int
  /// The instant times count from.
  public let origin: UnixTime
  /// The trips by pattern (a trip with skipped stops has a group of its own).
  public internal(set) var groups: [Group] = []
  /// Trip instances; the groups' `trips` index this.
  public internal(set) var trips: [RoutingTrip] = []
  /// Per network stop, the walks from it.
  public internal(set) var footpaths: [[WalkLink]]
  /// Per network stop, the minimum change time there (transfers.txt type 2 to itself).
  public internal(set) var changeSeconds: [Int32]
  /// Where each feed's stops start.
  public internal(set) var stopOffsets: [Int32] = []

  init(stopCount: Int, origin: UnixTime) {
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

extension Store {
  /// The trips that call between `from` and `until`, across every feed held, by stop pattern
  /// (Routing splits them into routes whose trips never overtake): ordinary
  /// trips of every service date that can reach the window (the dates before, for trips
  /// running past midnight), frequency-based trips expanded into instances, pickup_type and
  /// drop_off_type 1 respected, footpaths from ingest's links (within the walking model's
  /// distance) and transfers.txt (min_transfer_time; type 3 removes a link).
  ///
  /// - Parameters:
  ///   - modes: only routes of these modes (empty: all).
  ///   - realtime: expected times per trip instance; cancelled trips are left out, a trip with
  ///     skipped stops becomes a route of its own that neither picks up nor sets down there.
  ///   - scope: only the parts of the network a journey between given places can use (read
  ///     from the arrays ingest stored); nil: everything. A part whose stored arrays cannot be
  ///     read is loaded from the tables, as without a scope.
  /// - Complexity: without a scope, one scan of each feed's trip times, patterns and
  ///   footpaths; with one, the parts' rows and the rows of the trips in the window; O(trips
  ///   log trips) to sort.
  public func routingPatterns(
    from: UnixTime, until: UnixTime, modes: Set<TransitMode> = [], walking: WalkingModel = .init(),
    realtime: [RealtimeTrip] = [], scope: RoutingScope? = nil
  ) throws -> RoutingPatterns {
    var offsets: [Int32] = []
    var total: Int32 = 0
    for feed in feedNames.indices {
      offsets.append(total)
      total += try routingStopSlots(feed: feed)
    }
    var builder = RoutingPatterns(stopCount: Int(total), origin: from)
    builder.stopOffsets = offsets
    for (index, name) in feedNames.enumerated() {
      guard let rows = try routingRows(feed: index, modes: modes, parts: scope?.parts(of: name)) else { continue }
      try addRouting(
        rows, to: &builder, offset: offsets[index], from: from, until: until, walking: walking,
        realtime: realtime.filter { $0.feed == name })
    }
    if feedNames.count > 1 { try addWalksAcrossFeeds(to: &builder, walking: walking) }
    return builder
  }

  /// Adds the trips of `rows`' feed calling in `from...until` (realtime applied), its
  /// footpaths and transfers.
  private func addRouting(
    _ rows: RoutingFeedRows, to builder: inout RoutingPatterns, offset: Int32, from: UnixTime, until: UnixTime,
    walking: WalkingModel, realtime: [RealtimeTrip]
  ) throws {
    let feedIndex = rows.feedIndex
    var patterns: [Int64: PatternStops] = [:]
    for (pattern, stops) in rows.patterns {
      patterns[pattern] = PatternStops(
        stops: stops.stops.map { offset + $0 }, canBoard: stops.canBoard, canAlight: stops.canAlight, group: -1)
    }

    // Realtime, by trip instance.
    var live: [InstanceKey: RealtimeTrip] = [:]
    for trip in realtime {
      guard let idx = try routingTripIndex(feed: feedIndex, id: trip.tripID) else { continue }
      live[InstanceKey(trip: idx, date: trip.serviceDate, start: trip.startTime?.seconds)] = trip
    }

    var collector = InstanceCollector(
      patterns: patterns, live: live, originSeconds: builder.origin.seconds, feed: feedNames[feedIndex], feedIndex: feedIndex)
    try forEachRoutingInstance(of: rows, from: from, until: until) { instance, arrivals, departures in
      collector.add(to: &builder, instance, arrivals: arrivals, departures: departures)
    }

    // Footpaths within the walking model's reach, then transfers.txt.
    let walks = try routingWalks(of: rows, walking: walking)
    for (stop, seconds) in walks.changeSeconds { builder.changeSeconds[Int(offset) + Int(stop)] = seconds }
    for (from, targets) in walks.links {
      builder.footpaths[Int(offset) + Int(from)] = targets.map { WalkLink(to: offset + Int32($0.key), seconds: $0.value) }
        .sorted { $0.to < $1.to }
    }
  }

  /// Footpaths between the feeds held (issue 32): the platforms of stations of two feeds that
  /// are one complex (`stationsSharedAcrossFeeds`) are linked both ways, each walk timed by the
  /// walking model and kept within its transfer distance, as the footpaths ingest finds within
  /// a feed.
  private func addWalksAcrossFeeds(to builder: inout RoutingPatterns, walking: WalkingModel) throws {
    for (here, there) in try stationsSharedAcrossFeeds() {
      let a = here.map { (builder.stopOffsets[$0.feed] + Int32($0.stop), $0.coordinate) }
      let b = there.map { (builder.stopOffsets[$0.feed] + Int32($0.stop), $0.coordinate) }
      for (p, pc) in a {
        for (q, qc) in b {
          let meters = pc.distanceMeters(to: qc)
          guard meters <= walking.maxTransferMeters else { continue }
          let seconds = walking.seconds(straightLineMeters: meters)
          builder.footpaths[Int(p)].append(WalkLink(to: q, seconds: seconds))
          builder.footpaths[Int(q)].append(WalkLink(to: p, seconds: seconds))
        }
      }
      for (stop, _) in a + b { builder.footpaths[Int(stop)].sort { $0.to < $1.to } }
    }
  }
}

/// A pattern's network stops, where one may board and alight, and its group in the builder.
private struct PatternStops {
  var stops: [Int32]
  var canBoard: [Bool]
  var canAlight: [Bool]
  var group: Int
}

private struct InstanceKey: Hashable {
  var trip: Int64
  var date: ServiceDate
  var start: Int32?
}

/// Turns the timetable's trip instances into instances of the builder's groups, with their
/// realtime (a struct, so that its buffers are checked for exclusive access at compile time,
/// not on every access).
private struct InstanceCollector {
  var patterns: [Int64: PatternStops]
  let live: [InstanceKey: RealtimeTrip]
  let originSeconds: Int64
  let feed: FeedName
  let feedIndex: Int

  /// Adds `instance`, whose service-day times are `arrivals`/`departures` (moved by its
  /// shift), with its realtime when there is some.
  mutating func add(to builder: inout RoutingPatterns, _ instance: RoutingInstance, arrivals: [Int32], departures: [Int32]) {
    let pattern = instance.pattern
    guard let group = patterns[pattern]?.group, let width = patterns[pattern]?.stops.count else { return }
    let base = Int32(clamping: instance.dayStart - originSeconds) + instance.shift
    let update =
      live.isEmpty ? nil : live[InstanceKey(trip: instance.trip, date: instance.serviceDate, start: instance.start)]
    if update?.isCancelled == true { return }
    let reference = Int32(builder.trips.count)
    builder.trips.append(
      RoutingTrip(
        feed: feed, serviceDate: instance.serviceDate, startTime: instance.start.map { ServiceTime(seconds: $0) },
        isLive: update != nil, feedIndex: feedIndex, tripIndex: instance.trip, pattern: pattern))
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
