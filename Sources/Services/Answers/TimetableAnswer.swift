import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// What a printed timetable is asked: the places, the service day, and the route, direction
/// and via stop it is narrowed to.
public struct TimetableRequest: Sendable {
  /// The places asked about, as the rider named them: stops, stations, complexes (at least
  /// one).
  public var places: [StopPlace]
  /// The service day; nil: today on the first place's agency clock.
  public var date: ServiceDate?
  /// Only this route (short name or route_id).
  public var route: String?
  /// Only trips of this direction_id.
  public var directionID: Int?
  /// Only trips calling at this place later on.
  public var via: StopPlace?

  /// A request for `places` (at least one).
  public init(
    places: [StopPlace], date: ServiceDate? = nil, route: String? = nil, directionID: Int? = nil, via: StopPlace? = nil
  ) {
    precondition(!places.isEmpty, "a timetable needs a stop")
    self.places = places
    self.date = date
    self.route = route
    self.directionID = directionID
    self.via = via
  }
}

/// One printed timetable: the grid and what its heading says. Its `Encodable` form is
/// `timetable --json`.
public struct TimetableAnswer: Sendable {
  public var request: TimetableRequest
  public var grid: TimetableGrid
  /// The service day shown.
  public var date: ServiceDate
  /// Whether several feeds are held (then each stop names its feed).
  public var namesFeed: Bool
  /// What the realtime was and matched; nil when none was read.
  public var report: RealtimeReport?
  /// What went wrong reading the realtime.
  public var realtimeProblems: [RealtimeProblem]

  /// The first stop asked about.
  public var stop: TransitModel.Stop { request.places[0].parts[0] }
}

extension TransitSession {
  /// The timetable of `request`: the whole service day (today at `now` unless the request
  /// names one), the trips the session's realtime cancels or that skip the stops marked.
  /// - Throws: the store's errors, and what the realtime source cannot go on without.
  public func timetable(_ request: TimetableRequest, now: UnixTime) throws -> TimetableAnswer {
    let places = request.places
    let date = request.date ?? store.localDate(of: now, feed: places[0].parts[0].feed)
    let read = try realtime.read(preferring: nil)
    var skipped = Set<TripID>()
    var report: RealtimeReport?
    if !read.feeds.isEmpty {
      let live = try LiveRealtime(store: store, feeds: read.feeds, now: now, options: options)
      skipped = TimetableGrid.skippedTrips(live, at: try store.callStopIDs(of: places), on: date)
      report = live.report
    }
    let grid = try TimetableGrid.build(
      places: places, date: date, route: request.route, direction: request.directionID, store: store, skipped: skipped,
      via: request.via?.parts ?? [])
    return TimetableAnswer(
      request: request, grid: grid, date: date, namesFeed: store.feedNames.count > 1, report: report,
      realtimeProblems: read.problems)
  }
}

// MARK: - JSON

extension TimetableAnswer: Encodable {
  /// `timetable --json`: the first stop named; `complex` when a complex was, `stops` (each
  /// with its `complex`) when several were; the service day; the blocks, each with its part
  /// when there are several.
  public func encode(to encoder: any Encoder) throws {
    let places = request.places
    var members = encoder.container(keyedBy: JSONKey.self)
    var head = members.nestedContainer(keyedBy: JSONKey.self, forKey: "stop")
    try encodeStop(stop, name: stop.name, into: &head)
    if places.count == 1, let complex = places[0].complex {
      try ComplexAnswer(complex, namesFeed: true).encode(into: &members, forKey: "complex")
    }
    if places.count > 1 {
      var list = members.nestedUnkeyedContainer(forKey: "stops")
      for place in places {
        var item = list.nestedContainer(keyedBy: JSONKey.self)
        try encodeStop(place.parts[0], name: place.name, into: &item)
        if let complex = place.complex { try ComplexAnswer(complex, namesFeed: true).encode(into: &item, forKey: "complex") }
      }
    }
    try members.encode(grid.serviceDate.description, forKey: "service_date")
    var blocks = members.nestedUnkeyedContainer(forKey: "blocks")
    for block in grid.blocks {
      var item = blocks.nestedContainer(keyedBy: JSONKey.self)
      if let part = block.part {
        try item.encode(part.feed.rawValue, forKey: "feed")
        try item.encode(part.id.rawValue, forKey: "part_stop_id")
        try item.encode(block.partLabel, forKey: "part")
      }
      try item.encode(block.routeID.rawValue, forKey: "route_id")
      try item.encode(block.routeShortName, forKey: "route_short_name")
      try item.encode(block.directionID, forKey: "direction_id")
      try item.encode(block.headsign, forKey: "headsign")
      var hours = item.nestedUnkeyedContainer(forKey: "hours")
      for hour in block.hours {
        var hourItem = hours.nestedContainer(keyedBy: JSONKey.self)
        try hourItem.encode(hour.hour, forKey: "hour")
        var departures = hourItem.nestedUnkeyedContainer(forKey: "departures")
        for entry in hour.entries {
          var departure = departures.nestedContainer(keyedBy: JSONKey.self)
          try departure.encode(entry.minute, forKey: "minute")
          try departure.encode(entry.tripID.rawValue, forKey: "trip_id")
          try departure.encode(entry.stopID.rawValue, forKey: "stop_id")
          try departure.encode(entry.headsign, forKey: "headsign")
          try departure.encode(entry.mark, forKey: "footnote")
        }
      }
      var footnotes = item.nestedUnkeyedContainer(forKey: "footnotes")
      for footnote in block.footnotes {
        var note = footnotes.nestedContainer(keyedBy: JSONKey.self)
        try note.encode(footnote.mark, forKey: "mark")
        try note.encode(footnote.text, forKey: "text")
      }
    }
  }

  /// A stop's fields as DESIGN.md's `stops near` shape names them, under `name`.
  private func encodeStop(_ stop: TransitModel.Stop, name: String, into members: inout KeyedEncodingContainer<JSONKey>) throws {
    if namesFeed { try members.encode(stop.feed.rawValue, forKey: "feed") }
    try members.encode(stop.id.rawValue, forKey: "stop_id")
    try members.encode(stop.code, forKey: "stop_code")
    try members.encode(name, forKey: "name")
    try members.encode(stop.coordinate?.latitude, forKey: "lat")
    try members.encode(stop.coordinate?.longitude, forKey: "lon")
  }
}
