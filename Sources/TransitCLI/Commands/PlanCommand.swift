import FoundationEssentials
import HostSystem
import Services
import TransitModel

/// `transit plan FROM TO`: journeys from one place to another (RAPTOR, in the Routing target).
enum PlanCommand: TransitCommand {
  /// The options, declared once.
  enum Options {
    static let depart = Option.time("--depart", help: "Leave at TIME or later (default: now): HH:MM (the agency's clock) or ISO 8601")
    static let arriveBy = Option.time("--arrive-by", help: "Arrive by TIME, leaving as late as possible")
    static let date = Option.date("--date", help: "On this date (with --depart or --arrive-by HH:MM)")
    static let maxTransfers = Option.integer(
      "--max-transfers", value: "N", in: 0...8, help: "Change trips at most N times"
    ).defaulting(to: 3)
    static let walkSpeed = Option.number(
      "--walk-speed", value: "M/S", help: "Walking speed in metres per second (default: the walking-speed setting, 1.3)",
      described: "a speed between 0.3 and 3 metres per second", accepts: { (0.3...3).contains($0) })
    static let maxWalk = Option.integer(
      "--max-walk", value: "M", in: 0...10_000,
      help: "Walk at most M metres to the first stop and from the last (and at most 400 m between stops)"
    ).defaulting(to: 800)
    static let mode = Option.modes(
      "--mode", value: "MODE", help: "Only ride MODE: \(ValueParser.modeNames.joined(separator: ", ")) (comma-separated or repeated)")
    static let limit = Option.integer(
      "--limit", short: "-n", value: "N", in: 1...50, help: "Show at most N journeys"
    ).defaulting(to: 3)
    static let accessible = Option.flag(
      "--accessible",
      help:
        "Plan with wheelchair-accessible trips only (wheelchair_accessible 1), boarding and alighting at stops with wheelchair boarding (wheelchair_boarding 1, or a platform's station's); what the feed does not say counts as not accessible"
    )
    static let fromTrip = Option.text(
      "--from-trip", value: "TRIP", help: "Start on board trip TRIP (the one you are on): give only TO; get off at any stop still ahead")
    static let on = Option.text(
      "--on", value: "VEHICLE", help: "Start on board VEHICLE (an id or label from 'transit vehicles'): give only TO")
    static let geojson = Option.flag(
      "--geojson", help: "Write the journeys' geometry as GeoJSON (trip shapes between stops, walks as straight lines)")
  }

  static let path = ["plan"]
  static let spec = CommandSpec(
    path: path,
    summary:
      "Journeys from one place to another: walks, rides and transfers (--accessible: wheelchair-accessible only; --watch: each change live)",
    arguments: [
      ArgumentSpec("FROM", help: "A stop (id, code or name), a saved place (home, work) or LAT,LON", complete: .dynamic(.places)),
      ArgumentSpec("TO", help: "Where to go, in the same forms", complete: .dynamic(.places)),
    ],
    options: [
      Options.depart.spec, Options.arriveBy.spec, Options.date.spec, Options.maxTransfers.spec, Options.walkSpeed.spec,
      Options.maxWalk.spec, Options.mode.spec, Options.limit.spec, Options.accessible.spec, Options.geojson.spec,
      Options.fromTrip.spec, Options.on.spec, PlanWatch.pick.spec, PlanWatch.watch.spec, PlanWatch.replay.spec, PlanWatch.speed.spec,
      PlanWatch.count.spec,
      PlanWatch.noBell.spec, RealtimeOptions.refresh.spec,
    ],
    discussion: """
      Lists a few journeys, best first: the earliest arrival, and journeys with fewer transfers
      that arrive later (each option is the best for its number of transfers), then later
      departures. With --arrive-by, the journeys that leave latest and still arrive in time.
      Each journey shows its legs: the walk to the first stop, each ride (route, direction,
      where to board and get off, times and number of stops), transfer walks and the last walk,
      then how long until you must leave.

      Walks count 1.25 times the straight line at the walking speed ('transit config set
      walking-speed', 'detour'). Transfers walk between stops at most 400 m apart (linked at
      ingest), or as transfers.txt says (min_transfer_time; transfer_type 3 forbids one).
      FROM and TO may be a station: any of its platforms will do.

      With --realtime FILE (or the configured realtime feeds), trips with predictions use
      their expected times, cancelled trips and skipped stops are not used, and live legs are
      marked. ♿ (W in plain ASCII) after a ride's destination marks a wheelchair-accessible
      trip boarded and left at stops with wheelchair boarding. With --accessible the search
      itself rides only such trips and boards and alights only at such stops (a platform
      whose wheelchair_boarding is 0 or empty inherits its station's); what the feed does not
      say counts as not accessible, so a feed without the fields finds no journey. --json
      prints the journeys as one JSON document (rides carry the raw wheelchair values);
      --geojson prints a GeoJSON FeatureCollection (lon,lat order, RFC 7946) for any map tool.
      In --json each journey's "changes" give each transfer's live buffer_seconds and state.

      \(PlanWatch.discussion)
      """,
    examples: [
      "transit plan 'Red Cow' Fettercairn",
      "transit plan home work --arrive-by 09:00",
      "transit plan 53.2875,-6.3664 TINT --depart 07:30 --date 2026-12-01 --max-transfers 1",
      "transit plan home work --json",
      "transit plan home work --geojson > journey.geojson",
      "transit plan home work --pick 2 --watch",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    let arguments = invocation.arguments
    let fromTrip = try arguments.read(Options.fromTrip)
    let onVehicle = try arguments.read(Options.on)
    if fromTrip != nil && onVehicle != nil { throw UsageError("give --from-trip TRIP or --on VEHICLE, not both") }
    let onBoard: FollowTracker.Target? = fromTrip.map { .trip(TripID($0)) } ?? onVehicle.map { .vehicle($0) }
    try invocation.expectPositionals(atMost: onBoard == nil ? 2 : 1)
    if onBoard != nil && arguments.positionals.count != 1 { throw UsageError("with --from-trip or --on, give only TO") }
    if onBoard != nil && arguments.isGiven(Options.arriveBy) { throw UsageError("--arrive-by does not go with --from-trip or --on") }
    let fromText = onBoard == nil ? try invocation.argument(0) : ""
    let toText = try invocation.argument(onBoard == nil ? 1 : 0)
    let settings = try invocation.settings()
    let limit = try arguments.read(Options.limit)
    let maxTransfers = try arguments.read(Options.maxTransfers)
    let maxWalk = Double(try arguments.read(Options.maxWalk))
    let walkSpeed = try arguments.read(Options.walkSpeed)
    let modes = try arguments.read(Options.mode)
    if arguments.isGiven(Options.depart) && arguments.isGiven(Options.arriveBy) {
      throw UsageError("give --depart or --arrive-by, not both")
    }
    if arguments.isSet(Options.geojson) && invocation.global.json {
      throw UsageError("give --json or --geojson, not both")
    }
    try PlanWatch.validate(invocation)
    let isWatch = arguments.isSet(PlanWatch.watch)
    if isWatch && arguments.isSet(Options.geojson) { throw UsageError("--watch is live: leave out --geojson") }
    let pick = try arguments.read(PlanWatch.pick)
    let replay = isWatch ? try PlanWatch.replay(invocation) : nil
    // With --replay the plan is made at the first snapshot played (unless --now says when).
    let localFeeds = try replay?.upcoming.map { try replay!.feeds($0.paths) } ?? FeedsSupport.localFeeds(invocation)
    let session = try SessionSupport.session(
      invocation, settings: settings,
      realtime: { localFeeds.isEmpty ? try FeedsSupport.realtimeSource(invocation) : FixedRealtime(localFeeds) })
    let from: PlanRequest.Start
    let to: JourneyEndpoint
    if onBoard == nil {
      let ends = try PlanEndpoints.read(fromText, toText, session: session, invocation: invocation)
      (from, to) = (.at(ends.0), ends.1)
      if let same = ends.0.sameEnd(as: ends.1) {
        throw UsageError("FROM and TO are the same \(same.isComplex ? "place" : "stop") '\(same.name)'")
      }
    } else {
      // On board: FROM is the trip, placed once the realtime is read; TO read by itself.
      from = .onBoard(onBoard!)
      to =
        try PlanEndpoints.fixed(toText, role: "TO", invocation: invocation)
        ?? PlanEndpoints.stop(
          toText, role: "TO", session: session, invocation: invocation)
    }
    let fromEnd: JourneyEndpoint? = if case .at(let end) = from { end } else { nil }
    let zone = session.planZone(from: fromEnd, to: to)
    let now = invocation.global.now == nil ? replay?.upcoming?.time ?? invocation.now : invocation.now
    let isArriveBy = arguments.isGiven(Options.arriveBy)
    var request = PlanRequest(
      from: from, to: to,
      time: try arguments.queryStart(isArriveBy ? Options.arriveBy : Options.depart, on: Options.date, now: now, zone: zone),
      isArriveBy: isArriveBy)
    (request.modes, request.walkSpeed, request.maxWalkMeters) = (modes, walkSpeed, maxWalk)
    (request.maxTransfers, request.limit, request.isAccessibleOnly) = (maxTransfers, limit, arguments.isSet(Options.accessible))
    request.pick = arguments.isGiven(PlanWatch.pick) || isWatch ? pick : nil
    request.includesGeometry = arguments.isSet(Options.geojson)
    let answer: PlanAnswer
    do {
      answer = try session.plan(request, now: now, ticks: { MonotonicClock.nanoseconds() })
    } catch let failure as PlanAnswer.Failure {
      FeedsSupport.report(failure.realtimeProblems, invocation: invocation)
      RealtimeSupport.warn(failure.report, invocation: invocation)
      throw PlanOutput.error(failure.reason)
    }
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    RealtimeSupport.warn(answer.report, invocation: invocation)
    if invocation.context.environment["TRANSIT_PLAN_TIMING"] == "1" {
      invocation.context.stderr.line(
        "plan: network \(answer.routeCount) routes, \(answer.tripCount) trips, loaded in \(Format.fixed(Double(answer.loadNanoseconds) / 1e6, decimals: 1)) ms; search \(Format.fixed(Double(answer.searchNanoseconds) / 1e6, decimals: 1)) ms"
      )
    }
    let twelveHour = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    if isWatch {
      let title = PlanOutput.title(from: answer.from, to: answer.to, arrow: invocation.useColor ? "→" : "->")
      let context = PlanWatch.Context(invocation: invocation, session: session, answer: answer, twelveHour: twelveHour, title: title)
      return try PlanWatch.run(context, replay: replay)
    }
    if let geometry = answer.geometry {
      invocation.context.stdout.line(JSONTreeEncoder.text(geometry))
    } else if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
    } else {
      PlanOutput(invocation: invocation, answer: answer, twelveHour: twelveHour).text()
    }
    return 0
  }
}
