import Services
import TransitModel

/// `route show` as a rider reads it: the route's line, then each direction's service on the
/// date, headways, main stops and variants.
enum RouteShowText {
  /// The route's name (with its colour's swatch) and its facts.
  static func header(_ answer: RouteDetailsAnswer, invocation: Invocation) {
    let out = invocation.context.stdout
    let route = answer.route
    let listing = answer.details.listing
    let swatch = RouteCommandSupport.swatch(route.color, environment: invocation.context.environment, enabled: invocation.useColor)
    out.line((swatch.isEmpty ? "" : swatch + " ") + route.shortName.shown + (route.longName.map { "  \($0.shown)" } ?? ""))
    var facts = [route.mode.rawValue]
    if let agency = listing.agencyName { facts.append(agency.shown) }
    facts.append("route_id " + (answer.namesFeed ? "\(route.feed):" : "") + route.id.rawValue)
    facts.append("\(listing.tripCount) trip\(listing.tripCount == 1 ? "" : "s")")
    if let hex = RouteCommandSupport.hexColor(route.color) { facts.append("colour \(hex)") }
    out.line(facts.joined(separator: " · "))
  }

  /// Each direction on the date, then the trips without stop times.
  static func directions(_ answer: RouteDetailsAnswer, invocation: Invocation) {
    let out = invocation.context.stdout
    let twelve = StopCommandSupport.uses12HourClock(invocation)
    /// "06:00"; a time on the next calendar day (a trip past 24:00:00) says so: "01:05 (next day)".
    func clock(_ clock: RouteDetailsAnswer.Clock) -> String {
      let text = StopCommandSupport.clock(clock.time, zone: answer.zone, twelveHour: twelve)
      return clock.isNextDay ? text + " (next day)" : text
    }
    let dayName = Self.dayName(answer.details.date)
    if answer.directions.isEmpty {
      out.line()
      out.line("no trips")
    }
    for entry in answer.directions {
      let direction = entry.direction
      let main = direction.main
      let (trips, today) = (entry.tripCount, entry.tripsOnDate)
      out.line()
      let name = direction.directionID.map { "direction \($0)" } ?? "no direction_id"
      out.line(
        "\(name.shown) → \(main.headsign.shown): \(trips) trip\(trips == 1 ? "" : "s") in \(direction.patterns.count) pattern\(direction.patterns.count == 1 ? "" : "s")"
      )
      if let first = entry.firstDeparture, let last = entry.lastDeparture {
        out.line("  \(dayName): \(today) trip\(today == 1 ? "" : "s"), first \(clock(first)), last \(clock(last))")
      } else {
        out.line("  \(dayName): no service")
      }
      if !direction.headways.isEmpty {
        out.line("  typical headway at \(main.stops.first?.name.shown ?? "the first stop"):")
        let rows = direction.headways.map { band -> [String] in
          let every = band.medianSeconds.map { "every \(Self.minutes($0))" } ?? ""
          return [
            "    " + band.name, "\(RouteDetailsAnswer.hhmm(band.start))-\(RouteDetailsAnswer.hhmm(band.end))",
            "\(band.departures) departure\(band.departures == 1 ? "" : "s")", every,
          ]
        }
        out.write(StopCommandSupport.table(rows, rightAligned: [2]))
      }
      out.line("  stops of the main pattern (\(main.tripCount) trip\(main.tripCount == 1 ? "" : "s")):")
      let rows = zip(main.stops, entry.mainStopAccess).enumerated().map { index, pair in
        let (stop, access) = pair
        let mark = RiderMarks.wheelchair(access, plain: invocation.usesPlainSymbols)
        return ["    \(index + 1)", stop.name.shown + (mark.isEmpty ? "" : " " + mark), stop.code?.shown ?? "", stop.id.rawValue.shown]
      }
      out.write(StopCommandSupport.table(rows, rightAligned: [0]))
      if direction.patterns.count > 1 {
        out.line("  variants:")
        let rows = zip(direction.patterns.dropFirst(), entry.variants).map { pattern, variant in
          [
            "    \(pattern.tripCount) trip\(pattern.tripCount == 1 ? "" : "s")", "→ \(pattern.headsign.shown)",
            "\(pattern.stops.count) stops", Self.difference(variant),
          ]
        }
        out.write(StopCommandSupport.table(rows))
      }
    }
    let without = answer.details.tripsWithoutStops
    if without > 0 {
      out.line()
      out.line("\(without) trip\(without == 1 ? " has" : "s have") no stop times")
    }
  }

  /// "Tue 2026-12-01".
  static func dayName(_ date: ServiceDate) -> String {
    date.weekdayName.prefix(3) + " " + date.dashed
  }

  /// "10 min", "1 h 5 min", "45 s".
  static func minutes(_ seconds: Int32) -> String {
    seconds < 60 ? Format.duration(seconds: Int64(seconds)) : Format.duration(minutes: Int64((Double(seconds) / 60).rounded()))
  }

  /// How a variant differs from the main pattern: "from X", "to Y", "via A, B", "skips N stops".
  static func difference(_ variant: RouteDetailsAnswer.Variant) -> String {
    var parts: [String] = []
    if let from = variant.from { parts.append("from \(from.shown)") }
    if let to = variant.to { parts.append("to \(to.shown)") }
    let via = variant.via
    if !via.isEmpty {
      parts.append("via " + via.prefix(2).map(\.shown).joined(separator: ", ") + (via.count > 2 ? " and \(via.count - 2) more" : ""))
    }
    let skipped = variant.skippedStops
    if skipped > 0 { parts.append("skips \(skipped) stop\(skipped == 1 ? "" : "s")") }
    if parts.isEmpty { parts.append(variant.hasMainStopCount ? "same stops, other order" : "other stop sequence") }
    return parts.joined(separator: ", ")
  }
}
