import FoundationEssentials
import Services
import TransitModel

/// `transit rt check FILE|URL... [--feed NAME]`: what a realtime feed matched in the timetables
/// held, how, and why the rest did not (DESIGN.md rule 18), with the consumer-side rules of the
/// public GTFS-Realtime validator by their ids. Exits 1 when an error rule fired.
public enum RtCheckCommand: TransitCommand {
  static let feed = Option.text("--feed", value: "NAME", help: "Check against the timetable NAME only", complete: .dynamic(.feeds))

  public static let path = ["rt", "check"]
  public static let spec = CommandSpec(
    path: path,
    summary: "Check a GTFS-Realtime feed against the timetables: matches and validator rules",
    arguments: [
      ArgumentSpec(
        "FILE|URL", help: "A .pb capture (gzip-compressed is fine) or an http(s) URL; several are checked as consecutive fetches",
        variadic: true)
    ],
    options: [feed.spec, RealtimeOptions.refresh.spec],
    discussion: """
      Counts every trip update and vehicle as matched by trip_id, by descriptor (route_id,
      direction_id, start_time, start_date), by a producer's convention (NYCT's trip names), or
      built from the update (a trip the timetable lacks), and the others as unmatched with their
      reason (unknown trip, unknown route, not running on start_date, no stop known, duplicate,
      ambiguous, expired), with examples. Matching is judged at the feed's own header time, so a
      recorded capture is checked as it was when fetched.

      Then runs the consumer-side rules of the GTFS-Realtime validator, by its ids: E003 unknown
      trip, E004 unknown route, E011 unknown stop, E012/E017/E018/E050 timestamps, E022 times not
      increasing, E025 departure before arrival, E026-E028 bad or out-of-area coordinates and
      bearings, E029 a vehicle over 200 m from its trip's shape, E036/E037 repeated stops, E052 duplicate vehicle id, W004 unrealistic speed, W008
      a header older than 65 s (against --now). Each rule gives its count and first examples.

      Exits 0 when no error rule fired, 1 otherwise. With --json: {trip_updates: {total, matched,
      by_rule, unmatched}, vehicles: {total, matched, by_rule}, examples, rules: [{id, severity,
      title, count, examples}], errors: bool}.
      """,
    examples: [
      "transit rt check Data/realtime/demo-tripupdates.pb",
      "transit rt check nyct-subway.pb --feed nyct --json",
    ])

  public static func run(_ invocation: Invocation) throws -> Int32 {
    let sources = invocation.arguments.positionals
    guard !sources.isEmpty else {
      _ = try invocation.argument(0)
      return 2
    }
    let feeds = try sources.map { try FeedsSupport.capture($0, invocation: invocation) }
    let session = try SessionSupport.session(invocation) { FixedRealtime([]) }
    let check: FeedCheck
    do {
      check = try session.check(feeds, against: try invocation.arguments.read(feed), now: invocation.now)
    } catch FeedCheckFailure.unknownTimetable(let name, let held) {
      throw NotFoundError("no timetable named '\(name)' (held: \(held.joined(separator: ", ")))")
    }
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(check))
    } else {
      for line in text(check) { invocation.context.stdout.line(line) }
    }
    return check.hasErrors ? 1 : 0
  }

  static func text(_ check: FeedCheck) -> [String] {
    let report = check.report
    let match = report.match
    var lines = ["trip updates: \(report.matchedTripUpdateCount) of \(report.tripUpdateCount) matched"]
    for (rule, count) in match.tripUpdates.sorted(by: { $0.key < $1.key }) { lines.append("  \(count) by \(rule)") }
    for (reason, count) in match.unmatchedTripUpdates.sorted(by: { $0.key < $1.key }) {
      let examples = match.examples[reason].map { ": " + $0.joined(separator: "; ") } ?? ""
      lines.append("  \(count) unmatched, \(reason)\(examples)")
    }
    lines.append("vehicles: \(report.matchedVehicleCount) of \(report.vehicleCount) matched")
    for (rule, count) in match.vehicles.sorted(by: { $0.key < $1.key }) { lines.append("  \(count) by \(rule)") }
    lines.append("validator rules:")
    for rule in check.rules {
      let mark = rule.count == 0 ? "ok  " : rule.isError ? "FAIL" : "warn"
      var line = "  \(mark) \(rule.id) \(rule.title)" + (rule.count > 0 ? ": \(rule.count)" : "")
      if !rule.examples.isEmpty { line += " (e.g. " + rule.examples.joined(separator: "; ") + ")" }
      lines.append(line)
    }
    return lines
  }
}
