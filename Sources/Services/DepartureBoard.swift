import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// What a departure board is asked: the window, how many, which trips.
public struct BoardQuery: Sendable, Hashable {
  /// The window's start.
  public var start: UnixTime
  /// Minutes looked ahead from `start`.
  public var windowMinutes: Int
  /// Departures kept at most.
  public var limit: Int
  /// Also trips ending here and calls where nobody may board.
  public var includeArrivals = false
  /// Only this route (short name or route_id).
  public var route: String?
  /// Only trips going there (headsign or a later stop's name).
  public var destination: String?
  /// Only departures a wheelchair user can take (`RiderDetails.isAccessible`): `limit` of
  /// them, however many others come first.
  public var accessibleOnly = false
  /// Only trips that call at one of these stops (a station: at one of its platforms) after
  /// the board's stop, letting riders off there (`--via`); empty: every trip.
  public var via: [TransitModel.Stop] = []

  /// A query from `start`.
  public init(
    start: UnixTime, windowMinutes: Int, limit: Int, includeArrivals: Bool = false, route: String? = nil, destination: String? = nil,
    accessibleOnly: Bool = false
  ) {
    self.start = start
    self.windowMinutes = windowMinutes
    self.limit = limit
    self.includeArrivals = includeArrivals
    self.route = route
    self.destination = destination
    self.accessibleOnly = accessibleOnly
  }
}

/// The departure board: a stop's (or station's) departures with the realtime of one
/// `LiveRealtime` applied (DESIGN.md rules 4–7, 13, 14), DUPLICATED and ADDED trips included.
public enum DepartureBoard {
  /// The departures at `stop` (and `platforms`, for a station), sorted by expected time.
  ///
  /// The window is half-open, [start, start + window): a departure exactly at its end is the
  /// next window's. With realtime the timetable is read from an hour before the window (a late
  /// trip scheduled earlier may still be to come) to as far past its end as the earliest
  /// prediction runs ahead of its timetable (`LiveRealtime.earlyLeadSeconds`, at most the
  /// outlier bound), then filtered by expected time: a trip scheduled after the window but
  /// expected in it is listed. Every instance the realtime matched brings its whole stop list,
  /// so the matching is the one every other command sees.
  /// - Throws: the store's errors.
  public static func departures(
    store: Store, stop: TransitModel.Stop, platforms: [TransitModel.Stop], live: LiveRealtime, query: BoardQuery
  ) throws -> [Departure] {
    guard query.accessibleOnly else { return try allDepartures(store: store, stop: stop, platforms: platforms, live: live, query: query) }
    // Every departure of the window (read at once: no limit), then the first `limit` the
    // filter keeps.
    var unlimited = query
    unlimited.limit = .max
    let all = try allDepartures(store: store, stop: stop, platforms: platforms, live: live, query: unlimited)
    let details = try RiderDetails.of(all, store: store, live: live)
    return Array(zip(all, details).filter { $0.1.isAccessible }.map(\.0).prefix(query.limit))
  }

  /// `departures` without the accessibility filter.
  static func allDepartures(
    store: Store, stop: TransitModel.Stop, platforms: [TransitModel.Stop], live: LiveRealtime, query: BoardQuery
  ) throws -> [Departure] {
    let hasRealtime = !live.feeds.isEmpty
    let lookback: Int64 = hasRealtime ? 3600 : 0
    let end = query.start + Int64(query.windowMinutes * 60)
    let lead = hasRealtime ? live.earlyLeadSeconds : 0
    let calls = try store.departures(
      at: stop,
      DepartureQuery(
        from: query.start - lookback, until: end + lead, limit: hasRealtime || query.limit == .max ? nil : query.limit,
        includeArrivals: query.includeArrivals, route: query.route, destination: query.destination, via: query.via))
    guard hasRealtime else { return calls.map { Departure(call: $0) } }
    var stopIDs: Set<StopID> = [stop.id]
    for platform in platforms { stopIDs.insert(platform.id) }
    let request = DepartureRequest(
      stopIDs: stopIDs, from: query.start, feed: stop.feed, fallbackServiceDate: store.localDate(of: query.start, feed: stop.feed),
      serviceDayStarts: live.serviceDayStarts, includeArrivals: query.includeArrivals)
    // `live.feeds` are bounded already (`LiveRealtime`).
    var departures = Reconciler.departures(
      scheduled: calls, trips: live.trips, boundedFeeds: live.feeds, now: live.now, request: request,
      options: live.options.reconciler
    ).departures
    if let route = query.route {
      let wanted = route.lowercased()
      departures.removeAll { $0.call.routeShortName.lowercased() != wanted && $0.call.routeID.rawValue.lowercased() != wanted }
    }
    if let destination = query.destination, !destination.isEmpty {
      // Added trips are not in the timetable: keep those whose headsign says so.
      departures.removeAll { $0.status == DepartureStatus.added && !$0.call.headsign.lowercased().contains(destination.lowercased()) }
    }
    // Added trips are not in the timetable, so where they call later is not known.
    if !query.via.isEmpty { departures.removeAll { $0.status == DepartureStatus.added } }
    departures.removeAll { ($0.time ?? query.start) >= end }
    return Array(departures.prefix(query.limit))
  }

  /// Why a board with no departures is empty when the reason is the timetable itself: the
  /// service of the stop's feed has ended, or not begun, on the local date of `start`; nil
  /// when the timetable runs then (the window may simply be too short).
  public static func emptyReason(store: Store, stop: TransitModel.Stop, start: UnixTime) -> ServiceStatus? {
    guard let feed = store.held.first(where: { $0.name == stop.feed.rawValue }) else { return nil }
    let status = feed.serviceStatus(now: start)
    switch status {
    case .ended, .notStarted: return status
    case .running, .endingSoon, .unknown: return nil
    }
  }

  /// Whether someone at `origin` can walk to the departure's stop (at `stopCoordinate`) before
  /// it leaves, by the walking model; nil when a time or a position is missing.
  public static func isReachable(
    _ departure: Departure, from origin: Coordinate?, stopCoordinate: Coordinate?, now: UnixTime, walking: WalkingModel
  ) -> Bool? {
    guard let origin, let stopCoordinate, let time = departure.time else { return nil }
    return time - now >= Int64(walking.seconds(from: origin, to: stopCoordinate))
  }

  /// The active alerts in the realtime that inform the stop (or its station and platforms), a
  /// route or a trip listed, in the options' language.
  public static func notices(
    live: LiveRealtime, stop: TransitModel.Stop, platforms: [TransitModel.Stop], departures: [Departure]
  ) -> [AlertNotice] {
    guard live.feeds.contains(where: { $0.entities.contains { $0.alert != nil } }) else { return [] }
    var stopIDs: Set<StopID> = [stop.id]
    for platform in platforms { stopIDs.insert(platform.id) }
    if let parent = stop.parentStation { stopIDs.insert(parent) }
    let scope = AlertScope(
      routeIDs: Set(departures.map(\.call.routeID)), routeTypes: Set(departures.map(\.call.routeType)), stopIDs: stopIDs,
      tripIDs: Set(departures.map(\.call.tripID)))
    return AlertMatcher.notices(in: live.feeds, scope: scope, at: live.now, language: live.options.language)
  }
}

extension AlertNotice {
  /// The effect as the feed spells it (`DETOUR`, `NO_SERVICE`), when given and known.
  public var effectName: String? { effect.flatMap(\.protoName) }
  /// What the notice says in one piece: its header, else its description, else the entity's
  /// id; nil when it has none of them.
  public var text: String? { header ?? description ?? id }
}
