import FoundationEssentials
import SQLite
import TransitModel

// The store's reads behind the router's network (Services builds the router's arrays from
// them and applies realtime): each feed's patterns, the timetable's trip instances of a window
// (frequency instances expanded), its walks (footpaths, transfers.txt) and the stations two
// feeds share. Plain values out, in each feed's own stop_idx and trip_idx; no realtime.

/// A pattern's stops (the feed's stop_idx) and where one may board and alight, as stored.
public struct RoutingPatternStops: Sendable {
  public var stops: [Int32] = []
  public var canBoard: [Bool] = []
  public var canAlight: [Bool] = []
  /// Its longest trip, first departure to last arrival (patterns.max_span).
  public var maxSpan: Int64 = 0
}

/// One feed's patterns for a network (those of the modes asked, within the scope asked), with
/// what the trip and walk reads of the same feed need.
public struct RoutingFeedRows: Sendable {
  /// The feed's position in `Store.feedNames`.
  public let feedIndex: Int
  /// The patterns by pattern_idx.
  public internal(set) var patterns: [Int64: RoutingPatternStops] = [:]
  /// The stored parts read (nil: the feed's tables are read whole).
  let parts: [RoutingIndex.Part]?
  /// Per pattern of `parts`, its trips by first departure.
  var indexedTrips: [Int64: [RoutingIndex.Trip]] = [:]
}

/// A trip instance of the timetable, as `Store.forEachRoutingInstance` gives it.
public struct RoutingInstance {
  /// Its pattern, its trip (the feed's trip_idx), its service date.
  public var pattern: Int64
  public var trip: Int64
  public var serviceDate: ServiceDate
  /// Where its service date's clock starts (noon minus 12 h), in Unix seconds.
  public var dayStart: Int64
  /// The start of a frequency-based instance (frequencies.txt), else nil.
  public var start: Int32?
  /// Seconds its times are moved by (a frequency instance against its template trip).
  public var shift: Int32
}

/// The walks of one feed, as `Store.routingWalks` reads them.
public struct RoutingFeedWalks: Sendable {
  /// Per stop_idx, the stops it walks to and the seconds it takes.
  public var links: [Int64: [Int64: Int32]] = [:]
  /// Minimum change times at a stop (transfers.txt type 2 to itself), in the order read.
  public var changeSeconds: [(stop: Int64, seconds: Int32)] = []
}

/// A network stop with its place, for walks between feeds.
public struct RoutingPlacedStop: Sendable {
  /// The feed's position in `Store.feedNames`, the stop's stop_idx, its coordinate.
  public var feed: Int
  public var stop: Int64
  public var coordinate: Coordinate
}

extension Store {
  /// How many stop slots feed `feed` (a position in `feedNames`) needs: its largest stop_idx
  /// plus one.
  public func routingStopSlots(feed: Int) throws -> Int32 {
    Int32(try feeds[feed].db.scalarInt("SELECT coalesce(max(stop_idx), 0) + 1 FROM stops") ?? 1)
  }

  /// Feed `feed`'s patterns of `modes` (empty: all): with `parts`, only those of these parts
  /// of its network (read from `routing_index`; when one cannot be read, the whole feed from
  /// its tables); else all of them, read from the tables. Nil when `parts` is given and empty
  /// (the feed is left out).
  public func routingRows(feed index: Int, modes: Set<TransitMode>, parts wanted: Set<Int32>?) throws -> RoutingFeedRows? {
    let feed = feeds[index]
    var parts: [RoutingIndex.Part]?
    if let wanted {
      parts = []
      for part in wanted.sorted() {
        guard let read = try feed.routingPart(part) else {
          parts = nil  // unreadable: the whole feed from its tables
          break
        }
        parts!.append(read)
      }
      if parts?.isEmpty == true { return nil }
    }
    var rows = RoutingFeedRows(feedIndex: index, parts: parts)
    if let parts {
      for part in parts {
        for pattern in part.patterns where modes.isEmpty || modes.contains(TransitMode(routeType: Int(pattern.routeType))) {
          rows.patterns[pattern.pattern] = RoutingPatternStops(
            stops: pattern.stops, canBoard: pattern.canBoard, canAlight: pattern.canAlight, maxSpan: Int64(pattern.maxSpan))
          rows.indexedTrips[pattern.pattern] = pattern.trips
        }
      }
    } else {
      var routeTypes: [Int64: Int] = [:]
      let routeSelect = try feed.db.cached("SELECT route_idx, route_type FROM routes")
      while try routeSelect.step() { routeTypes[routeSelect.int64(0)] = routeSelect.int(1) }
      let patternSelect = try feed.db.cached("SELECT pattern_idx, route_idx, max_span FROM patterns")
      while try patternSelect.step() {
        let type = routeTypes[patternSelect.int64(1)] ?? 3
        if modes.isEmpty || modes.contains(TransitMode(routeType: type)) {
          rows.patterns[patternSelect.int64(0)] = RoutingPatternStops(maxSpan: patternSelect.int64(2))
        }
      }
      let stopSelect = try feed.db.cached("SELECT pattern_idx, stop_idx, pickup_type, drop_off_type FROM pattern_stops")
      while try stopSelect.step() {
        let pattern = stopSelect.int64(0)
        guard rows.patterns[pattern] != nil else { continue }
        rows.patterns[pattern]!.stops.append(Int32(stopSelect.int64(1)))
        rows.patterns[pattern]!.canBoard.append(stopSelect.int(2) != 1)
        rows.patterns[pattern]!.canAlight.append(stopSelect.int(3) != 1)
      }
    }
    return rows
  }

  /// The trip_idx of `tripID` in feed `feed`, or nil.
  public func routingTripIndex(feed: Int, id tripID: TripID) throws -> Int64? {
    try feeds[feed].tripIndex(id: tripID.rawValue)
  }

  /// Calls `body` with each timetable instance of `rows`' patterns that calls between `from`
  /// and `until`, and its times in service-day seconds (an arrival or departure missing is the
  /// other; a departure never before its arrival): ordinary trips of every service date that
  /// can reach the window (the dates before, for trips running past midnight), date by date
  /// and pattern by pattern, then frequency-based trips expanded into an instance every
  /// headway from start_time until end_time.
  /// - Complexity: without parts, one scan of the feed's trips, then per date and pattern an
  ///   index range of trip_times; with parts, a binary search of each pattern's stored trips;
  ///   a row read per trip instance whose service runs.
  public func forEachRoutingInstance(
    of rows: RoutingFeedRows, from: UnixTime, until: UnixTime,
    _ body: (_ instance: RoutingInstance, _ arrivals: [Int32], _ departures: [Int32]) -> Void
  ) throws {
    let feed = feeds[rows.feedIndex]
    let db = try feed.db
    let patterns = rows.patterns
    // Per trip its service (one pass over trips, cheaper than a join per trip read below);
    // the index carries each trip's service with it.
    var serviceOfTrip: [Int32] = []
    if rows.parts == nil {
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
    let daysBack = Int((Int64(feed.latestCall) + 86_399) / 86_400)
    var date = ServiceCalendar.localDate(of: from, in: feed.zone).adding(days: -daysBack)
    // The day after: on a spring-forward date noon minus 12 h is 23:00 of the evening before.
    let lastDate = ServiceCalendar.localDate(of: until, in: feed.zone).adding(days: 1)
    let calendar = try feed.calendar
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

    var times = RoutingTripTimes()

    // Ordinary trips: per service date and pattern, only those starting early enough to
    // reach the window and not after it (the index on (pattern_idx, first_departure), or a
    // binary search of the pattern's trips in routing_index).
    let frequencies = try feed.frequencies()
    let templates = feed.frequencyTrips
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
        if let trips = rows.indexedTrips[pattern] {
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
            timesSelect.withBlob(1, { times.decode($0, width: width) })
          else { continue }
          body(
            RoutingInstance(pattern: pattern, trip: trip, serviceDate: day.date, dayStart: day.base, start: nil, shift: 0),
            times.arrivals, times.departures)
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
        guard try templateSelect.step(), templateSelect.withBlob(0, { times.decode($0, width: width) }) else { continue }
        let service = templateSelect.int(1)
        guard service >= 0 && service < serviceCount else { continue }
        for day in days where day.active[service] {
          var start = window.start
          while start < window.end {
            defer { start += window.headway }
            guard Int64(start) <= day.high, Int64(start + window.span) >= day.low else { continue }
            body(
              RoutingInstance(
                pattern: pattern, trip: window.trip, serviceDate: day.date, dayStart: day.base, start: start,
                shift: start - window.templateStart),
              times.arrivals, times.departures)
          }
        }
      }
    }
  }

  /// Feed `rows`' walks within the walking model's reach (ingest's footpaths, from the parts
  /// read or the table), then transfers.txt: min_transfer_time where given, else the walking
  /// time; type 3 removes a link; a station's transfers apply to its platforms.
  public func routingWalks(of rows: RoutingFeedRows, walking: WalkingModel) throws -> RoutingFeedWalks {
    let feed = feeds[rows.feedIndex]
    let db = try feed.db
    var walks = RoutingFeedWalks()
    let reach = Int64(walking.maxTransferMeters.rounded(.down))
    if let parts = rows.parts {
      for part in parts {
        for (stop, paths) in zip(part.stops, part.footpaths) {
          for path in paths where Int64(path.meters) <= reach {
            walks.links[Int64(stop), default: [:]][Int64(path.to)] = walking.seconds(straightLineMeters: Double(path.meters))
          }
        }
      }
    } else {
      let pathSelect = try db.cached("SELECT from_stop_idx, to_stop_idx, distance_m FROM footpaths WHERE distance_m <= ?")
      pathSelect.bind(reach, at: 1)
      while try pathSelect.step() {
        walks.links[pathSelect.int64(0), default: [:]][pathSelect.int64(1)] = walking.seconds(
          straightLineMeters: pathSelect.double(2))
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
        let fromIdx = try feed.stopIndex(id: fromID), let toIdx = try feed.stopIndex(id: toID)
      else { continue }
      let type = transferSelect.int(2)
      let minimum = transferSelect.optionalInt(3).map { Int32(clamping: $0) }
      for a in try feed.boardingStops(fromIdx) {
        for b in try feed.boardingStops(toIdx) {
          if type == 3 {
            walks.links[a]?[b] = nil
          } else if a == b {
            if let minimum { walks.changeSeconds.append((a, minimum)) }
          } else if let minimum {
            walks.links[a, default: [:]][b] = minimum
          } else if walks.links[a]?[b] == nil, let p = try feed.stop(a)?.coordinate, let q = try feed.stop(b)?.coordinate {
            walks.links[a, default: [:]][b] = walking.seconds(straightLineMeters: p.distanceMeters(to: q))
          }
        }
      }
    }
    return walks
  }

  /// The stations of two feeds held that are one complex (issue 32: one folded name, or one
  /// stop_id, within `complexRadiusMeters`: BART's and Caltrain's Millbrae), each pair once,
  /// with their platforms placed (those with a coordinate).
  /// - Complexity: one read of each feed's stations, grouped by name and id; then per pair
  ///   found, their platforms.
  public func stationsSharedAcrossFeeds() throws -> [(here: [RoutingPlacedStop], there: [RoutingPlacedStop])] {
    struct Station {
      var feed: Int
      var idx: Int64
      var coordinate: Coordinate
    }
    var byKey: [String: [Station]] = [:]
    for (index, feed) in feeds.enumerated() {
      let select = try feed.db.cached(
        "SELECT stop_idx, stop_id, name, lat, lon FROM stops WHERE location_type = 1 AND lat IS NOT NULL AND lon IS NOT NULL")
      while try select.step() {
        let station = Station(
          feed: index, idx: select.int64(0), coordinate: Coordinate(latitude: select.double(3), longitude: select.double(4)))
        byKey["name:" + TextFolding.fold(select.text(2)), default: []].append(station)
        byKey["id:" + select.text(1), default: []].append(station)
      }
    }
    func placed(_ feed: Int, _ station: Int64) throws -> [RoutingPlacedStop] {
      try feeds[feed].boardingStops(station).compactMap { idx in
        try feeds[feed].stop(idx)?.coordinate.map { RoutingPlacedStop(feed: feed, stop: idx, coordinate: $0) }
      }
    }
    var linked: Set<[Int64]> = []
    var pairs: [(here: [RoutingPlacedStop], there: [RoutingPlacedStop])] = []
    for group in byKey.values where group.count > 1 && Set(group.map(\.feed)).count > 1 {
      for a in group {
        for b in group where b.feed > a.feed && a.coordinate.distanceMeters(to: b.coordinate) <= Self.complexRadiusMeters {
          guard linked.insert([Int64(a.feed), a.idx, Int64(b.feed), b.idx]).inserted else { continue }
          pairs.append((try placed(a.feed, a.idx), try placed(b.feed, b.idx)))
        }
      }
    }
    return pairs
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

/// One trip's times read from its blob (a struct, so that its buffers are checked for
/// exclusive access at compile time, not on every access).
private struct RoutingTripTimes {
  var arrivals: [Int32] = []
  var departures: [Int32] = []

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
}
