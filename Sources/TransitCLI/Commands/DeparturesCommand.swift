import Foundation
import GTFS
import TransitModel

/// `transit departures STOP`: the next scheduled departures at a stop or station.
enum DeparturesCommand: TransitCommand {
  /// Minutes ahead looked at unless `--window` says otherwise.
  static let defaultWindowMinutes = 120
  /// Departures listed unless `--limit` says otherwise.
  static let defaultLimit = 10
  /// Walking speed for `--from` (metres per second).
  static let walkingSpeed = 1.3

  static let spec = CommandSpec(
    path: ["departures"],
    summary: "The next departures at a stop or station",
    arguments: [ArgumentSpec("STOP", help: "A stop_id (FEED:stop_id with several feeds), a stop code, or a name matching one stop")],
    options: [
      OptionSpec("--at", value: "TIME", help: "From TIME instead of now: HH:MM (the agency's clock) or ISO 8601"),
      OptionSpec("--date", value: "YYYY-MM-DD", help: "On this date (with --at, or at the current time of day)"),
      OptionSpec("--window", value: "MIN", help: "Look this many minutes ahead", default: "\(defaultWindowMinutes)"),
      OptionSpec("--limit", short: "-n", value: "N", help: "Show at most N departures", default: "\(defaultLimit)"),
      OptionSpec("--route", value: "R", help: "Only route R (short name or route_id)"),
      OptionSpec("--to", value: "DEST", help: "Only trips going to DEST (headsign or any later stop's name)"),
      OptionSpec("--from", value: "LAT,LON", help: "Say which departures you can reach walking from LAT,LON (1.3 m/s)"),
      OptionSpec("--arrivals", help: "Also list trips ending here and calls where nobody may board"),
    ],
    discussion: """
      A station lists the departures of all its platforms. Times are the timetable's (GTFS
      times count from noon minus 12 h of the service date in the agency's time zone, so a
      departure after midnight can come from the day before's timetable), shown on the
      agency's clock in 24-hour form unless TRANSIT_CLOCK=12 or a 12-hour locale (en_US, ...)
      is set. Trips that end here, or do not pick up here (pickup_type 1), are not departures;
      --arrivals lists them too.
      """,
    examples: [
      "transit departures 4500",
      "transit departures TINT --route 27 --to crumlin",
      "transit departures 'Tallaght (The Square)' --at 07:30 --date 2026-12-25",
      "transit departures TINT --json",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let arguments = invocation.arguments
    let window = try arguments.integer("--window", in: 1...10_080) ?? defaultWindowMinutes
    let limit = try arguments.integer("--limit", in: 1...10_000) ?? defaultLimit
    let from = try arguments.value("--from").map { text throws(UsageError) in try StopCommandSupport.coordinate(text, option: "--from") }
    let store = try StopCommandSupport.openStore(invocation)
    let stop = try StopCommandSupport.resolveStop(text, in: store, context: invocation.context)
    let zone = store.timeZone(of: stop.feed)
    let now = invocation.now
    let start = try startTime(invocation, zone: zone, now: now)
    let query = DepartureQuery(
      from: start, until: start + Int64(window * 60), limit: limit, includeArrivals: arguments.flag("--arrivals"),
      route: arguments.value("--route"), destination: arguments.value("--to"))
    let calls = try store.departures(at: stop, query)
    var platforms: [String: Stop] = [:]
    if stop.isStation { for platform in try store.platforms(of: stop) { platforms[platform.id.rawValue] = platform } }
    func reachable(_ call: ScheduledCall) -> Bool? {
      guard let from, let time = call.scheduledTime,
        let position = platforms[call.stopID.rawValue]?.coordinate ?? stop.coordinate
      else { return nil }
      return Double(time - now) >= from.distanceMeters(to: position) / walkingSpeed
    }

    if invocation.global.json {
      let manyFeeds = store.feedNames.count > 1
      var stopMembers: [(String, JSON)] = [
        ("stop_id", .string(stop.id.rawValue)), ("stop_code", .optional(stop.code)), ("name", .string(stop.name)),
      ]
      if manyFeeds { stopMembers.insert(("feed", .string(stop.feed.rawValue)), at: 0) }
      let json = JSON.object([
        ("stop", .object(stopMembers)),
        ("now", .string(ISOTime.format(now, zone: zone))),
        ("realtime", .object([("status", .string("none")), ("feed_timestamp", .null), ("age_seconds", .null)])),
        ("departures", .array(calls.map { departureJSON($0, zone: zone, reachable: reachable($0)) })),
      ])
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }

    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation.context.environment)
    let code = stop.code.map { " [\($0)]" } ?? ""
    var startText = StopCommandSupport.clock(start, zone: zone, twelveHour: twelve)
    let startDay = ISOTime.format(start, zone: zone).prefix(10)
    if startDay != ISOTime.format(now, zone: zone).prefix(10) { startText = "\(startDay) \(startText)" }
    out.line("\(stop.name)\(code) · \(stop.isStation ? "station, " : "")departures from \(startText)")
    guard !calls.isEmpty else {
      out.line("no departures in the \(window) min from \(startText)\(query.route.map { " on route \($0)" } ?? "")\(query.destination.map { " to \($0)" } ?? ""); try a wider --window")
      return 0
    }
    let colour = invocation.useColor
    let rows = calls.map { call -> [String] in
      let time = call.scheduledTime ?? now
      var row = [
        StopCommandSupport.coloured(call.routeShortName, mode: TransitMode(routeType: call.routeType), enabled: colour),
        call.headsign + (call.isLastStop ? " (arrives, terminates)" : call.pickupType == 1 ? " (no boarding)" : ""),
      ]
      if stop.isStation {
        let platform = platforms[call.stopID.rawValue]
        row.append(platform?.platformCode.map { "platform \($0)" } ?? call.stopID.rawValue)
      }
      var when = "\(StopCommandSupport.clock(time, zone: zone, twelveHour: twelve)) · \(StopCommandSupport.countdown(to: time, from: now))"
      if let reachable = reachable(call) { when += reachable ? "" : "  (too far to walk)" }
      row.append(when)
      return row
    }
    if colour {
      // ANSI codes have no width: pad the route column by its visible text.
      let width = calls.map(\.routeShortName.count).max() ?? 0
      let padded = zip(rows, calls).map { row, call in
        [row[0] + String(repeating: " ", count: width - call.routeShortName.count)] + Array(row.dropFirst())
      }
      out.write(StopCommandSupport.table(padded))
    } else {
      out.write(StopCommandSupport.table(rows))
    }
    return 0
  }

  /// One departure in DESIGN.md's `departures --json` shape (schedule only, until Merge).
  static func departureJSON(_ call: ScheduledCall, zone: TimeZone, reachable: Bool?) -> JSON {
    .object([
      ("trip_id", .string(call.tripID.rawValue)), ("route_id", .string(call.routeID.rawValue)),
      ("route_short_name", .string(call.routeShortName)), ("headsign", .string(call.headsign)),
      ("stop_id", .string(call.stopID.rawValue)), ("stop_sequence", .number(call.stopSequence)),
      ("service_date", .string(call.serviceDate.description)),
      ("scheduled", .optional(call.scheduledTime.map { ISOTime.format($0, zone: zone) })),
      ("expected", .null), ("delay_seconds", .null), ("status", .string("scheduled")),
      ("source", .string("schedule")), ("vehicle_id", .null),
      ("reachable", reachable.map(JSON.bool) ?? .null),
    ])
  }

  /// The window's start: `--at` (HH:MM on the agency's clock, or ISO 8601) on `--date`, else now.
  static func startTime(_ invocation: Invocation, zone: TimeZone, now: UnixTime) throws(UsageError) -> UnixTime {
    let arguments = invocation.arguments
    var date: ServiceDate?
    if let text = arguments.value("--date") {
      guard text.count == 10, let parsed = ServiceDate(gtfs: text.replacingOccurrences(of: "-", with: "")) else {
        throw UsageError("--date '\(text)' is not a date YYYY-MM-DD")
      }
      date = parsed
    }
    let today = ISOTime.format(now, zone: zone)  // yyyy-mm-ddThh:mm:ss±hh:mm
    let day = date.map { d in
      "\(d.year)-\(d.month < 10 ? "0" : "")\(d.month)-\(d.day < 10 ? "0" : "")\(d.day)"
    } ?? String(today.prefix(10))
    guard let at = arguments.value("--at") else {
      guard date != nil else { return now }
      return ISOTime.parse(day + "T" + today.dropFirst(11).prefix(8), zone: zone) ?? now
    }
    if at.count <= 5, at.contains(":") {
      let parts = at.split(separator: ":")
      guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute),
        parts[1].count == 2
      else { throw UsageError("--at '\(at)' is not a time HH:MM or ISO 8601") }
      let time = "\(hour < 10 ? "0" : "")\(hour):\(parts[1])"
      guard let start = ISOTime.parse(day + "T" + time, zone: zone) else { throw UsageError("--at '\(at)' is not a time HH:MM or ISO 8601") }
      return start
    }
    guard date == nil else { throw UsageError("--date goes with --at HH:MM, not with a full ISO time") }
    guard let start = ISOTime.parse(at, zone: zone) else { throw UsageError("--at '\(at)' is not a time HH:MM or ISO 8601") }
    return start
  }
}
