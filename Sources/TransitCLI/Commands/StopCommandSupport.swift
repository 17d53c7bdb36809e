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

  // MARK: - Clock

  /// Whether times read "4:21 PM": `TRANSIT_CLOCK=12`, else a locale that writes 12-hour time
  /// (LC_ALL, LC_TIME or LANG of en_US, en_CA, en_AU, en_NZ, en_PH, en_IN).
  static func uses12HourClock(_ environment: [String: String]) -> Bool {
    if let setting = environment["TRANSIT_CLOCK"], !setting.isEmpty { return setting == "12" }
    let locale = LocaleEnvironment.name(.time, in: environment) ?? ""
    return ["en_US", "en_CA", "en_AU", "en_NZ", "en_PH", "en_IN"].contains { locale.hasPrefix($0) }
  }

  /// Whether times read "4:21 PM": `TRANSIT_CLOCK`, else the `clock` setting, else the locale.
  static func uses12HourClock(_ invocation: Invocation, settings: Settings? = nil) -> Bool {
    let environment = invocation.context.environment
    if let setting = environment["TRANSIT_CLOCK"], !setting.isEmpty { return setting == "12" }
    if let clock = (settings ?? (try? invocation.settings()))?.clock { return clock == 12 }
    return uses12HourClock(environment)
  }

  /// The wall-clock time of `time` in `zone`: "16:21" or "4:21 PM".
  static func clock(_ time: UnixTime, zone: LocalZone, twelveHour: Bool) -> String {
    let iso = ISOTime.format(time, zone: zone)  // 2026-11-30T16:21:00+00:00
    let hour = Int(iso.dropFirst(11).prefix(2)) ?? 0
    let minute = String(iso.dropFirst(14).prefix(2))
    if !twelveHour { return (hour < 10 ? "0" : "") + "\(hour):\(minute)" }
    let h = hour % 12 == 0 ? 12 : hour % 12
    return "\(h):\(minute) \(hour < 12 ? "AM" : "PM")"
  }

  /// "now", "5 min", "1 h 5 min", "3 days", "3 min ago" (`Format.duration(minutes:)`).
  static func countdown(to time: UnixTime, from now: UnixTime) -> String {
    let minutes = now.minutes(until: time)
    if minutes == 0 { return "now" }
    let text = Format.duration(minutes: minutes)
    return minutes < 0 ? text + " ago" : text
  }

  // MARK: - Modes and colour

  /// `text` (a route's name: `shown`) in the ANSI colour of `mode` (when colour is on).
  static func coloured(_ text: String, mode: TransitMode, enabled: Bool) -> String {
    let text = text.shown
    guard enabled else { return text }
    let code: String
    switch mode {
    case .bus, .trolleybus: code = "33"
    case .tram: code = "31"
    case .subway, .monorail: code = "34"
    case .rail: code = "35"
    case .ferry: code = "36"
    default: code = "32"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// A complex as JSON: `{"name", "parts": [{"feed", "stop_id", "name"}]}`.
  static func complexJSON(_ complex: StopComplex) -> JSON {
    .object([
      ("name", .string(complex.name)),
      (
        "parts",
        .array(
          complex.parts.map { part in
            .object([("feed", .string(part.feed.rawValue)), ("stop_id", .string(part.id.rawValue)), ("name", .string(part.name))])
          })
      ),
    ])
  }

  /// A stop as JSON: the fields DESIGN.md's `stops near` shape names.
  static func stopJSON(_ stop: Stop, manyFeeds: Bool) -> [(String, JSON)] {
    var members: [(String, JSON)] = []
    if manyFeeds { members.append(("feed", .string(stop.feed.rawValue))) }
    members += [
      ("stop_id", .string(stop.id.rawValue)), ("stop_code", .optional(stop.code)), ("name", .string(stop.name)),
      ("lat", .optional(stop.coordinate?.latitude)), ("lon", .optional(stop.coordinate?.longitude)),
    ]
    return members
  }
}
