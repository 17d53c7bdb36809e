import Fetch
import FoundationEssentials
import GTFS
import GTFSRealtime
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
      trip.spec, route.spec, stop.spec, alight.spec, before.spec, once.spec, replay.spec, speed.spec, FeedsSupport.refresh.spec,
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
    let store = try StopCommandSupport.openStore(invocation)
    let target: FollowTracker.Target
    if let trip = try arguments.read(Self.trip) {
      guard arguments.positionals.isEmpty else { throw UsageError("give a VEHICLE or --trip TRIP, not both") }
      target = .trip(TripID(trip))
    } else if let route = try arguments.read(Self.route) {
      guard let stopText = try arguments.read(Self.stop) else { throw UsageError("--route goes with --stop S") }
      let place = try StopCommandSupport.resolvePlace(stopText, in: store, context: invocation.context)
      target = .routeAtStop(route: route, stops: try store.callStopIDs(of: [place]), name: place.name)
    } else {
      target = .vehicle(try invocation.argument(0))
    }
    let speed = try arguments.read(Self.speed)
    let options = try RealtimeSupport.options(invocation, settings: try invocation.settings())
    var tracker = FollowTracker(store: store, target: target, options: options)
    let alightStop = try arguments.read(Self.alight)
    let threshold = try arguments.read(Self.before)
    if alightStop == nil && arguments.isGiven(Self.before) { throw UsageError("--before goes with --alight STOP") }
    var warned = false
    let once = arguments.isSet(Self.once)
    let json = invocation.global.json
    let out = invocation.context.stdout

    // The moments to show, each with its feeds.
    var moments: [(UnixTime, () throws -> [FeedMessage])] = []
    var firstShown = 0
    if let replay = try arguments.read(Self.replay) {
      let snapshots = try SnapshotDirectory(path: invocation.absolutePath(replay)).snapshots()
      // Each snapshot holds the newest file of each kind recorded so far.
      var latest: [String: String] = [:]
      for snapshot in snapshots {
        for path in snapshot.paths { latest[kind(of: path)] = path }
        let paths = latest.values.sorted()
        moments.append((snapshot.time, { try paths.map { try RtDumpCommand.load($0, invocation: invocation) } }))
      }
      // --now: start from the snapshot at or before it; the ones before only set the scene
      // (where the vehicle was last seen, which trip it was on).
      if let start = invocation.global.now { firstShown = snapshots.lastIndex { $0.time <= start } ?? 0 }
      for moment in moments.prefix(firstShown) { _ = try? tracker.frame(feeds: try moment.1(), now: moment.0) }
    }
    // The stop to get off at is read at the first frame shown (the ones before only set the scene).
    if let alightStop { tracker.alight(at: alightStop, alarm: AlightAlarm(before: threshold)) }
    var index = firstShown
    let zone = store.timeZone(of: store.feedNames.first ?? FeedName(""))
    // The full-screen view moves the cursor: not on a dumb terminal, which gets frames instead.
    let canMoveCursor = invocation.context.stdoutIsTerminal && invocation.context.environment["TERM"] != "dumb"
    let screen = !once && !json && canMoveCursor ? Terminal.open() : nil
    defer { screen?.close() }
    screen?.allowsColour = invocation.useColor
    var previousTime: UnixTime?
    var lastFrame: FollowFrame?
    var panel: MapRenderer?
    var shapeCache: [String: [[Coordinate]]] = [:]
    let ascii = MapSupport.environmentWantsASCII(invocation.context.environment)
    while true {
      let now: UnixTime
      let feeds: [FeedMessage]
      if moments.isEmpty {
        now = invocation.now
        feeds = try FeedsSupport.realtimeFeeds(invocation)
      } else {
        guard index < moments.count else { break }
        now = moments[index].0
        feeds = try moments[index].1()
        index += 1
        if let previousTime, !once {
          let wait = Double(now - previousTime) / speed
          if let screen, let shown = lastFrame {
            if pause(screen, seconds: wait, frame: shown, panel: panel, speed: speed, zone: zone, ascii: ascii, context: invocation.context)
            {
              break
            }
          } else {
            invocation.context.sleep(wait)
          }
        }
        previousTime = now
      }
      let live = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: options, warn: !warned)
      warned = warned || !live.report.warnings.isEmpty
      let found: FollowFrame?
      do {
        found = try tracker.frame(live: live)
      } catch let error as AlightError {
        switch error {
        case .notAhead(let text, let name, let route, let headsign):
          throw NotFoundError(
            "--alight '\(text)': \(route) to \(headsign) does not call at \(name) after where it is now; give a stop still ahead")
        case .notAStop(let text): throw NotFoundError("--alight '\(text)': no stop with id, code or name '\(text)'")
        }
      }
      guard let frame = found else {
        if case .vehicle(let id) = target, tracker.lastSeen == nil { throw NotFoundError("unknown vehicle '\(id)'") }
        if case .trip(let id) = target, tracker.lastSeen == nil, try store.tripDetails(id) == nil {
          throw NotFoundError("unknown trip '\(id.rawValue)': not in the timetable, and no realtime feed adds it")
        }
        if case .routeAtStop(let route, _, let name) = target {
          throw NotFoundError("no vehicle of route \(route) is on its way to \(name)")
        }
        throw NotFoundError("the trip is not running")
      }
      lastFrame = frame
      // --once answers (stops left, expected arrival) without ringing.
      if frame.ring != nil, !once, let status = frame.alight {
        // JSON Lines stay JSON: the "alarm" member says it rang, without a BEL in the stream.
        BoardSupport.ring(invocation, message: alightText(status, now: now, zone: zone), bell: !json)
      }
      if json {
        var object = JSONTreeEncoder.encode(VehicleAnswer(frame.view, now: now, zone: zone))
        if let status = frame.alight, case .object(var members) = object {
          members.append(("alight", JSONTreeEncoder.encode(AlightAnswer(status, ring: frame.ring, now: now, zone: zone))))
          object = .object(members)
        }
        out.line(object.serialized())
      } else if let screen {
        panel = try mapPanel(frame, store: store, cache: &shapeCache, ascii: ascii)
        screen.draw(screenLines(frame, panel: panel, zone: zone, size: screen.size(), ascii: ascii))
      } else {
        out.write(
          render(frame, zone: zone, width: 80, twelveHour: StopCommandSupport.uses12HourClock(invocation)).joined(separator: "\n") + "\n")
        if !once && (index < moments.count || moments.isEmpty) { out.line() }
      }
      if once { break }
      if index == moments.count, moments.count > 1, let screen, let shown = lastFrame {
        // The replay's last frame stays up for one more of its gaps before the view ends, as
        // every earlier one did, rather than vanishing as soon as it is drawn.
        let gap = Double(moments[moments.count - 1].0 - moments[moments.count - 2].0) / speed
        if pause(screen, seconds: gap, frame: shown, panel: panel, speed: speed, zone: zone, ascii: ascii, context: invocation.context) {
          break
        }
      }
      if moments.isEmpty {
        // Live: the next fetch in step with the feed's own clock.
        let stamp = feeds.compactMap { $0.header?.timestamp }.max().map { Int64(clamping: $0) }
        let next = Fetch.PollSchedule.nextFetch(now: invocation.context.clock.now().seconds, lastHeaderTimestamp: stamp, period: nil)
        let wait = Double(next - invocation.context.clock.now().seconds)
        if let screen, let shown = lastFrame {
          if pause(screen, seconds: wait, frame: shown, panel: panel, speed: 1, zone: zone, ascii: ascii, context: invocation.context) {
            break
          }
        } else {
          invocation.context.sleep(wait)
        }
      }
    }
    return 0
  }

  /// Waits `seconds` on the full screen, redrawing `frame` each second with the clock moved
  /// on (the report's age ticks up, countdowns run down), and at once when the window is
  /// resized.
  /// - Returns: true when the user asked to quit.
  static func pause(
    _ screen: Terminal, seconds: Double, frame: FollowFrame, panel: MapRenderer?, speed: Double, zone: LocalZone, ascii: Bool,
    context: CommandContext
  ) -> Bool {
    let start = context.elapsed()
    while true {
      let left = seconds - (context.elapsed() - start)
      if left <= 0 { return false }
      if screen.wait(seconds: min(1, left), elapsed: context.elapsed) == .quit { return true }
      var moved = frame
      moved.now = frame.now + Int64(((context.elapsed() - start) * speed).rounded(.down))
      screen.draw(screenLines(moved, panel: panel, zone: zone, size: screen.size(), ascii: ascii))
    }
  }

  /// The narrowest screen that gets a map panel beside the stop list.
  static let mapPanelMinimumColumns = 110

  /// The map beside the list: the trip's shape (else a line through its stops), its stops,
  /// its first and last stops named where there is room, and the vehicle as its route number;
  /// nil when the vehicle has no position. Shapes are read once per trip.
  static func mapPanel(_ frame: FollowFrame, store: Store, cache: inout [String: [[Coordinate]]], ascii: Bool) throws -> MapRenderer? {
    let view = frame.view
    guard let coordinate = view.coordinate else { return nil }
    var renderer = MapRenderer()
    renderer.labels = [MapRenderer.Label(coordinate: coordinate, text: (view.routeShortName ?? view.routeID?.rawValue ?? "?").shown)]
    guard let trip = view.trip, let feed = view.feed else { return renderer }
    var located: [TransitModel.Stop] = []
    for call in trip.stops {
      if let stop = try store.stop(call.stopID, feed: feed), stop.coordinate != nil { located.append(stop) }
    }
    let stops = located.compactMap(\.coordinate)
    renderer.stops = stops
    renderer.names = MapRenderer.termini(of: located)
    let key = feed.rawValue + "\u{0}" + trip.instance.tripID.rawValue
    if let known = cache[key] {
      renderer.lines = known
    } else {
      var lines: [[Coordinate]] = []
      if let shapeID = try store.shapeID(ofTrip: trip.instance.tripID, feed: feed) {
        let points = try store.shape(shapeID, feed: feed).map(\.coordinate)
        if points.count >= 2 { lines = [points] }
      }
      if lines.isEmpty && stops.count >= 2 { lines = [stops] }
      cache[key] = lines
      renderer.lines = lines
    }
    return renderer
  }

  /// The full-screen frame: the text alone, or, from `mapPanelMinimumColumns` wide, the text
  /// on the left and the map on the right.
  static func screenLines(
    _ frame: FollowFrame, panel: MapRenderer?, zone: LocalZone, size: (columns: Int, rows: Int), ascii: Bool
  ) -> [String] {
    guard let panel, size.columns >= mapPanelMinimumColumns else {
      return render(frame, zone: zone, width: size.columns, twelveHour: false)
    }
    let mapColumns = min(80, size.columns * 2 / 5)
    let textColumns = size.columns - mapColumns - 3
    let text = render(frame, zone: zone, width: textColumns, twelveHour: false)
    let map = panel.render(columns: mapColumns, rows: max(6, min(size.rows, 40) - 2), ascii: ascii)
    let separator = ascii ? " | " : " │ "
    return (0..<max(text.count, map.count)).map { index in
      let left = index < text.count ? text[index] : ""
      let right = index < map.count ? map[index] : ""
      return Format.pad(left, textColumns) + separator + right
    }
  }

  /// "vehicle-positions" from ".../1796110560-vehicle-positions.pb".
  static func kind(of path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return String(name.drop { $0.isNumber }.dropFirst().dropLast(3))
  }

  /// The frame as text lines, at most `width` columns.
  static func render(_ frame: FollowFrame, zone: LocalZone, width: Int, twelveHour: Bool) -> [String] {
    let view = frame.view
    let now = frame.now
    func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }
    var lines: [String] = []
    let vehicle = (view.label ?? view.vehicleID)?.shown
    lines.append(
      "\((view.routeShortName ?? view.routeID?.rawValue)?.shown ?? (view.isAdded ? "added trip" : "?")) to \(view.headsign?.shown ?? "?")"
        + (vehicle.map { " · vehicle \($0)" } ?? "") + " · \(clock(now))")
    var state: [String] = [view.isEstimated ? "estimated from the timetable" : view.isAdded ? "live, not in the timetable" : "live"]
    if !view.isEstimated, let stamp = view.timestamp { state.append("reported \(VehiclesCommand.ageText(now - stamp)) ago") }
    if let speed = view.speedMetersPerSecond.flatMap(VehiclesCommand.speedText) {
      state.append(speed + (view.bearing.map { " " + VehiclesCommand.arrow($0) } ?? ""))
    }
    let delay = VehiclesCommand.delayText(view.delaySeconds, status: view.delayStatus)
    if !delay.isEmpty { state.append(delay) }
    let crowding = RiderMarks.crowding(view.crowding)
    if !crowding.isEmpty { state.append(crowding) }
    lines.append(state.joined(separator: " · "))
    if let status = frame.alight { lines.append(alightText(status, now: now, zone: zone, twelveHour: twelveHour)) }
    for note in frame.notes { lines.append(noteText(note, zone: zone)) }
    if let name = view.currentStopName {
      let next = view.nextStops.first { !$0.isSkipped }
      if view.isAtStop {
        lines.append("at \(name.shown)")
      } else if let next, let time = next.expected {
        lines.append("next: \(next.name.shown) · \(clock(time)) · \(StopCommandSupport.countdown(to: time, from: now))")
      } else {
        lines.append("next: \(name.shown)")
      }
    }
    lines.append("")
    var rows: [[String]] = []
    for stop in view.nextStops {
      if stop.isSkipped {
        rows.append([stop.scheduled.map(clock) ?? "", "", stop.name.shown, "skipped"])
        continue
      }
      let time = stop.expected ?? stop.scheduled
      let isAlight = frame.alight.map { $0.target.trip == view.trip?.instance && $0.target.stopSequence == stop.stopSequence } ?? false
      rows.append([
        time.map(clock) ?? "", time.map { StopCommandSupport.countdown(to: $0, from: now) } ?? "",
        isAlight ? "\(stop.name.shown)  ◀ get off" : stop.name.shown,
        VehiclesCommand.delayText(stop.delaySeconds, status: stop.delayStatus),
      ])
    }
    if !rows.isEmpty {
      lines += StopCommandSupport.table(rows, rightAligned: [1]).split(separator: "\n").map { "  " + $0 }
      lines.append("")
    }
    if let strip = strip(view, width: width) { lines.append(strip) }
    return lines.map { line in line.count > width ? String(line.prefix(width)) : line }
  }

  /// The get-off line: "get off at Tallaght Village: next stop, 07:49" (2 stops, at the stop,
  /// passed, skipped), with "(timetable: not reporting)" when the vehicle is not reporting.
  static func alightText(_ status: AlightStatus, now: UnixTime, zone: LocalZone, twelveHour: Bool = false) -> String {
    let name = status.target.name.shown
    let at = status.expectedArrival.map { ", " + StopCommandSupport.clock($0, zone: zone, twelveHour: twelveHour) } ?? ""
    let timetable = status.isFromTimetable ? " (timetable: not reporting)" : ""
    if status.isSkipped { return "get off at \(name): the vehicle will not stop there (skipped); get off before" }
    switch status.state {
    case .passed: return "get off at \(name): passed"
    case .atStop: return "get off at \(name): now, at the stop" + timetable
    case .nextStop: return "get off at \(name): next stop\(at)" + timetable
    case .ahead:
      let left = status.stopsLeft.map { $0 == 1 ? "1 stop" : "\($0) stops" } ?? "ahead"
      let countdown = status.expectedArrival.map { " (\(StopCommandSupport.countdown(to: $0, from: now)))" } ?? ""
      return "get off at \(name): \(left)\(at)\(countdown)" + timetable
    }
  }

  /// A note as a line.
  static func noteText(_ note: FollowFrame.Note, zone: LocalZone) -> String {
    switch note {
    case .continues(let route, let headsign): return "continues as route \(route.shown) to \(headsign.shown)"
    case .backInFeed: return "back in the feed"
    case .notInFeedSince(let time):
      return "not in the feed since \(StopCommandSupport.clock(time, zone: zone, twelveHour: false)); timetable estimate"
    case .noVehicle: return "no vehicle in the feed; timetable estimate"
    case .alert(let notice): return DeparturesCommand.noticeLine(effect: notice.effectName, text: notice.text)
    }
  }

  /// The line as a strip: `●` the vehicle, `○` stops ahead, `·` stops passed, `×` skipped.
  static func strip(_ view: VehicleView, width: Int) -> String? {
    guard let trip = view.trip, let current = view.currentStopSequence,
      let index = trip.stops.firstIndex(where: { $0.stopSequence == current })
    else { return nil }
    let skipped = Set(view.nextStops.filter(\.isSkipped).map(\.stopID))
    let count = trip.stops.count
    let gap = max(1, min(3, (width - 2) / max(1, count) - 1))
    var text = ""
    for (position, stop) in trip.stops.enumerated() {
      if position > 0 {
        let segment = String(repeating: "─", count: gap)
        if position == index && !view.isAtStop {
          let half = gap / 2
          text += String(repeating: "─", count: half) + "●" + String(repeating: "─", count: max(0, gap - half - 1))
        } else {
          text += segment
        }
      }
      if position == index && view.isAtStop {
        text += "●"
      } else if position < index {
        text += "·"
      } else {
        text += skipped.contains(stop.stopID) ? "×" : "○"
      }
    }
    return text.count > width ? String(text.prefix(width)) : text
  }
}
