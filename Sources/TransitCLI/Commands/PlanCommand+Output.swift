import FoundationEssentials
import GTFS
import Services
import TransitModel

/// `transit plan`'s three renderings: text for people, `--json`, `--geojson`.
struct PlanOutput {
  let invocation: Invocation
  let store: Store
  let zone: LocalZone
  let now: UnixTime
  let requested: UnixTime
  let isArriveBy: Bool
  let from: PlanCommand.Endpoint
  let to: PlanCommand.Endpoint
  let journeys: [PlanCommand.PlannedJourney]
  let report: RealtimeReport?
  let twelveHour: Bool
  /// Whether only wheelchair-accessible journeys were searched (`--accessible`).
  var isAccessibleOnly = false
  /// Each journey under the realtime it was planned with: its transfers' buffers and states.
  var guarded: [GuardedJourney] = []
  /// Whether marks are drawn in ASCII (`W` for ♿).
  var plain: Bool { invocation.usesPlainSymbols }

  // MARK: - Text

  func text() throws {
    let out = invocation.context.stdout
    let day = ISOTime.format(requested, zone: zone).prefix(10)
    var when = clock(requested)
    if day != ISOTime.format(now, zone: zone).prefix(10) { when = "\(day) \(when)" }
    // An arrow only on a terminal (where colour is on); "->" in pipes and files.
    let arrow = invocation.useColor ? "→" : "->"
    out.line("\(name(from)) \(arrow) \(name(to)) · \(isArriveBy ? "arrive by" : "leave after") \(when)")
    if let report { out.line(RealtimeSupport.line(report, zone: zone, twelveHour: twelveHour)) }
    guard !journeys.isEmpty else {
      let kind = isAccessibleOnly ? "no wheelchair-accessible journey" : "no journey"
      let hint = isAccessibleOnly ? " (trips and stops the feed does not mark accessible are not used)" : ""
      out.line(
        "\(kind) \(isArriveBy ? "arriving by \(when) within 24 h before" : "leaving after \(when) within 24 h"); try another time, --max-walk or --max-transfers\(hint)"
      )
      return
    }
    let colour = invocation.useColor
    for (index, journey) in journeys.enumerated() {
      out.line()
      // Leave by the minute shown (rounded down), arrive by the minute shown (rounded up).
      let leaving = journey.departure.seconds - ((journey.departure.seconds % 60) + 60) % 60
      let arriving = UnixTime(journey.arrival.seconds + (60 - ((journey.arrival.seconds % 60) + 60) % 60) % 60)
      let minutes = (arriving.seconds - leaving) / 60
      let changes =
        journey.rides == 0
        ? "on foot" : journey.transfers == 0 ? "direct" : journey.transfers == 1 ? "1 transfer" : "\(journey.transfers) transfers"
      let countdown = StopCommandSupport.countdown(to: journey.departure, from: now)
      let leave = countdown == "now" ? "leave now" : journey.departure > now ? "leave in \(countdown)" : "should have left \(countdown)"
      // A departure on another day than the one asked about says its date.
      let departureDay = ISOTime.format(journey.departure, zone: zone).prefix(10)
      let leaves = (departureDay == day ? "" : "\(departureDay) ") + clock(journey.departure)
      out.line("\(index + 1). \(leaves) \(arrow) \(clock(arriving)) · \(duration(minutes)) · \(changes) · \(leave)")
      var rows: [[String]] = []
      for leg in journey.legs {
        switch leg {
        case .walk(let start, let end, let departure, let seconds, let meters):
          let distance = meters.map { " (\(StopCommandSupport.distance($0)))" } ?? ""
          rows.append([clock(departure), "walk \(duration((seconds + 59) / 60))\(distance) to \(walkEnd(end, start: start))"])
        case .ride(let ride, let departure, let arrival):
          let route = StopCommandSupport.coloured(ride.route.shortName.shown, mode: ride.route.mode, enabled: colour)
          let live = ride.isLive ? " · live" : ""
          // ♿ when the trip and both its stops take a wheelchair (W where Unicode cannot show).
          let mark = RiderMarks.wheelchair(try RideAccess(ride, store: store).isAccessible ? .accessible : .unknown, plain: plain)
          let headsign = ride.headsign.shown + (mark.isEmpty ? "" : " " + mark)
          rows.append([clock(departure), "\(route) towards \(headsign) from \(stopName(ride.stops.first?.stop))\(live)"])
          let count = max(0, ride.stops.count - 1)
          rows.append([clock(arrival), "get off at \(stopName(ride.stops.last?.stop)) (\(count) stop\(count == 1 ? "" : "s"))"])
        }
      }
      rows.append([clock(arriving), "arrive at \(name(to))"])
      let table = StopCommandSupport.table(rows.map { ["  " + $0[0], $0[1]] })
      out.write(table.hasSuffix("\n") ? table : table + "\n")
    }
  }

  func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }

  func duration(_ minutes: Int64) -> String { Format.duration(minutes: minutes) }

  func name(_ endpoint: PlanCommand.Endpoint) -> String { Self.name(endpoint) }

  static func name(_ endpoint: PlanCommand.Endpoint) -> String {
    switch endpoint {
    case .stop(let stop): return stopName(stop)
    case .complex(let complex): return complex.name.shown
    case .place(let point, let name): return name?.shown ?? StopCommandSupport.describe(point)
    case .onBoard(let start):
      return "on the \(start.ride.route.shortName.shown) to \(start.ride.headsign.shown) (next: \(stopName(start.ride.stops.first?.stop)))"
    }
  }

  /// "Lawrence [lawrence] → San Francisco Caltrain Station [san_francisco]".
  static func title(from: PlanCommand.Endpoint, to: PlanCommand.Endpoint, arrow: String) -> String {
    "\(name(from)) \(arrow) \(name(to))"
  }

  func stopName(_ stop: TransitModel.Stop?) -> String { Self.stopName(stop) }

  static func stopName(_ stop: TransitModel.Stop?) -> String {
    guard let stop else { return "?" }
    var text = stop.name.shown
    if let code = stop.code { text += " [\(code.shown)]" }
    if let platform = stop.platformCode { text += " platform \(platform.shown)" }
    return text
  }

  func walkEnd(_ end: PlanCommand.WalkEnd, start: PlanCommand.WalkEnd) -> String {
    switch end {
    case .stop(let stop): return stopName(stop)
    case .destination: return name(to)
    case .origin: return name(from)
    }
  }

  // MARK: - JSON

  func json() throws -> JSON {
    let manyFeeds = store.feedNames.count > 1
    func iso(_ time: UnixTime) -> JSON { .string(ISOTime.format(time, zone: zone)) }
    func endpointJSON(_ endpoint: PlanCommand.Endpoint) -> JSON {
      switch endpoint {
      case .stop(let stop):
        return .object([("type", .string("stop"))] + StopCommandSupport.stopJSON(stop, manyFeeds: manyFeeds))
      case .complex(let complex):
        return .object([("type", .string("complex")), ("complex", StopCommandSupport.complexJSON(complex))])
      case .place(let point, let name):
        return .object([
          ("type", .string("place")), ("name", .optional(name)), ("lat", .double(point.latitude)), ("lon", .double(point.longitude)),
        ])
      case .onBoard(let start):
        return .object(
          [("type", .string("on_board")), ("trip_id", .string(start.ride.tripID.rawValue))]
            + (start.ride.stops.first.map { [("next_stop", JSON.object(StopCommandSupport.stopJSON($0.stop, manyFeeds: manyFeeds)))] } ?? [])
        )
      }
    }
    func walkEndJSON(_ end: PlanCommand.WalkEnd) -> JSON {
      switch end {
      case .stop(let stop): return .object([("type", .string("stop"))] + StopCommandSupport.stopJSON(stop, manyFeeds: manyFeeds))
      case .origin: return endpointJSON(from)
      case .destination: return endpointJSON(to)
      }
    }
    let journeysJSON = try journeys.enumerated().map { index, journey -> JSON in
      let legs = try journey.legs.map { leg -> JSON in
        switch leg {
        case .walk(let start, let end, let departure, let seconds, let meters):
          return .object([
            ("type", .string("walk")), ("from", walkEndJSON(start)), ("to", walkEndJSON(end)),
            ("departure", iso(departure)), ("arrival", iso(departure + seconds)), ("duration_seconds", .number(seconds)),
            ("distance_m", meters.map { JSON.number(Int($0.rounded())) } ?? .null),
          ])
        case .ride(let ride, let departure, let arrival):
          var members: [(String, JSON)] = []
          if manyFeeds { members.append(("feed", .string(ride.feed.rawValue))) }
          members += [
            ("type", .string("ride")), ("trip_id", .string(ride.tripID.rawValue)), ("route_id", .string(ride.route.id.rawValue)),
            ("route_short_name", .string(ride.route.shortName)), ("mode", .string(ride.route.mode.rawValue)),
            ("headsign", .string(ride.headsign)), ("service_date", .string(ride.serviceDate.description)),
            ("start_time", .optional(ride.startTime?.description)),
            ("from", ride.stops.first.map { walkEndJSON(.stop($0.stop)) } ?? .null),
            ("to", ride.stops.last.map { walkEndJSON(.stop($0.stop)) } ?? .null),
            ("from_stop_sequence", .optional(ride.stops.first?.stopSequence)),
            ("to_stop_sequence", .optional(ride.stops.last?.stopSequence)),
            ("departure", iso(departure)), ("arrival", iso(arrival)), ("duration_seconds", .number(arrival - departure)),
            ("stops", .number(max(0, ride.stops.count - 1))), ("live", .bool(ride.isLive)),
          ]
          let access = try RideAccess(ride, store: store)
          members += [
            ("wheelchair_accessible", .optional(access.tripValue)), ("from_wheelchair_boarding", .optional(access.boardValue)),
            ("from_wheelchair_access", .string(access.board.rawValue)), ("to_wheelchair_boarding", .optional(access.alightValue)),
            ("to_wheelchair_access", .string(access.alight.rawValue)), ("accessible", .bool(access.isAccessible)),
          ]
          return .object(members)
        }
      }
      return .object([
        ("departure", iso(journey.departure)), ("arrival", iso(journey.arrival)),
        ("duration_seconds", .number(journey.arrival - journey.departure)), ("transfers", .number(journey.transfers)),
        ("leave_in_seconds", .number(journey.departure - now)), ("legs", .array(legs)),
        ("changes", index < guarded.count ? JSONTreeEncoder.encode(guarded[index].transfers.map(TransferAnswer.init)) : .array([])),
      ])
    }
    return .object([
      ("from", endpointJSON(from)), ("to", endpointJSON(to)), ("now", iso(now)),
      (isArriveBy ? "arrive_by" : "depart", iso(requested)),
      ("realtime", RealtimeSupport.json(report ?? RealtimeReport(), zone: zone)),
      ("journeys", .array(journeysJSON)),
    ])
  }

  // MARK: - GeoJSON

  /// A FeatureCollection: per leg a LineString ([lon, lat], RFC 7946) with the journey's
  /// number, the leg's kind and, for rides, the route and trip.
  func geoJSON() throws -> JSON {
    var features: [JSON] = []
    func point(_ c: Coordinate) -> JSON { .array([.double(rounded(c.longitude)), .double(rounded(c.latitude))]) }
    func coordinate(_ end: PlanCommand.WalkEnd) -> Coordinate? {
      switch end {
      case .stop(let stop): return stop.coordinate
      case .origin: return from.coordinate
      case .destination: return to.coordinate
      }
    }
    for (index, journey) in journeys.enumerated() {
      for leg in journey.legs {
        var line: [Coordinate] = []
        var properties: [(String, JSON)] = [("journey", .number(index + 1))]
        switch leg {
        case .walk(let start, let end, let departure, let seconds, _):
          line = [coordinate(start), coordinate(end)].compactMap { $0 }
          properties += [
            ("type", .string("walk")), ("departure", .string(ISOTime.format(departure, zone: zone))),
            ("arrival", .string(ISOTime.format(departure + seconds, zone: zone))),
          ]
        case .ride(let ride, let departure, let arrival):
          line = try geometry(of: ride)
          properties += [
            ("type", .string("ride")), ("route_short_name", .string(ride.route.shortName)), ("route_id", .string(ride.route.id.rawValue)),
            ("trip_id", .string(ride.tripID.rawValue)), ("headsign", .string(ride.headsign)),
            ("departure", .string(ISOTime.format(departure, zone: zone))), ("arrival", .string(ISOTime.format(arrival, zone: zone))),
          ]
          if let color = ride.route.color { properties.append(("stroke", .string("#" + color))) }
        }
        guard line.count >= 2 else { continue }
        features.append(
          .object([
            ("type", .string("Feature")),
            ("geometry", .object([("type", .string("LineString")), ("coordinates", .array(line.map(point)))])),
            ("properties", .object(properties)),
          ]))
      }
    }
    return .object([("type", .string("FeatureCollection")), ("features", .array(features))])
  }

  private func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

  /// The trip's shape between the boarding and alighting stops; the stops themselves in a line
  /// when the trip has no shape.
  func geometry(of ride: RoutingRide) throws -> [Coordinate] {
    let stops = ride.stops.compactMap(\.stop.coordinate)
    guard let shapeID = ride.shapeID, let first = ride.stops.first, let last = ride.stops.last,
      let board = first.stop.coordinate, let alight = last.stop.coordinate
    else { return stops }
    return Self.cut(
      try store.shape(shapeID, feed: ride.feed), from: (board, first.shapeDistTraveled), to: (alight, last.shapeDistTraveled))
      ?? stops
  }

  /// The part of `shape` from one stop to a later one: each placed by its shape_dist_traveled
  /// when it and the shape carry one, else by projecting it onto the shape (the alighting stop
  /// only past the boarding one, so a loop is cut after it); nil without a usable shape.
  static func cut(
    _ shape: [ShapePoint], from board: (Coordinate, Double?), to alight: (Coordinate, Double?)
  ) -> [Coordinate]? {
    guard let path = ShapePath(shape) else { return nil }
    let start = board.1.flatMap { path.metres(atTraveled: $0) } ?? path.locate(board.0)
    let end = alight.1.flatMap { path.metres(atTraveled: $0) } ?? path.locate(alight.0, notBefore: start)
    guard end > start else { return nil }
    return path.slice(from: start, to: end)
  }
}
