import GTFSRealtime
import TransitModel

/// What a list of departures is about, for finding the alerts that inform it.
public struct AlertScope: Hashable, Sendable {
  /// The agencies whose alerts apply; nil for any (a single-agency feed).
  public var agencyIDs: Set<String>?
  /// The routes listed.
  public var routeIDs: Set<RouteID>
  /// Their `route_type`s.
  public var routeTypes: Set<Int>
  /// The stop asked about, its platforms and its station.
  public var stopIDs: Set<StopID>
  /// The trips listed.
  public var tripIDs: Set<TripID>

  /// Creates a scope.
  public init(
    agencyIDs: Set<String>? = nil, routeIDs: Set<RouteID> = [], routeTypes: Set<Int> = [], stopIDs: Set<StopID> = [],
    tripIDs: Set<TripID> = []
  ) {
    self.agencyIDs = agencyIDs
    self.routeIDs = routeIDs
    self.routeTypes = routeTypes
    self.stopIDs = stopIDs
    self.tripIDs = tripIDs
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
public enum AlertMatcher {
  /// The alerts in `feeds` active at `now` with an informed entity inside `scope`, in feed order.
  ///
  /// An informed entity (`EntitySelector`) matches when every field it sets matches: agency,
  /// route, route_type, stop and trip (its trip_id). direction_id is not checked (the scope does
  /// not know directions). An alert without active periods is always active; a period without
  /// start or end is open on that side.
  ///
  /// - Parameter language: the BCP 47 language wanted for texts ("en"); else the text without a
  ///   language, else the first.
  public static func notices(in feeds: [FeedMessage], scope: AlertScope, at now: UnixTime, language: String? = nil)
    -> [AlertNotice]
  {
    var result: [AlertNotice] = []
    for feed in feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        guard let alert = entity.alert, isActive(alert, at: now),
          alert.informedEntities.contains(where: { informs($0, scope) })
        else { continue }
        result.append(
          AlertNotice(
            id: entity.id, effect: alert.effect, cause: alert.cause, header: text(alert.headerText, language),
            description: text(alert.descriptionText, language), url: text(alert.url, language)))
      }
    }
    return result
  }

  /// Whether one of the alert's active periods (or no period at all) holds `now`.
  static func isActive(_ alert: Alert, at now: UnixTime) -> Bool {
    guard !alert.activePeriods.isEmpty else { return true }
    let time = UInt64(max(0, now.seconds))
    return alert.activePeriods.contains { period in
      (period.start ?? 0) <= time && (period.end.map { time <= $0 } ?? true)
    }
  }

  /// Whether every field the selector sets matches the scope (and it sets at least one).
  static func informs(_ selector: EntitySelector, _ scope: AlertScope) -> Bool {
    var any = false
    if let agency = selector.agencyID {
      any = true
      if let agencies = scope.agencyIDs, !agencies.contains(agency) { return false }
    }
    if let route = selector.routeID {
      any = true
      if !scope.routeIDs.contains(RouteID(route)) { return false }
    }
    if let type = selector.routeType {
      any = true
      if !scope.routeTypes.contains(Int(type)) { return false }
    }
    if let stop = selector.stopID {
      any = true
      if !scope.stopIDs.contains(StopID(stop)) { return false }
    }
    if let trip = selector.trip?.tripID {
      any = true
      if !scope.tripIDs.contains(TripID(trip)) { return false }
    }
    return any
  }

  /// The translation in `language`, else the one without a language, else the first.
  static func text(_ string: TranslatedString?, _ language: String?) -> String? {
    guard let translations = string?.translations, !translations.isEmpty else { return nil }
    if let language,
      let match = translations.first(where: { $0.language?.lowercased().hasPrefix(language.lowercased()) == true })
    {
      return match.text
    }
    return (translations.first { $0.language == nil } ?? translations[0]).text
  }
}
