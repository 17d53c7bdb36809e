import FoundationEssentials
import Services
import TransitModel

/// `transit stops show STOP`: one stop in full.
enum StopsShowCommand: TransitCommand {
  /// Departures listed under the stop.
  static let departureCount = TransitSession.stopDepartureCount

  static let path = ["stops", "show"]
  static let spec = CommandSpec(
    path: path,
    summary: "A stop in full: code, position, station and platforms, routes, next departures",
    arguments: [
      ArgumentSpec(
        "STOP", help: "A stop_id (FEED:stop_id with several feeds), a stop code, or a name matching one stop",
        complete: .dynamic(.favourites))
    ],
    options: [],
    discussion: """
      Lists every route calling at the stop (at any platform, for a station) with the
      destinations shown there, and the next \(departureCount) scheduled departures within two hours.
      ♿ (W in plain ASCII) marks wheelchair boarding (a platform without a value inherits
      its station's).
      """,
    examples: ["transit stops show TINT", "transit stops show 4530 --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let session = try SessionSupport.session(invocation)
    let place = try StopCommandSupport.resolvePlace(text, session: session, context: invocation.context)
    let answer = try session.stopDetails(place, now: invocation.now)
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    switch answer.place {
    case .single(let single): render(single, answer: answer, invocation: invocation)
    case .complex(let complex): render(complex, answer: answer, invocation: invocation)
    }
    return 0
  }

  /// A stop or station: name, facts, station, platforms, routes, next departures.
  static func render(_ single: StopAnswer.Single, answer: StopAnswer, invocation: Invocation) {
    let out = invocation.context.stdout
    let colour = invocation.useColor
    let stop = single.stop
    let kind = StopCommandSupport.kind(of: stop)
    let plain = invocation.usesPlainSymbols
    func wheelchair(_ access: WheelchairAccess) -> String {
      let mark = RiderMarks.wheelchair(access, plain: plain)
      return mark.isEmpty ? "" : " " + mark
    }
    out.line(TerminalText.singleLine(stop.name) + (kind.isEmpty ? "" : " (\(kind))") + wheelchair(single.access))
    var facts = ["id \((answer.namesFeed ? "\(stop.feed):" : "") + stop.id.rawValue)"]
    if let code = stop.code { facts.append("code \(code)") }
    if let position = stop.coordinate { facts.append(StopCommandSupport.describe(position)) }
    out.line("  " + facts.joined(separator: " · "))
    if let parent = single.parent { out.line("  in station \(TerminalText.singleLine(parent.name)) (\(parent.id))") }
    if !single.platforms.isEmpty {
      out.line("platforms:")
      let rows = single.platforms.map { platform in
        [
          "  " + StopCommandSupport.kind(of: platform.stop) + wheelchair(platform.access), platform.stop.id.rawValue,
          platform.stop.code ?? "",
          platform.routes.map { StopCommandSupport.coloured($0.shortName, mode: $0.mode, enabled: colour) }.joined(separator: " "),
        ]
      }
      out.write(StopCommandSupport.table(rows))
    }
    out.line("routes:")
    if single.routes.isEmpty {
      out.line("  none call here")
    } else {
      let rows = single.routes.map { entry in
        [
          "  " + StopCommandSupport.coloured(entry.route.shortName, mode: entry.route.mode, enabled: colour),
          entry.route.mode.rawValue,
          entry.destinations.isEmpty ? "(trips end here)" : "to " + entry.destinations.map(\.shown).joined(separator: " / "),
        ]
      }
      out.write(StopCommandSupport.table(rows))
    }
    out.line("next departures:")
    if single.departures.isEmpty {
      let reason = single.emptyReason?.warning(feed: stop.feed.rawValue)
      out.line(reason.map { "  none: " + $0 } ?? "  none in the next two hours")
    } else {
      let twelve = StopCommandSupport.uses12HourClock(invocation)
      let rows = single.departures.map { call -> [String] in
        let time = call.scheduledTime ?? answer.now
        return [
          "  " + call.routeShortName.shown, call.headsign.shown,
          "\(StopCommandSupport.clock(time, zone: answer.zone, twelveHour: twelve)) · \(StopCommandSupport.countdown(to: time, from: answer.now))",
        ]
      }
      out.write(StopCommandSupport.table(rows))
    }
  }

  /// A station complex: its stations (or stops) with their routes, and the next departures of
  /// all of them, as one board on the timetable alone.
  static func render(_ complex: StopAnswer.Complex, answer: StopAnswer, invocation: Invocation) {
    let out = invocation.context.stdout
    let colour = invocation.useColor
    let now = answer.now
    out.line(TerminalText.singleLine(complex.complex.name) + " (\(StopsSearchCommand.complexKind(complex.complex)))")
    out.line(complex.complex.parts.allSatisfy(\.isStation) ? "stations:" : "stops:")
    out.write(
      StopCommandSupport.table(
        complex.parts.map { part in
          [
            "  " + (answer.namesFeed ? "\(part.stop.feed):" : "") + part.stop.id.rawValue, part.stop.code ?? "",
            TerminalText.singleLine(part.stop.name),
            part.routes.map { StopCommandSupport.coloured($0.shortName, mode: $0.mode, enabled: colour) }.joined(separator: " "),
          ]
        }))
    out.line("next departures:")
    let board = complex.board
    if board.rows.isEmpty {
      out.line(board.emptyReason?.warning(feed: board.stop.feed.rawValue).map { "  none: " + $0 } ?? "  none in the next two hours")
    } else {
      let twelve = StopCommandSupport.uses12HourClock(invocation)
      out.write(
        StopCommandSupport.table(
          board.rows.map { row in
            let call = row.departure.call
            let time = call.scheduledTime ?? now
            return [
              "  " + call.routeShortName.shown, call.headsign.shown, (row.partLabel ?? row.platform)?.shown ?? "",
              "\(StopCommandSupport.clock(time, zone: board.zone, twelveHour: twelve)) · \(StopCommandSupport.countdown(to: time, from: now))",
            ]
          }))
    }
  }
}
