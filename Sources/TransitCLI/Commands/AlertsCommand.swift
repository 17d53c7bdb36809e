import FoundationEssentials
import Services
import TransitModel

/// `transit alerts`: the service alerts in force, grouped by what they affect, most severe
/// first; remembers which the user has seen.
enum AlertsCommand: TransitCommand {
  static let route = Option.text(
    "--route", value: "R", help: "Only alerts affecting route R (short name or route_id)", complete: .dynamic(.routes))
  static let stop = Option.text(
    "--stop", value: "S",
    help: "Only alerts affecting stop S (its station and platforms too; a complex: each of its stations) or a route calling there",
    complete: .dynamic(.favourites))
  static let trip = Option.text("--trip", value: "T", help: "Only alerts affecting trip T (or its route)")
  static let mode = Option.modes(
    "--mode", value: "M", help: "Only alerts affecting mode M: \(ValueParser.modeNames.joined(separator: ", "))", repeatable: false)
  static let includeAll = Option.flag("--all", help: "Also alerts not in force now (past and upcoming), with their periods")
  static let unseenOnly = Option.flag("--unseen", help: "Only alerts not shown before (an edited alert counts as new)")
  static let countOnly = Option.flag("--count", help: "Print only the number of unseen alerts in force (for a status bar or prompt)")
  static let peekOnly = Option.flag("--peek", help: "List without remembering the alerts as seen")

  static let path = ["alerts"]
  static let spec = CommandSpec(
    path: path,
    summary: "Service alerts in force: by route, most severe first",
    options: [
      route.spec, stop.spec, trip.spec, mode.spec, includeAll.spec, unseenOnly.spec, countOnly.spec, peekOnly.spec,
      AlertsSupport.languageOption.spec,
      RealtimeOptions.refresh.spec,
    ],
    discussion: """
      Reads alerts from --realtime FILE (repeatable), else from the configured feeds'
      realtime URLs. An alert is in force when one of its active periods holds now, or when
      it has none; --all lists the others too. Each alert shows its effect and cause in
      words, when it applies, its header and description (HTML made plain) in your language
      (--lang, else LC_ALL / LC_MESSAGES / LANG, else the untranslated text) and its link.

      Matching follows GTFS-Realtime: the fields of one informed entity must all match (AND),
      any of an alert's informed entities will do (OR). A route_type matches every route of
      that mode, a stop also its station and platforms, a trip also its route. --stop also
      shows alerts of the routes calling at the stop; --route does not show alerts of single
      stops unless they name the route. Filters combine. Without a timetable, R, S and T are
      compared with the feed's ids as given.

      Alerts listed are remembered in user.sqlite (by id and content, so an edited alert is new
      again) unless --peek is given; --unseen lists only new ones and --count prints how many
      there are. With --json: [{id, effect, cause, header, description, url, active_periods:
      [{start, end}], informed: [{agency_id, route_id, route_type, stop_id, trip_id}], seen}],
      seen meaning shown before this run.
      """,
    examples: [
      "transit alerts --realtime Data/realtime/demo-alerts.pb",
      "transit alerts --route 77X --realtime Data/realtime/demo-alerts.pb",
      "transit alerts --stop TINT --unseen --realtime Data/realtime/demo-alerts.pb",
      "transit alerts --count --realtime Data/realtime/demo-alerts.pb",
      "transit alerts --all --lang fr --json --realtime Data/realtime/demo-alerts.pb",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let arguments = invocation.arguments
    let session = try SessionSupport.session(invocation, requiresTimetables: false)
    let request = AlertsRequest(
      route: try arguments.read(route), stop: try arguments.read(stop), trip: try arguments.read(trip),
      modes: try arguments.read(mode), includeAll: arguments.isSet(includeAll), unseenOnly: arguments.isSet(unseenOnly),
      countOnly: arguments.isSet(countOnly), remember: !arguments.isSet(peekOnly),
      language: try AlertsSupport.language(invocation, given: try arguments.read(AlertsSupport.languageOption)))
    let answer = try AlertsSupport.alerts(request, session: session, invocation: invocation)
    let out = invocation.context.stdout
    if request.countOnly {
      out.line(String(answer.unseenCount))
    } else if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
    } else {
      render(answer, invocation: invocation)
    }
    return 0
  }

  /// The text listing: a heading per group of alerts affecting the same things, then each
  /// alert's effect, cause, period, texts and link.
  static func render(_ answer: AlertsAnswer, invocation: Invocation) {
    let out = invocation.context.stdout
    let request = answer.request
    let twelve = StopCommandSupport.uses12HourClock(invocation)
    let newCount = answer.unseenCount
    let count = answer.items.count
    let scopeWords = request.isFiltered ? " matching" : ""
    guard count > 0 else {
      out.line(
        request.unseenOnly
          ? "no new\(scopeWords) alerts" : request.includeAll ? "no\(scopeWords) alerts" : "no\(scopeWords) alerts in force")
      return
    }
    let noun = count == 1 ? "alert" : "alerts"
    let kind = request.includeAll ? "" : " in force"
    let fresh =
      request.unseenOnly || newCount == 0 ? "" : newCount == count ? (count == 1 ? ", new" : ", all new") : ", \(newCount) new"
    out.line("\(count)\(scopeWords) \(request.unseenOnly ? "new " : "")\(noun)\(kind)\(fresh)")
    let colour = invocation.useColor
    for (label, items) in answer.groups {
      out.line()
      out.line(label)
      for (index, item) in items.enumerated() {
        if index > 0 { out.line() }
        let alert = item.alert.alert
        var facts = [AlertsSupport.paint(AlertsSupport.words(alert.effectOrDefault), status: item.status, enabled: colour)]
        if let cause = alert.cause, cause != .unknownCause { facts.append("cause: " + AlertsSupport.words(cause)) }
        facts.append(AlertsSupport.text(item.period, now: answer.now, zone: answer.zone, twelveHour: twelve))
        if !item.wasSeen && !request.unseenOnly { facts.append("new") }
        out.line("  " + facts.joined(separator: " · "))
        let notice = item.notice
        // The header on one line; the description's lines (each `shown`) indented under it, so
        // no line break in a feed's text can pose as a line of another alert.
        func lines(_ text: String) -> [String] {
          text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { String($0).shown }
        }
        var body: [String] = []
        if let header = notice.header {
          out.line("  " + header.shown)
          if let description = notice.description, description != header { body = lines(description) }
        } else {
          body = lines(notice.description ?? item.alert.id)
          out.line("  " + body.removeFirst())
        }
        for line in body { out.line(line.isEmpty ? "" : "    " + line) }
        if let url = notice.url, !url.isEmpty { out.line("    " + url.shown) }
      }
    }
  }
}
