import FoundationEssentials
import Services
import TransitModel

/// `transit vehicles`: every live vehicle, and the trips that should be running without one.
enum VehiclesCommand: TransitCommand {
  static let route = Option.text("--route", value: "R", help: "Only route R (short name or route_id)", complete: .dynamic(.routes))
  static let near = Option.place("--near", help: "Only vehicles within --radius of LAT,LON or a saved place ('home')")
  static let radius = Option.integer("--radius", value: "M", in: 1...1_000_000, help: "Metres around --near").defaulting(to: 500)
  static let liveOnly = Option.flag("--live-only", help: "Leave out trips placed by the timetable (no vehicle in the feed)")
  static let wide = Option.flag("--wide", help: "Every column at full width, however wide the terminal")
  static let replay = Option.text("--replay", value: "DIR", help: "Use the snapshot saved by 'transit record' at --now (else the last one)")

  static let path = ["vehicles"]
  static let spec = CommandSpec(
    path: path,
    summary: "Every live vehicle: route, heading, speed, age, stop, delay and crowding, fitted to the terminal (--wide)",
    options: [
      route.spec, near.spec, radius.spec, liveOnly.spec, wide.spec, replay.spec,
      RealtimeOptions.refresh.spec,
      MapSupport.map.spec,
      MapSupport.ascii.spec,
      VehiclesWatch.watch.spec, VehiclesWatch.count.spec,
    ],
    discussion: """
      With --watch, the list stays on the screen and is fetched again in step with the feed
      (q quits); --count N stops after N updates.

      With --map, a map under the list shows each vehicle as its route number (and, with
      --route, the route's shapes, stops and termini; with --near, where you are as @).
      Numbers that would overprint each other are gathered: 27×3 for three 27s together,
      27+2 for a 27 and two others.

      Lists each vehicle of the realtime feeds once (--realtime FILE, else the configured feeds):
      route and destination, a heading arrow, speed in km/h, how long ago it reported, the stop
      it is at or heading to, and its delay there. Where it is comes from its own
      current_stop_sequence or stop_id, else the first stop its trip update still lists, else
      its position against the trip's stops. A trip update without a vehicle position is a
      live vehicle too (the vehicle id it names, placed between stops by its predicted times,
      marked 'placed by its trip update'). Trips the timetable has running that no vehicle
      or trip update covers are listed too, placed between stops by their times and marked
      'estimated' (--live-only leaves them out). Delays are early or late by the 'early' and
      'late' settings, as in departures. The second line says how many trip updates and
      vehicles matched the timetable; a feed matching nothing (or less than half) is warned
      about on stderr.

      Where vehicle positions give crowding (occupancy_status, occupancy_percentage, per
      carriage), a column shows it: ●○○ seats, ●●○ few seats or standing, ●●● crowded or full,
      with the feed's word or percentage. On a terminal (or with COLUMNS set) the table fits its
      width: the marker shortens first, then the heading, speed and age columns go, crowding
      keeps only its gauge, destination and stop shorten, the vehicle column goes; --wide keeps
      all (as piped output does).
      """,
    examples: [
      "transit vehicles --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime Data/realtime/demo-tripupdates.pb",
      "transit vehicles --route 27 --near 53.2875,-6.3664 --radius 800 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb",
      "transit vehicles --json",
      "transit vehicles --route 27 --map",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    if let code = try VehiclesWatch.dispatch(invocation) { return code }
    let request = try Self.request(invocation)
    let replay = try invocation.arguments.read(Self.replay)
    let session = try SessionSupport.session(
      invocation,
      realtime: replay.map { replay in
        {
          try SnapshotFolder(path: invocation.absolutePath(replay)).realtime(
            at: invocation.global.now, caps: try invocation.settings().realtimeCaps)
        }
      })
    let now = (session.realtime as? ReplayRealtime)?.now(asked: invocation.global.now) ?? invocation.now
    let answer = try session.vehicles(request, now: now)
    report(answer, invocation: invocation)
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let width = invocation.arguments.isSet(wide) ? nil : TerminalWidth.terminalColumns(invocation)
    out.write(lines(for: answer, twelveHour: StopCommandSupport.uses12HourClock(invocation), width: width).joined(separator: "\n") + "\n")
    if invocation.arguments.isSet(MapSupport.map) && !answer.views.isEmpty {
      let route = try request.route.flatMap { try session.routeMap(route: $0, on: invocation.now) }
      drawMap(answer, route: route, invocation: invocation, reserved: answer.views.count + 4)
    }
    return 0
  }

  /// What the options ask for (`--route`, `--near` and `--radius`, `--live-only`).
  static func request(_ invocation: Invocation) throws -> VehiclesRequest {
    let arguments = invocation.arguments
    let near = try arguments.read(Self.near).map { try StopCommandSupport.location($0, invocation: invocation) }
    let route = try arguments.read(Self.route)
    let radius = try arguments.read(Self.radius)
    if arguments.isGiven(Self.radius) && near == nil { throw UsageError("--radius goes with --near LAT,LON") }
    try MapSupport.validate(invocation)
    return VehiclesRequest(route: route, near: near, radiusMeters: radius, includeEstimated: !arguments.isSet(liveOnly))
  }

  /// What went wrong reading the realtime and what matched too little, on stderr.
  static func report(_ answer: VehiclesAnswer, invocation: Invocation) {
    FeedsSupport.report(answer.realtimeProblems, invocation: invocation)
    RealtimeSupport.warn(answer.report, invocation: invocation)
  }

  /// The list as text lines: the counts and the time, the realtime line, then the table
  /// fitted to `width` columns (nil: every column at full width), or why it is empty. The
  /// plain list and each `--watch` frame.
  static func lines(for answer: VehiclesAnswer, twelveHour: Bool, width: Int?) -> [String] {
    let (views, request, zone) = (answer.views, answer.request, answer.zone)
    var lines = [
      "\(answer.liveCount) live vehicle\(answer.liveCount == 1 ? "" : "s")"
        + (answer.estimatedCount > 0 ? ", \(answer.estimatedCount) estimated from the timetable" : "")
        + " · \(StopCommandSupport.clock(answer.now, zone: zone, twelveHour: twelveHour))"
    ]
    lines += Format.lines(RealtimeSupport.line(answer.report, zone: zone, twelveHour: twelveHour))
    guard !views.isEmpty else {
      let place = request.near == nil ? "" : " within \(request.radiusMeters) m"
      return lines + ["no vehicles" + (request.route.map { " on route \($0)" } ?? "") + place]
    }
    var columns = columns(views, now: answer.now)
    if let width { columns = fitted(columns, width: width) }
    return lines + Format.lines(table(columns))
  }

  /// The vehicles as route numbers on a map; with `route`, over its shapes and stops.
  static func drawMap(_ answer: VehiclesAnswer, route: RouteMap?, invocation: Invocation, reserved: Int) {
    var renderer = MapRenderer()
    renderer.labels = answer.views.compactMap { view in
      view.coordinate.map { MapRenderer.Label(coordinate: $0, text: view.routeShortName ?? view.routeID?.rawValue ?? "?") }
    }
    let near = answer.request.near
    renderer.location = near
    renderer.locationName = "you"
    renderer.clustersLabels = true
    if let route {
      renderer.lines = route.lines.map(\.points)
      renderer.names = MapRenderer.termini(route.termini)
      renderer.stops = route.stops
    }
    let ascii = MapSupport.isASCII(invocation)
    let size = MapSupport.size(invocation, reserved: reserved)
    let out = invocation.context.stdout
    out.line()
    out.write(MapSupport.trimmed(renderer.render(columns: size.columns, rows: size.rows - 1, ascii: ascii)))
    let separator = MapSupport.separator(ascii: ascii)
    out.line(
      "vehicles by route number" + (renderer.stops.isEmpty ? "" : separator + "\(MapRenderer.stopMark(ascii: ascii)) stops")
        + (near == nil ? "" : separator + "@ you"))
  }

  /// One text row: route, destination, vehicle, heading, speed, age, stop, delay, marker.
  static func row(_ view: VehicleView, now: UnixTime) -> [String] {
    let route = (view.routeShortName ?? view.routeID?.rawValue ?? "?").shown
    let destination = view.headsign?.shown ?? (view.tripID.map { "trip \($0.rawValue.shown)" } ?? "(no trip)")
    let vehicle = view.isEstimated ? "-" : (view.label ?? view.vehicleID ?? "-").shown
    let heading = view.bearing.map(RideText.arrow) ?? ""
    let speed = view.speedMetersPerSecond.flatMap(RideText.speed) ?? ""
    let age = view.timestamp.map { RideText.age(now - $0) } ?? ""
    let stop = view.currentStopName.map { (view.isAtStop ? "at " : "next ") + $0.shown } ?? ""
    let marker: String
    if view.isEstimated {
      marker = "estimated"
    } else {
      let placed = view.positionSource == .tripUpdate ? ", placed by its trip update" : ""
      marker =
        view.isAdded
        ? "live, not in timetable" + placed : !view.isMatched && view.tripID != nil ? "live, unknown trip" : "live" + placed
    }
    return [route, destination, vehicle, heading, speed, age, stop, RideText.delay(view.delaySeconds, status: view.delayStatus), marker]
  }

}
