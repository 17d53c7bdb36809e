import FoundationEssentials
import Services
import TransitModel

/// `transit plan`'s text for people (`--json` and `--geojson` are the answer's own encodings),
/// and the words of a plan that cannot be made.
struct PlanOutput {
  let invocation: Invocation
  let answer: PlanAnswer
  let twelveHour: Bool
  var zone: LocalZone { answer.zone }
  var from: JourneyEndpoint { answer.from }
  var to: JourneyEndpoint { answer.to }
  /// Whether marks are drawn in ASCII (`W` for ♿).
  var plain: Bool { invocation.usesPlainSymbols }

  /// What a failed plan says, and its exit code's error.
  static func error(_ reason: PlanAnswer.Failure.Reason) -> any Error {
    switch reason {
    case .onBoard(let target, let failure):
      let named: String
      switch target {
      case .vehicle(let id): named = "vehicle '\(id)'"
      case .trip(let id): named = "trip '\(id.rawValue)'"
      case .routeAtStop(let route, _, _): named = "route \(route)"
      }
      let option = "--\(target.isVehicle ? "on" : "from-trip")"
      switch failure {
      case .notRunning: return NotFoundError("\(option): \(named) is not in the realtime feed or the timetable now")
      case .noStopAhead: return NotFoundError("\(option): \(named) has no stop ahead (its trip has ended)")
      }
    case .unreachable(let role, let point, let meters):
      return NotFoundError("no stop within \(Int(meters)) m of \(role) \(StopCommandSupport.describe(point)); try a larger --max-walk")
    case .stopVanished(let index):
      return RuntimeError("stop \(index) vanished from the timetable")
    case .pickBeyond(let pick, let found, let limitReached):
      return NotFoundError(
        "--pick \(pick): \(found == 0 ? "no journey was found" : "only \(found) journey\(found == 1 ? " was" : "s were") found")\(limitReached ? "; raise --limit" : "")"
      )
    }
  }

  // MARK: - Text

  func text() {
    let out = invocation.context.stdout
    let requested = answer.requested, now = answer.now
    let day = zone.isoText(requested).prefix(10)
    var when = clock(requested)
    if day != zone.isoText(now).prefix(10) { when = "\(day) \(when)" }
    // An arrow only on a terminal (where colour is on); "->" in pipes and files.
    let arrow = invocation.useColor ? "→" : "->"
    out.line("\(name(from)) \(arrow) \(name(to)) · \(answer.isArriveBy ? "arrive by" : "leave after") \(when)")
    if answer.hasRealtime { out.line(RealtimeSupport.line(answer.report, zone: zone, twelveHour: twelveHour)) }
    guard !answer.options.isEmpty else {
      let kind = answer.isAccessibleOnly ? "no wheelchair-accessible journey" : "no journey"
      let hint = answer.isAccessibleOnly ? " (trips and stops the feed does not mark accessible are not used)" : ""
      out.line(
        "\(kind) \(answer.isArriveBy ? "arriving by \(when) within 24 h before" : "leaving after \(when) within 24 h"); try another time, --max-walk or --max-transfers\(hint)"
      )
      return
    }
    let colour = invocation.useColor
    for (index, option) in answer.options.enumerated() {
      let journey = option.journey
      out.line()
      let changes =
        journey.rides == 0
        ? "on foot" : journey.transfers == 0 ? "direct" : journey.transfers == 1 ? "1 transfer" : "\(journey.transfers) transfers"
      let countdown = StopCommandSupport.countdown(to: journey.departure, from: now)
      let leave = countdown == "now" ? "leave now" : journey.departure > now ? "leave in \(countdown)" : "should have left \(countdown)"
      // A departure on another day than the one asked about says its date.
      let departureDay = zone.isoText(journey.departure).prefix(10)
      let leaves = (departureDay == day ? "" : "\(departureDay) ") + clock(journey.departure)
      out.line("\(index + 1). \(leaves) \(arrow) \(clock(option.shownArrival)) · \(duration(option.minutes)) · \(changes) · \(leave)")
      var rows: [[String]] = []
      for (legIndex, leg) in journey.legs.enumerated() {
        switch leg {
        case .walk(let start, let end, let departure, _, let meters):
          let distance = meters.map { " (\(StopCommandSupport.distance($0)))" } ?? ""
          rows.append([clock(departure), "walk \(duration(leg.walkMinutes ?? 0))\(distance) to \(walkEnd(end, start: start))"])
        case .ride(let ride, let departure, let arrival):
          let route = StopCommandSupport.coloured(ride.route.shortName.shown, mode: ride.route.mode, enabled: colour)
          let live = ride.isLive ? " · live" : ""
          // ♿ when the trip and both its stops take a wheelchair (W where Unicode cannot show).
          let mark = RiderMarks.wheelchair(option.access[legIndex]?.isAccessible == true ? .accessible : .unknown, plain: plain)
          let headsign = ride.headsign.shown + (mark.isEmpty ? "" : " " + mark)
          rows.append([clock(departure), "\(route) towards \(headsign) from \(stopName(ride.stops.first?.stop))\(live)"])
          let count = max(0, ride.stops.count - 1)
          rows.append([clock(arrival), "get off at \(stopName(ride.stops.last?.stop)) (\(count) stop\(count == 1 ? "" : "s"))"])
        }
      }
      rows.append([clock(option.shownArrival), "arrive at \(name(to))"])
      let table = StopCommandSupport.table(rows.map { ["  " + $0[0], $0[1]] })
      out.write(table.hasSuffix("\n") ? table : table + "\n")
    }
  }

  func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }

  func duration(_ minutes: Int64) -> String { Format.duration(minutes: minutes) }

  func name(_ endpoint: JourneyEndpoint) -> String { Self.name(endpoint) }

  static func name(_ endpoint: JourneyEndpoint) -> String {
    switch endpoint {
    case .stop(let stop): return stopName(stop)
    case .complex(let complex): return complex.name.shown
    case .place(let point, let name): return name?.shown ?? StopCommandSupport.describe(point)
    case .onBoard(let start):
      return "on the \(start.ride.route.shortName.shown) to \(start.ride.headsign.shown) (next: \(stopName(start.ride.stops.first?.stop)))"
    }
  }

  /// "Lawrence [lawrence] → San Francisco Caltrain Station [san_francisco]".
  static func title(from: JourneyEndpoint, to: JourneyEndpoint, arrow: String) -> String {
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

  func walkEnd(_ end: JourneyPlanner.WalkEnd, start: JourneyPlanner.WalkEnd) -> String {
    switch end {
    case .stop(let stop): return stopName(stop)
    case .destination: return name(to)
    case .origin: return name(from)
    }
  }

  /// `PlanGeometry.cut` (the shape between two stops of a ride).
  static func cut(_ shape: [ShapePoint], from board: (Coordinate, Double?), to alight: (Coordinate, Double?)) -> [Coordinate]? {
    PlanGeometry.cut(shape, from: board, to: alight)
  }
}
