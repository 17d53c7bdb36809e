import FoundationEssentials
import SQLite
import TransitModel

// MARK: - Public values

/// A route as `transit routes` lists it: who runs it, its colours and where it goes.
public struct RouteListing: Sendable, Equatable {
  /// The route.
  public var route: RouteSummary
  /// `agency.agency_name` of the route's agency (else the feed's only agency).
  public var agencyName: String?
  /// `route_text_color` as six hex digits, if the feed gives one.
  public var textColor: String?
  /// Where its trips mostly go: per direction (0, then 1, then none), the destination of the
  /// pattern with the most trips (its headsign, else its last stop's name).
  public var destinations: [String]
  /// How many trips the route has (rows of trips.txt).
  public var tripCount: Int
}

/// How a text matched a route; earlier cases rank first.
public enum RouteMatchKind: Int, Sendable, Comparable, CaseIterable {
  /// The text is the route_id.
  case id
  /// The text is the short name (ignoring case).
  case shortName
  /// The text is the whole long name (ignoring case and accents).
  case longName
  /// The short name starts with the text, or every word of the text starts a word of the
  /// long name.
  case words
  /// Every word is close to a word of the names (one or two typing mistakes).
  case typo

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A route found by `Store.searchRoutes`.
public struct RouteMatch: Sendable, Equatable {
  public var listing: RouteListing
  public var kind: RouteMatchKind
}

/// What a ROUTE argument names.
public enum RouteResolution: Sendable, Equatable {
  /// Exactly one route.
  case found(RouteSummary)
  /// Several routes fit; the caller lists them.
  case ambiguous([RouteSummary])
  /// Nothing fits; `suggestions` are the closest names.
  case notFound(suggestions: [RouteSummary])
}

/// One stop sequence of a route in one direction, and the trips that follow it.
public struct RoutePattern: Sendable, Equatable {
  /// `trips.direction_id` of its trips (nil when the feed leaves it out).
  public var directionID: Int?
  /// The stops in order.
  public var stops: [Stop]
  /// Its trips (rows of trips.txt; a frequency-based trip counts once).
  public var tripCount: Int
  /// The headsign most of its trips show, else the last stop's name.
  public var headsign: String
  /// The shapes its trips follow, most used first (empty when none has a shape).
  public var shapeIDs: [String]
  /// Its trips running on the date asked about, frequency trips expanded into their
  /// instances.
  public var tripsOnDate: Int
}

/// A time-of-day band for headways.
public struct HeadwayBand: Sendable, Equatable {
  /// "early", "AM peak", "midday", "PM peak", "evening", "night".
  public var name: String
  /// The band's start and end, seconds from the service day's start (the end excluded).
  public var start: Int32
  public var end: Int32
  /// Departures from the main pattern's first stop starting within the band.
  public var departures: Int
  /// The median gap between consecutive departures in the band; nil with fewer than two.
  public var medianSeconds: Int32?
}

/// A route's service in one direction on one date.
public struct RouteDirection: Sendable, Equatable {
  /// `direction_id`, or nil when the feed gives none.
  public var directionID: Int?
  /// Its patterns: the main one (most trips) first, then the variants by trip count.
  public var patterns: [RoutePattern]
  /// The first and last trip start on the date, seconds from the service day's start.
  public var firstDeparture: Int32?
  public var lastDeparture: Int32?
  /// Headways at the main pattern's first stop, by band (bands without departures left out).
  public var headways: [HeadwayBand]

  /// The pattern most trips follow.
  public var main: RoutePattern { patterns[0] }
}

/// Everything `route show` tells about a route.
public struct RouteDetails: Sendable, Equatable {
  public var listing: RouteListing
  /// The service date the times and counts are for.
  public var date: ServiceDate
  /// Directions 0, then 1, then trips without direction_id.
  public var directions: [RouteDirection]
  /// Trips of the route that have no stop times (they belong to no pattern).
  public var tripsWithoutStops: Int

  public var route: RouteSummary { listing.route }
}

// MARK: - Store: routes

extension Store {
  /// The time-of-day bands headways are given for, in service-day seconds; times past 24:00
  /// count as night.
  public static let headwayBands: [(name: String, start: Int32, end: Int32)] = [
    ("early", 5 * 3600, 7 * 3600),
    ("AM peak", 7 * 3600, 9 * 3600 + 1800),
    ("midday", 9 * 3600 + 1800, 16 * 3600),
    ("PM peak", 16 * 3600, 19 * 3600),
    ("evening", 19 * 3600, 24 * 3600),
    ("night", 0, 5 * 3600),
  ]

  /// Every route held, in each feed's route order (route_sort_order, then short name, numbers
  /// in numeric order), with agency, colours and main destinations.
  /// - Complexity: one scan of each feed's routes and of its trips (for destinations).
  public func routeListings() throws -> [RouteListing] {
    var result: [RouteListing] = []
    for feed in feeds { result += try feed.routeListings() }
    return result
  }

  /// Routes by id, short name or long name: the id exactly first, then the short name, then
  /// the whole long name, then prefixes of the short name or words of the long name, then
  /// names within a typo or two.
  /// - Complexity: one pass over the route listings (routes are few).
  public func searchRoutes(_ text: String) throws -> [RouteMatch] {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { return [] }
    var matches: [RouteMatch] = []
    for listing in try routeListings() {
      if let kind = Self.match(trimmed, listing.route) { matches.append(RouteMatch(listing: listing, kind: kind)) }
    }
    // Stable: within a kind, the feed's route order stays.
    return matches.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
  }

  /// How `text` matches `route`, or nil.
  static func match(_ text: String, _ route: RouteSummary) -> RouteMatchKind? {
    let folded = TextFolding.fold(text)
    if route.id.rawValue == text || TextFolding.fold(route.id.rawValue) == folded { return .id }
    if TextFolding.fold(route.shortName) == folded { return .shortName }
    if let long = route.longName, TextFolding.fold(long) == folded { return .longName }
    let query = TextFolding.words(text)
    guard !query.isEmpty else { return nil }
    let nameWords = TextFolding.words(route.longName ?? "") + TextFolding.words(route.shortName)
    if TextFolding.fold(route.shortName).hasPrefix(folded) { return .words }
    if query.allSatisfy({ word in nameWords.contains { $0.hasPrefix(word) } }) { return .words }
    // Typos: every word of 4 letters or more within the allowed edits of a name word (or its start).
    guard query.contains(where: { TextFolding.allowedMistakes($0.count) > 0 }) else { return nil }
    for word in query.map(Array.init) {
      let allowed = TextFolding.allowedMistakes(word.count)
      let close = nameWords.map(Array.init).contains { candidate in
        EditDistance.between(word, candidate, limit: allowed) <= allowed
          || (candidate.count > word.count
            && EditDistance.between(word, Array(candidate.prefix(word.count)), limit: allowed) <= allowed)
      }
      if !close { return nil }
    }
    return .typo
  }

  /// Resolves a ROUTE argument: a route_id (optionally `FEED:route_id`), else a short name,
  /// else a whole long name (ignoring case and accents).
  /// - Complexity: unique-index lookups for the id; one scan of the routes for names.
  public func resolveRoute(_ text: String) throws -> RouteResolution {
    var candidates = feeds
    var key = text
    if let colon = text.firstIndex(of: ":"), let feed = reader(FeedName(String(text[..<colon]))) {
      candidates = [feed]
      key = String(text[text.index(after: colon)...])
    }
    var byID: [RouteSummary] = []
    for feed in candidates { if let route = try route(RouteID(key), feed: feed.name) { byID.append(route) } }
    if byID.count == 1 { return .found(byID[0]) }
    if byID.count > 1 { return .ambiguous(byID) }
    let folded = TextFolding.fold(key)
    var all: [RouteSummary] = []
    for feed in candidates { all += try feed.routeListings(withDestinations: false).map(\.route) }
    let byShort = all.filter { TextFolding.fold($0.shortName) == folded }
    if byShort.count == 1 { return .found(byShort[0]) }
    if byShort.count > 1 { return .ambiguous(byShort) }
    let byLong = all.filter { $0.longName.map(TextFolding.fold) == folded }
    if byLong.count == 1 { return .found(byLong[0]) }
    if byLong.count > 1 { return .ambiguous(byLong) }
    let near = all.filter { Self.match(key, $0) != nil }
    return .notFound(suggestions: Array(near.prefix(5)))
  }

  /// The listing of one route (agency, colours, destinations).
  public func listing(of route: RouteSummary) throws -> RouteListing? {
    guard let reader = reader(route.feed) else { return nil }
    return try reader.routeListings(only: route.id).first
  }

  /// A route's patterns per direction (trips grouped by their exact stop sequence), with the
  /// first and last departures and the typical headways on `date`.
  ///
  /// - Parameter directionID: only this direction (nil: all).
  /// - Complexity: one scan of the route's trips (`trips_by_route`), the stops of each stored
  ///   pattern, and the calendar of `date`.
  public func routeDetails(_ route: RouteSummary, on date: ServiceDate, directionID: Int? = nil) throws -> RouteDetails? {
    guard let reader = reader(route.feed), let listing = try reader.routeListings(only: route.id).first else { return nil }
    let (directions, without) = try reader.directions(of: route.id, on: date, only: directionID)
    return RouteDetails(listing: listing, date: date, directions: directions, tripsWithoutStops: without)
  }
}

// MARK: - FeedReader: routes

extension FeedReader {
  /// Route listings of this feed (all, or only `routeID`) in route order.
  func routeListings(only routeID: RouteID? = nil, withDestinations: Bool = true) throws -> [RouteListing] {
    let select = try db.cached(
      """
      SELECT r.route_idx, r.route_id, r.short_name, r.long_name, r.route_type, r.color, r.sort_order, r.text_color,
             coalesce(a.name, (SELECT name FROM agency ORDER BY agency_idx LIMIT 1))
      FROM routes r LEFT JOIN agency a ON a.agency_idx = r.agency_idx
      WHERE ?1 IS NULL OR r.route_id = ?1
      """)
    select.bind(routeID?.rawValue, at: 1)
    var rows: [(RouteListing, Int64, Int64, NaturalOrder.Key)] = []
    while try select.step() {
      let listing = RouteListing(
        route: routeSummary(select, from: 1), agencyName: select.optionalText(8).flatMap { $0.isEmpty ? nil : $0 },
        textColor: select.optionalText(7).flatMap { $0.isEmpty ? nil : $0 }, destinations: [], tripCount: 0)
      rows.append((listing, select.optionalInt(6) ?? .max, select.int64(0), NaturalOrder.Key(listing.route.shortName)))
    }
    rows.sort { a, b in a.1 != b.1 ? a.1 < b.1 : a.3 < b.3 }
    guard withDestinations else { return rows.map(\.0) }
    let destinations = try mainDestinations()
    let counts = try tripCounts()
    return rows.map { row in
      var listing = row.0
      listing.destinations = destinations[row.2] ?? []
      listing.tripCount = counts[row.2] ?? 0
      return listing
    }
  }

  /// The number of trips of each route (by route_idx).
  func tripCounts() throws -> [Int64: Int] {
    let select = try db.cached("SELECT route_idx, count(*) FROM trips GROUP BY route_idx")
    var result: [Int64: Int] = [:]
    while try select.step() { result[select.int64(0)] = select.int(1) }
    return result
  }

  /// Per route (by route_idx), the destination of its busiest stored pattern in each direction
  /// (0, 1, then none): the most common headsign, else the last stop's name.
  /// - Complexity: one pass over trips grouped by pattern, direction and headsign.
  func mainDestinations() throws -> [Int64: [String]] {
    let select = try db.cached(
      """
      SELECT p.route_idx, t.direction_id, tt.pattern_idx, t.headsign, count(*),
             (SELECT s.name FROM pattern_stops last JOIN stops s ON s.stop_idx = last.stop_idx
              WHERE last.pattern_idx = p.pattern_idx AND last.position = p.stop_count - 1)
      FROM trip_times tt JOIN trips t ON t.trip_idx = tt.trip_idx JOIN patterns p ON p.pattern_idx = tt.pattern_idx
      GROUP BY p.route_idx, t.direction_id, tt.pattern_idx, t.headsign
      """)
    // route -> direction -> pattern -> (trips, headsign counts, last stop)
    struct Tally {
      var trips = 0
      var headsigns: [String: Int] = [:]
      var lastStop = ""
    }
    var tallies: [Int64: [Int: [Int64: Tally]]] = [:]
    while try select.step() {
      let route = select.int64(0)
      let direction = select.optionalInt(1).map(Int.init) ?? -1
      let pattern = select.int64(2)
      let count = select.int(4)
      var tally = tallies[route]?[direction]?[pattern] ?? Tally()
      tally.trips += count
      if let headsign = select.optionalText(3), !headsign.isEmpty { tally.headsigns[headsign, default: 0] += count }
      tally.lastStop = select.optionalText(5) ?? ""
      tallies[route, default: [:]][direction, default: [:]][pattern] = tally
    }
    var result: [Int64: [String]] = [:]
    for (route, byDirection) in tallies {
      var names: [String] = []
      for direction in byDirection.keys.sorted(by: { ($0 < 0 ? 2 : $0) < ($1 < 0 ? 2 : $1) }) {
        guard let busiest = byDirection[direction]!.max(by: { ($0.value.trips, $1.key) < ($1.value.trips, $0.key) })?.value
        else { continue }
        let name =
          busiest.headsigns.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key
          ?? busiest.lastStop
        if !name.isEmpty && !names.contains(name) { names.append(name) }
      }
      result[route] = names
    }
    return result
  }

  /// One trip of a route, as `directions` reads it.
  private struct RouteTrip {
    var trip: Int64
    var directionID: Int?
    var headsign: String?
    var shapeID: String?
    var service: Int64
    var pattern: Int64
    var times: TripTimes
  }

  /// The route's trips grouped by direction and exact stop sequence, with the date's service;
  /// and the number of its trips without stop times.
  func directions(of routeID: RouteID, on date: ServiceDate, only wanted: Int?) throws -> ([RouteDirection], Int) {
    let lookup = try db.cached("SELECT route_idx FROM routes WHERE route_id = ?")
    lookup.bind(routeID.rawValue, at: 1)
    guard try lookup.step() else { return ([], 0) }
    let routeIdx = lookup.int64(0)
    let select = try db.cached(
      """
      SELECT t.trip_idx, t.direction_id, t.headsign, t.shape_id, t.service_idx, tt.pattern_idx, tt.times, tt.interpolated
      FROM trips t LEFT JOIN trip_times tt ON tt.trip_idx = t.trip_idx WHERE t.route_idx = ? ORDER BY t.trip_idx
      """)
    select.bind(routeIdx, at: 1)
    var trips: [RouteTrip] = []
    var withoutStops = 0
    while try select.step() {
      guard !select.isNull(5) else {
        withoutStops += 1
        continue
      }
      let direction = select.optionalInt(1).map(Int.init)
      if let wanted, direction != wanted { continue }
      trips.append(
        RouteTrip(
          trip: select.int64(0), directionID: direction, headsign: select.optionalText(2).flatMap { $0.isEmpty ? nil : $0 },
          shapeID: select.optionalText(3).flatMap { $0.isEmpty ? nil : $0 }, service: select.int64(4),
          pattern: select.int64(5), times: TripTimes(blob: select.blob(6), interpolated: select.blob(7))))
    }
    // Stored patterns also split on per-stop attributes; riders' patterns are the stop sequence.
    var stopsOf: [Int64: [Int64]] = [:]
    let patternStops = try db.cached("SELECT stop_idx FROM pattern_stops WHERE pattern_idx = ? ORDER BY position")
    for pattern in Set(trips.map(\.pattern)) {
      patternStops.reset()
      patternStops.bind(pattern, at: 1)
      var list: [Int64] = []
      while try patternStops.step() { list.append(patternStops.int64(0)) }
      stopsOf[pattern] = list
    }
    let services = try calendar.services(on: date)
    let frequencies = try self.frequencies()
    var windowsOf: [Int64: [FrequencyWindow]] = [:]
    for window in frequencies.values.joined() { windowsOf[window.trip, default: []].append(window) }
    var stopCache: [Int64: Stop] = [:]
    func stop(_ idx: Int64) throws -> Stop {
      if let known = stopCache[idx] { return known }
      let found = try self.stop(idx) ?? Stop(feed: name, id: StopID("?"), code: nil, name: "?", coordinate: nil)
      stopCache[idx] = found
      return found
    }

    struct Key: Hashable {
      var direction: Int?
      var stops: [Int64]
    }
    var groups: [Key: [RouteTrip]] = [:]
    for trip in trips { groups[Key(direction: trip.directionID, stops: stopsOf[trip.pattern] ?? []), default: []].append(trip) }

    /// The start times on `date` of a trip: its own first departure, or its frequency instances.
    func starts(_ trip: RouteTrip, position: Int = 0) -> [Int32] {
      guard services.contains(trip.service), let own = trip.times.departure(at: position) ?? trip.times.arrival(at: position)
      else { return [] }
      guard let windows = windowsOf[trip.trip] else { return [own] }
      let first = trip.times.departure(at: 0) ?? trip.times.arrival(at: 0) ?? own
      var result: [Int32] = []
      for window in windows {
        var start = window.start
        while start < window.end {
          result.append(start + (own - first))
          start += window.headway
        }
      }
      return result
    }

    var result: [RouteDirection] = []
    let directionKeys = Set(groups.keys.map(\.direction)).sorted { ($0 ?? 2) < ($1 ?? 2) }
    for direction in directionKeys {
      var patterns: [(RoutePattern, [RouteTrip], [Int64])] = []
      for (key, members) in groups where key.direction == direction {
        var headsigns: [String: Int] = [:]
        var shapes: [String: Int] = [:]
        for trip in members {
          if let headsign = trip.headsign { headsigns[headsign, default: 0] += 1 }
          if let shape = trip.shapeID { shapes[shape, default: 0] += 1 }
        }
        let stops = try key.stops.map(stop)
        let headsign = headsigns.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? stops.last?.name ?? ""
        let shapeIDs = shapes.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        let onDate = members.reduce(0) { $0 + starts($1).count }
        patterns.append(
          (
            RoutePattern(
              directionID: direction, stops: stops, tripCount: members.count, headsign: headsign, shapeIDs: shapeIDs, tripsOnDate: onDate),
            members, key.stops
          ))
      }
      // Main first: most trips, then most trips that day, then most stops, then by first stop id.
      patterns.sort { a, b in
        if a.0.tripCount != b.0.tripCount { return a.0.tripCount > b.0.tripCount }
        if a.0.tripsOnDate != b.0.tripsOnDate { return a.0.tripsOnDate > b.0.tripsOnDate }
        if a.0.stops.count != b.0.stops.count { return a.0.stops.count > b.0.stops.count }
        return a.0.stops.map(\.id.rawValue).lexicographicallyPrecedes(b.0.stops.map(\.id.rawValue))
      }
      // First and last trip start that day, over every pattern of the direction.
      let allStarts = patterns.flatMap(\.1).flatMap { starts($0) }
      // Headways at the main pattern's first stop: every trip of the direction calling there.
      var atFirst: [Int32] = []
      if let firstStop = patterns.first?.2.first {
        for (_, members, stops) in patterns {
          guard let position = stops.firstIndex(of: firstStop) else { continue }
          for trip in members { atFirst += starts(trip, position: position) }
        }
      }
      result.append(
        RouteDirection(
          directionID: direction, patterns: patterns.map(\.0), firstDeparture: allStarts.min(), lastDeparture: allStarts.max(),
          headways: Self.headways(atFirst.sorted())))
    }
    return (result, withoutStops)
  }

  /// The departures and median gap in each band of `Store.headwayBands`, from sorted start
  /// times; a gap counts in a band when both its departures lie in it (so the wait from the
  /// last evening bus to the first morning one is no band's headway).
  static func headways(_ sorted: [Int32]) -> [HeadwayBand] {
    var result: [HeadwayBand] = []
    for band in Store.headwayBands {
      func inBand(_ time: Int32) -> Bool {
        let t = time >= 24 * 3600 ? time - 24 * 3600 : time
        // Past 48 h (rare) counts as night too.
        return time >= 48 * 3600 ? band.name == "night" : (t >= band.start && t < band.end)
      }
      let count = sorted.filter(inBand).count
      guard count > 0 else { continue }
      // The band's own gaps only: a gap counts when both departures lie in the band.
      var own: [Int32] = []
      for (index, time) in sorted.enumerated() where inBand(time) && index + 1 < sorted.count && inBand(sorted[index + 1]) {
        own.append(sorted[index + 1] - time)
      }
      own.sort()
      var median: Int32?
      if !own.isEmpty {
        median = own.count % 2 == 1 ? own[own.count / 2] : (own[own.count / 2 - 1] + own[own.count / 2]) / 2
      }
      result.append(HeadwayBand(name: band.name, start: band.start, end: band.end, departures: count, medianSeconds: median))
    }
    return result
  }
}
