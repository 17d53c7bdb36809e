import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
import Services
import TransitModel

/// `transit trip show TRIP`: one trip's every call, with the realtime.
enum TripShowCommand: TransitCommand {
  static let route = Option.text(
    "--route", value: "R", help: "With --stop and --at: the trip of route R leaving STOP at (or first after) TIME",
    complete: .dynamic(.routes))
  static let stop = Option.text(
    "--stop", value: "STOP", help: "The stop the --route departure leaves from (a station: any platform; a complex: any station)",
    complete: .dynamic(.favourites))
  static let at = Option.time("--at", help: "The --route departure's time: HH:MM (the agency's clock) or ISO 8601", default: "now")
  static let date = Option.date("--date", help: "The service day (default: the run nearest now, or the one the realtime follows)")

  static let path = ["trip", "show"]
  static let spec = CommandSpec(
    path: path,
    summary: "One trip's every call: scheduled and expected times, delay, passed or ahead, vehicle, crowding",
    arguments: [
      ArgumentSpec("TRIP", help: "A trip_id, a trip_short_name (train number), or a live vehicle's id or label", optional: true)
    ],
    options: [route.spec, stop.spec, at.spec, date.spec, FeedsSupport.refresh.spec],
    discussion: """
      Lists every call of the trip: the scheduled time, the expected time and delay when the
      realtime has them (live, interpolated or carried forward, as in departures), and where
      each stands: passed, skipped, next (the stop the vehicle is at or heading to) or ahead.
      With a live vehicle its position decides; without one, the expected (else scheduled)
      times against now do. The header names the vehicle, how full it is (●○○ seats, ●●○
      few seats or standing, ●●● crowded or full; per carriage where the feed says) and ♿ when
      the trip is wheelchair accessible (wheelchair_accessible 1; W in plain ASCII); ♿ beside a
      stop is its wheelchair_boarding (a platform without a value inherits its station's). The
      last line names the trip the same vehicle runs next (block_id).

      TRIP is tried as a trip_id, then as a vehicle id or label in the realtime, then as a
      trip_short_name. Instead of TRIP, --route R --stop STOP --at TIME picks the trip of
      route R leaving STOP at TIME (or the first after it).
      """,
    examples: [
      "transit trip show 27-WK-1-0750",
      "transit trip show V27-3 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime Data/realtime/demo-tripupdates.pb",
      "transit trip show --route 27 --stop TINT --at 07:50",
      "transit trip show 27-WK-1-0750 --date 2026-12-25 --json",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let arguments = invocation.arguments
    let text = invocation.arguments.positionals.first
    let routeText = try arguments.read(route), stopText = try arguments.read(stop)
    if text == nil && (routeText == nil || stopText == nil) {
      throw UsageError("missing TRIP (or --route R --stop STOP [--at TIME])")
    }
    if text != nil && (routeText != nil || stopText != nil) {
      throw UsageError("give TRIP, or --route and --stop, not both")
    }
    if arguments.isGiven(at) && routeText == nil { throw UsageError("--at goes with --route and --stop") }
    let settings = try invocation.settings()
    let store = try StopCommandSupport.openStore(invocation)
    let now = invocation.now
    let localFeeds = try invocation.global.realtimeFiles.map { try RtDumpCommand.load($0, invocation: invocation) }
    let feeds = localFeeds.isEmpty ? try FeedsSupport.realtimeFeeds(invocation) : localFeeds
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let live = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: options)
    let date = try arguments.read(Self.date)
    let reference: TripReference
    if let text {
      reference = .text(text)
    } else {
      let place = try StopCommandSupport.resolvePlace(stopText!, in: store, context: invocation.context)
      let start = try arguments.queryStart(at, on: Self.date, now: now, zone: store.timeZone(of: place.parts[0].feed))
      reference = .departure(route: routeText!, place: place, time: start)
    }
    let report: TripReport
    do {
      report = try TripInspector.report(reference, date: date, store: store, live: live)
    } catch let failure as TripInspector.Failure {
      switch failure {
      case .notFound(let text): throw NotFoundError("no trip, train number or live vehicle '\(text)'")
      case .noDeparture(let route, let stop): throw NotFoundError("no departure of route \(route) at \(stop) in the 3 hours from then")
      case .notRunning(let trip, let date): throw NotFoundError("trip \(trip) does not run on \(date.dashed)")
      }
    }
    let zone = store.timeZone(of: report.feed)
    if invocation.global.json {
      invocation.context.stdout.line(json(report, live: live, zone: zone, manyFeeds: store.feedNames.count > 1).serialized(pretty: true))
      return 0
    }
    render(report, live: live, zone: zone, invocation: invocation, settings: settings, hasFeeds: !feeds.isEmpty)
    return 0
  }

  // MARK: - Text

  static func render(
    _ report: TripReport, live: LiveRealtime, zone: LocalZone, invocation: Invocation, settings: Settings, hasFeeds: Bool
  ) {
    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    let plain = invocation.usesPlainSymbols
    func clock(_ time: UnixTime?) -> String { time.map { StopCommandSupport.clock($0, zone: zone, twelveHour: twelve) } ?? "" }
    let number = report.shortName.map { " \($0)" } ?? ""
    let wheelchair = RiderMarks.wheelchair(report.access, plain: plain)
    out.line(
      "\(report.route.shortName.shown)\(number.shown)\(report.headsign.isEmpty ? "" : " " + toward(report.headsign.shown))"
        + (wheelchair.isEmpty ? "" : "  \(wheelchair)") + (report.isCancelled ? "  CANCELLED" : ""))
    var facts = ["trip \(report.tripID.rawValue)", "service day \(report.serviceDate.dashed)", report.route.mode.rawValue]
    if let block = report.blockID { facts.append("block \(block.shown)") }
    if report.isAdded { facts.append("not in the timetable: stops and times from its trip update") }
    out.line(facts.joined(separator: " · "))
    if hasFeeds { out.line(RealtimeSupport.line(live.report, zone: zone, twelveHour: twelve)) }
    if let vehicle = report.vehicle {
      var line = "vehicle \((vehicle.label ?? vehicle.vehicleID ?? "?").shown)"
      if let stop = vehicle.currentStopName { line += (vehicle.isAtStop ? " at " : " heading to ") + stop.shown }
      if let delay = vehicle.delaySeconds { line += " · " + VehiclesCommand.delayText(delay, status: vehicle.delayStatus) }
      if let age = vehicle.timestamp.map({ live.now - $0 }) { line += " · reported \(VehiclesCommand.ageText(age)) ago" }
      let crowding = RiderMarks.crowding(report.crowding)
      if !crowding.isEmpty { line += " · " + crowding }
      out.line(line)
    } else if report.crowding != nil {
      out.line("crowding: " + RiderMarks.crowding(report.crowding))
    } else if report.isRealtime == false && hasFeeds {
      out.line("no live vehicle on this trip: statuses by the timetable")
    }
    out.line()
    let showsRealtime = report.calls.contains { $0.expected != nil }
    var rows: [[String]] = []
    var header = ["", "sched"]
    if showsRealtime { header += ["expected", "delay"] }
    header.append("stop")
    rows.append(header)
    for call in report.calls {
      var status: String
      switch call.status {
      case .passed: status = "passed"
      case .skipped: status = "skipped"
      case .next: status = call.isVehicleHere ? "here" : "next"
      case .ahead: status = ""
      }
      if call.status == .next { status = "→ " + status } else { status = "  " + status }
      var row = [status, clock(call.scheduled)]
      if showsRealtime {
        var delay = ""
        if let seconds = call.delaySeconds {
          delay = VehiclesCommand.delayText(seconds, status: call.delayStatus)
          if call.source == .interpolated || call.source == .propagated { delay += "*" }
        }
        row += [call.status == .skipped ? "" : clock(call.expected), delay]
      }
      var stop = call.name.shown
      if let platform = call.platform { stop += " · \(platform.shown)" }
      let mark = RiderMarks.wheelchair(call.access, plain: plain)
      if !mark.isEmpty { stop += " " + mark }
      row.append(stop)
      rows.append(row)
    }
    out.write(StopCommandSupport.table(rows))
    if showsRealtime && report.calls.contains(where: { $0.source == .interpolated || $0.source == .propagated }) {
      out.line("* estimated between or after the stops the feed predicts")
    }
    if let next = report.next {
      out.line()
      out.line(
        "then, same vehicle: \(next.routeShortName.shown) \(toward(next.headsign.shown)) at \(clock(next.departure)) (trip \(next.tripID.rawValue.shown))"
      )
    }
  }

  /// "to Crumlin Hospital"; a headsign that already says "to …" as it is.
  static func toward(_ headsign: String) -> String {
    headsign.lowercased().hasPrefix("to ") ? headsign : "to " + headsign
  }

  // MARK: - JSON

  static func json(_ report: TripReport, live: LiveRealtime, zone: LocalZone, manyFeeds: Bool) -> JSON {
    func time(_ value: UnixTime?) -> JSON { .optional(value.map { ISOTime.format($0, zone: zone) }) }
    var trip: [(String, JSON)] = [
      ("trip_id", .string(report.tripID.rawValue)), ("trip_short_name", .optional(report.shortName)),
      ("route_id", .string(report.route.id.rawValue)), ("route_short_name", .string(report.route.shortName)),
      ("headsign", .string(report.headsign)), ("direction_id", .optional(report.directionID)),
      ("block_id", .optional(report.blockID)), ("service_date", .string(report.serviceDate.description)),
      ("start_time", .optional(report.startTime?.description)),
      ("wheelchair_accessible", .optional(report.wheelchairAccessible)), ("cancelled", .bool(report.isCancelled)),
      ("added", .bool(report.isAdded)),
    ]
    if manyFeeds { trip.insert(("feed", .string(report.feed.rawValue)), at: 0) }
    let vehicle: JSON =
      report.vehicle.map { view in
        .object([
          ("vehicle_id", .optional(view.vehicleID)), ("label", .optional(view.label)),
          ("lat", .optional(view.coordinate?.latitude)), ("lon", .optional(view.coordinate?.longitude)),
          ("current_stop_id", .optional(view.currentStopID?.rawValue)), ("status", .optional(view.status)),
          ("delay_seconds", .optional(view.delaySeconds.map { Int($0) })),
          ("timestamp", time(view.timestamp)),
        ])
      } ?? .null
    return .object([
      ("trip", .object(trip)),
      ("now", .string(ISOTime.format(live.now, zone: zone))),
      ("realtime", RealtimeSupport.json(live.report, zone: zone)),
      ("vehicle", vehicle),
      ("occupancy", RiderMarks.json(report.crowding)),
      (
        "calls",
        .array(
          report.calls.map { call in
            .object([
              ("stop_id", .string(call.stopID.rawValue)), ("name", .string(call.name)), ("platform", .optional(call.platform)),
              ("stop_sequence", .number(call.stopSequence)),
              ("scheduled_arrival", time(call.scheduledArrival)), ("scheduled_departure", time(call.scheduledDeparture)),
              ("expected_arrival", time(call.expectedArrival)), ("expected_departure", time(call.expectedDeparture)),
              ("delay_seconds", .optional(call.delaySeconds.map { Int($0) })), ("source", .string(call.source.rawValue)),
              ("status", .string(call.status.rawValue)), ("vehicle_here", .bool(call.isVehicleHere)),
              ("wheelchair_boarding", .optional(call.wheelchairBoarding)), ("wheelchair_access", .string(call.access.rawValue)),
            ])
          })
      ),
      (
        "next_trip",
        report.next.map { next in
          .object([
            ("trip_id", .string(next.tripID.rawValue)), ("route_short_name", .string(next.routeShortName)),
            ("headsign", .string(next.headsign)), ("departure", time(next.departure)),
          ])
        } ?? .null
      ),
    ])
  }
}
