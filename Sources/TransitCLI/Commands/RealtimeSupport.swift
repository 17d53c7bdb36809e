import FoundationEssentials
import Services
import TransitModel

/// What every command does with realtime: options from the settings, the one matching path,
/// and saying what matched (text, JSON, and a warning on stderr).
enum RealtimeSupport {
  /// The options every Services entry point takes, built once from the settings and the locale.
  /// The language is the one `alerts` uses (`given`: what --lang said in the commands that
  /// declare it; else the `language` setting, the locale), else English.
  static func options(_ invocation: Invocation, settings: Settings, language given: String? = nil) throws -> ServiceOptions {
    ServiceOptions(
      thresholds: DelayThresholds(earlySeconds: Int64(settings.earlySeconds), lateSeconds: Int64(settings.lateSeconds)),
      walking: settings.walkingModel, language: try AlertsSupport.language(invocation, given: given) ?? "en",
      transferMarginSeconds: Int64(settings.transferMarginMinutes) * 60, leaveMarginPercent: settings.leaveMarginPercent,
      learnsLeaveMargin: settings.leaveMarginLearned)
  }

  /// Writes the report's warnings to stderr.
  static func warn(_ report: RealtimeReport, invocation: Invocation) {
    for warning in report.warnings { invocation.context.stderr.line("transit: warning: realtime: \(warning)") }
  }

  /// "13 of 13 trip updates, 10 of 10 vehicles matched"; nil without trip updates or vehicles.
  static func matchText(_ report: RealtimeReport) -> String? {
    var parts: [String] = []
    if report.tripUpdateCount > 0 || report.hasTripUpdates {
      parts.append("\(report.matchedTripUpdateCount) of \(report.tripUpdateCount) trip update\(report.tripUpdateCount == 1 ? "" : "s")")
    }
    if report.vehicleCount > 0 {
      parts.append("\(report.matchedVehicleCount) of \(report.vehicleCount) vehicle\(report.vehicleCount == 1 ? "" : "s")")
    }
    guard !parts.isEmpty else { return nil }
    return parts.joined(separator: ", ") + " matched" + (report.match.summary.map { " (\($0))" } ?? "")
  }

  /// Repairs listed in text at most; the rest are counted (JSON lists them all).
  static let repairLines = 5

  /// The line under a title: how old the realtime is and what it matched; then a "note:" line
  /// per repair the matching made (`RealtimeReport.repairs`).
  static func line(_ report: RealtimeReport, zone: LocalZone, twelveHour: Bool) -> String {
    let freshness = realtimeLine(report.freshness, zone: zone, twelveHour: twelveHour)
    guard report.freshness.isUsable, let matched = matchText(report) else { return freshness }
    let repairs = report.repairs
    var lines = [freshness + " · " + matched] + repairs.prefix(repairLines).map { "note: " + $0.text }
    if repairs.count > repairLines { lines.append("note: \(repairs.count - repairLines) more (--json lists them)") }
    return lines.joined(separator: "\n")
  }

  /// The line under the title: where the realtime stands.
  static func realtimeLine(_ freshness: RealtimeFreshness, zone: LocalZone, twelveHour: Bool) -> String {
    let age = freshness.ageSeconds.map { $0 >= 0 ? "\(Format.duration(seconds: $0)) old" : "\(Format.duration(seconds: $0)) ahead of now" }
    let stamp = freshness.feedTimestamp.map { " (\(StopCommandSupport.clock($0, zone: zone, twelveHour: twelveHour)))" } ?? ""
    switch freshness.status {
    case .fresh: return "realtime: fresh, feed \(age ?? "time unknown")\(stamp)"
    case .stale: return "realtime: stale, feed \(age ?? "time unknown")\(stamp)"
    case .expired: return "realtime: not used, feed \(age ?? "time unknown")\(stamp), older than 15 min; timetable times"
    case .none: return "realtime: none; timetable times"
    case .unknown: return "realtime: unknown age (the feed gives no timestamp)"
    }
  }

  /// DESIGN.md's `realtime` object, with what matched and the warnings (`RealtimeAnswer`).
  static func json(_ report: RealtimeReport, zone: LocalZone) -> JSON {
    JSONTreeEncoder.encode(RealtimeAnswer(report, zone: zone))
  }
}

extension Settings {
  /// The walking model these settings describe: the one every command's walk times use.
  /// (Here, not in Settings.swift, which the config fuzzer compiles alone.)
  var walkingModel: WalkingModel { WalkingModel(metersPerSecond: walkingSpeed, detourFactor: detourFactor) }
}
