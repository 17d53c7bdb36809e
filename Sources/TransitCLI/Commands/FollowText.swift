import Services
import TransitModel

/// How `follow` draws a frame: the text (route, vehicle, state, the get-off line, notes, the
/// stops ahead, the strip of the line), the map beside it on a wide screen, and what its
/// errors say.
extension FollowCommand {
  /// What `error` says to the rider.
  static func words(_ error: FollowError) -> String {
    switch error {
    case .unknownVehicle(let id): return "unknown vehicle '\(id)'"
    case .unknownTrip(let id): return "unknown trip '\(id.rawValue)': not in the timetable, and no realtime feed adds it"
    case .noVehicle(let route, let name): return "no vehicle of route \(route) is on its way to \(name)"
    case .notRunning: return "the trip is not running"
    case .alight(.notAhead(let text, let name, let route, let headsign)):
      return "--alight '\(text)': \(route) to \(headsign) does not call at \(name) after where it is now; give a stop still ahead"
    case .alight(.notAStop(let text)): return "--alight '\(text)': no stop with id, code or name '\(text)'"
    }
  }

  /// The narrowest screen that gets a map panel beside the stop list.
  static let mapPanelMinimumColumns = 110

  /// The map beside the list: the trip's line, its stops, its first and last stops named
  /// where there is room, and the vehicle as its route number.
  static func mapPanel(_ map: FollowMap, ascii: Bool) -> MapRenderer {
    var renderer = MapRenderer()
    renderer.labels = [MapRenderer.Label(coordinate: map.vehicle, text: map.label.shown)]
    renderer.stops = map.stops.compactMap(\.coordinate)
    renderer.names = MapRenderer.termini(of: map.stops)
    renderer.lines = map.lines
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
    if !view.isEstimated, let stamp = view.timestamp { state.append("reported \(RideText.age(now - stamp)) ago") }
    if let speed = view.speedMetersPerSecond.flatMap(RideText.speed) {
      state.append(speed + (view.bearing.map { " " + RideText.arrow($0) } ?? ""))
    }
    let delay = RideText.delay(view.delaySeconds, status: view.delayStatus)
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
        RideText.delay(stop.delaySeconds, status: stop.delayStatus),
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
