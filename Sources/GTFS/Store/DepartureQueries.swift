import FoundationEssentials
import SQLite
import TransitModel

/// What `Store.departures(at:_:)` looks for.
public struct DepartureQuery: Sendable {
  /// The window's start (usually now).
  public var from: UnixTime
  /// The window's end, not included: the window is [from, until).
  public var until: UnixTime
  /// At most this many, earliest first (nil: all in the window).
  public var limit: Int?
  /// Also list calls where nobody can board: the trip's last stop and `pickup_type` 1.
  public var includeArrivals: Bool
  /// Only this route: its short name or route_id, ignoring case.
  public var route: String?
  /// Only trips going there: the headsign, or the name of any later stop on the trip, contains
  /// it (ignoring case and accents).
  public var destination: String?
  /// Only trips of this service date (a stop's printed timetable for one day); nil: every
  /// service day that reaches the window.
  public var serviceDate: ServiceDate?
  /// Only trips that call at one of these stops (a station: at one of its platforms) after the
  /// stop asked about and let riders off there (`--via`); empty: every trip. Stops of other
  /// feeds match no trip (a trip runs in one feed).
  public var via: [Stop] = []

  /// Creates a query for the calls in [from, until): a call exactly at `until` is not in it,
  /// so two windows side by side never show the same call twice.
  public init(
    from: UnixTime, until: UnixTime, limit: Int? = nil, includeArrivals: Bool = false, route: String? = nil,
    destination: String? = nil, via: [Stop] = []
  ) {
    self.via = via
    self.from = from
    self.until = until
    self.limit = limit
    self.includeArrivals = includeArrivals
    self.route = route
    self.destination = destination
  }
}

extension Store {
  /// The scheduled calls at `stop` (for a station, at all its platforms) in [`query.from`,
  /// `query.until`), earliest first; departures only unless `includeArrivals`.
  ///
  /// Every service day that can reach the window is asked (times past 24:00:00 belong to the
  /// day before, and a feed whose latest time is 29:39:00 needs two days back; a service day
  /// can also begin on the evening before its date: on a spring-forward date noon minus 12 h
  /// is 23:00 of the day before); a trip counts
  /// when its service runs on that date (calendar.txt, then calendar_dates.txt). Frequency
  /// trips are expanded into instances within the window.
  ///
  /// - Complexity: per service date and pattern through the stop, one range scan of
  ///   `trip_times_by_pattern` bounded by `first_departure BETWEEN start - latest offset AND
  ///   end - earliest offset` (`patterns.offsets` at the stop's position): only trips that can
  ///   be at the stop within the window are read.
  public func departures(at stop: Stop, _ query: DepartureQuery) throws -> [ScheduledCall] {
    guard let reader = reader(stop.feed), let idx = try reader.stopIndex(id: stop.id.rawValue) else { return [] }
    var calls = try reader.calls(atStops: reader.boardingStops(idx), query)
    calls.sort { a, b in
      let ta = a.scheduledTime ?? UnixTime(0), tb = b.scheduledTime ?? UnixTime(0)
      if ta != tb { return ta < tb }
      if a.routeShortName != b.routeShortName { return a.routeShortName < b.routeShortName }
      return a.tripID < b.tripID
    }
    if let limit = query.limit { calls = Array(calls.prefix(limit)) }
    return calls
  }

  /// The absolute time of `seconds` on `date`'s service day in `feed`'s zone (noon minus 12 h
  /// of the date, plus the seconds).
  public func time(_ seconds: Int32, on date: ServiceDate, feed: FeedName) -> UnixTime {
    ServiceCalendar.start(of: date, in: timeZone(of: feed)) + Int64(seconds)
  }

  /// The statements behind `departures`, for tests that check SQLite's plan uses the indexes.
  public func departureQueryPlans(feed: FeedName) throws -> [String: [String]] {
    guard let reader = reader(feed) else { return [:] }
    return [
      "patterns": try reader.db.cached(FeedReader.patternsAtStopSQL).queryPlan(),
      "trips": try reader.db.cached(FeedReader.tripsInWindowSQL).queryPlan(),
      "frequencies": try reader.db.cached(FeedReader.frequenciesSQL).queryPlan(),
    ]
  }
}

extension FeedReader {
  static let patternsAtStopSQL = """
    SELECT ps.pattern_idx, ps.position, ps.stop_sequence, ps.pickup_type, ps.drop_off_type, ps.stop_headsign,
           p.stop_count, p.max_span, p.route_idx, substr(p.offsets, ps.position * 8 + 1, 8), p.starts
    FROM pattern_stops ps JOIN patterns p ON p.pattern_idx = ps.pattern_idx
    WHERE ps.stop_idx = ?1
    """

  static let tripsInWindowSQL = """
    SELECT tt.trip_idx, substr(tt.times, ?4, 8), substr(tt.interpolated, ?5, 1),
           t.trip_id, t.headsign, t.service_idx, t.direction_id, t.block_id, tt.first_departure
    FROM trip_times tt JOIN trips t ON t.trip_idx = tt.trip_idx
    WHERE tt.pattern_idx = ?1 AND tt.first_departure BETWEEN ?2 AND ?3
    """

  /// `tripByIndexSQL` as a statement of its own (the frequency trips below use that one
  /// while a pattern's trips are read through this).
  static let tripStartingInWindowSQL = tripByIndexSQL + " -- a trip of patterns.starts"

  static let tripByIndexSQL = """
    SELECT tt.trip_idx, substr(tt.times, ?2, 8), substr(tt.interpolated, ?3, 1),
           t.trip_id, t.headsign, t.service_idx, t.direction_id, t.block_id, tt.first_departure
    FROM trip_times tt JOIN trips t ON t.trip_idx = tt.trip_idx
    WHERE tt.trip_idx = ?1
    """

  /// A pattern calling at the stop asked for, with its route.
  struct PatternCall {
    var pattern: Int64
    var position: Int
    var stopSequence: Int
    var pickupType: Int
    var dropOffType: Int
    var stopHeadsign: String?
    var isLast: Bool
    var maxSpan: Int64
    /// The least and the greatest time any trip of the pattern is here after its first
    /// departure (0 and `maxSpan` when ingest did not record them).
    var offsets: ClosedRange<Int64>
    /// The pattern's trips by first departure: per trip its first departure, trip_idx and
    /// service_idx, little-endian int32 (`patterns.starts`); empty when ingest did not store
    /// them (then the index on trip_times is asked).
    var starts: [UInt8]
    var route: RouteSummary

    /// The first and the last first departure in `starts`, when stored.
    var startRange: ClosedRange<Int64>? {
      guard starts.count >= 12 else { return nil }
      return starts.withUnsafeBytes { raw in
        let first = Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int32.self)))
        let last = Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: (raw.count / 12 - 1) * 12, as: Int32.self)))
        return first <= last ? first...last : nil
      }
    }
    var stopID: StopID
  }

  /// One trip read at one position.
  struct TripRow {
    var trip: Int64
    var arrival: Int32?
    var departure: Int32?
    var isInterpolated: Bool
    var tripID: String
    var headsign: String?
    var service: Int64
    var directionID: Int?
    var blockID: String?
    /// `trip_times.first_departure`, seconds of the service day.
    var firstDeparture: Int32?
  }

  /// The route `route` (a route_idx), read once per reader: a busy stop's hundred patterns
  /// belong to a few routes.
  func route(_ route: Int64) throws -> RouteSummary? {
    if let known = routeCache[route] { return known }
    let select = try db.cached("SELECT route_id, short_name, long_name, route_type, color FROM routes WHERE route_idx = ?")
    select.bind(route, at: 1)
    guard try select.step() else { return nil }
    let summary = routeSummary(select, from: 0)
    routeCache[route] = summary
    return summary
  }

  func patterns(atStop stop: Int64) throws -> [PatternCall] {
    let select = try db.cached(Self.patternsAtStopSQL)
    select.bind(stop, at: 1)
    var result: [PatternCall] = []
    var stopID: StopID?
    while try select.step() {
      guard let route = try route(select.int64(8)) else { continue }
      if stopID == nil { stopID = try self.stop(stop)?.id }
      guard let stopID else { break }
      let position = select.int(1)
      let maxSpan = select.int64(7)
      let offsets = select.withBlob(9) { raw -> ClosedRange<Int64> in
        guard raw.count == 8 else { return 0...maxSpan }
        let low = Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int32.self)))
        let high = Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: Int32.self)))
        return low <= high ? low...high : 0...maxSpan
      }
      result.append(
        PatternCall(
          pattern: select.int64(0), position: position, stopSequence: select.int(2), pickupType: select.int(3),
          dropOffType: select.int(4), stopHeadsign: select.optionalText(5).flatMap { $0.isEmpty ? nil : $0 },
          isLast: position == select.int(6) - 1, maxSpan: maxSpan, offsets: offsets, starts: select.blob(10), route: route,
          stopID: stopID))
    }
    return result
  }

  private func readTrip(_ select: Statement, position: Int) -> TripRow {
    let times = select.blob(1)
    func value(_ offset: Int) -> Int32? {
      guard times.count >= offset + 4 else { return nil }
      var raw: UInt32 = 0
      for index in 0..<4 { raw |= UInt32(times[offset + index]) << (8 * UInt32(index)) }
      let value = Int32(bitPattern: raw)
      return value < 0 ? nil : value
    }
    let bits = select.blob(2)
    return TripRow(
      trip: select.int64(0), arrival: value(0), departure: value(4),
      isInterpolated: !bits.isEmpty && bits[0] & (1 << UInt8(position % 8)) != 0,
      tripID: select.text(3), headsign: select.optionalText(4).flatMap { $0.isEmpty ? nil : $0 },
      service: select.int64(5), directionID: select.optionalInt(6).map(Int.init),
      blockID: select.optionalText(7).flatMap { $0.isEmpty ? nil : $0 }, firstDeparture: select.optionalInt(8).map(Int32.init))
  }

  /// The name of the last stop of `pattern` (the headsign of last resort).
  func lastStopName(of pattern: Int64) throws -> String {
    let select = try db.cached(
      "SELECT s.name FROM pattern_stops ps JOIN stops s ON s.stop_idx = ps.stop_idx WHERE ps.pattern_idx = ? ORDER BY ps.position DESC LIMIT 1"
    )
    select.bind(pattern, at: 1)
    return try select.step() ? select.text(0) : ""
  }

  /// The folded names of the stops of `pattern` after `position`.
  func laterStopNames(of pattern: Int64, after position: Int) throws -> [String] {
    let select = try db.cached(
      "SELECT s.name FROM pattern_stops ps JOIN stops s ON s.stop_idx = ps.stop_idx WHERE ps.pattern_idx = ? AND ps.position > ? ORDER BY ps.position"
    )
    select.bind(pattern, at: 1)
    select.bind(position, at: 2)
    var names: [String] = []
    while try select.step() { names.append(TextFolding.fold(select.text(0))) }
    return names
  }

  /// The stop_idx of `stops` of this feed and of their platforms; nil when `stops` is empty
  /// (no `--via`), an empty set when none is in this feed.
  func viaStops(_ stops: [Stop]) throws -> Set<Int64>? {
    guard !stops.isEmpty else { return nil }
    var result: Set<Int64> = []
    for stop in stops where stop.feed == name {
      if let idx = try stopIndex(id: stop.id.rawValue) { result.formUnion(try boardingStops(idx)) }
    }
    return result
  }

  /// The calls at `stops` in the query's window, unsorted.
  func calls(atStops stops: [Int64], _ query: DepartureQuery) throws -> [ScheduledCall] {
    var patterns: [PatternCall] = []
    for stop in stops { patterns += try self.patterns(atStop: stop) }
    if !query.includeArrivals { patterns.removeAll { $0.isLast || $0.pickupType == 1 } }
    if let route = query.route {
      let wanted = route.lowercased()
      patterns.removeAll { $0.route.shortName.lowercased() != wanted && $0.route.id.rawValue.lowercased() != wanted }
    }
    guard !patterns.isEmpty, query.until > query.from else { return [] }
    let lastSecond = query.until - 1  // whole seconds: [from, until) is [from, until - 1]
    let frequencies = try self.frequencies()
    let templates = frequencyTrips
    let latest = Int64(latestCall)
    let daysBack = Int((latest + 86_399) / 86_400)
    let firstDate = ServiceCalendar.localDate(of: query.from, in: zone).adding(days: -daysBack)
    // Noon minus 12 h of the day after the window's local date can still fall inside the window
    // (23:00 on the eve of a spring-forward date); a date whose day starts later is skipped below.
    let lastDate = ServiceCalendar.localDate(of: lastSecond, in: zone).adding(days: 1)
    let destination = query.destination.map(TextFolding.fold)
    let via = try viaStops(query.via)
    if via?.isEmpty == true { return [] }
    var viaFound: [String: Bool] = [:]
    var lastStops: [Int64: String] = [:]
    var laterStops: [String: Bool] = [:]
    var result: [ScheduledCall] = []

    func headsign(_ call: PatternCall, _ trip: TripRow) throws -> String {
      if let headsign = call.stopHeadsign ?? trip.headsign { return headsign }
      if let known = lastStops[call.pattern] { return known }
      let name = try lastStopName(of: call.pattern)
      lastStops[call.pattern] = name
      return name
    }
    func goesTo(_ call: PatternCall, headsign: String) throws -> Bool {
      guard let destination else { return true }
      if TextFolding.fold(headsign).contains(destination) { return true }
      let key = "\(call.pattern):\(call.position)"
      if let known = laterStops[key] { return known }
      let found = try laterStopNames(of: call.pattern, after: call.position).contains { $0.contains(destination) }
      laterStops[key] = found
      return found
    }
    func callsLaterAtVia(_ call: PatternCall) throws -> Bool {
      guard let via else { return true }
      let key = "\(call.pattern):\(call.position)"
      if let known = viaFound[key] { return known }
      let found = !via.isDisjoint(with: try laterAlightingStops(of: call.pattern, after: call.position))
      viaFound[key] = found
      return found
    }
    func add(_ call: PatternCall, _ trip: TripRow, date: ServiceDate, base: UnixTime, offset: Int32, start: ServiceTime?) throws {
      guard try callsLaterAtVia(call) else { return }
      let headsign = try headsign(call, trip)
      guard try goesTo(call, headsign: headsign) else { return }
      result.append(
        ScheduledCall(
          feed: name, tripID: TripID(trip.tripID), routeID: call.route.id, routeShortName: call.route.shortName,
          headsign: headsign, stopID: call.stopID, stopSequence: call.stopSequence, serviceDate: date, startTime: start,
          scheduledArrival: trip.arrival.map { base + Int64($0 + offset) },
          scheduledDeparture: call.isLast ? nil : trip.departure.map { base + Int64($0 + offset) },
          isInterpolated: trip.isInterpolated, pickupType: call.pickupType, dropOffType: call.dropOffType,
          isLastStop: call.isLast, routeType: call.route.routeType, directionID: trip.directionID, blockID: trip.blockID,
          tripStart: trip.firstDeparture.map { base + Int64($0 + offset) }))
    }

    /// Adds the calls from `from` to `until` to `result`.
    // Looked up once: a busy stop has over a hundred patterns, asked about per date and slice.
    let tripsInWindow = try db.cached(Self.tripsInWindowSQL)
    let tripByIndex = try db.cached(Self.tripStartingInWindowSQL)
    func calls(from: UnixTime, until: UnixTime) throws {
      var date = firstDate
      while date <= lastDate {
        defer { date = date.adding(days: 1) }
        if let only = query.serviceDate, only != date { continue }
        let base = try calendar.start(of: date)
        let low = from - base, high = until - base
        guard high >= 0, low <= latest else { continue }
        let services = try calendar.services(on: date)
        guard !services.isEmpty else { continue }
        for call in patterns {
          // Ordinary trips: only those starting early enough to reach the stop in the window.
          // Patterns none of whose trips start in that range are skipped without a scan.
          // Trips are at this stop between offsets.lowerBound and offsets.upperBound after
          // their first departure.
          let earliestStart = low - call.offsets.upperBound, latestStart = high - call.offsets.lowerBound
          let range = earliestStart <= latestStart ? try call.startRange ?? startRange(of: call.pattern) : nil
          let startsInWindow = range?.overlaps(earliestStart...latestStart) ?? false
          // The trips starting in range whose service runs, from patterns.starts when stored:
          // each then read by its rowid; else the index on (pattern_idx, first_departure).
          var candidates: [Int64] = []
          if startsInWindow && !call.starts.isEmpty {
            call.starts.withUnsafeBytes { raw in
              let count = raw.count / 12
              func word(_ index: Int, _ field: Int) -> Int32 {
                Int32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 12 + field * 4, as: Int32.self))
              }
              var index = 0, end = count
              while index < end {
                let middle = (index + end) / 2
                if Int64(word(middle, 0)) < earliestStart { index = middle + 1 } else { end = middle }
              }
              while index < count, Int64(word(index, 0)) <= latestStart {
                if services.contains(Int64(word(index, 2))) { candidates.append(Int64(word(index, 1))) }
                index += 1
              }
            }
          }
          let indexed = startsInWindow && !call.starts.isEmpty
          let select = indexed ? tripByIndex : tripsInWindow
          if startsInWindow && !indexed {
            select.reset()
            select.bind(call.pattern, at: 1)
            select.bind(earliestStart, at: 2)
            select.bind(latestStart, at: 3)
            select.bind(call.position * 8 + 1, at: 4)
            select.bind(call.position / 8 + 1, at: 5)
          }
          var next = 0
          func step() throws -> Bool {
            guard startsInWindow else { return false }
            guard indexed else { return try select.step() }
            while next < candidates.count {
              select.reset()
              select.bind(candidates[next], at: 1)
              select.bind(call.position * 8 + 1, at: 2)
              select.bind(call.position / 8 + 1, at: 3)
              next += 1
              if try select.step() { return true }
            }
            return false
          }
          while try step() {
            // Cheap checks first: the service (an integer) and the time (8 bytes of the blob).
            guard services.contains(select.int64(5)) else { continue }
            let time = select.withBlob(1) { raw -> Int32? in
              guard raw.count >= 8 else { return nil }
              let arrival = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int32.self))
              let departure = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: Int32.self))
              let (first, second) = call.isLast ? (arrival, departure) : (departure, arrival)
              return first >= 0 ? first : second >= 0 ? second : nil
            }
            guard let time, Int64(time) >= low, Int64(time) <= high, !templates.contains(select.int64(0)) else { continue }
            let trip = readTrip(select, position: call.position)
            try add(call, trip, date: date, base: base, offset: 0, start: nil)
          }
          // Frequency trips: the template's times shifted to each instance's start.
          for window in frequencies[call.pattern] ?? [] {
            let select = try db.cached(Self.tripByIndexSQL)
            select.bind(window.trip, at: 1)
            select.bind(call.position * 8 + 1, at: 2)
            select.bind(call.position / 8 + 1, at: 3)
            guard try select.step() else { continue }
            let trip = readTrip(select, position: call.position)
            guard services.contains(trip.service),
              let time = call.isLast ? trip.arrival ?? trip.departure : trip.departure ?? trip.arrival
            else { continue }
            let offset = Int64(time) - Int64(window.templateStart)  // from the trip's start to this stop
            // Instances start at start_time + k * headway while before end_time.
            let earliest = max(Int64(window.start), low - offset)
            let latestStart = min(Int64(window.end) - 1, high - offset)
            guard earliest <= latestStart else { continue }
            let headway = Int64(window.headway)
            var k = (earliest - Int64(window.start) + headway - 1) / headway
            while Int64(window.start) + k * headway <= latestStart {
              let start = Int64(window.start) + k * headway
              try add(
                call, trip, date: date, base: base, offset: Int32(start - Int64(window.templateStart)),
                start: ServiceTime(seconds: Int32(start)))
              k += 1
            }
          }
        }
      }
    }

    // With a limit, the window is read in growing slices (15 min, then 2 h, 16 h, ...),
    // stopping once a slice brings the count to the limit: every later call is later than
    // those. A slice reads only trips that can be at the stop within it (patterns.offsets),
    // but costs an index seek per pattern and service date: at a stop of 140 patterns late at
    // night, doubling from 15 minutes took four slices to fill a two-hour window.
    var sliceStart = query.from
    var sliceLength: Int64 = query.limit == nil ? lastSecond - query.from + 1 : 15 * 60
    while sliceStart <= lastSecond {
      let sliceEnd = min(lastSecond, sliceStart + sliceLength - 1)
      try calls(from: sliceStart, until: sliceEnd)
      if let limit = query.limit, result.count >= limit { break }
      sliceStart = sliceEnd + 1
      sliceLength *= 8
    }
    return result
  }
}
