import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// What a board is asked: the stops (stations, complexes; one or several), the window and its
/// filters, and where the rider walks from (`--from`).
public struct BoardRequest: Sendable {
  /// The places asked about, as the rider named them: each a stop, a station or a complex.
  public var places: [StopPlace]
  public var query: BoardQuery
  /// Where the rider is: each row then says how long the walk is and whether it is in time.
  public var from: Coordinate?

  /// A request for the places named (at least one).
  public init(places: [StopPlace], query: BoardQuery, from: Coordinate? = nil) {
    precondition(!places.isEmpty, "a board needs a stop")
    self.places = places
    self.query = query
    self.from = from
  }

  /// A request for `stop`.
  public init(stop: TransitModel.Stop, query: BoardQuery, from: Coordinate? = nil) {
    self.init(places: [.stop(stop)], query: query, from: from)
  }

  /// The first stop asked about (its feed's clock and realtime come first).
  public var stop: TransitModel.Stop { places[0].parts[0] }
}

/// One departure board: everything any view of it shows. The plain board, `--group`,
/// `--watch`, `--line` and the home card are renderings of this one value, so they cannot label
/// a platform, round a delay or classify a departure two ways; its `Encodable` form is
/// DESIGN.md's `departures --json`.
public struct Board: Sendable {
  /// One departure and what a rider reads beside it.
  public struct Row: Sendable, Hashable {
    public var departure: Departure
    /// A station's platform as riders read it (`PlatformLabels`); nil at a single stop.
    public var platform: String?
    /// Wheelchair access of the trip and the stop, and the vehicle's crowding.
    public var details: RiderDetails
    /// Seconds of walk from the request's `from` to the row's stop (its platform in a station).
    public var walkSeconds: Int64?
    /// Whether that walk gets there before the departure leaves; nil without `from`.
    public var isReachable: Bool?
    /// The margin leave-now advice keeps for this row (`TransitSession.leaveMargin`: the
    /// settings' percent rule, or learned from the history).
    public var margin = LeaveAdvice.Margin()
    /// The stop or station asked about that the row departs from (a complex's part).
    public var part: TransitModel.Stop
    /// What tells `part` apart from the board's other parts (`Board.partLabels`); nil on a
    /// board of one stop, and where the line already does (a complex of one name and feed).
    public var partLabel: String?
    /// Whether the board has several parts (then the JSON names the row's part).
    public var isOfSeveral = false

    /// The row's identity across fetches (a watched board marks the rows that changed).
    public var key: BoardChanges.Key { BoardChanges.Key(departure) }
  }

  /// The rows of one route in one direction (`--group`).
  public struct Group: Sendable, Hashable {
    /// The route's short name (else its id).
    public var route: String
    /// The feed's direction_id when it has one.
    public var directionID: Int?
    /// The headsign of the group's first departure.
    public var headsign: String
    public var rows: [Row]
  }

  /// The first stop asked about (the title's, when it is the only one).
  public var stop: TransitModel.Stop
  /// The places asked about, as named: stops, stations, complexes.
  public var places: [StopPlace]
  /// Whether the stop names its feed (several feeds are held, so ids alone may be ambiguous).
  public var namesFeed: Bool
  /// The agency's clock, the one every time of the board is on.
  public var zone: LocalZone
  /// The moment asked at (countdowns run from it).
  public var now: UnixTime
  /// The window's start (`now`, or `--at`).
  public var start: UnixTime
  public var windowMinutes: Int
  /// Whether any realtime feed was read (else: timetable times).
  public var hasRealtime: Bool
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// The stop's own wheelchair access.
  public var stopAccess: WheelchairAccess
  /// The departures, soonest (expected, else scheduled) first.
  public var rows: [Row]
  /// The alerts in force that inform the stop, a route or a trip listed.
  public var notices: [AlertNotice]
  /// Why the board is empty when the timetable is the reason (its service has ended or not
  /// begun); nil when it has rows or the timetable runs then.
  public var emptyReason: ServiceStatus?
  /// The newest header timestamp of the feeds read (a live view polls from it).
  public var newestHeaderTimestamp: Int64?
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem] = []
  /// With `leave-margin = learned`: which rule gave the walked rows' margins, each once, in
  /// row order (empty otherwise).
  public var marginRules: [MarginRule] = []

  /// The rows grouped by route and direction, the first `perGroup` of each, groups ordered by
  /// their first departure (`DepartureGroups`).
  /// - Complexity: O(n) in the number of rows.
  public func groups(perGroup: Int) -> [Group] {
    var byKey: [BoardChanges.Key: Row] = [:]
    for row in rows where byKey[row.key] == nil { byKey[row.key] = row }
    return DepartureGroups.group(rows.map(\.departure), perGroup: perGroup).map { group in
      Group(
        route: group.route, directionID: group.directionID, headsign: group.headsign,
        rows: group.departures.compactMap { byKey[BoardChanges.Key($0)] })
    }
  }
}

extension TransitSession {
  /// The board of `request` at `now`, with the session's realtime (the stop's feed's own when
  /// it has some) matched against the timetables.
  /// - Throws: the store's errors, and what the realtime source cannot go on without.
  public func board(_ request: BoardRequest, now: UnixTime) throws -> Board {
    let read = try realtime.read(preferring: request.stop.feed)
    var board = try board(request, feeds: read.feeds, now: now)
    board.realtimeProblems = read.problems
    return board
  }

  /// The board of `request` at `now`, with `feeds` matched against the timetables (DESIGN.md
  /// rules 4–7, 13, 14): rows with their platform labels, access, crowding and walk, the
  /// stop's alerts, and why an empty board is empty.
  /// - Throws: the store's errors.
  public func board(_ request: BoardRequest, feeds: [FeedMessage], now: UnixTime) throws -> Board {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    return try board(request, live: live)
  }

  /// The board of `request` with realtime already matched (`live`, at its `now`).
  /// - Throws: the store's errors.
  public func board(_ request: BoardRequest, live: LiveRealtime) throws -> Board {
    let parts = Board.parts(of: request.places)
    let labels = Board.partLabels(parts, places: request.places)
    var rows: [Board.Row] = []
    var notices: [AlertNotice] = []
    var reasons: [ServiceStatus?] = []
    for part in parts {
      let platforms = part.isStation ? try store.platforms(of: part) : []
      let partRows = try rowsAt(
        part, platforms: platforms, request: request, live: live, label: labels[part], several: parts.count > 1)
      rows += partRows
      for notice in DepartureBoard.notices(live: live, stop: part, platforms: platforms, departures: partRows.map(\.departure))
      where !notices.contains(notice) {
        notices.append(notice)
      }
      if partRows.isEmpty { reasons.append(DepartureBoard.emptyReason(store: store, stop: part, start: request.query.start)) }
    }
    if parts.count > 1 {
      // One board: every part's departures in time order, then the first `limit`.
      rows = rows.enumerated().sorted { a, b in
        let ta = a.element.departure.time ?? UnixTime(0), tb = b.element.departure.time ?? UnixTime(0)
        return ta != tb ? ta < tb : a.offset < b.offset
      }.map(\.element)
      rows = Array(rows.prefix(request.query.limit))
    }
    let stop = request.stop
    return try withMargins(
      Board(
        stop: stop, places: request.places, namesFeed: store.feedNames.count > 1, zone: store.timeZone(of: stop.feed),
        now: live.now, start: request.query.start, windowMinutes: request.query.windowMinutes, hasRealtime: !live.feeds.isEmpty,
        report: live.report, stopAccess: try Accessibility.stop(stop, in: store), rows: rows, notices: notices,
        emptyReason: rows.isEmpty && reasons.count == parts.count ? reasons.compactMap { $0 }.first : nil,
        newestHeaderTimestamp: live.feeds.compactMap { $0.header?.timestamp }.max().map { Int64(clamping: $0) }))
  }

  /// The rows of one stop or station of the board.
  private func rowsAt(
    _ stop: TransitModel.Stop, platforms: [TransitModel.Stop], request: BoardRequest, live: LiveRealtime, label: String?,
    several: Bool
  ) throws -> [Board.Row] {
    let departures = try DepartureBoard.departures(store: store, stop: stop, platforms: platforms, live: live, query: request.query)
    let details = try RiderDetails.of(departures, store: store, live: live)
    let labels = stop.isStation ? try PlatformLabels.labels(for: platforms, in: store) : [:]
    var coordinates: [StopID: Coordinate] = [:]
    for platform in platforms { coordinates[platform.id] = platform.coordinate }
    return zip(departures, details).map { departure, detail in
      let call = departure.call
      let target = coordinates[call.stopID] ?? stop.coordinate
      let walk = zip(request.from, target).map { Int64(options.walking.seconds(from: $0, to: $1)) }
      return Board.Row(
        departure: departure, platform: labels[call.stopID], details: detail, walkSeconds: walk,
        isReachable: DepartureBoard.isReachable(
          departure, from: request.from, stopCoordinate: target, now: live.now, walking: options.walking),
        part: stop, partLabel: label, isOfSeveral: several)
    }
  }
}

extension Board {
  /// The stops and stations of `places`, each once, in the order named.
  public static func parts(of places: [StopPlace]) -> [TransitModel.Stop] {
    var parts: [TransitModel.Stop] = []
    for place in places {
      for part in place.parts where !parts.contains(part) { parts.append(part) }
    }
    return parts
  }

  /// What tells each part apart on a board of several: its name when the parts' names differ,
  /// else its feed when they come from several feeds, else (stops named one by one, or stops
  /// of one name) its code, else its id. Stations of one name in one feed need none: each
  /// row's line and platform say where it leaves (the 7 leaves from Times Sq's 725, the 1 from
  /// its 127).
  public static func partLabels(_ parts: [TransitModel.Stop], places: [StopPlace]) -> [TransitModel.Stop: String] {
    guard parts.count > 1 else { return [:] }
    var labels: [TransitModel.Stop: String] = [:]
    let names = Set(parts.map { TextFold.fold($0.name) })
    let feeds = Set(parts.map(\.feed))
    for part in parts {
      if names.count > 1 {
        labels[part] = part.name + (feeds.count > 1 ? " (\(part.feed.rawValue))" : "")
      } else if feeds.count > 1 {
        labels[part] = part.feed.rawValue
      } else if places.count > 1 || !parts.allSatisfy(\.isStation) {
        // Stops of one name (both sides of a road): which one, by the code on its pole.
        labels[part] = part.code ?? part.id.rawValue
      }
    }
    return labels
  }

  /// The end of the window: departures at or after it are the next window's.
  public var windowEnd: UnixTime { start + Int64(windowMinutes) * 60 }

  /// The start's calendar date on the board's clock when it is not `now`'s (a board of another
  /// day says which day); nil on `now`'s day.
  public var otherStartDate: ServiceDate? {
    let day = LocalClock.date(of: start, in: zone)
    return day == LocalClock.date(of: now, in: zone) ? nil : day
  }

  /// The board's title: the places' names ("Times Sq-42 St"; "Main Rd + Main Rd").
  public var title: String { places.map(\.name).joined(separator: " + ") }

  /// The complex the board is of, when it was asked for one.
  public var complex: StopComplex? { places.count == 1 ? places[0].complex : nil }
}

// MARK: - JSON

extension Board: Encodable {
  /// DESIGN.md's `departures --json`: the stop, now, the realtime object and the departures.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try encodeHead(into: &members)
    var list = members.nestedUnkeyedContainer(forKey: "departures")
    for row in rows { try row.encode(into: list.nestedContainer(keyedBy: JSONKey.self), zone: zone) }
  }

  /// The grouped board (`--group --json`): the same head, the departures as groups, each
  /// departure the same object as on the plain board.
  public func groupedAnswer(perGroup: Int) -> GroupedBoard { GroupedBoard(board: self, groups: groups(perGroup: perGroup)) }

  /// The rows alone, each the object of the board's `departures` list (a home view's card).
  public var departures: DepartureList { DepartureList(rows: rows, zone: zone) }

  func encodeHead(into members: inout KeyedEncodingContainer<JSONKey>) throws {
    var stopMembers = members.nestedContainer(keyedBy: JSONKey.self, forKey: "stop")
    if namesFeed { try stopMembers.encode(stop.feed.rawValue, forKey: "feed") }
    try stopMembers.encode(stop.id.rawValue, forKey: "stop_id")
    try stopMembers.encode(stop.code, forKey: "stop_code")
    try stopMembers.encode(stop.name, forKey: "name")
    if let complex { try ComplexAnswer(complex, namesFeed: namesFeed).encode(into: &members, forKey: "complex") }
    if places.count > 1 {
      var list = members.nestedUnkeyedContainer(forKey: "stops")
      for place in places { try PlaceAnswer(place, namesFeed: namesFeed).encode(into: &list) }
    }
    try members.encode(zone.isoText(now), forKey: "now")
    try members.encode(RealtimeAnswer(report, zone: zone), forKey: "realtime")
  }
}

extension Board.Row {
  /// The departure's object, then the platform, the wheelchair fields and the occupancy.
  func encode(into container: KeyedEncodingContainer<JSONKey>, zone: LocalZone) throws {
    var members = container
    try DepartureAnswer(departure, zone: zone, isReachable: isReachable).encodeMembers(into: &members)
    try members.encode(platform, forKey: "platform")
    try members.encode(details.wheelchairAccessible, forKey: "wheelchair_accessible")
    try members.encode(details.wheelchairBoarding, forKey: "wheelchair_boarding")
    try members.encode(details.crowding, forKey: "occupancy")
    if isOfSeveral {
      try members.encode(part.feed.rawValue, forKey: "feed")
      try members.encode(part.id.rawValue, forKey: "part_stop_id")
      try members.encode(partLabel, forKey: "part")
    }
  }
}

/// A board as groups of route and direction, for `--group --json`.
public struct GroupedBoard: Encodable, Sendable {
  public var board: Board
  public var groups: [Board.Group]

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try board.encodeHead(into: &members)
    var list = members.nestedUnkeyedContainer(forKey: "groups")
    for group in groups {
      var item = list.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(group.route, forKey: "route_short_name")
      try item.encode(group.directionID, forKey: "direction_id")
      try item.encode(group.headsign, forKey: "headsign")
      var departures = item.nestedUnkeyedContainer(forKey: "departures")
      for row in group.rows { try row.encode(into: departures.nestedContainer(keyedBy: JSONKey.self), zone: board.zone) }
    }
  }
}

/// A board's rows as its `departures` list, for an answer that holds a board's rows without
/// its head (the home view's cards).
public struct DepartureList: Encodable, Sendable {
  public var rows: [Board.Row]
  public var zone: LocalZone

  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for row in rows { try row.encode(into: list.nestedContainer(keyedBy: JSONKey.self), zone: zone) }
  }
}

/// A complex as JSON: `{"name", "parts": [{"feed", "stop_id", "name"}]}`.
struct ComplexAnswer {
  var complex: StopComplex
  var namesFeed: Bool

  init(_ complex: StopComplex, namesFeed: Bool) {
    self.complex = complex
    self.namesFeed = namesFeed
  }

  func encode(into container: inout KeyedEncodingContainer<JSONKey>, forKey key: JSONKey) throws {
    var members = container.nestedContainer(keyedBy: JSONKey.self, forKey: key)
    try encodeMembers(into: &members)
  }

  func encodeMembers(into members: inout KeyedEncodingContainer<JSONKey>) throws {
    try members.encode(complex.name, forKey: "name")
    var parts = members.nestedUnkeyedContainer(forKey: "parts")
    for part in complex.parts {
      var item = parts.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(part.feed.rawValue, forKey: "feed")
      try item.encode(part.id.rawValue, forKey: "stop_id")
      try item.encode(part.name, forKey: "name")
    }
  }
}

/// One place of a board of several as JSON: the stop object, and its `complex` when it is one.
struct PlaceAnswer {
  var place: StopPlace
  var namesFeed: Bool

  init(_ place: StopPlace, namesFeed: Bool) {
    self.place = place
    self.namesFeed = namesFeed
  }

  func encode(into list: inout UnkeyedEncodingContainer) throws {
    var members = list.nestedContainer(keyedBy: JSONKey.self)
    let stop = place.parts[0]
    if namesFeed { try members.encode(stop.feed.rawValue, forKey: "feed") }
    try members.encode(stop.id.rawValue, forKey: "stop_id")
    try members.encode(stop.code, forKey: "stop_code")
    try members.encode(place.name, forKey: "name")
    if let complex = place.complex { try ComplexAnswer(complex, namesFeed: namesFeed).encode(into: &members, forKey: "complex") }
  }
}
