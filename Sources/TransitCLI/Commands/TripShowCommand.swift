import FoundationEssentials
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
    options: [route.spec, stop.spec, at.spec, date.spec, RealtimeOptions.refresh.spec],
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
    let session = try SessionSupport.session(invocation, settings: settings)
    let now = invocation.now
    let date = try arguments.read(Self.date)
    let reference: TripReference
    if let text {
      reference = .text(text)
    } else {
      let place = try StopCommandSupport.resolvePlace(stopText!, session: session, context: invocation.context)
      let start = try arguments.queryStart(at, on: Self.date, now: now, zone: session.zone(of: place.parts[0].feed))
      reference = .departure(route: routeText!, place: place, time: start)
    }
    let answer: TripAnswer
    do {
      answer = try session.trip(reference, date: date, now: now)
    } catch let failure as TripAnswer.Failure {
      FeedsSupport.report(failure.realtimeProblems, invocation: invocation)
      RealtimeSupport.warn(failure.report, invocation: invocation)
      switch failure.reason {
      case .notFound(let text): throw NotFoundError("no trip, train number or live vehicle '\(text)'")
      case .noDeparture(let route, let stop): throw NotFoundError("no departure of route \(route) at \(stop) in the 3 hours from then")
      case .notRunning(let trip, let date): throw NotFoundError("trip \(trip) does not run on \(date.dashed)")
      }
    }
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    RealtimeSupport.warn(answer.report, invocation: invocation)
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    for line in lines(for: answer, twelveHour: twelve, plain: invocation.usesPlainSymbols) { invocation.context.stdout.line(line) }
    return 0
  }

  // MARK: - Text

  /// The trip as text lines: the route and headsign, the facts, the realtime line, the
  /// vehicle, then a table of the calls and the block's next trip.
  static func lines(for answer: TripAnswer, twelveHour: Bool, plain: Bool) -> [String] {
    let (report, zone) = (answer.trip, answer.zone)
    func clock(_ time: UnixTime?) -> String { time.map { StopCommandSupport.clock($0, zone: zone, twelveHour: twelveHour) } ?? "" }
    var lines: [String] = []
    let number = report.shortName.map { " \($0)" } ?? ""
    let wheelchair = RiderMarks.wheelchair(report.access, plain: plain)
    lines.append(
      "\(report.route.shortName.shown)\(number.shown)\(report.headsign.isEmpty ? "" : " " + toward(report.headsign.shown))"
        + (wheelchair.isEmpty ? "" : "  \(wheelchair)") + (report.isCancelled ? "  CANCELLED" : ""))
    var facts = ["trip \(report.tripID.rawValue)", "service day \(report.serviceDate.dashed)", report.route.mode.rawValue]
    if let block = report.blockID { facts.append("block \(block.shown)") }
    if report.isAdded { facts.append("not in the timetable: stops and times from its trip update") }
    lines.append(facts.joined(separator: " · "))
    if answer.hasRealtime { lines += Format.lines(RealtimeSupport.line(answer.report, zone: zone, twelveHour: twelveHour)) }
    if let vehicle = report.vehicle {
      var line = "vehicle \((vehicle.label ?? vehicle.vehicleID ?? "?").shown)"
      if let stop = vehicle.currentStopName { line += (vehicle.isAtStop ? " at " : " heading to ") + stop.shown }
      if let delay = vehicle.delaySeconds { line += " · " + RideText.delay(delay, status: vehicle.delayStatus) }
      if let age = vehicle.timestamp.map({ answer.now - $0 }) { line += " · reported \(RideText.age(age)) ago" }
      let crowding = RiderMarks.crowding(report.crowding)
      if !crowding.isEmpty { line += " · " + crowding }
      lines.append(line)
    } else if report.crowding != nil {
      lines.append("crowding: " + RiderMarks.crowding(report.crowding))
    } else if report.isRealtime == false && answer.hasRealtime {
      lines.append("no live vehicle on this trip: statuses by the timetable")
    }
    lines.append("")
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
      status = (call.status == .next ? "→ " : "  ") + status
      var row = [status, clock(call.scheduled)]
      if showsRealtime {
        var delay = ""
        if let seconds = call.delaySeconds {
          delay = RideText.delay(seconds, status: call.delayStatus)
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
    lines += Format.lines(StopCommandSupport.table(rows))
    if showsRealtime && report.calls.contains(where: { $0.source == .interpolated || $0.source == .propagated }) {
      lines.append("* estimated between or after the stops the feed predicts")
    }
    if let next = report.next {
      lines.append("")
      lines.append(
        "then, same vehicle: \(next.routeShortName.shown) \(toward(next.headsign.shown)) at \(clock(next.departure)) (trip \(next.tripID.rawValue.shown))"
      )
    }
    return lines
  }

  /// "to Crumlin Hospital"; a headsign that already says "to …" as it is.
  static func toward(_ headsign: String) -> String {
    headsign.lowercased().hasPrefix("to ") ? headsign : "to " + headsign
  }
}
