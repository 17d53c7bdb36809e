import GTFS
import GTFSRealtime
import Merge
import TransitModel
import UserData

/// What `status` is asked: the routes (none: those at the user's favourite stops, else every
/// route with an alert in force) and the texts' language.
public struct StatusRequest: Sendable {
  /// Route short names or route_ids, as the rider gave them.
  public var routes: [String]
  /// The texts' language (BCP 47); nil: the untranslated text.
  public var language: String?

  public init(routes: [String] = [], language: String? = nil) {
    self.routes = routes
    self.language = language
  }
}

/// Green, yellow or red per route from the alerts in force and the live trips' lateness. Its
/// `Encodable` form is DESIGN.md's `status --json`.
public struct StatusAnswer: Sendable {
  /// Which routes the answer lists.
  public enum Scope: Sendable, Equatable {
    /// The routes asked for.
    case asked
    /// No route asked: those calling at the user's favourite stops.
    case favourites
    /// No route asked and no favourite stop: those with an alert in force.
    case alerted
  }

  /// An alert behind a route's colour, with its texts in the language asked.
  public struct Reason: Sendable {
    public var alert: IdentifiedAlert
    public var notice: AlertNotice
    /// Whether an `alerts` listing showed it before (by id and content).
    public var wasSeen: Bool
  }

  /// One route's line (or, without timetables, one network-wide group of alerts).
  public struct Line: Sendable {
    /// The route's id; nil for a group of alerts that names no route.
    public var routeID: String?
    /// The route's short name (else its id, or the group's label).
    public var name: String
    public var status: RouteStatus
    /// The alerts behind the colour, worst first.
    public var reasons: [Reason]
    /// How late its live trips run, when some run late beyond the threshold.
    public var lateness: RouteLateness?
  }

  public var lines: [Line]
  public var scope: Scope
  /// Whether an alerts feed was read (else no alert can be known, and "good service" is not
  /// said).
  public var hasAlertsFeed: Bool
  /// What the realtime was and matched, when timetables are held (its warnings are said).
  public var report: RealtimeReport?
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem]
  /// The clock the alerts' times are on: the first timetable's, else the one given.
  public var zone: LocalZone = .utc
}

extension RouteLateness {
  /// "3 of 4 live trips late, 11–15 min" (delays rounded as everywhere, `DelayRounding`).
  public var summary: String {
    let minutes = lateDelays.map(DelayRounding.minutes)
    let range = minutes.first == minutes.last ? "\(minutes.first ?? 0) min" : "\(minutes.first ?? 0)–\(minutes.last ?? 0) min"
    return "\(lateDelays.count) of \(liveTrips) live trip\(liveTrips == 1 ? "" : "s") late, \(range)"
  }
}

extension TransitSession {
  /// The status of the routes `request` names at `now`, from the session's realtime: a route
  /// is red when an alert in force says no service or significant delays, yellow for altered
  /// service or live trips late beyond the late threshold, else green.
  /// The alerts behind a colour are `alerts`' objects, seen when a listing showed them (asking
  /// does not create the user's data, nor remember them).
  /// - Parameter zone: the clock when no timetable is held (else the first timetable's).
  /// - Throws: `AlertsFailure.nothingToRead` when no feed was read, the stores' and the
  ///   realtime source's errors.
  public func status(_ request: StatusRequest, now: UnixTime, zone fallbackZone: LocalZone = .utc) throws -> StatusAnswer {
    let read = try realtime.read(preferring: nil)
    guard !read.feeds.isEmpty else { throw AlertsFailure.nothingToRead }
    let feeds = RealtimeBounds.bounded(read.feeds).feeds
    let timetables = store.isEmpty ? nil : store
    let all = IdentifiedAlert.alerts(in: feeds)
    let active = all.filter { AlertMatcher.isActive($0.alert, at: now) }
    let resolver = try AlertResolver(store: timetables, alerts: all)
    // Trip updates count too: a route whose live trips run late beyond the threshold is yellow.
    let live = try timetables.map { try LiveRealtime(store: $0, feeds: feeds, now: now, options: options) }
    let hasAlertsFeed =
      live?.report.hasAlertsFeed ?? feeds.contains { feed in feed.entities.isEmpty || feed.entities.contains { $0.alert != nil } }
    let lateness = live.map(RouteLateness.byRoute) ?? [:]
    let seen = try userData.openIfPresent()?.seenAlerts(feed: seenAlertsFeed) ?? []
    func reasons(_ alerts: [IdentifiedAlert]) -> [StatusAnswer.Reason] {
      alerts.map {
        StatusAnswer.Reason(
          alert: $0, notice: AlertMatcher.notice($0, language: request.language),
          wasSeen: seen.contains(UserStore.SeenAlertKey(alertID: $0.id, contentHash: $0.contentHash)))
      }
    }
    func line(_ id: String, name: String) throws -> StatusAnswer.Line {
      let scope = try resolver.scope(route: id)
      let condition = RouteCondition(alerts: active.filter { AlertMatcher.informs($0.alert, scope) }, lateness: lateness[RouteID(id)])
      return StatusAnswer.Line(
        routeID: id, name: name, status: condition.status, reasons: reasons(condition.reasons), lateness: condition.lateness)
    }

    var lines: [StatusAnswer.Line] = []
    let scope: StatusAnswer.Scope
    let favouriteRoutes = request.routes.isEmpty ? try routesAtFavourites() : []
    if !request.routes.isEmpty {
      scope = .asked
      for text in request.routes {
        let found = resolver.routes(named: text)
        if found.isEmpty { lines.append(try line(text, name: text)) }
        for route in found { lines.append(try line(route.route.id.rawValue, name: route.route.shortName)) }
      }
    } else if !favouriteRoutes.isEmpty {
      scope = .favourites
      for route in favouriteRoutes { lines.append(try line(route.id.rawValue, name: route.shortName)) }
    } else {
      scope = .alerted
      var known = Set<String>()
      for route in resolver.routes {
        known.insert(route.route.id.rawValue)
        let entry = try line(route.route.id.rawValue, name: route.route.shortName)
        if entry.status != .green || !entry.reasons.isEmpty { lines.append(entry) }
      }
      for id in resolver.namedRoutes.sorted(by: { NaturalOrder.less($0, $1) }) where !known.contains(id) {
        let entry = try line(id, name: id)
        if entry.status != .green { lines.append(entry) }
      }
      if timetables == nil {
        // Without a timetable, alerts for a whole agency or mode name no route: one line each.
        var groups: [String: [IdentifiedAlert]] = [:]
        for item in active where !item.alert.informedEntities.contains(where: { $0.routeID != nil || $0.trip?.routeID != nil }) {
          if resolver.affected(item.alert).isNetworkWide { groups[resolver.label(item.alert), default: []].append(item) }
        }
        for (label, items) in groups.sorted(by: { $0.key < $1.key }) {
          let (status, worst) = AlertSeverity.status(of: items)
          if status != .green { lines.append(StatusAnswer.Line(routeID: nil, name: label, status: status, reasons: reasons(worst))) }
        }
      }
    }
    return StatusAnswer(
      lines: lines, scope: scope, hasAlertsFeed: hasAlertsFeed, report: live?.report, realtimeProblems: read.problems,
      zone: alertsZone(fallback: fallbackZone))
  }

  /// The routes calling at the user's favourite stops, without repeats, in favourite order
  /// (none without timetables or without a user database: asking does not create one).
  /// - Throws: the stores' errors.
  public func routesAtFavourites() throws -> [RouteSummary] {
    guard !store.isEmpty, let users = try userData.openIfPresent() else { return [] }
    var result: [RouteSummary] = []
    for favourite in try users.favourites() {
      guard let stop = try store.stop(StopID(favourite.stopID), feed: FeedName(favourite.feed)) else { continue }
      for route in try store.routes(at: stop) where !result.contains(route) { result.append(route) }
    }
    return result
  }
}

extension StatusAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for line in lines {
      var object = list.nestedContainer(keyedBy: JSONKey.self)
      try object.encode(line.routeID, forKey: "route_id")
      try object.encode(line.name, forKey: "route_short_name")
      try object.encode(line.status.name, forKey: "status")
      try object.encode(hasAlertsFeed, forKey: "alerts_feed")
      try object.encode(line.lateness?.lateDelays.count ?? 0, forKey: "late_trips")
      try object.encode(line.lateness?.summary, forKey: "late")
      // `alerts --json`'s objects (issue 33: one shape).
      let alerts = line.reasons.map { AlertAnswer($0.alert, notice: $0.notice, wasSeen: $0.wasSeen, zone: zone) }
      try object.encode(alerts, forKey: "alerts")
    }
  }
}
