import FoundationEssentials
import GTFS
import GTFSRealtime
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
      PlanWatch.noBell.spec, FeedsSupport.refresh.spec,
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

  /// One end of a journey.
  typealias Endpoint = JourneyEndpoint

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
    let walkSpeed = try arguments.read(Options.walkSpeed) ?? settings.walkingSpeed
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
    let moments = isWatch ? try PlanWatch.moments(invocation) : nil
    // With --replay the plan is made at the first snapshot played (unless --now says when).
    let localFeeds = try (moments?.first?.paths ?? invocation.global.realtimeFiles).map {
      try RtDumpCommand.load($0, invocation: invocation)
    }
    let store = try StopCommandSupport.openStore(invocation)
    var from: Endpoint
    let to: Endpoint
    if onBoard == nil {
      (from, to) = try endpoints(fromText, toText, store: store, invocation: invocation)
    } else {
      // On board: FROM is the trip, placed once the realtime is read; TO read by itself.
      from = .place(Coordinate(latitude: 0, longitude: 0), name: nil)
      to =
        try fixedEndpoint(toText, role: "TO", store: store, invocation: invocation)
        ?? stopEndpoint(toText, role: "TO", store: store, invocation: invocation)
    }
    if case .stop(let a) = from, case .stop(let b) = to, a == b {
      throw UsageError("FROM and TO are the same stop '\(a.name)'")
    }
    if case .complex(let a) = from, case .complex(let b) = to, a == b {
      throw UsageError("FROM and TO are the same place '\(a.name)'")
    }
    let zoneFeed: FeedName = (onBoard == nil ? from.stops.first?.feed : nil) ?? to.stops.first?.feed ?? store.feedNames[0]
    let zone = store.timeZone(of: zoneFeed)
    let now = invocation.global.now == nil ? moments?.first?.time ?? invocation.now : invocation.now
    let isArriveBy = arguments.isGiven(Options.arriveBy)
    let requested = try arguments.queryStart(isArriveBy ? Options.arriveBy : Options.depart, on: Options.date, now: now, zone: zone)
    let walking = WalkingModel(
      metersPerSecond: walkSpeed, detourFactor: settings.detourFactor, maxTransferMeters: min(400, max(maxWalk, 0)))

    // Realtime: the configured feeds' unless --realtime FILEs are given.
    let feeds = localFeeds.isEmpty ? try FeedsSupport.realtimeFeeds(invocation) : localFeeds
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let realtime = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: options)
    if let onBoard {
      from = .onBoard(try Self.onBoard(onBoard, store: store, live: realtime, options: options))
    }
    var request = JourneyRequest(
      time: requested, isArriveBy: isArriveBy, modes: modes, walking: walking, maxWalkMeters: maxWalk,
      maxTransfers: maxTransfers, limit: limit)
    request.isAccessibleOnly = arguments.isSet(Options.accessible)
    let plan: JourneyPlanner.Plan
    do {
      plan = try JourneyPlanner.plan(
        from: from, to: to, request: request, store: store, live: realtime, ticks: { MonotonicClock.nanoseconds() })
    } catch JourneyPlanner.Failure.unreachable(let role, let point, let meters) {
      throw NotFoundError("no stop within \(Int(meters)) m of \(role) \(StopCommandSupport.describe(point)); try a larger --max-walk")
    } catch JourneyPlanner.Failure.stopVanished(let index) {
      throw RuntimeError("stop \(index) vanished from the timetable")
    }
    let network = plan.network
    if invocation.context.environment["TRANSIT_PLAN_TIMING"] == "1" {
      invocation.context.stderr.line(
        "plan: network \(network.timetable.routes.count) routes, \(network.trips.count) trips, loaded in \(Format.fixed(Double(plan.loadNanoseconds) / 1e6, decimals: 1)) ms; search \(Format.fixed(Double(plan.searchNanoseconds) / 1e6, decimals: 1)) ms"
      )
    }
    var described = plan.journeys
    if arguments.isGiven(PlanWatch.pick) || isWatch {
      guard pick <= described.count else {
        throw NotFoundError(
          "--pick \(pick): \(described.isEmpty ? "no journey was found" : "only \(described.count) journey\(described.count == 1 ? " was" : "s were") found")\(described.count < limit ? "" : "; raise --limit")"
        )
      }
      described = [described[pick - 1]]
    }
    let session = TransitSession(store: store, options: options)
    if isWatch {
      let title = PlanOutput.title(from: from, to: to, arrow: invocation.useColor ? "→" : "->")
      let context = PlanWatch.Context(
        invocation: invocation, session: session, journey: described[0], destination: to, request: request, zone: zone,
        twelveHour: StopCommandSupport.uses12HourClock(invocation, settings: settings), title: title)
      return try PlanWatch.run(context, moments: moments)
    }
    var context = PlanOutput(
      invocation: invocation, store: store, zone: zone, now: now, requested: requested, isArriveBy: isArriveBy,
      from: from, to: to, journeys: described, report: feeds.isEmpty ? nil : realtime.report,
      twelveHour: StopCommandSupport.uses12HourClock(invocation, settings: settings))
    context.guarded = try described.map { try session.guardedJourney($0, live: realtime) }
    if arguments.isSet(Options.geojson) {
      invocation.context.stdout.line(try context.geoJSON().serialized(pretty: true))
    } else if invocation.global.json {
      invocation.context.stdout.line(try context.json().serialized(pretty: true))
    } else {
      try context.text()
    }
    return 0
  }

  // MARK: - Endpoints

  /// The trip the rider is on (`--from-trip`, `--on`) as the journey's start
  /// (`TransitSession.onBoard`); exit 3 when it is not running or has no stop ahead.
  static func onBoard(_ target: FollowTracker.Target, store: Store, live: LiveRealtime, options: ServiceOptions) throws -> OnBoard {
    let named: String
    switch target {
    case .vehicle(let id): named = "vehicle '\(id)'"
    case .trip(let id): named = "trip '\(id.rawValue)'"
    case .routeAtStop(let route, _, _): named = "route \(route)"
    }
    do {
      return try TransitSession(store: store, options: options).onBoard(target, live: live)
    } catch let failure as OnBoardFailure {
      let option = "--\(target.isVehicle ? "on" : "from-trip")"
      switch failure {
      case .notRunning: throw NotFoundError("\(option): \(named) is not in the realtime feed or the timetable now")
      case .noStopAhead: throw NotFoundError("\(option): \(named) has no stop ahead (its trip has ended)")
      }
    }
  }

  /// FROM and TO read together: each a position, a saved place, else a stop, station or
  /// complex; a name fitting several places is narrowed by the other end (TO to those a trip
  /// from FROM reaches, else FROM to those reaching TO: `Store.resolveStop(_:reachableFrom:)`).
  static func endpoints(_ fromText: String, _ toText: String, store: Store, invocation: Invocation) throws -> (Endpoint, Endpoint) {
    let fromFixed = try fixedEndpoint(fromText, role: "FROM", store: store, invocation: invocation)
    let toFixed = try fixedEndpoint(toText, role: "TO", store: store, invocation: invocation)
    switch (fromFixed, toFixed) {
    case (let from?, let to?):
      return (from, to)
    case (let from?, nil):
      return (from, try stopEndpoint(toText, role: "TO", origin: from.stops, originName: fromText, store: store, invocation: invocation))
    case (nil, let to?):
      return (
        try stopEndpoint(fromText, role: "FROM", destination: to.stops, destinationName: toText, store: store, invocation: invocation),
        to
      )
    case (nil, nil):
      // FROM by itself when it can be (then TO read from it), else TO by itself first.
      if case .ambiguous = try store.resolveStop(fromText.trimmingSpaces()),
        case let toResult = try store.resolveStop(toText.trimmingSpaces()), !isAmbiguous(toResult)
      {
        let to = try stopEndpoint(toText, role: "TO", store: store, invocation: invocation)
        return (
          try stopEndpoint(fromText, role: "FROM", destination: to.stops, destinationName: toText, store: store, invocation: invocation),
          to
        )
      }
      let from = try stopEndpoint(fromText, role: "FROM", store: store, invocation: invocation)
      return (from, try stopEndpoint(toText, role: "TO", origin: from.stops, originName: fromText, store: store, invocation: invocation))
    }
  }

  static func isAmbiguous(_ resolution: StopResolution) -> Bool {
    if case .ambiguous = resolution { return true }
    return false
  }

  /// A position or a saved place; nil when `text` is neither (a stop, then).
  static func fixedEndpoint(_ text: String, role: String, store: Store, invocation: Invocation) throws -> Endpoint? {
    let trimmed = text.trimmingSpaces()
    // Two numbers with a comma are a position (stop ids and codes may be plain numbers, and
    // names may hold commas).
    let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
    if parts.count == 2, parts.allSatisfy({ Double($0.trimmingSpaces()) != nil }) {
      return .place(try ValueParser.coordinate(trimmed, option: role), name: nil)
    }
    if let place = try StopCommandSupport.savedPlace(named: trimmed, invocation: invocation) {
      return .place(place, name: trimmed.lowercased())
    }
    return nil
  }

  /// FROM or TO as a stop, station or complex, narrowed by the other end when given (`origin`:
  /// the journey's start, for TO; `destination`: its end, for FROM); a one-line error (exit 3)
  /// when none fits.
  static func stopEndpoint(
    _ text: String, role: String, origin: [TransitModel.Stop] = [], originName: String? = nil,
    destination: [TransitModel.Stop] = [], destinationName: String? = nil, store: Store, invocation: Invocation
  ) throws -> Endpoint {
    let trimmed = text.trimmingSpaces()
    if case .notFound(let suggestions) = try store.resolveStop(trimmed) {
      // Offered as typed back it resolves: the name when it is one stop's, else its code or id
      // (the name beside it).
      let hint =
        try suggestions.first.map { stop in
          let typed = try store.typedName(of: stop)
          return "; did you mean '\(typed)'\(typed == stop.name ? "" : " (\(stop.name))")?"
        } ?? ""
      throw NotFoundError("\(role) '\(text)' is not a stop (id, code or name), a saved place or LAT,LON\(hint)")
    }
    if !destination.isEmpty {
      return Endpoint(
        try StopCommandSupport.resolvePlace(
          trimmed, in: store, context: invocation.context, reaching: destination, destinationName: destinationName))
    }
    return Endpoint(
      try StopCommandSupport.resolvePlace(
        trimmed, in: store, context: invocation.context, reachableFrom: origin, originName: originName))
  }

  // MARK: - Describing journeys

  typealias PlannedLeg = JourneyPlanner.Leg
  typealias WalkEnd = JourneyPlanner.WalkEnd
  typealias PlannedJourney = JourneyPlanner.Journey
}
