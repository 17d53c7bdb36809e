import GTFS
import GTFSRealtime
import Merge
import TransitModel
import UserData

/// What `alerts` is asked: the filters (combined), which alerts (in force, or all), and
/// whether the listing is remembered as seen.
public struct AlertsRequest: Sendable {
  public var route: String?
  public var stop: String?
  public var trip: String?
  public var modes: Set<TransitMode>
  /// Also the alerts not in force at the moment asked (past and upcoming).
  public var includeAll: Bool
  /// Only the alerts not listed before (an edited alert counts as new).
  public var unseenOnly: Bool
  /// Only the number of unseen alerts in force is wanted: `includeAll` and `unseenOnly` do not
  /// apply, and nothing is remembered.
  public var countOnly: Bool
  /// Remember the alerts listed as seen (a peek does not).
  public var remember: Bool
  /// The texts' language (BCP 47); nil: the untranslated text.
  public var language: String?

  /// A request; by default every alert in force, remembered as seen.
  public init(
    route: String? = nil, stop: String? = nil, trip: String? = nil, modes: Set<TransitMode> = [], includeAll: Bool = false,
    unseenOnly: Bool = false, countOnly: Bool = false, remember: Bool = true, language: String? = nil
  ) {
    self.route = route
    self.stop = stop
    self.trip = trip
    self.modes = modes
    self.includeAll = includeAll
    self.unseenOnly = unseenOnly
    self.countOnly = countOnly
    self.remember = remember
    self.language = language
  }

  /// Whether a filter narrows the alerts.
  public var isFiltered: Bool { route != nil || stop != nil || trip != nil || !modes.isEmpty }
}

/// When an alert applies, as seen from the moment asked.
public enum AlertPeriod: Sendable, Equatable {
  /// In force with no end known (no period, or an open one with neither end).
  case untilFurtherNotice
  /// In force until the end of the period holding now.
  case until(UnixTime)
  /// In force since the start of an open-ended period.
  case since(UnixTime)
  /// Not yet: its next period starts at `start` (and ends at `end`, when it does).
  case upcoming(start: UnixTime, end: UnixTime?)
  /// Over: its last period ended at `end` (nil when none gives an end).
  case ended(UnixTime?)

  /// Where `alert` stands at `now` (GTFS-Realtime: a period without start is open since
  /// forever, without end for ever; both ends count as inside).
  public init(_ alert: Alert, at now: UnixTime) {
    func time(_ seconds: UInt64) -> UnixTime { UnixTime(Int64(clamping: seconds)) }
    let moment = UInt64(max(0, now.seconds))
    switch AlertMatcher.timing(of: alert, at: now) {
    case .active:
      let period = alert.activePeriods.first { ($0.start ?? 0) <= moment && ($0.end.map { moment <= $0 } ?? true) }
      if let end = period?.end {
        self = .until(time(end))
      } else if let start = period?.start {
        self = .since(time(start))
      } else {
        self = .untilFurtherNotice
      }
    case .upcoming(let start):
      let period = alert.activePeriods.first { $0.start == UInt64(start.seconds) }
      self = .upcoming(start: start, end: period?.end.map(time))
    case .ended:
      self = .ended(alert.activePeriods.compactMap(\.end).max().map(time))
    }
  }
}

/// The alerts `alerts` lists: most severe first, each with its texts in the language asked,
/// when it applies, what it affects and whether it was listed before. Its `Encodable` form is
/// DESIGN.md's `alerts --json`.
public struct AlertsAnswer: Sendable {
  /// One alert and what a rider reads of it.
  public struct Item: Sendable {
    public var alert: IdentifiedAlert
    /// Its texts in the language asked.
    public var notice: AlertNotice
    /// What it affects, as a heading ("route 77X", "all tram routes").
    public var label: String
    /// Its effect's colour.
    public var status: RouteStatus
    public var period: AlertPeriod
    /// Whether it was listed before this answer (by id and content).
    public var wasSeen: Bool
  }

  /// The alerts, most severe first.
  public var items: [Item]
  /// The request answered.
  public var request: AlertsRequest
  /// The clock the times are on: the first timetable's, else the one given.
  public var zone: LocalZone
  public var now: UnixTime
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem]

  /// How many of the alerts were not listed before.
  public var unseenCount: Int { items.filter { !$0.wasSeen }.count }

  /// The alerts by what they affect, each group where its most severe alert is.
  public var groups: [(label: String, items: [Item])] {
    var order: [String] = []
    var byLabel: [String: [Item]] = [:]
    for item in items {
      if byLabel[item.label] == nil { order.append(item.label) }
      byLabel[item.label, default: []].append(item)
    }
    return order.map { ($0, byLabel[$0] ?? []) }
  }
}

/// Why alerts could not be answered.
public enum AlertsFailure: Error, Sendable, Hashable {
  /// No realtime feed was read: none given, none configured, or every one failed.
  case nothingToRead
}

extension TransitSession {
  /// The alerts of the session's realtime that `request` asks for at `now`, matched to the
  /// timetables when any are held (by the feeds' own ids otherwise). Unless the request
  /// peeks or only counts, the alerts listed are remembered as seen in the user's data, under
  /// the one timetable's feed name (else "realtime").
  /// - Parameter zone: the clock when no timetable is held (else the first timetable's).
  /// - Throws: `AlertsFailure`, `AlertResolver.Unknown` for a filter nothing knows, the
  ///   stores' and the realtime source's errors.
  public func alerts(_ request: AlertsRequest, now: UnixTime, zone fallbackZone: LocalZone = .utc) throws -> AlertsAnswer {
    let read = try realtime.read(preferring: nil)
    guard !read.feeds.isEmpty else { throw AlertsFailure.nothingToRead }
    // Active periods past year 9999 are open-ended (RealtimeBounds), not times to format.
    let all = IdentifiedAlert.alerts(in: RealtimeBounds.bounded(read.feeds).feeds)
    let timetables = store.isEmpty ? nil : store
    let resolver = try AlertResolver(store: timetables, alerts: all)
    let scope = try resolver.scope(route: request.route, stop: request.stop, trip: request.trip, modes: request.modes)
    let showAll = request.includeAll && !request.countOnly
    var alerts = all.filter { item in
      (showAll || AlertMatcher.isActive(item.alert, at: now)) && (scope.map { AlertMatcher.informs(item.alert, $0) } ?? true)
    }
    alerts = AlertSeverity.sorted(alerts)
    let users = try userData.open()
    let seen = try users?.seenAlerts(feed: seenAlertsFeed) ?? []
    var items = alerts.map { item in
      AlertsAnswer.Item(
        alert: item, notice: AlertMatcher.notice(item, language: request.language), label: resolver.label(item.alert),
        status: RouteStatus(effect: item.alert.effect), period: AlertPeriod(item.alert, at: now),
        wasSeen: seen.contains(UserStore.SeenAlertKey(alertID: item.id, contentHash: item.contentHash)))
    }
    if request.unseenOnly && !request.countOnly { items.removeAll(where: \.wasSeen) }
    if request.remember && !request.countOnly, let users {
      try users.markAlertsSeen(
        items.map { UserStore.SeenAlertKey(alertID: $0.alert.id, contentHash: $0.alert.contentHash) }, feed: seenAlertsFeed,
        now: now.seconds)
    }
    return AlertsAnswer(items: items, request: request, zone: alertsZone(fallback: fallbackZone), now: now, realtimeProblems: read.problems)
  }

  /// The name the alerts listed are remembered under: the one timetable's feed, else
  /// "realtime" (no timetable, or several).
  var seenAlertsFeed: String { store.feedNames.count == 1 ? store.feedNames[0].rawValue : "realtime" }

  /// The clock alerts are told on: the first timetable's, else `fallback`.
  func alertsZone(fallback: LocalZone) -> LocalZone { store.feedNames.first.map(store.timeZone(of:)) ?? fallback }
}

extension AlertsAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for item in items { try list.encode(AlertAnswer(item.alert, notice: item.notice, wasSeen: item.wasSeen, zone: zone)) }
  }
}

/// One alert in DESIGN.md's `alerts --json` shape, its times on `zone`'s clock: the object
/// `alerts` lists and `status` gives behind a route's colour.
public struct AlertAnswer: Encodable, Sendable {
  public var alert: IdentifiedAlert
  /// Its texts in the language asked.
  public var notice: AlertNotice
  /// Whether an `alerts` listing showed it before (by id and content).
  public var wasSeen: Bool
  public var zone: LocalZone

  /// The answer for `alert`.
  public init(_ alert: IdentifiedAlert, notice: AlertNotice, wasSeen: Bool, zone: LocalZone) {
    self.alert = alert
    self.notice = notice
    self.wasSeen = wasSeen
    self.zone = zone
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    let alert = self.alert.alert
    try members.encode(self.alert.id, forKey: "id")
    // An enum value the proto does not name is its number (protobuf's JSON mapping).
    let effect = alert.effectOrDefault, cause = alert.causeOrDefault
    if let name = effect.protoName {
      try members.encode(name, forKey: "effect")
    } else {
      try members.encode(effect.rawValue, forKey: "effect")
    }
    if let name = cause.protoName {
      try members.encode(name, forKey: "cause")
    } else {
      try members.encode(cause.rawValue, forKey: "cause")
    }
    try members.encode(notice.header, forKey: "header")
    try members.encode(notice.description, forKey: "description")
    try members.encode(notice.url, forKey: "url")
    func time(_ seconds: UInt64?) -> String? { seconds.map { zone.isoText(UnixTime(Int64(clamping: $0))) } }
    var periods = members.nestedUnkeyedContainer(forKey: "active_periods")
    for period in alert.activePeriods {
      var object = periods.nestedContainer(keyedBy: JSONKey.self)
      try object.encode(time(period.start), forKey: "start")
      try object.encode(time(period.end), forKey: "end")
    }
    var informed = members.nestedUnkeyedContainer(forKey: "informed")
    for selector in alert.informedEntities {
      var object = informed.nestedContainer(keyedBy: JSONKey.self)
      try object.encode(selector.agencyID, forKey: "agency_id")
      try object.encode(selector.routeID ?? selector.trip?.routeID, forKey: "route_id")
      try object.encode(selector.routeType, forKey: "route_type")
      try object.encode(selector.stopID, forKey: "stop_id")
      try object.encode(selector.trip?.tripID, forKey: "trip_id")
    }
    try members.encode(wasSeen, forKey: "seen")
  }
}
