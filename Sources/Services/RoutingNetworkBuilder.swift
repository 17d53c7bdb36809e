import GTFS
import Routing
import TransitModel

// How `Store.routingNetwork` gathers the router's arrays from the store's plain reads
// (`Store.routingRows`, `forEachRoutingInstance`, `routingWalks`): each feed's trips of the
// window by stop pattern, realtime applied (by Routing's `RoutingInstanceCollector`; then
// `RoutingTimetable` splits the patterns into routes whose trips never overtake); footpaths
// and transfers.txt; walks between feeds.

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
    var patterns: [Int64: NetworkPattern] = [:]
    for (pattern, stops) in rows.patterns {
      patterns[pattern] = NetworkPattern(stops: stops.stops.map { offset + $0 }, canBoard: stops.canBoard, canAlight: stops.canAlight)
    }

    // Realtime, by trip instance.
    var live: [RoutingInstanceKey: RealtimeTrip] = [:]
    for trip in realtime {
      guard let idx = try routingTripIndex(feed: feedIndex, id: trip.tripID) else { continue }
      live[RoutingInstanceKey(trip: idx, date: trip.serviceDate, start: trip.startTime?.seconds)] = trip
    }

    var collector = RoutingInstanceCollector(
      patterns: patterns, live: live, originSeconds: builder.origin.seconds, feed: feedNames[feedIndex], feedIndex: feedIndex)
    try forEachRoutingInstance(of: rows, from: from, until: until) { instance, arrivals, departures in
      collector.add(
        to: &builder, pattern: instance.pattern, trip: instance.trip, serviceDate: instance.serviceDate,
        dayStart: instance.dayStart, start: instance.start, shift: instance.shift, arrivals: arrivals, departures: departures)
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
