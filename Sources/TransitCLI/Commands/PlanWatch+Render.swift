import Services
import TransitModel

/// The text of a `plan --watch` update.
extension PlanWatch {
  /// One update as lines.
  static func render(
    _ guarded: GuardedJourney, title: String, alternative: JourneyPlanner.Journey?, events: [String], zone: LocalZone,
    twelveHour: Bool, report: RealtimeReport?
  ) -> [String] {
    func clock(_ time: UnixTime) -> String { StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour) }
    func shift(_ minutes: Int64) -> String { minutes == 0 ? "" : minutes > 0 ? " +\(minutes)" : " \(minutes)" }
    var lines = [
      "\(title) · \(StopCommandSupport.clockSeconds(guarded.now, zone: zone, twelveHour: twelveHour)) · \(BoardFrame.realtimeText(report?.freshness, now: guarded.now))"
    ]
    switch guarded.progress {
    case .beforeFirstRide:
      if let first = guarded.rides.first {
        lines.append(
          "first ride leaves \(clock(first.expectedDeparture)) (\(StopCommandSupport.countdown(to: first.expectedDeparture, from: guarded.now)))"
        )
      }
    case .riding(let index):
      let ride = guarded.rides[index].ride
      lines.append("on the \(ride.route.shortName) to \(ride.headsign)")
    case .changing(let index):
      lines.append("changing at \(guarded.transfers[index].from?.name ?? "?")")
    case .arrived: lines.append("arrived")
    }
    lines.append("")
    var rows: [[String]] = []
    for (index, ride) in guarded.rides.enumerated() {
      let live = ride.isCancelled ? " · cancelled" : ride.isLive ? " · live" : ""
      rows.append([
        clock(ride.expectedDeparture) + shift(ride.departureShiftMinutes),
        "\(ride.ride.route.shortName) towards \(ride.ride.headsign) from \(ride.ride.stops.first?.stop.name ?? "?")\(live)",
      ])
      rows.append([
        clock(ride.expectedArrival) + shift(ride.arrivalShiftMinutes),
        "get off at \(ride.ride.stops.last?.stop.name ?? "?")",
      ])
      if index < guarded.transfers.count {
        let transfer = guarded.transfers[index]
        let walk = transfer.walkSeconds > 0 ? "walk \(transfer.walkMinutes) min · " : ""
        rows.append([
          "", "change: \(walk)\(RideText.buffer(transfer.bufferSeconds)) · \(transfer.state.text)\(transfer.isDone ? " (done)" : "")",
        ])
      }
    }
    rows.append([clock(guarded.expectedArrival), "arrive"])
    lines += StopCommandSupport.table(rows.map { ["  " + $0[0], $0[1]] }).split(separator: "\n").map(String.init)
    if let alternative {
      lines.append("")
      let rides = alternative.legs.compactMap { leg -> String? in
        guard case .ride(let ride, let departure, _) = leg else { return nil }
        return "\(clock(departure)) \(ride.route.shortName) from \(ride.stops.first?.stop.name ?? "?")"
      }
      lines.append("next journey from the change: \(rides.joined(separator: ", then ")), arrive \(clock(alternative.arrival))")
    }
    if !events.isEmpty {
      lines.append("")
      lines += events.suffix(5)
    }
    return lines
  }
}
