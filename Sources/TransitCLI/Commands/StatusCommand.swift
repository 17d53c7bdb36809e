import FoundationEssentials
import Services
import TransitModel

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
      RealtimeOptions.refresh.spec,
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
  static func run(_ invocation: Invocation) throws -> Int32 {
    let languageGiven = try invocation.arguments.read(AlertsSupport.languageOption)
    let session = try SessionSupport.session(invocation, language: languageGiven, requiresTimetables: false)
    let request = StatusRequest(
      routes: invocation.arguments.positionals, language: try AlertsSupport.language(invocation, given: languageGiven))
    let answer: StatusAnswer
    do {
      answer = try session.status(request, now: invocation.now, zone: AlertsSupport.zone(environment: invocation.context.environment))
    } catch AlertsFailure.nothingToRead {
      throw RuntimeError("no alerts to read: give an alerts feed with --realtime FILE, or configure one with 'transit feeds add'")
    }
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    if let report = answer.report { RealtimeSupport.warn(report, invocation: invocation) }
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let heading: String? =
      switch answer.scope {
      case .asked: nil
      case .favourites: "routes at your favourite stops"
      case .alerted: "routes with an alert in force"
      }
    if let heading, !answer.lines.isEmpty { out.line(heading + ":") }
    guard !answer.lines.isEmpty else {
      out.line("no route has an alert in force")
      return 0
    }
    let colour = invocation.useColor
    let width = answer.lines.map(\.name.shown.count).max() ?? 0
    for line in answer.lines {
      var text = Format.pad(line.name.shown, width) + "  "
      text += AlertsSupport.paint(Format.pad(line.status.name, 6), status: line.status, enabled: colour) + "  "
      var reasons: [String] = []
      if let lateness = line.lateness { reasons.append(lateness.summary) }
      if let first = line.reasons.first {
        let notice = first.notice
        let words = AlertsSupport.words(first.alert.alert.effectOrDefault)
        let header = (notice.header ?? notice.description ?? first.alert.id).shown.split(whereSeparator: \.isWhitespace).joined(
          separator: " ")
        reasons.append("\(words): \(shortened(header, to: 90))" + (line.reasons.count > 1 ? " (+\(line.reasons.count - 1) more)" : ""))
      } else if !answer.hasAlertsFeed {
        reasons.append("no alerts feed, so disruptions are unknown")
      } else if reasons.isEmpty {
        reasons.append("good service")
      }
      text += reasons.joined(separator: "; ")
      out.line(text)
    }
    return 0
  }

  /// `text` cut at a word boundary to about `limit` characters, with "…" when cut.
  static func shortened(_ text: String, to limit: Int) -> String {
    guard text.count > limit else { return text }
    var cut = String(text.prefix(limit))
    if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
    return cut + "…"
  }
}
