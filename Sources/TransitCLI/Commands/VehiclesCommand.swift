import Foundation
import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// One vehicle as `vehicles` and `follow` show it: live from the feed, or estimated from the
/// timetable (DESIGN.md rules 8–10).
struct VehicleView {
  /// A stop still ahead, with what is expected there.
  struct NextStop {
    var stopID: StopID
    var name: String
    var scheduled: UnixTime?
    var expected: UnixTime?
    var delaySeconds: Int64?
    var isSkipped: Bool
  }

  var vehicleID: String?
  var label: String?
  var feed: FeedName?
  var tripID: TripID?
  var serviceDate: ServiceDate?
  var routeID: RouteID?
  var routeShortName: String?
  var routeType: Int?
  var headsign: String?
  var blockID: String?
  var coordinate: Coordinate?
  var bearing: Double?
  var speedMetersPerSecond: Double?
  var timestamp: UnixTime?
  var currentStopID: StopID?
  var currentStopName: String?
  var currentStopSequence: Int?
  var isAtStop = false
  var isEstimated = false
  var delaySeconds: Int64?
  var nextStops: [NextStop] = []
  /// The trip as the timetable has it, when matched.
  var trip: ScheduledTrip?

  /// `STOPPED_AT`, `IN_TRANSIT_TO`, or nil when no stop is known.
  var status: String? { currentStopID == nil ? nil : isAtStop ? "STOPPED_AT" : "IN_TRANSIT_TO" }

  /// Whether it was matched to a trip of the timetable.
  var isMatched: Bool { trip != nil }
}

/// Builds `VehicleView`s from realtime feeds and the timetable; the queries are in GTFS, the
/// rules in Merge.
struct FleetBuilder {
  let store: Store
  let feeds: [FeedMessage]
  let now: UnixTime
  private var stopCache: [String: TransitModel.Stop?] = [:]
  private var shapeCache: [String: ShapePath?] = [:]

  init(store: Store, feeds: [FeedMessage], now: UnixTime) {
    self.store = store
    self.feeds = feeds
    self.now = now
  }

  /// The stop `id` of `feed`, cached.
  mutating func stop(_ id: StopID, feed: FeedName) -> TransitModel.Stop? {
    let key = feed.rawValue + "\u{1}" + id.rawValue
    if let known = stopCache[key] { return known }
    let found: TransitModel.Stop? = (try? store.stop(id, feed: feed)) ?? nil
    stopCache[key] = .some(found)
    return found
  }

  /// The shape trip `tripID` follows, measured; cached by shape, since a route's trips share a
  /// few.
  mutating func shape(ofTrip tripID: TripID, feed: FeedName) throws -> ShapePath? {
    guard let shapeID = try store.shapeID(ofTrip: tripID, feed: feed) else { return nil }
    let key = feed.rawValue + "\u{1}" + shapeID
    if let known = shapeCache[key] { return known }
    let path = ShapePath(try store.shape(shapeID, feed: feed))
    shapeCache[key] = .some(path)
    return path
  }

  /// The scheduled instance of `tripID` a vehicle runs: on `startDate` when given, else the
  /// service date (today or a day before) whose run is nearest `now`.
  func instance(of tripID: TripID, feed: FeedName, startDate: String?) throws -> ScheduledTrip? {
    let today = store.localDate(of: now, feed: feed)
    let dates = startDate.flatMap { ServiceDate(gtfs: $0) }.map { [$0] } ?? [today.adding(days: -1), today, today.adding(days: 1)]
    var best: (distance: Int64, trip: ScheduledTrip)?
    for date in dates where try store.tripRuns(tripID, feed: feed, on: date) {
      let stops = try store.tripCalls(tripID, feed: feed, serviceDate: date)
      let times = stops.compactMap { $0.departure ?? $0.arrival }
      guard let first = times.min(), let last = times.max() else { continue }
      let distance = now < first ? first - now : now > last ? now - last : 0
      let trip = ScheduledTrip(
        instance: TripInstance(tripID: tripID, serviceDate: date), routeID: RouteID(""), stops: stops,
        serviceDayStart: store.serviceDayStart(date, feed: feed))
      if best == nil || distance < best!.distance { best = (distance, trip) }
    }
    return best?.trip
  }

  /// Every vehicle in the feeds (each once, by vehicle id, else entity id), then every trip
  /// the timetable has running that no vehicle or trip update covers, as estimated.
  mutating func fleet(includeEstimated: Bool) throws -> [VehicleView] {
    var positions: [(VehiclePosition, String)] = []
    var seen = Set<String>()
    var updates: [String: TripUpdate] = [:]
    for feed in feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        if let update = entity.tripUpdate, let tripID = update.trip?.tripID { updates[tripID] = updates[tripID] ?? update }
        guard let vehicle = entity.vehicle else { continue }
        let key = vehicle.vehicle?.id ?? vehicle.vehicle?.label ?? entity.id ?? "\(positions.count)"
        guard seen.insert(key).inserted else { continue }
        positions.append((vehicle, key))
      }
    }
    // Trips first, so one Merge pass predicts them all.
    var trips: [ScheduledTrip] = []
    var tripOf: [String: (ScheduledTrip, TripDetails)] = [:]
    for (vehicle, key) in positions {
      guard let rawID = vehicle.trip?.tripID, !rawID.isEmpty, let details = try store.tripDetails(TripID(rawID)),
        var trip = try instance(of: TripID(rawID), feed: details.feed, startDate: vehicle.trip?.startDate)
      else { continue }
      trip.routeID = details.route.id
      trips.append(trip)
      tripOf[key] = (trip, details)
    }
    // Trips the timetable has running without a vehicle: placed by the timetable, or by their
    // trip update's predictions when there is one.
    var untracked: [(ScheduledTrip, TripDetails)] = []
    if includeEstimated {
      let tracked = Set(tripOf.values.map { $0.0.instance.tripID })
      for running in try store.runningTrips(at: now) where !tracked.contains(running.tripID) {
        guard let details = try store.tripDetails(running.tripID, feed: running.feed) else { continue }
        let stops = try store.tripCalls(running.tripID, feed: running.feed, serviceDate: running.serviceDate)
        untracked.append(
          (ScheduledTrip(
            instance: TripInstance(tripID: running.tripID, serviceDate: running.serviceDate), routeID: details.route.id,
            stops: stops, serviceDayStart: store.serviceDayStart(running.serviceDate, feed: running.feed)), details))
      }
    }
    let realtime = Reconciler.realtime(trips: trips + untracked.map(\.0), feeds: feeds, now: now)
    var views: [VehicleView] = []
    var covered = Set<String>()
    for (vehicle, key) in positions {
      var view = VehicleView()
      view.vehicleID = vehicle.vehicle?.id ?? key
      view.label = vehicle.vehicle?.label.flatMap { $0.isEmpty ? nil : $0 }
      view.timestamp = vehicle.timestamp.map { UnixTime(Int64(clamping: $0)) }
      if let position = vehicle.position, let latitude = position.latitude, let longitude = position.longitude {
        view.coordinate = Coordinate(latitude: Double(latitude), longitude: Double(longitude))
        view.bearing = position.bearing.map(Double.init)
        view.speedMetersPerSecond = position.speed.map(Double.init)
      }
      view.tripID = vehicle.trip?.tripID.flatMap { $0.isEmpty ? nil : TripID($0) }
      if let routeID = vehicle.trip?.routeID, !routeID.isEmpty {
        view.routeID = RouteID(routeID)
        if let route = try store.route(RouteID(routeID)) {
          view.routeShortName = route.shortName
          view.routeType = route.routeType
          view.feed = route.feed
        }
      }
      if let (trip, details) = tripOf[key] {
        covered.insert(trip.instance.tripID.rawValue)
        try describe(&view, trip: trip, details: details, prediction: realtime.predictions[trip.instance], vehicle: vehicle,
          update: updates[trip.instance.tripID.rawValue])
      }
      views.append(view)
    }
    for (trip, details) in untracked where !covered.contains(trip.instance.tripID.rawValue) {
      if let view = try estimated(trip, details: details, prediction: realtime.predictions[trip.instance]) { views.append(view) }
    }
    return views
  }

  /// An untracked trip placed by the timetable (rule 9), or nil when it is not running.
  mutating func estimated(_ trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction? = nil) throws -> VehicleView? {
    var coordinates: [StopID: Coordinate] = [:]
    for call in trip.stops { coordinates[call.stopID] = stop(call.stopID, feed: details.feed)?.coordinate }
    // The shape is read only for a trip that is on the road now.
    guard Reconciler.estimatedPosition(of: trip, stopCoordinates: coordinates, at: now, prediction: prediction) != nil,
      let estimate = Reconciler.estimatedPosition(
        of: trip, stopCoordinates: coordinates, at: now, prediction: prediction,
        shape: try shape(ofTrip: trip.instance.tripID, feed: details.feed))
    else { return nil }
    var view = VehicleView()
    view.isEstimated = true
    view.coordinate = estimate.coordinate
    fill(&view, trip: trip, details: details, prediction: prediction)
    setCurrent(&view, trip: trip, details: details, sequence: estimate.stopSequence, atStop: estimate.isAtStop, prediction: prediction)
    return view
  }

  /// Trip, route, current stop and the stops ahead of a live vehicle.
  mutating func describe(
    _ view: inout VehicleView, trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction?, vehicle: VehiclePosition?,
    update: TripUpdate?
  ) throws {
    fill(&view, trip: trip, details: details, prediction: prediction)
    // Stop positions are read only when the vehicle's own stop and its trip update do not say.
    var location = Reconciler.currentStop(of: trip, vehicle: vehicle, update: update, now: now)
    if location == nil, vehicle?.position != nil {
      var coordinates: [StopID: Coordinate] = [:]
      for call in trip.stops { coordinates[call.stopID] = stop(call.stopID, feed: details.feed)?.coordinate }
      location = Reconciler.currentStop(
        of: trip, vehicle: vehicle, update: update, stopCoordinates: coordinates, now: now,
        shape: try shape(ofTrip: trip.instance.tripID, feed: details.feed))
    }
    if let location {
      setCurrent(&view, trip: trip, details: details, sequence: location.stopSequence, atStop: location.isAtStop, prediction: prediction)
    }
  }

  func fill(_ view: inout VehicleView, trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction?) {
    view.feed = details.feed
    view.tripID = trip.instance.tripID
    view.serviceDate = trip.instance.serviceDate
    view.routeID = details.route.id
    view.routeShortName = details.route.shortName
    view.routeType = details.route.routeType
    view.headsign = details.headsign
    view.blockID = details.blockID
    view.trip = trip
  }

  /// Sets the stop the vehicle is at or heading to, its delay there, and the stops ahead.
  mutating func setCurrent(
    _ view: inout VehicleView, trip: ScheduledTrip, details: TripDetails, sequence: Int, atStop: Bool, prediction: TripPrediction?
  ) {
    guard let index = trip.stops.firstIndex(where: { $0.stopSequence == sequence }) else { return }
    let call = trip.stops[index]
    view.currentStopID = call.stopID
    view.currentStopSequence = call.stopSequence
    view.currentStopName = stop(call.stopID, feed: details.feed)?.name ?? call.stopID.rawValue
    view.isAtStop = atStop
    let predicted = Dictionary(
      (prediction?.stops ?? []).map { ($0.stop.stopSequence, $0) }, uniquingKeysWith: { first, _ in first })
    let ahead = trip.stops[(atStop ? index + 1 : index)...]
    view.nextStops = ahead.map { call in
      let scheduled = call.departure ?? call.arrival
      let guess = predicted[call.stopSequence]
      let expected = guess.flatMap { $0.source == .schedule ? nil : $0.expected }
      let delay = zip(expected, scheduled).map { $0 - $1 }
      return VehicleView.NextStop(
        stopID: call.stopID, name: stop(call.stopID, feed: details.feed)?.name ?? call.stopID.rawValue, scheduled: scheduled,
        expected: expected ?? scheduled, delaySeconds: delay, isSkipped: guess?.isSkipped ?? false)
    }
    if let here = predicted[call.stopSequence], here.source != .schedule, let expected = here.expected,
      let scheduled = call.departure ?? call.arrival
    {
      view.delaySeconds = expected - scheduled
    } else {
      view.delaySeconds = view.nextStops.first { !$0.isSkipped }?.delaySeconds
    }
  }
}

/// `zip` for optionals: both values, or nil.
func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
  guard let a, let b else { return nil }
  return (a, b)
}

/// `transit vehicles`: every live vehicle, and the trips that should be running without one.
enum VehiclesCommand: TransitCommand {
  /// Metres around `--near` unless `--radius` says otherwise.
  static let defaultRadius = 500

  static let spec = CommandSpec(
    path: ["vehicles"],
    summary: "Every live vehicle: route, heading, speed, age, stop and delay",
    options: [
      OptionSpec("--route", value: "R", help: "Only route R (short name or route_id)", complete: .dynamic(.routes)),
      OptionSpec("--near", value: "LAT,LON", help: "Only vehicles within --radius of LAT,LON", complete: .dynamic(.places)),
      OptionSpec("--radius", value: "M", help: "Metres around --near", default: "\(defaultRadius)"),
      OptionSpec("--live-only", help: "Leave out trips placed by the timetable (no vehicle in the feed)"),
      OptionSpec("--replay", value: "DIR", help: "Use the snapshot saved by 'transit record' at --now (else the last one)"),
      FeedsSupport.refreshOption,
      MapSupport.mapOption,
      MapSupport.asciiOption,
    ],
    discussion: """
      With --map, a map under the list shows each vehicle as its route number (and, with
      --route, the route's shapes and stops; with --near, where you are as @).

      Lists each vehicle of the realtime feeds once (--realtime FILE, else the configured feeds):
      route and destination, a heading arrow, speed in km/h, how long ago it reported, the stop
      it is at or heading to, and its delay there. Where it is comes from its own
      current_stop_sequence or stop_id, else the first stop its trip update still lists, else
      its position against the trip's stops. Trips the timetable has running that no vehicle
      or trip update covers are listed too, placed between stops by their times and marked
      'estimated' (--live-only leaves them out).
      """,
    examples: [
      "transit vehicles --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime Data/realtime/demo-tripupdates.pb",
      "transit vehicles --route 27 --near 53.2875,-6.3664 --radius 800 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb",
      "transit vehicles --json",
      "transit vehicles --route 27 --map",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let arguments = invocation.arguments
    let near = try arguments.value("--near").map { text throws(UsageError) in try StopCommandSupport.coordinate(text, option: "--near") }
    let radius = try arguments.integer("--radius", in: 1...1_000_000) ?? defaultRadius
    if arguments.value("--radius") != nil && near == nil { throw UsageError("--radius goes with --near LAT,LON") }
    try MapSupport.validate(invocation)
    let store = try StopCommandSupport.openStore(invocation)
    var feeds: [FeedMessage]
    var now = invocation.now
    if let replay = arguments.value("--replay") {
      let state = try SnapshotDirectory(path: invocation.absolutePath(replay)).state(at: invocation.global.now)
      feeds = try state.paths.map { try RtDumpCommand.load($0, invocation: invocation) }
      if invocation.global.now == nil { now = state.time }
    } else {
      feeds = try FeedsSupport.realtimeFeeds(invocation)
    }
    var builder = FleetBuilder(store: store, feeds: feeds, now: now)
    var views = try builder.fleet(includeEstimated: !arguments.flag("--live-only"))
    if let route = arguments.value("--route")?.lowercased() {
      views.removeAll { $0.routeShortName?.lowercased() != route && $0.routeID?.rawValue.lowercased() != route }
    }
    if let near {
      views.removeAll { view in view.coordinate.map { $0.distanceMeters(to: near) > Double(radius) } ?? true }
    }
    views.sort(by: order)
    let zone = store.timeZone(of: store.feedNames.first ?? FeedName(""))
    if invocation.global.json {
      invocation.context.stdout.line(JSON.array(views.map { json($0, now: now, zone: zone) }).serialized(pretty: true))
      return 0
    }
    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation)
    let freshness = Reconciler.freshness(of: feeds, now: now)
    let live = views.filter { !$0.isEstimated }.count
    out.line(
      "\(live) live vehicle\(live == 1 ? "" : "s")"
        + (views.count > live ? ", \(views.count - live) estimated from the timetable" : "")
        + " · \(StopCommandSupport.clock(now, zone: zone, twelveHour: twelve))")
    out.line(DeparturesCommand.realtimeLine(freshness, zone: zone, twelveHour: twelve))
    guard !views.isEmpty else {
      out.line("no vehicles" + (arguments.value("--route").map { " on route \($0)" } ?? "") + (near == nil ? "" : " within \(radius) m"))
      return 0
    }
    let rows = views.map { row($0, now: now) }
    out.write(StopCommandSupport.table(rows, rightAligned: [4, 5]))
    if arguments.flag("--map") {
      try drawMap(views, route: arguments.value("--route"), near: near, store: store, invocation: invocation, reserved: rows.count + 4)
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
    if let route, case .found(let summary) = try store.resolveRoute(route),
      let details = try store.routeDetails(summary, on: store.localDate(of: invocation.now, feed: summary.feed))
    {
      renderer.lines = try MapSupport.routeLines(details, store: store).map(\.points)
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

  /// Live before estimated, then by route, destination and vehicle.
  static func order(_ a: VehicleView, _ b: VehicleView) -> Bool {
    if a.isEstimated != b.isEstimated { return !a.isEstimated }
    let ra = a.routeShortName ?? a.routeID?.rawValue ?? "", rb = b.routeShortName ?? b.routeID?.rawValue ?? ""
    if ra != rb { return ra.localizedStandardCompare(rb) == .orderedAscending }
    if (a.headsign ?? "") != (b.headsign ?? "") { return (a.headsign ?? "") < (b.headsign ?? "") }
    return (a.vehicleID ?? a.tripID?.rawValue ?? "") < (b.vehicleID ?? b.tripID?.rawValue ?? "")
  }

  /// One text row: route, destination, vehicle, heading, speed, age, stop, delay, marker.
  static func row(_ view: VehicleView, now: UnixTime) -> [String] {
    let route = view.routeShortName ?? view.routeID?.rawValue ?? "?"
    let destination = view.headsign ?? (view.tripID.map { "trip \($0.rawValue)" } ?? "(no trip)")
    let vehicle = view.isEstimated ? "-" : (view.label ?? view.vehicleID ?? "?")
    let heading = view.bearing.map(arrow) ?? ""
    let speed = view.speedMetersPerSecond.map { "\(Int(($0 * 3.6).rounded())) km/h" } ?? ""
    let age = view.timestamp.map { ageText(now - $0) } ?? ""
    let stop = view.currentStopName.map { (view.isAtStop ? "at " : "next ") + $0 } ?? ""
    let marker = view.isEstimated ? "estimated" : view.isMatched ? "live" : view.tripID == nil ? "live" : "live, trip not in timetable"
    return [route, destination, vehicle, heading, speed, age, stop, delayText(view.delaySeconds), marker]
  }

  /// "2 min late", "on time", "1 min early" (late from +2 min, early from -1 min), or "".
  static func delayText(_ delay: Int64?) -> String {
    guard let delay else { return "" }
    let minutes = (abs(delay) + 30) / 60
    if delay >= 120 { return "\(minutes) min late" }
    if delay <= -60 { return "\(minutes) min early" }
    return "on time"
  }

  /// "12 s", "3 min", "2 h"; "now" for a report from the future.
  static func ageText(_ seconds: Int64) -> String {
    seconds < 0 ? "now" : FeedsSupport.ageText(seconds)
  }

  /// The arrow nearest a compass bearing (degrees clockwise from north).
  static func arrow(_ bearing: Double) -> String {
    let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
    guard bearing.isFinite else { return "" }
    let normal = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    return arrows[Int((normal / 45).rounded()) % 8]
  }

  /// DESIGN.md's `vehicles --json` / `follow --json` object.
  static func json(_ view: VehicleView, now: UnixTime, zone: TimeZone) -> JSON {
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
      ("estimated", .bool(view.isEstimated)),
      ("next_stops", .array(view.nextStops.filter { !$0.isSkipped }.map { stop in
        .object([
          ("stop_id", .string(stop.stopID.rawValue)), ("name", .string(stop.name)),
          ("expected", .optional(stop.expected.map { ISOTime.format($0, zone: zone) })),
          ("delay_seconds", .optional(stop.delaySeconds.map { Int($0) })),
        ])
      })),
    ])
  }
}
