import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
import Services
import TransitModel
import UserData

/// `transit status [ROUTE...]`: one line per route, green, yellow or red from the alerts in
/// force, with the reason.
enum StatusCommand: TransitCommand {
  static let path = ["status"]
  static let spec = CommandSpec(
    path: path,
    summary: "Green / yellow / red per route from the alerts in force",
    arguments: [
      ArgumentSpec(
        "ROUTE...", help: "A route's short name or route_id (default: the routes at your favourite stops)", optional: true,
        variadic: true)
    ],
    options: [
      AlertsSupport.languageOption.spec,
      FeedsSupport.refresh.spec,
    ],
    discussion: """
      Reads alerts from --realtime FILE (repeatable), else from the configured feeds'
      realtime URLs. A route is red when an alert in force says no service or significant
      delays, yellow for altered service (detour, modified, reduced or additional service,
      stop moved, accessibility, other or unknown effects), green when no alert affects it
      (or only alerts with no effect). The word is always written; it is coloured on a
      terminal unless --no-color or NO_COLOR is set. An alert affects a route when it names
      the route, one of its trips, its mode, or its whole agency.

      With trip updates too, a route whose live trips run late by the 'late' setting or more
      (at their next stop) is at least yellow, and the reason says how many and by how much.
      When no alerts feed was given, the reason says so instead of "good service" (a feed with
      no entities counts as an empty alerts feed).

      Without ROUTE: there is no list of favourite routes yet, so the routes calling at your
      favourite stops are shown; with no favourite stops, every route with an alert in force.

      With --json: [{route_id, route_short_name, status, alerts_feed, late_trips, late, alerts: [{id, effect, header}]}].
      """,
    examples: [
      "transit status --realtime Data/realtime/demo-alerts.pb",
      "transit status 27 77X --realtime Data/realtime/demo-alerts.pb",
      "transit status Red --json --realtime Data/realtime/demo-alerts.pb",
    ])

  /// One line of the status board.
  struct Line {
    var routeID: String?
    var name: String
    var status: RouteStatus
    var reasons: [IdentifiedAlert]
    /// Its live trips running late beyond the threshold, when trip updates say so.
    var lateness: RouteLateness?
  }

  static func run(_ invocation: Invocation) throws -> Int32 {
    let languageGiven = try invocation.arguments.read(AlertsSupport.languageOption)
    let language = try AlertsSupport.language(invocation, given: languageGiven)
    let feeds = try AlertsSupport.feeds(invocation)
    let store = try AlertsSupport.optionalStore(invocation)
    let now = invocation.now
    let all = IdentifiedAlert.alerts(in: feeds)
    let active = all.filter { AlertMatcher.isActive($0.alert, at: now) }
    let resolver = try AlertResolver(store: store, alerts: all)
    // Trip updates count too: a route whose live trips run late beyond the threshold is yellow.
    let options = try RealtimeSupport.options(invocation, settings: try invocation.settings(), language: languageGiven)
    let live = try store.map { try RealtimeSupport.live(invocation, store: $0, feeds: feeds, now: now, options: options) }
    let report =
      live?.report
      ?? {
        var report = RealtimeReport()
        report.hasAlertsFeed = feeds.contains { feed in feed.entities.isEmpty || feed.entities.contains { $0.alert != nil } }
        return report
      }()
    let lateness = live.map(RouteLateness.byRoute) ?? [:]

    func line(_ id: String, name: String, scope: AlertScope) -> Line {
      let condition = RouteCondition(
        alerts: active.filter { AlertMatcher.informs($0.alert, scope) }, lateness: lateness[RouteID(id)])
      return Line(routeID: id, name: name, status: condition.status, reasons: condition.reasons, lateness: condition.lateness)
    }

    var lines: [Line] = []
    var heading: String?
    let given = invocation.arguments.positionals
    if !given.isEmpty {
      for text in given {
        let found = resolver.routes(named: text)
        if found.isEmpty {
          lines.append(line(text, name: text, scope: try resolver.scope(route: text)))
        }
        for route in found {
          lines.append(
            line(route.route.id.rawValue, name: route.route.shortName, scope: try resolver.scope(route: route.route.id.rawValue)))
        }
      }
    } else {
      let favouriteRoutes = try routesAtFavourites(invocation, store: store)
      if !favouriteRoutes.isEmpty {
        heading = "routes at your favourite stops"
        for route in favouriteRoutes {
          lines.append(line(route.id.rawValue, name: route.shortName, scope: try resolver.scope(route: route.id.rawValue)))
        }
      } else {
        heading = "routes with an alert in force"
        var known = Set<String>()
        for route in resolver.routes {
          known.insert(route.route.id.rawValue)
          let entry = line(route.route.id.rawValue, name: route.route.shortName, scope: try resolver.scope(route: route.route.id.rawValue))
          if entry.status != .green || !entry.reasons.isEmpty { lines.append(entry) }
        }
        for id in resolver.namedRoutes.sorted(by: { NaturalOrder.less($0, $1) }) where !known.contains(id) {
          let entry = line(id, name: id, scope: try resolver.scope(route: id))
          if entry.status != .green { lines.append(entry) }
        }
        if store == nil {
          // Without a timetable, alerts for a whole agency or mode name no route: one line each.
          var groups: [String: [IdentifiedAlert]] = [:]
          for item in active where !item.alert.informedEntities.contains(where: { $0.routeID != nil || $0.trip?.routeID != nil }) {
            if resolver.affected(item.alert).isNetworkWide { groups[resolver.label(item.alert), default: []].append(item) }
          }
          for (label, items) in groups.sorted(by: { $0.key < $1.key }) {
            let (status, reasons) = AlertSeverity.status(of: items)
            if status != .green { lines.append(Line(routeID: nil, name: label, status: status, reasons: reasons)) }
          }
        }
      }
    }

    let out = invocation.context.stdout
    if invocation.global.json {
      let json = JSON.array(
        lines.map { line in
          .object([
            ("route_id", .optional(line.routeID)),
            ("route_short_name", .string(line.name)),
            ("status", .string(line.status.name)),
            ("alerts_feed", .bool(report.hasAlertsFeed)),
            ("late_trips", .number(line.lateness?.lateDelays.count ?? 0)),
            ("late", .optional(line.lateness.map(latenessText))),
            (
              "alerts",
              .array(
                line.reasons.map { item in
                  let notice = AlertMatcher.notice(item, language: language)
                  return .object([
                    ("id", .string(item.id)),
                    ("effect", .string(item.alert.effectOrDefault.protoName ?? String(item.alert.effectOrDefault.rawValue))),
                    ("header", .optional(notice.header)),
                  ])
                })
            ),
          ])
        })
      out.line(json.serialized(pretty: true))
      return 0
    }
    if let heading, !lines.isEmpty { out.line(heading + ":") }
    guard !lines.isEmpty else {
      out.line("no route has an alert in force")
      return 0
    }
    let colour = invocation.useColor
    let width = lines.map(\.name.shown.count).max() ?? 0
    for line in lines {
      var text = Format.pad(line.name.shown, width) + "  "
      text += AlertsSupport.paint(Format.pad(line.status.name, 6), status: line.status, enabled: colour) + "  "
      var reasons: [String] = []
      if let lateness = line.lateness { reasons.append(latenessText(lateness)) }
      if let first = line.reasons.first {
        let notice = AlertMatcher.notice(first, language: language)
        let words = AlertsSupport.words(first.alert.effectOrDefault)
        let header = (notice.header ?? notice.description ?? first.id).shown.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        reasons.append("\(words): \(shortened(header, to: 90))" + (line.reasons.count > 1 ? " (+\(line.reasons.count - 1) more)" : ""))
      } else if !report.hasAlertsFeed {
        reasons.append("no alerts feed, so disruptions are unknown")
      } else if reasons.isEmpty {
        reasons.append("good service")
      }
      text += reasons.joined(separator: "; ")
      out.line(text)
    }
    return 0
  }

  /// "3 of 4 live trips late, 11–15 min".
  static func latenessText(_ lateness: RouteLateness) -> String {
    let minutes = lateness.lateDelays.map(DelayRounding.minutes)
    let range = minutes.first == minutes.last ? "\(minutes.first ?? 0) min" : "\(minutes.first ?? 0)–\(minutes.last ?? 0) min"
    return "\(lateness.lateDelays.count) of \(lateness.liveTrips) live trip\(lateness.liveTrips == 1 ? "" : "s") late, \(range)"
  }

  /// `text` cut at a word boundary to about `limit` characters, with "…" when cut.
  static func shortened(_ text: String, to limit: Int) -> String {
    guard text.count > limit else { return text }
    var cut = String(text.prefix(limit))
    if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
    return cut + "…"
  }

  /// The routes calling at the user's favourite stops, without repeats, in favourite order.
  static func routesAtFavourites(_ invocation: Invocation, store: Store?) throws -> [RouteSummary] {
    guard let store, FileManager.default.fileExists(atPath: invocation.paths.data + "/user.sqlite") else { return [] }
    var result: [RouteSummary] = []
    for favourite in try UserStore(directory: invocation.paths.data).favourites() {
      guard let stop = try store.stop(StopID(favourite.stopID), feed: FeedName(favourite.feed)) else { continue }
      for route in try store.routes(at: stop) where !result.contains(route) { result.append(route) }
    }
    return result
  }
}
