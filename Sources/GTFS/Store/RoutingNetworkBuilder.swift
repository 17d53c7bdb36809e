import FoundationEssentials
import SQLite
import TransitModel

// How `Store.routingPatterns` gathers the router's arrays: each feed's patterns, the trips of
// the service dates that reach the window (frequency instances expanded, realtime applied),
// by stop pattern (Routing splits them into routes whose trips never overtake); footpaths and
// transfers.txt.

// MARK: - Building

/// A walk from one network stop to another (ingest's footpaths, transfers.txt).
public struct WalkLink: Sendable, Hashable {
  /// The stop reached.
  public var to: Int32
  /// Seconds it takes.
  public var seconds: Int32
}

/// The trips of a period as plain values, by stop pattern, for the router (which splits the
/// patterns into routes whose trips never overtake: `Routing`'s business, not the store's).
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

  func locate(_ stop: Int32) -> (feed: Int, idx: Int64) {
    var feed = 0
    while feed + 1 < stopOffsets.count && stopOffsets[feed + 1] <= stop { feed += 1 }
    return (feed, Int64(stop - stopOffsets[feed]))
  }
}

extension FeedReader {
  /// A pattern's stops and where one may board and alight.
  fileprivate struct PatternStops {
    var stops: [Int32] = []
    var canBoard: [Bool] = []
    var canAlight: [Bool] = []
    var group: Int = -1
    /// Its longest trip, first departure to last arrival (patterns.max_span).
    var maxSpan: Int64 = 0
  }

  fileprivate struct InstanceKey: Hashable {
    var trip: Int64
    var date: ServiceDate
    var start: Int32?
  }

  /// Adds this feed's trips calling in `from...until`, its footpaths and transfers; with
  /// `parts`, only those of these parts of the network (read from `routing_index`), else all
  /// of them (read from the tables).
  func addRouting(
    to builder: inout RoutingPatterns, feedIndex: Int, offset: Int32, from: UnixTime, until: UnixTime, modes: Set<TransitMode>,
    walking: WalkingModel, realtime: [RealtimeTrip], parts: [RoutingIndex.Part]? = nil
  ) throws {
    // Patterns of the modes asked for, with their stops.
    var patterns: [Int64: PatternStops] = [:]
    /// Per pattern of `parts`, its trips by first departure.
    var indexedTrips: [Int64: [RoutingIndex.Trip]] = [:]
    if let parts {
      for part in parts {
        for pattern in part.patterns where modes.isEmpty || modes.contains(TransitMode(routeType: Int(pattern.routeType))) {
          patterns[pattern.pattern] = PatternStops(
            stops: pattern.stops.map { offset + $0 }, canBoard: pattern.canBoard, canAlight: pattern.canAlight, group: -1,
            maxSpan: Int64(pattern.maxSpan))
          indexedTrips[pattern.pattern] = pattern.trips
        }
      }
    } else {
      var routeTypes: [Int64: Int] = [:]
      let routeSelect = try db.cached("SELECT route_idx, route_type FROM routes")
      while try routeSelect.step() { routeTypes[routeSelect.int64(0)] = routeSelect.int(1) }
      let patternSelect = try db.cached("SELECT pattern_idx, route_idx, max_span FROM patterns")
      while try patternSelect.step() {
        let type = routeTypes[patternSelect.int64(1)] ?? 3
        if modes.isEmpty || modes.contains(TransitMode(routeType: type)) {
          patterns[patternSelect.int64(0)] = PatternStops(maxSpan: patternSelect.int64(2))
        }
      }
      let stopSelect = try db.cached("SELECT pattern_idx, stop_idx, pickup_type, drop_off_type FROM pattern_stops")
      while try stopSelect.step() {
        let pattern = stopSelect.int64(0)
        guard patterns[pattern] != nil else { continue }
        patterns[pattern]!.stops.append(offset + Int32(stopSelect.int64(1)))
        patterns[pattern]!.canBoard.append(stopSelect.int(2) != 1)
        patterns[pattern]!.canAlight.append(stopSelect.int(3) != 1)
      }
    }

    // Per trip its service (one pass over trips, cheaper than a join per trip read below);
    // the index carries each trip's service with it.
    var serviceOfTrip: [Int32] = []
    if parts == nil {
      let tripCount = Int(try db.scalarInt("SELECT coalesce(max(trip_idx), 0) + 1 FROM trips") ?? 1)
      serviceOfTrip = [Int32](repeating: -1, count: tripCount)
      let tripSelect = try db.cached("SELECT trip_idx, service_idx FROM trips")
      while try tripSelect.step() {
        let trip = Int(tripSelect.int64(0))
        if trip >= 0 && trip < tripCount { serviceOfTrip[trip] = Int32(truncatingIfNeeded: tripSelect.int64(1)) }
      }
    }

    // Which services run on each service date that can reach the window.
    let serviceCount = Int(try db.scalarInt("SELECT coalesce(max(service_idx), 0) + 1 FROM services") ?? 1)
    var days: [RoutingDay] = []
    let daysBack = Int((Int64(latestCall) + 86_399) / 86_400)
    var date = ServiceCalendar.localDate(of: from, in: zone).adding(days: -daysBack)
    // The day after: on a spring-forward date noon minus 12 h is 23:00 of the evening before.
    let lastDate = ServiceCalendar.localDate(of: until, in: zone).adding(days: 1)
    while date <= lastDate {
      let base = try calendar.start(of: date)
      let services = try calendar.services(on: date)
      if !services.isEmpty {
        var active = [Bool](repeating: false, count: serviceCount)
        for service in services where Int(service) < serviceCount && service >= 0 { active[Int(service)] = true }
        days.append(RoutingDay(date: date, base: base.seconds, low: from - base, high: until - base, active: active))
      }
      date = date.adding(days: 1)
    }

    // Realtime, by trip instance.
    var live: [InstanceKey: RealtimeTrip] = [:]
    for trip in realtime {
      guard let idx = try tripIndex(id: trip.tripID.rawValue) else { continue }
      live[InstanceKey(trip: idx, date: trip.serviceDate, start: trip.startTime?.seconds)] = trip
    }

    var collector = InstanceCollector(
      patterns: patterns, live: live, originSeconds: builder.origin.seconds, feed: name, feedIndex: feedIndex)

    // Ordinary trips: per service date and pattern, only those starting early enough to
    // reach the window and not after it (the index on (pattern_idx, first_departure), or a
    // binary search of the pattern's trips in routing_index).
    let frequencies = try self.frequencies()
    let templates = frequencyTrips
    let orderedPatterns = patterns.keys.sorted()
    // Two steps: the index alone (trip_idx is in it) gives the candidates, so only the rows of
    // trips whose service runs that day are read; other services' trips cost no table seek.
    let candidateSelect = try db.cached(
      "SELECT trip_idx FROM trip_times WHERE pattern_idx = ?1 AND first_departure BETWEEN ?2 AND ?3")
    let timesSelect = try db.cached("SELECT last_arrival, times FROM trip_times WHERE trip_idx = ?")
    var candidates: [Int64] = []
    func active(_ trip: Int64, service: Int, on day: RoutingDay) -> Bool {
      service >= 0 && service < serviceCount && day.active[service] && !templates.contains(trip)
    }
    for day in days {
      for pattern in orderedPatterns {
        guard let shape = patterns[pattern] else { continue }
        let width = shape.stops.count
        let low = day.low - shape.maxSpan
        candidates.removeAll(keepingCapacity: true)
        if let trips = indexedTrips[pattern] {
          // The first trip leaving at `low` or later, then each until `high`.
          var first = 0, last = trips.count
          while first < last {
            let middle = (first + last) / 2
            if Int64(trips[middle].firstDeparture) < low { first = middle + 1 } else { last = middle }
          }
          var index = first
          while index < trips.count, Int64(trips[index].firstDeparture) <= day.high {
            let trip = trips[index]
            index += 1
            guard trip.lastArrival == Int32.max || Int64(trip.lastArrival) >= day.low,
              active(Int64(trip.trip), service: Int(trip.service), on: day)
            else { continue }
            candidates.append(Int64(trip.trip))
          }
        } else {
          candidateSelect.reset()
          candidateSelect.bind(pattern, at: 1)
          candidateSelect.bind(low, at: 2)
          candidateSelect.bind(day.high, at: 3)
          while try candidateSelect.step() {
            let trip = candidateSelect.int64(0)
            let service = trip >= 0 && trip < Int64(serviceOfTrip.count) ? Int(serviceOfTrip[Int(trip)]) : -1
            if active(trip, service: service, on: day) { candidates.append(trip) }
          }
        }
        for trip in candidates {
          timesSelect.reset()
          timesSelect.bind(trip, at: 1)
          guard try timesSelect.step(), timesSelect.isNull(0) || timesSelect.int64(0) >= day.low,
            timesSelect.withBlob(1, { collector.decode($0, width: width) })
          else { continue }
          collector.add(to: &builder, pattern: pattern, trip: trip, day: day, start: nil, shift: 0)
        }
      }
    }

    // Frequency-based trips: an instance every headway from start_time until end_time.
    let templateSelect = try db.cached(
      "SELECT tt.times, t.service_idx FROM trip_times tt JOIN trips t ON t.trip_idx = tt.trip_idx WHERE tt.trip_idx = ?")
    for (pattern, windows) in frequencies.sorted(by: { $0.key < $1.key }) {
      guard let width = patterns[pattern]?.stops.count else { continue }
      for window in windows where window.headway > 0 {
        templateSelect.reset()
        templateSelect.bind(window.trip, at: 1)
        guard try templateSelect.step(), templateSelect.withBlob(0, { collector.decode($0, width: width) }) else { continue }
        let service = templateSelect.int(1)
        guard service >= 0 && service < serviceCount else { continue }
        let times = (collector.arrivals, collector.departures)
        for day in days where day.active[service] {
          var start = window.start
          while start < window.end {
            defer { start += window.headway }
            guard Int64(start) <= day.high, Int64(start + window.span) >= day.low else { continue }
            collector.arrivals = times.0
            collector.departures = times.1
            collector.add(to: &builder, pattern: pattern, trip: window.trip, day: day, start: start, shift: start - window.templateStart)
          }
        }
      }
    }

    // Footpaths within the walking model's reach, then transfers.txt.
    var links: [Int64: [Int64: Int32]] = [:]
    let reach = Int64(walking.maxTransferMeters.rounded(.down))
    if let parts {
      for part in parts {
        for (stop, paths) in zip(part.stops, part.footpaths) {
          for path in paths where Int64(path.meters) <= reach {
            links[Int64(stop), default: [:]][Int64(path.to)] = walking.seconds(straightLineMeters: Double(path.meters))
          }
        }
      }
    } else {
      let pathSelect = try db.cached("SELECT from_stop_idx, to_stop_idx, distance_m FROM footpaths WHERE distance_m <= ?")
      pathSelect.bind(reach, at: 1)
      while try pathSelect.step() {
        links[pathSelect.int64(0), default: [:]][pathSelect.int64(1)] = walking.seconds(straightLineMeters: pathSelect.double(2))
      }
    }
    let transferSelect = try db.cached(
      """
      SELECT from_stop_id, to_stop_id, transfer_type, min_transfer_time FROM transfers
      WHERE coalesce(from_route_id, '') = '' AND coalesce(to_route_id, '') = ''
        AND coalesce(from_trip_id, '') = '' AND coalesce(to_trip_id, '') = ''
      """)
    while try transferSelect.step() {
      guard let fromID = transferSelect.optionalText(0), let toID = transferSelect.optionalText(1),
        let fromIdx = try stopIndex(id: fromID), let toIdx = try stopIndex(id: toID)
      else { continue }
      let type = transferSelect.int(2)
      let minimum = transferSelect.optionalInt(3).map { Int32(clamping: $0) }
      // A station's transfers apply to its platforms.
      for a in try boardingStops(fromIdx) {
        for b in try boardingStops(toIdx) {
          if type == 3 {
            links[a]?[b] = nil
          } else if a == b {
            if let minimum { builder.changeSeconds[Int(offset) + Int(a)] = minimum }
          } else if let minimum {
            links[a, default: [:]][b] = minimum
          } else if links[a]?[b] == nil, let p = try stop(a)?.coordinate, let q = try stop(b)?.coordinate {
            links[a, default: [:]][b] = walking.seconds(straightLineMeters: p.distanceMeters(to: q))
          }
        }
      }
    }
    for (from, targets) in links {
      builder.footpaths[Int(offset) + Int(from)] = targets.map { WalkLink(to: offset + Int32($0.key), seconds: $0.value) }
        .sorted { $0.to < $1.to }
    }
  }
}

/// A service date that can reach the window: where its clock starts, the window in its
/// seconds, and which services run.
private struct RoutingDay {
  var date: ServiceDate
  var base: Int64
  var low: Int64
  var high: Int64
  var active: [Bool]
}

/// Turns trip rows into instances of the builder's groups (a struct, so that its buffers are
/// checked for exclusive access at compile time, not on every access).
private struct InstanceCollector {
  var patterns: [Int64: FeedReader.PatternStops]
  let live: [FeedReader.InstanceKey: RealtimeTrip]
  let originSeconds: Int64
  let feed: FeedName
  let feedIndex: Int
  /// The trip being added, in service-day seconds.
  var arrivals: [Int32] = []
  var departures: [Int32] = []

  init(
    patterns: [Int64: FeedReader.PatternStops], live: [FeedReader.InstanceKey: RealtimeTrip], originSeconds: Int64, feed: FeedName,
    feedIndex: Int
  ) {
    self.patterns = patterns
    self.live = live
    self.originSeconds = originSeconds
    self.feed = feed
    self.feedIndex = feedIndex
  }

  /// Reads a trip's times blob into `arrivals`/`departures`; false when a stop has no time.
  mutating func decode(_ raw: UnsafeRawBufferPointer, width: Int) -> Bool {
    guard raw.count >= width * 8 else { return false }
    arrivals.removeAll(keepingCapacity: true)
    departures.removeAll(keepingCapacity: true)
    for position in 0..<width {
      var arrival = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: position * 8, as: Int32.self))
      var departure = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: position * 8 + 4, as: Int32.self))
      if arrival < 0 { arrival = departure }
      if departure < 0 { departure = arrival }
      guard arrival >= 0 else { return false }
      arrivals.append(arrival)
      departures.append(max(departure, arrival))
    }
    return true
  }

  /// Adds the instance of `trip` whose service-day times are in `arrivals`/`departures`,
  /// shifted by `shift` (frequency instances), with its realtime when there is some.
  mutating func add(to builder: inout RoutingPatterns, pattern: Int64, trip: Int64, day: RoutingDay, start: Int32?, shift: Int32) {
    guard let group = patterns[pattern]?.group, let width = patterns[pattern]?.stops.count else { return }
    let base = Int32(clamping: day.base - originSeconds) + shift
    let update = live.isEmpty ? nil : live[FeedReader.InstanceKey(trip: trip, date: day.date, start: start)]
    if update?.isCancelled == true { return }
    let reference = Int32(builder.trips.count)
    builder.trips.append(
      RoutingTrip(
        feed: feed, serviceDate: day.date, startTime: start.map { ServiceTime(seconds: $0) }, isLive: update != nil,
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
