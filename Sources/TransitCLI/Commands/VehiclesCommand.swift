import FoundationEssentials
import GTFS
import GTFSRealtime
import Merge
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
      FeedsSupport.refresh.spec,
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
    let arguments = invocation.arguments
    let near = try arguments.read(Self.near).map { try StopCommandSupport.location($0, invocation: invocation) }
    let route = try arguments.read(Self.route)
    let radius = try arguments.read(Self.radius)
    if arguments.isGiven(Self.radius) && near == nil { throw UsageError("--radius goes with --near LAT,LON") }
    try MapSupport.validate(invocation)
    let store = try StopCommandSupport.openStore(invocation)
    let options = try RealtimeSupport.options(invocation, settings: try invocation.settings())
    var feeds: [FeedMessage]
    var now = invocation.now
    if let replay = try arguments.read(Self.replay) {
      let state = try SnapshotDirectory(path: invocation.absolutePath(replay)).state(at: invocation.global.now)
      feeds = try state.paths.map { try RtDumpCommand.load($0, invocation: invocation) }
      if invocation.global.now == nil { now = state.time }
    } else {
      feeds = try FeedsSupport.realtimeFeeds(invocation)
    }
    let live = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: now, options: options)
    var fleet = Fleet(store: store, live: live)
    let views = try fleet.vehicles(
      includeEstimated: !arguments.isSet(liveOnly), route: route, near: near, radiusMeters: Double(radius))
    let zone = store.timeZone(of: store.feedNames.first ?? FeedName(""))
    if invocation.global.json {
      invocation.context.stdout.line(JSON.array(views.map { json($0, now: now, zone: zone) }).serialized(pretty: true))
      return 0
    }
    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation)
    let liveCount = views.filter { !$0.isEstimated }.count
    out.line(
      "\(liveCount) live vehicle\(liveCount == 1 ? "" : "s")"
        + (views.count > liveCount ? ", \(views.count - liveCount) estimated from the timetable" : "")
        + " · \(StopCommandSupport.clock(now, zone: zone, twelveHour: twelve))")
    out.line(RealtimeSupport.line(live.report, zone: zone, twelveHour: twelve))
    guard !views.isEmpty else {
      out.line("no vehicles" + (route.map { " on route \($0)" } ?? "") + (near == nil ? "" : " within \(radius) m"))
      return 0
    }
    var columns = columns(views, now: now)
    if !arguments.isSet(wide), let width = TerminalWidth.terminalColumns(invocation) { columns = fitted(columns, width: width) }
    out.write(table(columns))
    let rows = views
    if arguments.isSet(MapSupport.map) {
      try drawMap(views, route: route, near: near, store: store, invocation: invocation, reserved: rows.count + 4)
    }
    return 0
  }

  /// The vehicles as route numbers on a map; with `route`, over its shapes and stops.
  static func drawMap(
    _ views: [VehicleView], route: String?, near: Coordinate?, store: Store, invocation: Invocation, reserved: Int
  ) throws {
    var renderer = MapRenderer()
    renderer.labels = views.compactMap { view in
      view.coordinate.map { MapRenderer.Label(coordinate: $0, text: view.routeShortName ?? view.routeID?.rawValue ?? "?") }
    }
    renderer.location = near
    renderer.locationName = "you"
    renderer.clustersLabels = true
    if let route, case .found(let summary) = try store.resolveRoute(route),
      let details = try store.routeDetails(summary, on: store.localDate(of: invocation.now, feed: summary.feed))
    {
      renderer.lines = try MapSupport.routeLines(details, store: store).map(\.points)
      renderer.names = MapRenderer.termini(details)
      renderer.stops = Array(Set(details.directions.flatMap { $0.patterns.flatMap(\.stops) }).compactMap(\.coordinate))
        .sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }
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
    let heading = view.bearing.map(arrow) ?? ""
    let speed = view.speedMetersPerSecond.flatMap(speedText) ?? ""
    let age = view.timestamp.map { ageText(now - $0) } ?? ""
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
    return [route, destination, vehicle, heading, speed, age, stop, delayText(view.delaySeconds, status: view.delayStatus), marker]
  }

  /// "2 min late", "on time", "1 min early" by the delay's class, which the answer gives under
  /// the configured thresholds (the CLI classes no delay itself), or "" without a delay.
  static func delayText(_ delay: Int64?, status: DepartureStatus?) -> String {
    guard let delay, let status else { return "" }
    let minutes = DelayRounding.minutes(delay)
    switch status {
    case .late: return "\(minutes) min late"
    case .early: return "\(minutes) min early"
    default: return "on time"
    }
  }

  /// "12 s", "3 min", "2 h"; "now" for a report from the future.
  static func ageText(_ seconds: Int64) -> String {
    seconds < 0 ? "now" : FeedsSupport.ageText(seconds)
  }

  /// "43 km/h"; nil for a speed that is no number of km/h (NaN, infinite, beyond `Int`).
  static func speedText(_ metersPerSecond: Double) -> String? {
    Int(roundingFinite: metersPerSecond * 3.6).map { "\($0) km/h" }
  }

  /// The arrow nearest a compass bearing (degrees clockwise from north).
  static func arrow(_ bearing: Double) -> String {
    let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
    guard bearing.isFinite else { return "" }
    let normal = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    return Int(roundingFinite: normal / 45).map { arrows[$0 % 8] } ?? ""
  }

  /// DESIGN.md's `vehicles --json` / `follow --json` object.
  static func json(_ view: VehicleView, now: UnixTime, zone: LocalZone) -> JSON {
    .object([
      ("vehicle_id", .optional(view.vehicleID)), ("label", .optional(view.label)),
      ("trip_id", .optional(view.tripID?.rawValue)), ("route_id", .optional(view.routeID?.rawValue)),
      ("route_short_name", .optional(view.routeShortName)),
      ("lat", .optional(view.coordinate?.latitude)), ("lon", .optional(view.coordinate?.longitude)),
      ("bearing", .optional(view.bearing)), ("speed_mps", .optional(view.speedMetersPerSecond)),
      ("timestamp", .optional(view.timestamp.map { ISOTime.format($0, zone: zone) })),
      ("age_seconds", .optional(view.timestamp.map { Int(now - $0) })),
      ("current_stop_id", .optional(view.currentStopID?.rawValue)),
      ("current_stop_sequence", .optional(view.currentStopSequence)),
      ("status", .optional(view.status)),
      ("estimated", .bool(view.isEstimated)), ("added", .bool(view.isAdded)),
      ("position_source", .string(view.positionSource.rawValue)),
      ("delay_seconds", .optional(view.delaySeconds.map { Int($0) })),
      ("delay_status", .optional(view.delayStatus?.rawValue)),
      ("occupancy", RiderMarks.json(view.crowding)),
      (
        "next_stops",
        .array(
          view.nextStops.filter { !$0.isSkipped }.map { stop in
            .object([
              ("stop_id", .string(stop.stopID.rawValue)), ("name", .string(stop.name)),
              ("expected", .optional(stop.expected.map { ISOTime.format($0, zone: zone) })),
              ("delay_seconds", .optional(stop.delaySeconds.map { Int($0) })),
            ])
          })
      ),
    ])
  }
}
