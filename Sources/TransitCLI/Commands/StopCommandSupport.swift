import FoundationEssentials
import Services
import TransitModel

/// What the stop and departure commands share: opening the timetables, resolving a STOP
/// argument, reading coordinates and times, and rendering stops, clocks and modes.
enum StopCommandSupport {
  /// The stop `text` names; when it names several or none, lists the candidates on stderr and
  /// throws `NotFoundError` (exit 3).
  /// A name shared by a station and its own platforms is the station (`Store.resolveStop`).
  /// A complex (`Times Sq-42 St`) is not one stop: its parts are listed as the candidates.
  static func resolveStop(_ text: String, session: TransitSession, context: CommandContext) throws -> Stop {
    try stop(of: try session.place(named: text), context: context)
  }

  /// The one stop of `lookup` (see `resolveStop`).
  static func stop(of lookup: PlaceLookup, context: CommandContext) throws -> Stop {
    let place = try place(of: lookup, context: context)
    guard case .complex(let complex) = place else { return place.parts[0] }
    context.stderr.line("'\(lookup.text)' could be:")
    context.stderr.write(candidateLines(lookup.candidates, namesFeed: lookup.namesFeed))
    throw NotFoundError(
      "'\(lookup.text)' is a complex of \(complex.parts.count) stations; this command takes one: give the stop id or code of the one you mean"
    )
  }

  /// The stop, station or complex `text` names (`TransitSession.place`). Given `origin` (the
  /// stops named before it: `--stop` of a commute, plan's FROM, the board's stops for
  /// `--via`), a name fitting several is narrowed to those reachable from there
  /// (`Store.resolveStop(_:reachableFrom:)`): one left is taken, and said on stderr; several
  /// are listed with why each is there. Otherwise lists the candidates on stderr and throws
  /// `NotFoundError` (exit 3).
  static func resolvePlace(
    _ text: String, session: TransitSession, context: CommandContext, reachableFrom origin: [Stop] = [], originName: String? = nil,
    reaching destination: [Stop] = [], destinationName: String? = nil
  ) throws -> StopPlace {
    let lookup = try session.place(
      named: text,
      context: !destination.isEmpty ? .reaching(destination) : origin.isEmpty ? .alone : .reachableFrom(origin))
    return try place(
      of: lookup, context: context, from: contextWords(origin, originName: originName, destination, destinationName: destinationName))
  }

  /// "reachable from Tallaght", "from which Tallaght is reachable".
  private static func contextWords(_ origin: [Stop], originName: String?, _ destination: [Stop], destinationName: String?) -> String {
    destination.isEmpty
      ? "reachable from " + (originName ?? origin.first?.name ?? "")
      : "from which " + (destinationName ?? destination.first?.name ?? "") + " is reachable"
  }

  /// The place `lookup` found, with a line on stderr when the context chose it among several;
  /// else its candidates on stderr and `NotFoundError` (exit 3).
  static func place(of lookup: PlaceLookup, context: CommandContext, from: String = "") throws -> StopPlace {
    let text = lookup.text
    switch lookup.outcome {
    case .found(let place):
      if let count = lookup.placeCount, let reach = lookup.reach {
        switch place {
        case .stop(let stop):
          context.stderr.line(
            "'\(text)' fits \(count) places; taking \(describeCandidate(stop, namesFeed: lookup.namesFeed)), the one \(from) (\(describe(reach)))"
          )
        case .complex(let complex):
          context.stderr.line("'\(text)' fits \(count) places; taking the complex \(complex.name), the one \(from) (\(describe(reach)))")
        }
      }
      return place
    case .ambiguous:
      if let places = lookup.placeCount {
        context.stderr.line("'\(text)' could be (of \(places) places by that name, those \(from)):")
        context.stderr.write(candidateLines(lookup.candidates, namesFeed: lookup.namesFeed))
        throw NotFoundError("'\(text)' matches \(lookup.matchCount) stops \(from); give the stop id or code of the one you mean")
      }
      context.stderr.line("'\(text)' could be:")
      context.stderr.write(candidateLines(lookup.candidates, namesFeed: lookup.namesFeed))
      throw NotFoundError("'\(text)' matches \(lookup.matchCount) stops; give the stop id or code of the one you mean")
    case .notFound:
      if !lookup.candidates.isEmpty {
        context.stderr.line("stops with similar names:")
        context.stderr.write(candidateLines(lookup.candidates, namesFeed: lookup.namesFeed))
      }
      throw NotFoundError("no stop with id, code or name '\(text)'")
    }
  }

  /// "San Jose Diridon (sj_diridon)", with its feed when several are held.
  static func describeCandidate(_ stop: Stop, namesFeed: Bool) -> String {
    "\(stop.name) (\(namesFeed ? "\(stop.feed):" : "")\(stop.id.rawValue))"
  }

  /// Why a candidate is reachable: "route Local runs between them", "a 120 m walk".
  static func describe(_ reach: StopReach) -> String {
    switch reach {
    case .trip(let route): "route \(route) runs between them"
    case .walk(let meters): "a \(meters) m walk"
    }
  }

  /// Aligned lines naming each candidate by id, code, name and kind (and feed, with several
  /// feeds) and what tells it apart; with reaches, also why it is there.
  static func candidateLines(_ candidates: [PlaceLookup.Candidate], namesFeed: Bool) -> String {
    let reaches = candidates.contains { $0.reach != nil }
    let rows = candidates.map { candidate in
      let stop = candidate.stop
      let label = candidate.label?.shown
      return [
        "  " + (namesFeed ? "\(stop.feed):" : "") + stop.id.rawValue.shown, stop.code?.shown ?? "", stop.name.shown, kind(of: stop),
        label.flatMap { kind(of: stop).contains($0) ? nil : $0 } ?? "",
      ] + (reaches ? [candidate.reach.map(describe) ?? ""] : [])
    }
    return table(rows)
  }

  /// `Format.table` without the spaces an empty last column leaves at line ends.
  static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
    Format.table(rows, rightAligned: rightAligned).split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var line = Substring(line)
      while line.last == " " { line = line.dropLast() }
      return String(line)
    }.joined(separator: "\n")
  }

  /// "station", "platform A", or "" for a plain stop.
  static func kind(of stop: Stop) -> String {
    switch stop.locationType {
    case 1: return "station"
    case 2: return "entrance"
    case 3: return "node"
    case 4: return "boarding area"
    default:
      if let platform = stop.platformCode { return "platform \(platform)" }
      return stop.parentStation == nil ? "" : "platform"
    }
  }

  /// A position given as "LAT,LON" or as the name of a saved place ('home', 'work'); a usage
  /// error naming the option when it is neither.
  static func location(_ place: PlaceArgument, invocation: Invocation) throws -> Coordinate {
    if let position = place.position { return position }
    if let saved = try savedPlace(named: place.text, invocation: invocation) { return saved }
    throw UsageError(
      "\(place.option) '\(place.text)' is neither a position LAT,LON nor a saved place (see 'transit places list')")
  }

  /// The saved place named `name` (case and surrounding spaces ignored); nil when there is no
  /// such place, or no user data at all (which is not created by asking).
  static func savedPlace(named name: String, invocation: Invocation) throws -> Coordinate? {
    try UserDataAccess(directory: invocation.paths.data).place(named: name)?.coordinate
  }

  /// Where the user is when they did not say (`TransitSession.startingPoint`: the saved
  /// `home` place, else `TRANSIT_LOCATION`, else the middle of the network), with words
  /// saying which it was.
  static func fallbackLocation(
    _ invocation: Invocation, session: TransitSession, allowCentre: Bool = true
  ) throws
    -> (Coordinate, String)?
  {
    let environment = invocation.context.environment["TRANSIT_LOCATION"].flatMap { $0.isEmpty ? nil : $0 }
    guard
      let (point, source) = try session.startingPoint(
        environment: { try environment.map { try ValueParser.coordinate($0, option: "TRANSIT_LOCATION") } }, allowsCentre: allowCentre)
    else { return nil }
    switch source {
    case .home: return (point, "your saved place 'home'")
    case .environment: return (point, "TRANSIT_LOCATION")
    case .networkCentre: return (point, "the middle of the network (set TRANSIT_LOCATION or save a place 'home')")
    }
  }

  /// "53.28750,-6.36640".
  static func describe(_ point: Coordinate) -> String {
    func five(_ value: Double) -> String { Format.fixed(value, decimals: 5) }
    return "\(five(point.latitude)),\(five(point.longitude))"
  }

  /// "120 m", "1.4 km".
  static func distance(_ meters: Double) -> String {
    meters < 1000 ? "\(Int(meters.rounded())) m" : Format.fixed(meters / 1000, decimals: 1) + " km"
  }
}
