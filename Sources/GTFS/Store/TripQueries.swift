import FoundationEssentials
import Glibc
import TransitModel

extension Store {
  /// Every call of `tripID` in `feed` on `serviceDate`, in stop_sequence order, with absolute
  /// times; for a frequency instance starting at `startTime`, the template's times moved to it.
  /// Empty when the trip is unknown.
  ///
  /// GTFS times count from noon minus 12 h of the service date in the agency's zone, so a
  /// "25:10:00" call lands on the next calendar day.
  /// - Complexity: one indexed lookup and one range scan of the trip's pattern.
  public func tripCalls(
    _ tripID: TripID, feed: FeedName, serviceDate: ServiceDate, startTime: ServiceTime? = nil
  )
    throws -> [ScheduledStop]
  {
    guard let reader = reader(feed) else { return [] }
    let stopTimes = try reader.timetable.stopTimes(ofTrip: tripID.rawValue)
    let base = serviceDayStart(serviceDate, feed: feed)
    var offset: Int64 = 0
    if let startTime, let first = stopTimes.first.flatMap({ $0.departure ?? $0.arrival }) {
      offset = Int64(startTime.seconds) - Int64(first)
    }
    return stopTimes.map { row in
      ScheduledStop(
        stopID: StopID(row.stopID), stopSequence: row.stopSequence,
        arrival: row.arrival.map { base + Int64($0) + offset }, departure: row.departure.map { base + Int64($0) + offset },
        shapeDistance: row.shapeDistTraveled)
    }
  }

  /// The instant `date`'s service-day times count from in `feed`'s zone (noon minus 12 h).
  public func serviceDayStart(_ date: ServiceDate, feed: FeedName) -> UnixTime {
    reader(feed)?.serviceDayStart(date) ?? ServiceCalendar.start(of: date, in: timeZone(of: feed))
  }

  /// The calendar date `time` falls on in `feed`'s zone.
  public func localDate(of time: UnixTime, feed: FeedName) -> ServiceDate {
    ServiceCalendar.localDate(of: time, in: timeZone(of: feed))
  }
}

extension Store {
  /// Whether `tripID` of `feed` runs on service date `date` (its service is active then);
  /// false for an unknown trip.
  /// - Complexity: one indexed lookup, plus the calendar of `date` (cached).
  public func tripRuns(_ tripID: TripID, feed: FeedName, on date: ServiceDate) throws -> Bool {
    guard let reader = reader(feed) else { return false }
    let select = try reader.db.cached("SELECT service_idx FROM trips WHERE trip_id = ?")
    select.bind(tripID.rawValue, at: 1)
    guard try select.step() else { return false }
    let service = select.int64(0)
    return try reader.calendar.services(on: date).contains(service)
  }
}

/// What a realtime step needs of one trip, read in one lookup: its service and whether it is a
/// frequencies.txt template, so the days it runs are asked of the calendar alone
/// (`Store.runs(_:on:)`) and its stop times are read once for every day (`Store.stopTimes(of:)`).
public struct TripFacts: Sendable, Hashable {
  /// The feed holding the trip.
  public var feed: FeedName
  public var tripID: TripID
  /// `trips.service_idx`.
  var service: Int64
  /// `trips.trip_idx`.
  var index: Int64
  /// Whether its instances are told apart by start_time (rule 3).
  public var isFrequency: Bool
}

/// A trip's stop times in seconds of its service day, read once, placed on any day.
public struct TripStopTimes: Sendable {
  var rows: [(stopID: StopID, stopSequence: Int, arrival: Int32?, departure: Int32?, shapeDistance: Double?)]

  /// Whether the trip has no stop times.
  public var isEmpty: Bool { rows.isEmpty }
  /// The earliest time of any of its stops, in seconds of the service day.
  public var earliestTime: Int32? {
    var earliest: Int32?
    for row in rows {
      if let time = row.departure ?? row.arrival, earliest.map({ time < $0 }) ?? true { earliest = time }
    }
    return earliest
  }
  /// The latest time of any of its stops, in seconds of the service day.
  public var latestTime: Int32? {
    var latest: Int32?
    for row in rows {
      if let time = row.arrival ?? row.departure, latest.map({ time > $0 }) ?? true { latest = time }
    }
    return latest
  }
  /// The first departure (else arrival), in seconds of the service day.
  public var firstTime: Int32? { rows.first.flatMap { $0.departure ?? $0.arrival } }
  /// The last arrival (else departure).
  public var lastTime: Int32? { rows.last.flatMap { $0.arrival ?? $0.departure } }

  /// The calls on the service day starting at `dayStart`; a frequency instance's `startTime`
  /// shifts them to it (`Store.tripCalls`).
  public func calls(dayStart base: UnixTime, startTime: ServiceTime? = nil) -> [ScheduledStop] {
    var offset: Int64 = 0
    if let startTime, let first = rows.first.flatMap({ $0.departure ?? $0.arrival }) {
      offset = Int64(startTime.seconds) - Int64(first)
    }
    return rows.map { row in
      ScheduledStop(
        stopID: row.stopID, stopSequence: row.stopSequence, arrival: row.arrival.map { base + Int64($0) + offset },
        departure: row.departure.map { base + Int64($0) + offset }, shapeDistance: row.shapeDistance)
    }
  }
}

extension Store {
  /// The facts of `tripID` in `feed`, nil for an unknown trip.
  /// - Complexity: one indexed lookup; none for a trip `tripDetails` found in `feed`.
  public func tripFacts(_ tripID: TripID, feed: FeedName) throws -> TripFacts? {
    guard let reader = reader(feed) else { return nil }
    if let row = reader.tripRows[tripID.rawValue] {
      return TripFacts(
        feed: feed, tripID: tripID, service: row.service, index: row.index, isFrequency: reader.frequencyTrips.contains(row.index))
    }
    let select = try reader.db.cached("SELECT trip_idx, service_idx FROM trips WHERE trip_id = ?")
    select.bind(tripID.rawValue, at: 1)
    guard try select.step() else { return nil }
    return TripFacts(
      feed: feed, tripID: tripID, service: select.int64(1), index: select.int64(0),
      isFrequency: reader.frequencyTrips.contains(select.int64(0)))
  }

  /// Whether the trip runs on service date `date` (its service is active then), from the
  /// calendar alone (cached per date).
  public func runs(_ trip: TripFacts, on date: ServiceDate) throws -> Bool {
    guard let reader = reader(trip.feed) else { return false }
    return try reader.calendar.services(on: date).contains(trip.service)
  }

  /// The trip's stop times, read once (`tripCalls` reads them per day).
  public func stopTimes(of trip: TripFacts) throws -> TripStopTimes {
    guard let reader = reader(trip.feed) else { return TripStopTimes(rows: []) }
    return TripStopTimes(
      rows: try reader.timetable.stopTimes(ofTripIndex: trip.index).map {
        (StopID($0.stopID), $0.stopSequence, $0.arrival, $0.departure, $0.shapeDistTraveled)
      })
  }
}

extension Store {
  /// Whether `tripID` of `feed` is a frequencies.txt template: its instances are told apart by
  /// start_time (rule 3), where a timetabled trip's start_time only repeats its first departure.
  /// - Complexity: one indexed lookup, plus the frequencies (cached).
  public func isFrequencyTrip(_ tripID: TripID, feed: FeedName) throws -> Bool {
    guard let reader = reader(feed), let index = try reader.tripIndex(id: tripID.rawValue) else { return false }
    return reader.frequencyTrips.contains(index)
  }
}

/// A trip a realtime descriptor may name without its trip_id (DESIGN.md rules 15, 16): its
/// route, direction, first departure, the days it runs, and NYCT's name for it.
public struct TripStart: Sendable, Hashable {
  /// The feed holding the trip.
  public var feed: FeedName
  /// `trips.trip_id`.
  public var tripID: TripID
  /// `trips.direction_id`, when set.
  public var directionID: Int?
  /// The first departure, in seconds of its service day (a frequency template's own).
  public var firstDeparture: Int32?
  /// `trips.mta_trip_id` (NYCT's `N..N34R`), when the feed has it.
  public var mtaTripID: String?
  /// For a frequencies.txt template, its windows: instances start from `start` to before `end`.
  public var frequencyWindows: [ClosedRange<Int32>]
  /// The service dates asked about on which the trip runs.
  public var runsOn: Set<ServiceDate>
}

extension Store {
  /// The trips of route `routeID` (in every feed holding it) that run on one of `dates`, with
  /// what a descriptor without trip_id names them by. With `firstDeparture`, only trips whose
  /// first departure is one of those seconds (and frequency templates, whose instances are told
  /// apart by start_time).
  /// - Complexity: one scan of the route's trips (indexed by route) per feed holding it.
  public func tripStarts(
    route routeID: RouteID, on dates: [ServiceDate], firstDeparture: Set<Int32>? = nil
  ) throws
    -> [TripStart]
  {
    var result: [TripStart] = []
    for reader in feeds {
      let select = try reader.db.cached(
        """
        SELECT t.trip_idx, t.trip_id, t.direction_id, tt.first_departure, t.mta_trip_id, t.service_idx
        FROM routes r JOIN trips t ON t.route_idx = r.route_idx LEFT JOIN trip_times tt ON tt.trip_idx = t.trip_idx
        WHERE r.route_id = ?
        """)
      select.bind(routeID.rawValue, at: 1)
      var services: [ServiceDate: Set<Int64>] = [:]
      for date in dates { services[date] = try reader.calendar.services(on: date) }
      let frequencies = Dictionary(grouping: try reader.frequencies().values.joined(), by: \.trip)
      while try select.step() {
        let trip = select.int64(0)
        let first = select.isNull(3) ? nil : Int32(truncatingIfNeeded: select.int64(3))
        let windows = (frequencies[trip] ?? []).map { $0.start...max($0.start, $0.end - 1) }
        if let firstDeparture, windows.isEmpty, !(first.map(firstDeparture.contains) ?? false) { continue }
        let service = select.int64(5)
        let runs = Set(dates.filter { services[$0]?.contains(service) ?? false })
        guard !runs.isEmpty else { continue }
        result.append(
          TripStart(
            feed: reader.name, tripID: TripID(select.text(1)), directionID: select.isNull(2) ? nil : select.int(2),
            firstDeparture: first, mtaTripID: select.optionalText(4), frequencyWindows: windows, runsOn: runs))
      }
    }
    return result
  }

  /// Whether any feed held has a route `routeID`.
  public func hasRoute(_ routeID: RouteID) throws -> Bool { try route(routeID) != nil }
}

/// The area a feed's stops cover: one box per feed held, with a margin.
public struct StopArea: Sendable {
  /// Per feed: latitude and longitude ranges of its stops, widened by the margin.
  public var boxes: [(latitude: ClosedRange<Double>, longitude: ClosedRange<Double>)]

  /// Whether `coordinate` lies in any feed's box.
  public func contains(_ coordinate: Coordinate) -> Bool {
    boxes.contains { $0.latitude.contains(coordinate.latitude) && $0.longitude.contains(coordinate.longitude) }
  }
}

extension Store {
  /// The area the stops held cover, each feed's bounding box widened by `marginMeters`; nil
  /// when no stop has a position.
  /// - Complexity: one scan of each feed's stops.
  public func stopArea(marginMeters: Double = 2_000) throws -> StopArea? {
    var boxes: [(latitude: ClosedRange<Double>, longitude: ClosedRange<Double>)] = []
    for reader in feeds {
      let select = try reader.db.cached(
        "SELECT min(lat), max(lat), min(lon), max(lon) FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL")
      guard try select.step(), !select.isNull(0) else { continue }
      let latitude = select.double(0)...select.double(1), longitude = select.double(2)...select.double(3)
      let dLat = marginMeters / 111_320
      let middle = (latitude.lowerBound + latitude.upperBound) / 2
      let dLon = marginMeters / max(1_000, 111_320 * cos(middle * .pi / 180))
      boxes.append(
        ((latitude.lowerBound - dLat)...(latitude.upperBound + dLat), (longitude.lowerBound - dLon)...(longitude.upperBound + dLon)))
    }
    return boxes.isEmpty ? nil : StopArea(boxes: boxes)
  }
}
