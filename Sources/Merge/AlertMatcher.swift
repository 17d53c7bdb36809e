import GTFSRealtime
import TransitModel

/// What an alert is checked against: the agencies, routes, modes, stops and trips a rider is
/// looking at.
///
/// Each dimension is a set of values, or nil when the question leaves it open (`alerts --route
/// R` says nothing of stops or trips). A selector's field on an open dimension does not stop it
/// matching, but cannot make it match alone: `{stop_id: S}` informs no route query, while
/// `{route_id: R, stop_id: S}` informs route R. `agencyIDs` differs: nil means any agency (the
/// feed has one, or it is unknown), so an agency-wide alert matches.
public struct AlertScope: Hashable, Sendable {
  /// The agencies whose alerts apply; nil for any (a single-agency feed).
  public var agencyIDs: Set<String>?
  /// The routes concerned; nil when open.
  public var routeIDs: Set<RouteID>?
  /// Their `route_type`s, compared by mode (3 and the extended 700 are both bus); nil when open.
  public var routeTypes: Set<Int>?
  /// The stops concerned, each with its station and platforms; nil when open.
  public var stopIDs: Set<StopID>?
  /// The trips concerned; nil when open.
  public var tripIDs: Set<TripID>?
  /// The routes of trips that alerts name without a route (from the timetable), so that a
  /// trip's alert informs its route.
  public var tripRoutes: [TripID: RouteID]

  /// Creates a scope.
  public init(
    agencyIDs: Set<String>? = nil, routeIDs: Set<RouteID>? = [], routeTypes: Set<Int>? = [], stopIDs: Set<StopID>? = [],
    tripIDs: Set<TripID>? = [], tripRoutes: [TripID: RouteID] = [:]
  ) {
    self.agencyIDs = agencyIDs
    self.routeIDs = routeIDs
    self.routeTypes = routeTypes
    self.stopIDs = stopIDs
    self.tripIDs = tripIDs
    self.tripRoutes = tripRoutes
  }
}

/// An active alert that informs a scope, with its text in the language wanted.
public struct AlertNotice: Hashable, Sendable {
  /// The feed entity's id.
  public var id: String?
  /// The alert's effect (`DETOUR`, `NO_SERVICE`, ...), when given.
  public var effect: Alert.Effect?
  /// The alert's cause, when given.
  public var cause: Alert.Cause?
  /// `header_text` in the language wanted.
  public var header: String?
  /// `description_text` in the language wanted.
  public var description: String?
  /// `url` in the language wanted.
  public var url: String?

  /// Creates a notice.
  public init(
    id: String?, effect: Alert.Effect? = nil, cause: Alert.Cause? = nil, header: String? = nil, description: String? = nil,
    url: String? = nil
  ) {
    self.id = id
    self.effect = effect
    self.cause = cause
    self.header = header
    self.description = description
    self.url = url
  }
}

/// Finds the alerts that are active now and inform a stop, its routes or its trips.
///
/// GTFS-Realtime: the fields of one `EntitySelector` combine with AND (all of them must match),
/// the selectors of one alert with OR (any of them informs).
public enum AlertMatcher {
  /// The alerts in `feeds` active at `now` with an informed entity inside `scope`, in feed order.
  ///
  /// An informed entity (`EntitySelector`) matches when every field it sets matches: agency,
  /// route (also a trip descriptor's route), route_type (by mode), stop and trip (its trip_id).
  /// direction_id is not checked (the scope does not know directions). An alert without active
  /// periods is always active; a period without start or end is open on that side. Texts are
  /// made plain (HTML removed).
  ///
  /// - Parameter language: the BCP 47 language wanted for texts ("en"); else the text without a
  ///   language, else the first.
  public static func notices(
    in feeds: [FeedMessage], scope: AlertScope, at now: UnixTime, language: String? = nil
  )
    -> [AlertNotice]
  {
    IdentifiedAlert.alerts(in: feeds).filter { isActive($0.alert, at: now) && informs($0.alert, scope) }.map {
      notice($0, language: language)
    }
  }

  /// An alert's texts in `language`, plain.
  public static func notice(_ item: IdentifiedAlert, language: String?) -> AlertNotice {
    let alert = item.alert
    return AlertNotice(
      id: item.id, effect: alert.effect, cause: alert.cause,
      header: AlertText.translation(alert.headerText, language: language).map(AlertText.plain),
      description: AlertText.translation(alert.descriptionText, language: language).map(AlertText.plain),
      url: AlertText.translation(alert.url, language: language))
  }

  /// Whether one of the alert's active periods (or no period at all) holds `now`.
  public static func isActive(_ alert: Alert, at now: UnixTime) -> Bool {
    guard !alert.activePeriods.isEmpty else { return true }
    let time = UInt64(max(0, now.seconds))
    return alert.activePeriods.contains { period in
      (period.start ?? 0) <= time && (period.end.map { time <= $0 } ?? true)
    }
  }

  /// Whether any of the alert's informed entities matches `scope` (OR across selectors).
  public static func informs(_ alert: Alert, _ scope: AlertScope) -> Bool {
    alert.informedEntities.contains { informs($0, scope) }
  }

  /// Whether every field the selector sets is compatible with the scope (AND within a
  /// selector), and at least one of them matches a dimension the scope asks about. agency_id
  /// counts as that match only when it is the selector's only field (an agency-wide alert):
  /// `{agency, route_id}` informs through its route, not through its agency.
  public static func informs(_ selector: EntitySelector, _ scope: AlertScope) -> Bool {
    var matched = false
    if let agency = selector.agencyID {
      if let agencies = scope.agencyIDs, !agencies.contains(agency) { return false }
      // An agency narrows a selector with other fields; alone, it is an agency-wide alert.
      matched =
        selector.routeID == nil && selector.routeType == nil && selector.stopID == nil && selector.trip == nil
    }
    var routes: [RouteID] = []
    if let route = selector.routeID { routes.append(RouteID(route)) }
    if let route = selector.trip?.routeID { routes.append(RouteID(route)) }
    if let trip = selector.trip?.tripID, let route = scope.tripRoutes[TripID(trip)] { routes.append(route) }
    if !routes.isEmpty, let wanted = scope.routeIDs {
      guard routes.allSatisfy({ wanted.contains($0) }) else { return false }
      matched = true
    }
    if let type = selector.routeType, let types = scope.routeTypes {
      let mode = TransitMode(routeType: Int(type))
      guard types.contains(where: { TransitMode(routeType: $0) == mode }) else { return false }
      matched = true
    }
    if let stop = selector.stopID, let stops = scope.stopIDs {
      guard stops.contains(StopID(stop)) else { return false }
      matched = true
    }
    if let trip = selector.trip?.tripID, let trips = scope.tripIDs {
      guard trips.contains(TripID(trip)) else { return false }
      matched = true
    }
    return matched
  }

  /// The translation in `language`, else the one without a language, else the first.
  static func text(_ string: TranslatedString?, _ language: String?) -> String? {
    AlertText.translation(string, language: language)
  }
}
