import Merge
import TransitModel

/// How late a route's live trips run: what `status` adds to the alerts.
public struct RouteLateness: Sendable, Hashable {
  /// The route.
  public var routeID: RouteID
  /// Its live trips (a prediction ahead of `now`), and the delays of those at or beyond the
  /// late threshold, smallest first.
  public var liveTrips: Int
  public var lateDelays: [Int64]

  /// Whether any live trip runs late beyond the threshold.
  public var isLate: Bool { !lateDelays.isEmpty }

  /// Per route, its live trips' delays at their next predicted stop (the first still to come),
  /// classed by the options' late threshold (rule 12).
  public static func byRoute(_ live: LiveRealtime) -> [RouteID: RouteLateness] {
    var result: [RouteID: RouteLateness] = [:]
    for (instance, prediction) in live.realtime.predictions where !prediction.isCanceled && !prediction.isAdded {
      guard let route = live.details[instance.tripID]?.route.id else { continue }
      let next = prediction.stops.first { stop in
        guard !stop.isSkipped, stop.source != .schedule, let expected = stop.expected else { return false }
        return expected >= live.now
      }
      guard let next, let expected = next.expected, let scheduled = next.stop.departure ?? next.stop.arrival else { continue }
      var entry = result[route] ?? RouteLateness(routeID: route, liveTrips: 0, lateDelays: [])
      entry.liveTrips += 1
      let delay = expected - scheduled
      if live.options.status(delaySeconds: delay) == .late { entry.lateDelays.append(delay) }
      result[route] = entry
    }
    for key in result.keys { result[key]!.lateDelays.sort() }
    return result
  }
}

/// A route's line on the status board: what the alerts in force say, raised to yellow when
/// its live trips run late beyond the threshold and no alert says worse.
public struct RouteCondition: Sendable {
  /// Green, yellow or red.
  public var status: RouteStatus
  /// The alerts behind it, worst first.
  public var reasons: [IdentifiedAlert]
  /// Its lateness, when some live trip runs late.
  public var lateness: RouteLateness?

  /// The condition of a route informed by `alerts` (already those in force for it) with
  /// `lateness` from its trip updates.
  public init(alerts: [IdentifiedAlert], lateness: RouteLateness?) {
    var (status, reasons) = AlertSeverity.status(of: alerts)
    let late = lateness.flatMap { $0.isLate ? $0 : nil }
    if late != nil && status == .green { status = .yellow }
    self.status = status
    self.reasons = reasons
    self.lateness = late
  }
}
