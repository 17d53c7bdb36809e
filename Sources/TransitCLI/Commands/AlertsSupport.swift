import FoundationEssentials
import GTFSRealtime
import Services
import TransitModel

/// What `alerts` and `status` share: reading the feeds, the language, the time zone, and words
/// for the proto's enums.
enum AlertsSupport {
  /// The session's alerts for `request` (`TransitSession.alerts`), on the clock of the first
  /// timetable, else `TZ`, else UTC; what went wrong reading the feeds is said on stderr. A
  /// stop that does not resolve to one lists its candidates (exit 3).
  static func alerts(_ request: AlertsRequest, session: TransitSession, invocation: Invocation) throws -> AlertsAnswer {
    let answer: AlertsAnswer
    do {
      answer = try session.alerts(request, now: invocation.now, zone: zone(environment: invocation.context.environment))
    } catch AlertsFailure.nothingToRead {
      throw RuntimeError("no alerts to read: give an alerts feed with --realtime FILE, or configure one with 'transit feeds add'")
    } catch AlertResolver.Unknown.stop(let text) where !session.store.isEmpty {
      _ = try StopCommandSupport.resolvePlace(text, session: session, context: invocation.context)  // lists candidates, exits 3
      throw NotFoundError(AlertResolver.Unknown.stop(text).message)
    }
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    return answer
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

  /// The clock when no timetable is held: `TZ`, else UTC.
  static func zone(environment: [String: String]) -> LocalZone {
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
  static func text(_ period: AlertPeriod, now: UnixTime, zone: LocalZone, twelveHour: Bool) -> String {
    func when(_ time: UnixTime, after reference: UnixTime? = nil) -> String {
      let clock = StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour)
      let day = zone.isoText(time).prefix(10)
      let today = zone.isoText(reference ?? now).prefix(10)
      let suffix = zone.identifier == "UTC" || zone.identifier == "GMT" ? " UTC" : ""
      return (day == today ? clock : "\(day) \(clock)") + suffix
    }
    switch period {
    case .untilFurtherNotice: return "until further notice"
    case .until(let end): return "until \(when(end))"
    case .since(let start): return "since \(when(start))"
    case .upcoming(let start, let end): return "from \(when(start))" + (end.map { " to \(when($0, after: start))" } ?? "")
    case .ended(let end): return end.map { "ended \(when($0))" } ?? "ended"
    }
  }
}
