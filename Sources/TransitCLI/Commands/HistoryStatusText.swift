import Services
import TransitModel

/// `transit history --status`: what the history holds, its size and its retention.
enum HistoryStatusText {
  static func run(_ invocation: Invocation) throws -> Int32 {
    if !invocation.arguments.positionals.isEmpty { throw UsageError("--status takes no STOP") }
    let settings = try invocation.settings()
    let session = try SessionSupport.session(
      invocation, settings: settings, requiresTimetables: false, realtime: { FixedRealtime([]) }, warnsAboutExpiry: false)
    let answer = try session.historyStatus(retentionDays: settings.historyRetentionDays)
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let path = answer.path
    guard let status = answer.status else {
      out.line("no history yet (\(path)); fill it with 'transit history import DIR' or 'transit record DIR --history'")
      return 0
    }
    func iso(_ t: Int64?) -> String { t.map { ISOTime.format(UnixTime($0), zone: LocalZone(identifier: "UTC", fixedOffset: 0)) } ?? "-" }
    out.line("history: \(path) (schema version \(status.schemaVersion))")
    out.line("snapshots: \(status.snapshots), from \(iso(status.firstSnapshot)) to \(iso(status.lastSnapshot))")
    out.line(
      "stop events: \(status.stopEvents) (\(status.observedActuals) observed, \(status.inferredActuals) inferred, \(status.skips) skipped, the rest still open or never resolved)"
    )
    out.line("predictions sampled: \(status.predictions); cancellations: \(status.cancellations); ghost trips: \(status.ghostTrips)")
    var size = "size: \(sizeText(status.bytes))"
    if let estimate = answer.estimatedBytes {
      size += "; at this rate, about \(sizeText(estimate)) for the \(answer.retentionDays) days kept"
    }
    out.line(size)
    out.line("retention: \(answer.retentionDays) days (the history-days setting)")
    return 0
  }

  static func sizeText(_ bytes: Int64) -> String {
    if bytes >= 1 << 30 { return Format.fixed(Double(bytes) / Double(1 << 30), decimals: 1) + " GiB" }
    if bytes >= 1 << 20 { return Format.fixed(Double(bytes) / Double(1 << 20), decimals: 1) + " MiB" }
    return "\(max(1, (bytes + 1023) / 1024)) KiB"
  }
}
