import FoundationEssentials
import Services
import TransitModel

// How stops, clocks, countdowns, modes and stop JSON read on every command's output.
extension StopCommandSupport {
  // MARK: - Clock

  /// Whether times read "4:21 PM": `TRANSIT_CLOCK=12`, else a locale that writes 12-hour time
  /// (LC_ALL, LC_TIME or LANG of en_US, en_CA, en_AU, en_NZ, en_PH, en_IN).
  static func uses12HourClock(_ environment: [String: String]) -> Bool {
    if let setting = environment["TRANSIT_CLOCK"], !setting.isEmpty { return setting == "12" }
    let locale = LocaleEnvironment.name(.time, in: environment) ?? ""
    return ["en_US", "en_CA", "en_AU", "en_NZ", "en_PH", "en_IN"].contains { locale.hasPrefix($0) }
  }

  /// Whether times read "4:21 PM": `TRANSIT_CLOCK`, else the `clock` setting, else the locale.
  static func uses12HourClock(_ invocation: Invocation, settings: Settings? = nil) -> Bool {
    let environment = invocation.context.environment
    if let setting = environment["TRANSIT_CLOCK"], !setting.isEmpty { return setting == "12" }
    if let clock = (settings ?? (try? invocation.settings()))?.clock { return clock == 12 }
    return uses12HourClock(environment)
  }

  /// The wall-clock time of `time` in `zone`: "16:21" or "4:21 PM".
  static func clock(_ time: UnixTime, zone: LocalZone, twelveHour: Bool) -> String {
    let iso = ISOTime.format(time, zone: zone)  // 2026-11-30T16:21:00+00:00
    let hour = Int(iso.dropFirst(11).prefix(2)) ?? 0
    let minute = String(iso.dropFirst(14).prefix(2))
    if !twelveHour { return (hour < 10 ? "0" : "") + "\(hour):\(minute)" }
    let h = hour % 12 == 0 ? 12 : hour % 12
    return "\(h):\(minute) \(hour < 12 ? "AM" : "PM")"
  }

  /// "now", "5 min", "1 h 5 min", "3 days", "3 min ago" (`Format.duration(minutes:)`).
  static func countdown(to time: UnixTime, from now: UnixTime) -> String {
    let minutes = now.minutes(until: time)
    if minutes == 0 { return "now" }
    let text = Format.duration(minutes: minutes)
    return minutes < 0 ? text + " ago" : text
  }

  // MARK: - Modes and colour

  /// `text` (a route's name: `shown`) in the ANSI colour of `mode` (when colour is on).
  static func coloured(_ text: String, mode: TransitMode, enabled: Bool) -> String {
    let text = text.shown
    guard enabled else { return text }
    let code: String
    switch mode {
    case .bus, .trolleybus: code = "33"
    case .tram: code = "31"
    case .subway, .monorail: code = "34"
    case .rail: code = "35"
    case .ferry: code = "36"
    default: code = "32"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }
}
