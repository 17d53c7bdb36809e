import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
import Services
import TransitModel
import UserData

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
      FeedsSupport.refresh.spec,
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
    let language = try AlertsSupport.language(invocation, given: try arguments.read(AlertsSupport.languageOption))
    let feeds = try AlertsSupport.feeds(invocation)
    let store = try AlertsSupport.optionalStore(invocation)
    let now = invocation.now
    let all = IdentifiedAlert.alerts(in: feeds)
    let resolver = try AlertResolver(store: store, alerts: all)
    let scope: AlertScope?
    do {
      scope = try resolver.scope(
        route: try arguments.read(route), stop: try arguments.read(stop), trip: try arguments.read(trip),
        modes: try arguments.read(mode))
    } catch AlertResolver.Unknown.stop(let text) where store != nil {
      _ = try StopCommandSupport.resolvePlace(text, in: store!, context: invocation.context)  // lists candidates, exits 3
      throw NotFoundError(AlertResolver.Unknown.stop(text).message)
    }
    let showAll = arguments.isSet(includeAll) && !arguments.isSet(countOnly)
    var alerts = all.filter { item in
      (showAll || AlertMatcher.isActive(item.alert, at: now)) && (scope.map { AlertMatcher.informs(item.alert, $0) } ?? true)
    }
    alerts = AlertSeverity.sorted(alerts)

    let feedKey = AlertsSupport.seenFeedKey(store)
    let users = try UserStore(directory: invocation.paths.data)
    let seen = try users.seenAlerts(feed: feedKey)
    func wasSeen(_ item: IdentifiedAlert) -> Bool {
      seen.contains(UserStore.SeenAlertKey(alertID: item.id, contentHash: item.contentHash))
    }
    if arguments.isSet(countOnly) {
      let count = alerts.filter { !wasSeen($0) }.count
      invocation.context.stdout.line(String(count))
      return 0
    }
    if arguments.isSet(unseenOnly) { alerts.removeAll(where: wasSeen) }

    let zone = AlertsSupport.zone(store, environment: invocation.context.environment)
    let out = invocation.context.stdout
    if invocation.global.json {
      let json = JSON.array(alerts.map { AlertsSupport.json($0, language: language, zone: zone, seen: wasSeen($0)) })
      out.line(json.serialized(pretty: true))
    } else {
      render(alerts, resolver: resolver, language: language, zone: zone, now: now, wasSeen: wasSeen, invocation: invocation)
    }
    if !arguments.isSet(peekOnly) {
      try users.markAlertsSeen(
        alerts.map { UserStore.SeenAlertKey(alertID: $0.id, contentHash: $0.contentHash) }, feed: feedKey, now: now.seconds)
    }
    return 0
  }

  /// The text listing: a heading per group of alerts affecting the same things, then each
  /// alert's effect, cause, period, texts and link.
  static func render(
    _ alerts: [IdentifiedAlert], resolver: AlertResolver, language: String?, zone: LocalZone, now: UnixTime,
    wasSeen: (IdentifiedAlert) -> Bool, invocation: Invocation
  ) {
    let out = invocation.context.stdout
    let arguments = invocation.arguments
    let twelve = StopCommandSupport.uses12HourClock(invocation)
    let newCount = alerts.filter { !wasSeen($0) }.count
    let unseenOnly = arguments.isSet(unseenOnly)
    let filtered = arguments.isGiven(route) || arguments.isGiven(stop) || arguments.isGiven(trip) || arguments.isGiven(mode)
    let scopeWords = filtered ? " matching" : ""
    guard !alerts.isEmpty else {
      out.line(
        unseenOnly
          ? "no new\(scopeWords) alerts" : arguments.isSet(includeAll) ? "no\(scopeWords) alerts" : "no\(scopeWords) alerts in force")
      return
    }
    let noun = alerts.count == 1 ? "alert" : "alerts"
    let kind = arguments.isSet(includeAll) ? "" : " in force"
    let fresh =
      unseenOnly || newCount == 0 ? "" : newCount == alerts.count ? (alerts.count == 1 ? ", new" : ", all new") : ", \(newCount) new"
    out.line("\(alerts.count)\(scopeWords) \(unseenOnly ? "new " : "")\(noun)\(kind)\(fresh)")
    // Groups keep the order of their most severe alert.
    var order: [String] = []
    var groups: [String: [IdentifiedAlert]] = [:]
    for item in alerts {
      let label = resolver.label(item.alert)
      if groups[label] == nil { order.append(label) }
      groups[label, default: []].append(item)
    }
    let colour = invocation.useColor
    for label in order {
      out.line()
      out.line(label)
      for (index, item) in (groups[label] ?? []).enumerated() {
        if index > 0 { out.line() }
        let alert = item.alert
        let status = RouteStatus(effect: alert.effect)
        var facts = [AlertsSupport.paint(AlertsSupport.words(alert.effectOrDefault), status: status, enabled: colour)]
        if let cause = alert.cause, cause != .unknownCause { facts.append("cause: " + AlertsSupport.words(cause)) }
        facts.append(AlertsSupport.period(alert, now: now, zone: zone, twelveHour: twelve))
        if !wasSeen(item) && !unseenOnly { facts.append("new") }
        out.line("  " + facts.joined(separator: " · "))
        let notice = AlertMatcher.notice(item, language: language)
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
          body = lines(notice.description ?? item.id)
          out.line("  " + body.removeFirst())
        }
        for line in body { out.line(line.isEmpty ? "" : "    " + line) }
        if let url = notice.url, !url.isEmpty { out.line("    " + url.shown) }
      }
    }
  }
}

// MARK: - Shared with `status`

/// What `alerts` and `status` share: reading the feeds, the language, the time zone, and words
/// for the proto's enums.
enum AlertsSupport {
  /// The realtime feeds: the `--realtime FILE`s, else the configured feeds' realtime URLs
  /// (through the snapshot cache, as every command reads them).
  static func feeds(_ invocation: Invocation) throws -> [FeedMessage] {
    let feeds = try FeedsSupport.realtimeFeeds(invocation)
    guard !feeds.isEmpty || !invocation.global.realtimeFiles.isEmpty else {
      throw RuntimeError("no alerts to read: give an alerts feed with --realtime FILE, or configure one with 'transit feeds add'")
    }
    // Active periods past year 9999 are open-ended (RealtimeBounds), not times to format.
    return RealtimeBounds.bounded(feeds).feeds
  }

  /// The timetables held, or nil when there are none (alerts work without them, by raw ids).
  static func optionalStore(_ invocation: Invocation) throws -> Store? {
    let store = try Store(directory: invocation.paths.data)
    guard !store.isEmpty else { return nil }
    StopCommandSupport.warnAboutExpiry(store, invocation)
    return store
  }

  /// The key `seen_alerts` files alerts under: the timetable's feed name when exactly one is
  /// held, else "realtime".
  static func seenFeedKey(_ store: Store?) -> String {
    guard let names = store?.feedNames, names.count == 1 else { return "realtime" }
    return names[0].rawValue
  }

  /// `--lang`, else the `language` setting, else the locale's language (LC_ALL, LC_MESSAGES, LANG: "fr_FR.UTF-8" is fr-FR),
  /// else nil (the untranslated text).
  static let languageOption = Option.language(
    "--lang", value: "L", help: "Texts in language L (BCP 47: en, fr, es-MX); default: the language setting, else the locale")

  /// `given` is what `--lang` said, read by the commands that declare it (alerts, status); the
  /// others (departures, plan, ...) pass nil and take the setting or the locale.
  static func language(_ invocation: Invocation, given: String?) throws -> String? {
    if let given { return given }
    if let language = try invocation.settings().language { return language }
    let environment = invocation.context.environment
    guard let locale = LocaleEnvironment.name(.messages, in: environment) else { return nil }
    let tag = String(locale.prefix { $0 != "." && $0 != "@" }).replacing("_", with: "-")
    return tag.isEmpty || tag == "C" || tag == "POSIX" ? nil : tag
  }

  /// The time zone for times shown: the first timetable's, else `TZ`, else UTC.
  static func zone(_ store: Store?, environment: [String: String]) -> LocalZone {
    if let store, let feed = store.feedNames.first { return store.timeZone(of: feed) }
    if let name = environment["TZ"], let zone = try? LocalZone(named: name) { return zone }
    return LocalZone.utc
  }

  /// "significant delays" for `SIGNIFICANT_DELAYS`; an unknown number as "effect 42".
  static func words(_ effect: Alert.Effect) -> String {
    effect.protoName.map(words) ?? "effect \(effect.rawValue)"
  }

  /// "medical emergency" for `MEDICAL_EMERGENCY`.
  static func words(_ cause: Alert.Cause) -> String {
    cause.protoName.map(words) ?? "cause \(cause.rawValue)"
  }

  static func words(_ protoName: String) -> String {
    protoName.lowercased().replacing("_", with: " ")
  }

  /// `text` in the status's colour (green, yellow, red) when colour is on.
  static func paint(_ text: String, status: RouteStatus, enabled: Bool) -> String {
    guard enabled else { return text }
    let code = status == .red ? "31" : status == .yellow ? "33" : "32"
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// When the alert applies: "until further notice", "until 10:00", "since 06:00",
  /// "from 2026-12-08 06:00 to 23:00", "ended 2026-11-30 10:00".
  static func period(_ alert: Alert, now: UnixTime, zone: LocalZone, twelveHour: Bool) -> String {
    func when(_ seconds: UInt64, after reference: UInt64? = nil) -> String {
      let time = UnixTime(Int64(clamping: seconds))
      let clock = StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour)
      let day = ISOTime.format(time, zone: zone).prefix(10)
      let today = ISOTime.format(reference.map { UnixTime(Int64(clamping: $0)) } ?? now, zone: zone).prefix(10)
      let suffix = zone.identifier == "UTC" || zone.identifier == "GMT" ? " UTC" : ""
      return (day == today ? clock : "\(day) \(clock)") + suffix
    }
    let time = UInt64(max(0, now.seconds))
    switch AlertMatcher.timing(of: alert, at: now) {
    case .active:
      guard
        let period = alert.activePeriods.first(where: { ($0.start ?? 0) <= time && ($0.end.map { time <= $0 } ?? true) })
      else { return "until further notice" }
      if let end = period.end { return "until \(when(end))" }
      if let start = period.start { return "since \(when(start))" }
      return "until further notice"
    case .upcoming(let start):
      let period = alert.activePeriods.first { $0.start == UInt64(start.seconds) }
      return "from \(when(UInt64(start.seconds)))" + (period?.end.map { " to \(when($0, after: UInt64(start.seconds)))" } ?? "")
    case .ended:
      let end = alert.activePeriods.compactMap(\.end).max()
      return end.map { "ended \(when($0))" } ?? "ended"
    }
  }

  /// DESIGN.md's `alerts --json` object.
  static func json(_ item: IdentifiedAlert, language: String?, zone: LocalZone, seen: Bool) -> JSON {
    let alert = item.alert
    let notice = AlertMatcher.notice(item, language: language)
    func time(_ seconds: UInt64?) -> JSON {
      seconds.map { .string(ISOTime.format(UnixTime(Int64(clamping: $0)), zone: zone)) } ?? .null
    }
    func enumValue(_ name: String?, _ raw: Int32) -> JSON { name.map(JSON.string) ?? .number(raw) }
    return .object([
      ("id", .string(item.id)),
      ("effect", enumValue(alert.effectOrDefault.protoName, alert.effectOrDefault.rawValue)),
      ("cause", enumValue(alert.causeOrDefault.protoName, alert.causeOrDefault.rawValue)),
      ("header", .optional(notice.header)),
      ("description", .optional(notice.description)),
      ("url", .optional(notice.url)),
      ("active_periods", .array(alert.activePeriods.map { .object([("start", time($0.start)), ("end", time($0.end))]) })),
      (
        "informed",
        .array(
          alert.informedEntities.map { selector in
            .object([
              ("agency_id", .optional(selector.agencyID)),
              ("route_id", .optional(selector.routeID ?? selector.trip?.routeID)),
              ("route_type", .optional(selector.routeType)),
              ("stop_id", .optional(selector.stopID)),
              ("trip_id", .optional(selector.trip?.tripID)),
            ])
          })
      ),
      ("seen", .bool(seen)),
    ])
  }
}
