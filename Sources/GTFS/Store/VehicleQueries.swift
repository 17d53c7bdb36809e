import FoundationEssentials
import SQLite
import TransitModel

/// What the timetable says about one trip: its route, headsign and block.
public struct TripDetails: Hashable, Sendable {
  /// The feed holding the trip.
  public var feed: FeedName
  /// `trips.trip_id`.
  public var tripID: TripID
  /// The trip's route.
  public var route: RouteSummary
  /// `trips.trip_headsign`, else the name of its last stop.
  public var headsign: String
  /// `trips.block_id`, when set.
  public var blockID: String?

  /// Creates trip details.
  public init(feed: FeedName, tripID: TripID, route: RouteSummary, headsign: String, blockID: String?) {
    self.feed = feed
    self.tripID = tripID
    self.route = route
    self.headsign = headsign
    self.blockID = blockID
  }
}

/// A trip instance the timetable has running at some moment.
public struct RunningTrip: Hashable, Sendable {
  /// The feed holding the trip.
  public var feed: FeedName
  /// `trips.trip_id`.
  public var tripID: TripID
  /// The service date its times count from.
  public var serviceDate: ServiceDate
}

extension Store {
  /// The trip `tripID` in `feed` (else in the first feed holding it), or nil when unknown.
  /// - Complexity: one indexed lookup per feed, plus one for the last stop's name.
  public func tripDetails(_ tripID: TripID, feed: FeedName? = nil) throws -> TripDetails? {
    for reader in feeds where feed == nil || reader.name == feed {
      // The trip's number first, from the index alone: a feed that does not hold the trip
      // (most feeds asked, and every trip of a feed the timetable does not match) costs one
      // index probe, not a three-table join.
      guard let index = try reader.tripIndex(id: tripID.rawValue) else { continue }
      let select = try reader.db.cached(
        """
        SELECT r.route_id, r.short_name, r.long_name, r.route_type, r.color, t.headsign, t.block_id, tt.pattern_idx,
          t.service_idx
        FROM trips t JOIN routes r ON r.route_idx = t.route_idx LEFT JOIN trip_times tt ON tt.trip_idx = t.trip_idx
        WHERE t.trip_idx = ?
        """)
      select.bind(index, at: 1)
      defer { select.reset() }
      guard try select.step() else { continue }
      let route = reader.routeSummary(select, from: 0)
      var headsign = select.optionalText(5) ?? ""
      let block = select.optionalText(6).flatMap { $0.isEmpty ? nil : $0 }
      let pattern = select.isNull(7) ? nil : select.int64(7)
      reader.remember(trip: tripID.rawValue, index: index, service: select.int64(8))
      if headsign.isEmpty, let pattern { headsign = try reader.lastStopName(of: pattern) }
      return TripDetails(feed: reader.name, tripID: tripID, route: route, headsign: headsign, blockID: block)
    }
    return nil
  }

  /// The route `routeID` in `feed` (else in the first feed holding it).
  /// - Complexity: one indexed lookup per feed.
  public func route(_ routeID: RouteID, feed: FeedName? = nil) throws -> RouteSummary? {
    for reader in feeds where feed == nil || reader.name == feed {
      let select = try reader.db.cached(
        "SELECT route_id, short_name, long_name, route_type, color FROM routes WHERE route_id = ?")
      select.bind(routeID.rawValue, at: 1)
      if try select.step() { return reader.routeSummary(select, from: 0) }
    }
    return nil
  }

  /// Every trip instance (frequency trips left out) whose first departure is at or before
  /// `now` and whose last arrival is at or after it, on the service dates that can reach `now`
  /// (today and, for times past 24:00:00, the days before).
  /// - Complexity: one scan of `trip_times` per feed and service date, kept for the next call
  ///   (a history import asks every five minutes of a day); then O(trips of the date).
  public func runningTrips(at now: UnixTime) throws -> [RunningTrip] {
    var result: [RunningTrip] = []
    for reader in feeds {
      let today = ServiceCalendar.localDate(of: now, in: reader.zone)
      let daysBack = Int((Int64(reader.latestTime) + 86_399) / 86_400)
      for back in stride(from: daysBack, through: 0, by: -1) {
        let date = today.adding(days: -back)
        let spans = try reader.tripSpans(on: date)
        guard !spans.isEmpty else { continue }
        let seconds = try now - reader.calendar.start(of: date)
        for span in spans where span.firstDeparture <= seconds && span.lastArrival >= seconds {
          result.append(RunningTrip(feed: reader.name, tripID: span.tripID, serviceDate: date))
        }
      }
    }
    return result
  }

  /// The trips of block `blockID` in `feed` that run on `date` (any route), by trip_id.
  /// - Complexity: one lookup in `trips_by_block`.
  public func blockTrips(_ blockID: String, feed: FeedName, on date: ServiceDate) throws -> [TripID] {
    guard let reader = reader(feed) else { return [] }
    let services = try reader.calendar.services(on: date)
    let select = try reader.db.cached("SELECT trip_id, service_idx FROM trips WHERE block_id = ? ORDER BY trip_id")
    select.bind(blockID, at: 1)
    var result: [TripID] = []
    while try select.step() {
      if services.contains(select.int64(1)) { result.append(TripID(select.text(0))) }
    }
    return result
  }
}

/// A timetabled trip of one service date and the seconds of that day it runs between.
struct TripSpan {
  var tripID: TripID
  var firstDeparture: Int64
  var lastArrival: Int64
}

extension FeedReader {
  /// The trips (frequency templates left out) that run on `date`, with their spans, by
  /// trip_id: read once per date, the last few dates kept.
  func tripSpans(on date: ServiceDate) throws -> [TripSpan] {
    if let known = spansByDate.first(where: { $0.date == date }) { return known.spans }
    let services = try calendar.services(on: date)
    var spans: [TripSpan] = []
    if !services.isEmpty {
      let templates = frequencyTrips
      let select = try db.cached(
        """
        SELECT t.trip_idx, t.trip_id, t.service_idx, tt.first_departure, tt.last_arrival
        FROM trip_times tt JOIN trips t ON t.trip_idx = tt.trip_idx
        WHERE tt.first_departure IS NOT NULL AND tt.last_arrival IS NOT NULL ORDER BY t.trip_id
        """)
      while try select.step() {
        guard services.contains(select.int64(2)), !templates.contains(select.int64(0)) else { continue }
        spans.append(TripSpan(tripID: TripID(select.text(1)), firstDeparture: select.int64(3), lastArrival: select.int64(4)))
      }
    }
    spansByDate.append((date, spans))
    if spansByDate.count > 4 { spansByDate.removeFirst() }
    return spans
  }
}
