import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
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
      reconciler: settings.reconcilerOptions,
      walking: settings.walkingModel,
      language: try AlertsSupport.language(invocation, given: given) ?? "en")
  }

  /// `feeds` matched against the timetables at `now`; the warnings (a feed matching nothing or
  /// less than half) go to stderr, once.
  static func live(
    _ invocation: Invocation, store: Store, feeds: [FeedMessage], now: UnixTime, options: ServiceOptions, warn: Bool = true
  ) throws -> LiveRealtime {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    if warn { self.warn(live.report, invocation: invocation) }
    return live
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
    let freshness = DeparturesCommand.realtimeLine(report.freshness, zone: zone, twelveHour: twelveHour)
    guard report.freshness.isUsable, let matched = matchText(report) else { return freshness }
    let repairs = report.repairs
    var lines = [freshness + " · " + matched] + repairs.prefix(repairLines).map { "note: " + $0.text }
    if repairs.count > repairLines { lines.append("note: \(repairs.count - repairLines) more (--json lists them)") }
    return lines.joined(separator: "\n")
  }

  /// One repair in JSON: kind, trip_id, service_date, and start_date or start_time as given.
  static func json(_ repair: RealtimeRepair) -> JSON {
    var members: [(String, JSON)] = [
      ("kind", .string(repair.kind)), ("trip_id", .string(repair.instance.tripID.rawValue)),
      ("service_date", .string(repair.instance.serviceDate.description)),
    ]
    switch repair {
    case .startDateOfAfterMidnightRun(_, let given): members.append(("start_date", .string(given.description)))
    case .duplicateFromStartTime(_, let start): members.append(("start_time", .string(start)))
    case .predictionIgnored: break
    }
    return .object(members)
  }

  /// `realtime.match`: trip updates and vehicles by the rule that matched them, and the
  /// unmatched trip updates by reason (rule 18).
  static func matchJSON(_ match: RealtimeMatch) -> JSON {
    func counts(_ values: [String: Int]) -> JSON { .object(values.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value)) }) }
    return .object([
      ("trip_updates", counts(match.tripUpdates)), ("unmatched_trip_updates", counts(match.unmatchedTripUpdates)),
      ("vehicles", counts(match.vehicles)),
    ])
  }

  /// DESIGN.md's `realtime` object, with what matched and the warnings.
  static func json(_ report: RealtimeReport, zone: LocalZone) -> JSON {
    let status = report.freshness.status == .expired ? "stale" : report.freshness.status.rawValue
    return .object([
      ("status", .string(status)),
      ("feed_timestamp", .optional(report.freshness.feedTimestamp.map { ISOTime.format($0, zone: zone) })),
      ("age_seconds", report.freshness.ageSeconds.map { JSON.number(Int($0)) } ?? .null),
      ("trip_updates", .object([("matched", .number(report.matchedTripUpdateCount)), ("total", .number(report.tripUpdateCount))])),
      ("vehicles", .object([("matched", .number(report.matchedVehicleCount)), ("total", .number(report.vehicleCount))])),
      ("match", matchJSON(report.match)),
      ("warnings", .array(report.warnings.map(JSON.string))),
      ("repairs", .array(report.repairs.map(json))),
    ])
  }
}

extension Settings {
  /// The walking model these settings describe: the one every command's walk times use.
  /// (Here, not in Settings.swift, which the config fuzzer compiles alone.)
  var walkingModel: WalkingModel { WalkingModel(metersPerSecond: walkingSpeed, detourFactor: detourFactor) }
}
