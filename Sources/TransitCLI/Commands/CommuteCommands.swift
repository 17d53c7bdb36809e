import FoundationEssentials
import Services
import TransitModel

/// What the `commute` commands share: the commutes saved, and the words of days, commutes and
/// their records.
enum CommuteSupport {
  /// The commutes saved in the user's data.
  static func saved(_ invocation: Invocation) throws -> [SavedCommute] {
    try UserDataAccess(directory: invocation.paths.data).commutes()
  }

  /// "your 08:05: on time 4 of 6 days, usually 2 min late": how the recommended departure ran
  /// on the days the history recorded (`CommuteDay.record`); nil without a record of it.
  static func recordLine(_ day: CommuteDay) -> String? {
    day.record.map { recordText($0, clock: StopCommandSupport.clock($0.scheduled, zone: day.zone, twelveHour: false)) }
  }

  /// The words of a commute record: the fewer-than-3 rule, else the on-time share and the
  /// median delay in whole minutes.
  static func recordText(_ record: CommuteRecord, clock: String) -> String {
    let s = record.statistics
    guard let minutes = record.usualDelayMinutes else {
      return "your \(clock): fewer than \(CommuteRecord.minimumDays) days recorded (\(s.count))"
    }
    let usually =
      minutes == 0 ? "usually on time" : minutes > 0 ? "usually \(minutes) min late" : "usually \(-minutes) min early"
    return "your \(clock): on time \(s.onTime) of \(s.count) days, \(usually)"
  }

  /// "Tuesday 2026-12-01".
  static func dayText(_ date: ServiceDate) -> String {
    "\(date.weekdayName) \(date.dashed)"
  }

  /// "no commute 'x' (see 'transit commute list')".
  static func notFound(_ name: String) -> NotFoundError { NotFoundError("no commute '\(name)' (see 'transit commute list')") }
}

/// `transit commute add NAME --stop S --arrive-by HH:MM ...`.
enum CommuteAddCommand: TransitCommand {
  /// The options, declared once.
  enum Options {
    static let stop = Option.text(
      "--stop", value: "S",
      help:
        "The stop you board at (stop_id, code or name; a station complex: any of its stations, or with --to the one trips there leave from)",
      complete: .dynamic(.favourites))
    static let route = Option.text("--route", value: "R", help: "Only route R", complete: .dynamic(.routes))
    static let destination = Option.text(
      "--to", value: "STOP",
      help:
        "Where you get off: a stop or station (id, code or name, as STOP everywhere; a station means any platform); the deadline is the trip's arrival there"
    )
    static let arriveBy = Option.clockTime(
      "--arrive-by", help: "The deadline (on the agency's clock); without --to, the latest departure")
    static let days = Option.weekdays(
      "--days", value: "DAYS", help: "The days it runs: mon-fri, sat,sun, daily", default: 0b0011111,
      complete: .choices(["mon-fri", "sat,sun", "daily", "sat", "sun"]))
    static let walk = Option.integer(
      "--walk", value: "MIN", in: 0...180, help: "Minutes of walking to the stop: you leave this long before the departure"
    ).defaulting(to: 0)
    static let thenWalk = Option.integer(
      "--then-walk", value: "MIN", in: 0...180,
      help: "With --to: minutes of walking from where you get off; the deadline is your arrival on foot"
    ).defaulting(to: 0)
  }

  static let path = ["commute", "add"]
  static let spec = CommandSpec(
    path: path,
    summary: "Save a commute: a stop, a deadline and the days it runs",
    arguments: [ArgumentSpec("NAME", help: "The commute's name (work, school); saving it again replaces it")],
    options: [
      Options.stop.spec, Options.route.spec, Options.destination.spec, Options.arriveBy.spec, Options.days.spec, Options.walk.spec,
      Options.thenWalk.spec,
    ],
    examples: [
      "transit commute add work --stop 4530 --route 27 --to 'Crumlin Hospital' --arrive-by 08:30 --walk 5 --then-walk 4",
      "transit commute add school --stop TINT --arrive-by 08:00 --days mon-fri",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try PlacesSupport.name(try invocation.argument(0))
    let arguments = invocation.arguments
    guard let stopText = try arguments.read(Options.stop) else { throw UsageError("missing --stop S") }
    guard let arriveBy = try arguments.read(Options.arriveBy) else { throw UsageError("missing --arrive-by HH:MM") }
    let (days, walk, thenWalk) = (try arguments.read(Options.days), try arguments.read(Options.walk), try arguments.read(Options.thenWalk))
    let destinationText = try arguments.read(Options.destination)
    if thenWalk > 0 && destinationText == nil {
      throw UsageError("--then-walk needs --to DEST: the walk starts where you get off")
    }
    let session = try SessionSupport.session(invocation, realtime: { FixedRealtime([]) })
    // --stop: a complex with --to leaves from the part trips there leave from (issue 32);
    // without --to, all its stations. --to: a stop like every other, read as those a trip
    // from --stop reaches when it fits several (`TransitSession.commuteStops`).
    let origin = try StopCommandSupport.resolvePlace(stopText, session: session, context: invocation.context)
    let destinationPlace = try destinationText.map { text in
      try StopCommandSupport.resolvePlace(
        text, session: session, context: invocation.context, reachableFrom: origin.parts, originName: origin.name)
    }
    let stops: CommuteStops
    do {
      stops = try session.commuteStops(from: origin, to: destinationPlace)
    } catch CommuteStops.Failure.noTrip(let complex, let destination) {
      throw NotFoundError("no trip goes from \(complex) to \(destination); give --stop as one of its stations")
    }
    let stop = stops.stop
    if stops.isChosenPart, let destinationPlace {
      invocation.context.stderr.line(
        "--stop '\(stopText)': leaving from \(StopCommandSupport.describeCandidate(stop, namesFeed: session.namesFeed)), where trips to \(destinationPlace.name) leave"
      )
    }
    if stops.isAcrossFeeds, let destination = stops.destination {
      throw UsageError("--to '\(destinationText ?? "")' is in feed \(destination.feed), not in \(stop.feed) with --stop")
    }
    let commute = SavedCommute(
      name: name, feed: stop.feed.rawValue, stopID: stop.id.rawValue, route: try arguments.read(Options.route),
      destination: stops.destination?.id.rawValue, arriveByMinutes: arriveBy, days: days, walkMinutes: walk,
      thenWalkMinutes: thenWalk, otherStops: stops.otherStops.map { SavedCommute.Stop(feed: $0.feed.rawValue, stopID: $0.id.rawValue) })
    try session.saveCommute(commute, now: invocation.now)
    let entry = CommuteEntry(
      commute: commute, stop: stop, destination: stops.destination, complex: commute.otherStops.isEmpty ? nil : origin.complex)
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(entry))
    } else {
      invocation.context.stdout.line("saved commute '\(name)': \(CommuteListCommand.describe(entry))")
    }
    return 0
  }
}

/// `transit commute remove NAME`.
enum CommuteRemoveCommand: TransitCommand {
  static let path = ["commute", "remove"]
  static let spec = CommandSpec(
    path: path, summary: "Forget a commute",
    arguments: [ArgumentSpec("NAME", help: "The commute's name", complete: .dynamic(.commutes))],
    examples: ["transit commute remove work", "transit commute remove school"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0).lowercased()
    guard try UserDataAccess(directory: invocation.paths.data).removeCommute(name) else {
      throw CommuteSupport.notFound(name)
    }
    if invocation.global.json {
      invocation.context.stdout.line(JSON.object([("removed", .string(name))]).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("removed commute '\(name)'")
    }
    return 0
  }
}
