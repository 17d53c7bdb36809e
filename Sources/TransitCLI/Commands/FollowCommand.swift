import FoundationEssentials
import Services
import TransitModel

/// `transit follow`: one vehicle, live, in place.
enum FollowCommand: TransitCommand {
  static let trip = Option.text(
    "--trip", value: "TRIP",
    help: "Follow the vehicle on trip TRIP (the timetable's until one shows up; also a trip the realtime feed adds)")
  static let route = Option.text(
    "--route", value: "R", help: "With --stop: the next vehicle of route R to reach STOP", complete: .dynamic(.routes))
  static let stop = Option.text("--stop", value: "S", help: "With --route: the stop it is to reach", complete: .dynamic(.favourites))
  static let alight = Option.text(
    "--alight", value: "STOP",
    help: "Get off at STOP (id, code or name of a stop the trip calls at later): marked in the view, with an alarm")
  static let before = Option<AlightAlarm.Threshold?>.single(
    OptionSpec("--before", value: "N|Nmin", help: "With --alight: ring N stops (or N minutes, '3min') before STOP, then at the next stop"),
    parseThreshold
  ).defaulting(to: .stops(2), shown: "2")
  static let once = Option.flag("--once", help: "Print one frame and exit")
  static let replay = Option.text("--replay", value: "DIR", help: "Play back snapshots saved by 'transit record' by their recorded clock")
  static let speed = Option.number(
    "--speed", value: "X", help: "With --replay: play X times faster", described: "a positive number", accepts: { $0 > 0 }
  ).defaulting(to: 1)

  static let path = ["follow"]
  static let spec = CommandSpec(
    path: path,
    summary: "Follow one vehicle live: its stops ahead, delay and place on the line (--alight: a get-off alarm)",
    arguments: [
      ArgumentSpec("VEHICLE", help: "A vehicle id or label from 'transit vehicles' (named by a vehicle position or a trip update)")
    ],
    options: [
      trip.spec, route.spec, stop.spec, alight.spec, before.spec, once.spec, replay.spec, speed.spec, RealtimeOptions.refresh.spec,
    ],
    discussion: """
      Shows the route, destination, vehicle, speed, how long since it reported, its delay and
      crowding (where the feed gives occupancy), the stop it is at or heading to, every stop
      still ahead with the expected time and countdown, and a strip of the line with the
      vehicle's place; a terminal at least 110 columns wide also gets a map of the trip's line
      with its first and last stops named. When its trip ends it is followed onto the next
      trip of its block (even under another route number); when it drops out of the feed the
      timetable's estimate is shown and said, until it reappears.

      With --alight STOP, STOP is read among the stops the trip still calls at (a name shared
      with stops elsewhere means the one on this trip), marked in the list, and an alarm rings
      when it is --before stops (default 2) or minutes ('3min') away, and again when it is the
      next stop: the terminal bell, notify-send when it is on PATH and a desktop session is
      there, and a line such as "get off at Tallaght (The Square): next stop, 07:49". Each
      rings once.
      It needs no position of the rider: the trip's updates, else (said so) the timetable.
      --once prints the stops left and the expected arrival; --json adds an "alight" object.

      On a terminal the view fills the screen and refreshes in step with the feed; q or Ctrl-C
      quits. Otherwise each update is printed as a frame; --json writes one JSON object per
      update (JSON Lines). With --replay, --now starts from the snapshot at or before it.
      """,
    examples: [
      "transit follow V27-3 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime Data/realtime/demo-tripupdates.pb --once",
      "transit follow --trip 27-WK-0-0720 --now 2026-12-01T07:25:00Z --once",
      "transit follow --route 27 --stop TINT",
      "transit follow V27-1 --replay Data/replay --speed 20",
      "transit follow V27-1 --alight 'Tallaght (The Square)' --replay Data/replay --speed 60",
    ])

  /// `--before`: "2" (stops) or "3min" / "3 min" (minutes).
  static func parseThreshold(_ text: String, option: String) throws(UsageError) -> AlightAlarm.Threshold {
    let trimmed = text.trimmingSpaces().lowercased()
    let minutes = ["minutes", "minute", "mins", "min", "m"].first { trimmed.hasSuffix($0) }
    let number = minutes.map { String(trimmed.dropLast($0.count)).trimmingSpaces() } ?? trimmed
    guard let value = Int(number), value >= 1, value <= (minutes == nil ? 50 : 120) else {
      throw UsageError("\(option) '\(text)' is not a number of stops from 1 to 50 (2) or of minutes from 1 to 120 (3min)")
    }
    return minutes == nil ? .stops(value) : .seconds(Int64(value) * 60)
  }

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let arguments = invocation.arguments
    let session = try SessionSupport.session(invocation)
    let target: FollowRequest.Target
    if let trip = try arguments.read(Self.trip) {
      guard arguments.positionals.isEmpty else { throw UsageError("give a VEHICLE or --trip TRIP, not both") }
      target = .trip(TripID(trip))
    } else if let route = try arguments.read(Self.route) {
      guard let stopText = try arguments.read(Self.stop) else { throw UsageError("--route goes with --stop S") }
      target = .routeAtStop(
        route: route, place: try StopCommandSupport.resolvePlace(stopText, session: session, context: invocation.context))
    } else {
      target = .vehicle(try invocation.argument(0))
    }
    let speed = try arguments.read(Self.speed)
    let alightStop = try arguments.read(Self.alight)
    let threshold = try arguments.read(Self.before)
    if alightStop == nil && arguments.isGiven(Self.before) { throw UsageError("--before goes with --alight STOP") }
    var request = FollowRequest(target: target, alight: alightStop.map { ($0, AlightAlarm(before: threshold)) })
    if let replay = try arguments.read(Self.replay) {
      request.replay = try SnapshotFolder(path: invocation.absolutePath(replay)).replay(
        from: invocation.global.now, speed: speed, caps: try invocation.settings().realtimeCaps)
    }
    let context = invocation.context
    var run = try session.follow(request, clock: { invocation.now }, wallClock: { context.clock.now().seconds })
    let once = arguments.isSet(Self.once)
    let json = invocation.global.json
    let zone = run.zone
    var loop = WatchLoop(invocation, count: once ? 1 : nil, fullScreen: !once && !json)
    loop.separatesFrames = !json
    let ascii = MapSupport.environmentWantsASCII(context.environment)
    let twelveHour = StopCommandSupport.uses12HourClock(invocation)
    var warned = false
    return try loop.run {
      let step: FollowStep?
      do {
        step = try run.next()
      } catch let error as FollowError {
        throw NotFoundError(Self.words(error))
      }
      guard let step else { return .end }
      if !run.isReplay { FeedsSupport.report(run.problems, invocation: invocation) }
      if !warned, let report = run.report {
        RealtimeSupport.warn(report, invocation: invocation)
        warned = !report.warnings.isEmpty
      }
      let frame = step.frame
      let now = frame.now
      // --once answers (stops left, expected arrival) without ringing.
      if frame.ring != nil, !once, let status = frame.alight {
        // JSON Lines stay JSON: the "alarm" member says it rang, without a BEL in the stream.
        BoardSupport.ring(invocation, message: alightText(status, now: now, zone: zone), bell: !json)
      }
      var plain: [String] = []
      if json {
        var object = JSONTreeEncoder.encode(VehicleAnswer(frame.view, now: now, zone: zone))
        if let status = frame.alight, case .object(var members) = object {
          members.append(("alight", JSONTreeEncoder.encode(AlightAnswer(status, ring: frame.ring, now: now, zone: zone))))
          object = .object(members)
        }
        plain = [object.serialized()]
      } else if !loop.isFullScreen {
        plain = render(frame, zone: zone, width: 80, twelveHour: twelveHour)
      }
      let panel = loop.isFullScreen ? try run.map(of: frame).map { mapPanel($0, ascii: ascii) } : nil
      let pace = run.isReplay ? speed : 1
      return .update(
        WatchLoop.Update(
          plain: plain,
          screen: { size, seconds, _ in
            // The clock moves on between updates: the report's age ticks up, countdowns run down.
            var moved = frame
            moved.now = frame.now + Int64((seconds * pace).rounded(.down))
            return screenLines(moved, panel: panel, zone: zone, size: size, ascii: ascii)
          }, wait: step.wait, isLast: step.isLast))
    }
  }
}
