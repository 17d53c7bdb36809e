import Foundation
import Routing
import SQLite
import TransitModel

// How `Store.routingNetwork` builds the router's arrays: each feed's patterns, the trips of
// the service dates that reach the window (frequency instances expanded, realtime applied),
// split into routes whose trips never overtake; footpaths and transfers.txt.

// MARK: - Building

/// Trips gathered by pattern, then split into FIFO routes.
struct RoutingBuilder {
  struct Group {
    var pattern: Int64
    var stops: [Int32]
    var canBoard: [Bool]
    var canAlight: [Bool]
    var arrivals: [Int32] = []
    var departures: [Int32] = []
    var trips: [Int32] = []
  }

  let stopCount: Int
  let origin: UnixTime
  var groups: [Group] = []
  var trips: [RoutingTrip] = []
  var footpaths: [[Footpath]]
  var changeSeconds: [Int32]

  init(stopCount: Int, origin: UnixTime) {
    self.stopCount = stopCount
    self.origin = origin
    footpaths = Array(repeating: [], count: stopCount)
    changeSeconds = Array(repeating: 0, count: stopCount)
  }

  /// Splits each group into routes whose trips never overtake (greedily: each trip, in order of
  /// departure, joins the first route whose last trip it does not overtake).
  func network(stopOffsets: [Int32]) -> RoutingNetwork {
    var routes: [RoutingRoute] = []
    for group in groups where !group.trips.isEmpty {
      let width = group.stops.count
      let order = group.trips.indices.sorted { a, b in
        let da = group.departures[a * width], db = group.departures[b * width]
        if da != db { return da < db }
        return group.arrivals[a * width + width - 1] < group.arrivals[b * width + width - 1]
      }
      var parts: [[Int]] = []
      for trip in order {
        let fits = parts.firstIndex { part in
          let last = part[part.count - 1]
          for position in 0..<width
          where group.arrivals[trip * width + position] < group.arrivals[last * width + position]
            || group.departures[trip * width + position] < group.departures[last * width + position]
          {
            return false
          }
          return true
        }
        if let fits { parts[fits].append(trip) } else { parts.append([trip]) }
      }
      for part in parts {
        var arrivals: [Int32] = [], departures: [Int32] = []
        arrivals.reserveCapacity(part.count * width)
        departures.reserveCapacity(part.count * width)
        for trip in part {
          arrivals += group.arrivals[(trip * width)..<(trip * width + width)]
          departures += group.departures[(trip * width)..<(trip * width + width)]
        }
        routes.append(
          RoutingRoute(
            stops: group.stops, canBoard: group.canBoard, canAlight: group.canAlight, arrivals: arrivals, departures: departures,
            tripReferences: part.map { group.trips[$0] }, reference: Int32(truncatingIfNeeded: group.pattern)))
      }
    }
    return RoutingNetwork(
      timetable: RoutingTimetable(stopCount: stopCount, routes: routes, footpaths: footpaths, changeSeconds: changeSeconds),
      origin: origin, trips: trips, stopOffsets: stopOffsets)
  }
}

extension FeedReader {
  /// A pattern's stops and where one may board and alight.
  fileprivate struct PatternStops {
    var stops: [Int32] = []
    var canBoard: [Bool] = []
    var canAlight: [Bool] = []
    var group: Int = -1
  }

  fileprivate struct InstanceKey: Hashable {
    var trip: Int64
    var date: ServiceDate
    var start: Int32?
  }

  /// Adds this feed's trips calling in `from...until`, its footpaths and transfers.
  func addRouting(
    to builder: inout RoutingBuilder, feedIndex: Int, offset: Int32, from: UnixTime, until: UnixTime, modes: Set<TransitMode>,
    walking: WalkingModel, realtime: [RealtimeTrip]
  ) throws {
    // Patterns of the modes asked for, with their stops.
    var routeTypes: [Int64: Int] = [:]
    let routeSelect = try db.cached("SELECT route_idx, route_type FROM routes")
    while try routeSelect.step() { routeTypes[routeSelect.int64(0)] = routeSelect.int(1) }
    var patterns: [Int64: PatternStops] = [:]
    let patternSelect = try db.cached("SELECT pattern_idx, route_idx FROM patterns")
    while try patternSelect.step() {
      let type = routeTypes[patternSelect.int64(1)] ?? 3
      if modes.isEmpty || modes.contains(TransitMode(routeType: type)) { patterns[patternSelect.int64(0)] = PatternStops() }
    }
    let stopSelect = try db.cached("SELECT pattern_idx, stop_idx, pickup_type, drop_off_type FROM pattern_stops")
    while try stopSelect.step() {
      let pattern = stopSelect.int64(0)
      guard patterns[pattern] != nil else { continue }
      patterns[pattern]!.stops.append(offset + Int32(stopSelect.int64(1)))
      patterns[pattern]!.canBoard.append(stopSelect.int(2) != 1)
      patterns[pattern]!.canAlight.append(stopSelect.int(3) != 1)
    }

    // Per trip its service (one pass over trips, cheaper than a join per trip read below).
    let tripCount = Int(try db.scalarInt("SELECT coalesce(max(trip_idx), 0) + 1 FROM trips") ?? 1)
    var serviceOfTrip = [Int32](repeating: -1, count: tripCount)
    let tripSelect = try db.cached("SELECT trip_idx, service_idx FROM trips")
    while try tripSelect.step() {
      let trip = Int(tripSelect.int64(0))
      if trip >= 0 && trip < tripCount { serviceOfTrip[trip] = Int32(truncatingIfNeeded: tripSelect.int64(1)) }
    }

    // Which services run on each service date that can reach the window.
    let serviceCount = Int(try db.scalarInt("SELECT coalesce(max(service_idx), 0) + 1 FROM services") ?? 1)
    var days: [RoutingDay] = []
    let daysBack = Int((Int64(latestCall) + 86_399) / 86_400)
    var date = ServiceCalendar.localDate(of: from, in: zone).adding(days: -daysBack)
    // The day after: on a spring-forward date noon minus 12 h is 23:00 of the evening before.
    let lastDate = ServiceCalendar.localDate(of: until, in: zone).adding(days: 1)
    while date <= lastDate {
      let base = calendar.start(of: date)
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
    // reach the window and not after it (the index on (pattern_idx, first_departure)).
    let frequencies = try self.frequencies()
    let templates = frequencyTrips
    var spans: [Int64: Int64] = [:]
    let spanSelect = try db.cached("SELECT pattern_idx, max_span FROM patterns")
    while try spanSelect.step() { spans[spanSelect.int64(0)] = spanSelect.int64(1) }
    let orderedPatterns = patterns.keys.sorted()
    // Two steps: the index alone (trip_idx is in it) gives the candidates, so only the rows of
    // trips whose service runs that day are read; other services' trips cost no table seek.
    let candidateSelect = try db.cached(
      "SELECT trip_idx FROM trip_times WHERE pattern_idx = ?1 AND first_departure BETWEEN ?2 AND ?3")
    let timesSelect = try db.cached("SELECT last_arrival, times FROM trip_times WHERE trip_idx = ?")
    var candidates: [Int64] = []
    for day in days {
      for pattern in orderedPatterns {
        guard let width = patterns[pattern]?.stops.count else { continue }
        candidateSelect.reset()
        candidateSelect.bind(pattern, at: 1)
        candidateSelect.bind(day.low - (spans[pattern] ?? 0), at: 2)
        candidateSelect.bind(day.high, at: 3)
        candidates.removeAll(keepingCapacity: true)
        while try candidateSelect.step() {
          let trip = candidateSelect.int64(0)
          let service = trip >= 0 && trip < Int64(tripCount) ? Int(serviceOfTrip[Int(trip)]) : -1
          if service >= 0 && service < serviceCount && day.active[service] && !templates.contains(trip) { candidates.append(trip) }
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
    let pathSelect = try db.cached("SELECT from_stop_idx, to_stop_idx, distance_m FROM footpaths WHERE distance_m <= ?")
    pathSelect.bind(Int64(walking.maxTransferMeters.rounded(.down)), at: 1)
    while try pathSelect.step() {
      links[pathSelect.int64(0), default: [:]][pathSelect.int64(1)] = walking.seconds(straightLineMeters: pathSelect.double(2))
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
      builder.footpaths[Int(offset) + Int(from)] = targets.map { Footpath(to: offset + Int32($0.key), seconds: $0.value) }
        .sorted { $0.to < $1.to }
    }
  }

  /// The trip_idx of `id`, or nil.
  func tripIndex(id: String) throws -> Int64? {
    let select = try db.cached("SELECT trip_idx FROM trips WHERE trip_id = ?")
    select.bind(id, at: 1)
    return try select.step() ? select.int64(0) : nil
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
  mutating func add(to builder: inout RoutingBuilder, pattern: Int64, trip: Int64, day: RoutingDay, start: Int32?, shift: Int32) {
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
        builder.groups.append(RoutingBuilder.Group(pattern: pattern, stops: shape.stops, canBoard: shape.canBoard, canAlight: shape.canAlight))
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
      builder.groups.append(RoutingBuilder.Group(pattern: pattern, stops: shape.stops, canBoard: shape.canBoard, canAlight: shape.canAlight))
      if !ownRoute { patterns[pattern]!.group = index }
    }
    builder.groups[index].arrivals += arrive
    builder.groups[index].departures += depart
    builder.groups[index].trips.append(reference)
  }
}
