import FoundationEssentials
import GTFS
import Merge
import TransitModel
import UserData

/// Chooses the departure to take for a saved commute, from the same departure board and the
/// same realtime every other command uses.
public enum CommutePlanner {
  /// One departure considered for a commute.
  public struct Option: Sendable, Hashable {
    /// The departure as every board shows it (`TransitSession.board`): the same value, and the
    /// same JSON, as the departures row of its trip.
    public var row: Board.Row
    /// The row's departure.
    public var departure: Departure { row.departure }
    /// When it departs (expected, else scheduled).
    public var departs: UnixTime
    /// When it reaches the destination stop (expected when live), or nil without a destination.
    public var arrives: UnixTime?
    /// When you get where you are going: `arrives` plus the walk after it.
    public var reaches: UnixTime?
    /// Departure minus the walk.
    public var leaveBy: UnixTime
    /// What tells the stop it leaves from apart from the commute's other stops (its feed, name
    /// or code, as a board of several stops labels its rows: `Board.partLabels`); nil for a
    /// commute of one stop, and where the line and platform already say it.
    public var partLabel: String? = nil
  }

  /// A commute worked out for one day: the recommended departure, up to two before it and one
  /// after.
  public struct Plan: Sendable {
    public var date: ServiceDate
    public var deadline: UnixTime
    public var options: [Option]
    /// Index into `options` of the recommended one, nil when none arrives in time.
    public var recommended: Int?
    /// What the realtime matched.
    public var report: RealtimeReport
  }

  /// The stops a commute's destination means: a stop, or a station with all its platforms;
  /// nil when the timetable has no such stop. The destination is saved as a stop_id (older
  /// commutes saved a name: an exact name of one stop, or of a station and its platforms, still
  /// resolves).
  public static func destinationStops(_ destination: String, feed: FeedName, store: Store) throws -> Set<StopID>? {
    var stop = try store.stop(StopID(destination), feed: feed)
    if stop == nil {
      switch try store.resolveStop(destination) {
      // A station shared by its platforms' name already comes back found (Store.resolveStop).
      case .found(let found): stop = found
      case .complex, .ambiguous, .notFound: break
      }
    }
    guard let stop else { return nil }
    var ids: Set<StopID> = [stop.id]
    if stop.isStation { for platform in try store.platforms(of: stop) { ids.insert(platform.id) } }
    return ids
  }

  /// Whether `commute` runs on `date` (its weekdays: bit 0 Monday ... bit 6 Sunday).
  public static func runs(_ commute: UserStore.Commute, on date: ServiceDate) -> Bool {
    commute.days & (1 << (date.weekday - 1)) != 0
  }

  /// The first date from `date` on which `commute` runs (nil for a commute of no weekday).
  public static func nextDay(of commute: UserStore.Commute, from date: ServiceDate) -> ServiceDate? {
    guard commute.days & 0x7F != 0 else { return nil }
    var day = date
    while !runs(commute, on: day) { day = day.adding(days: 1) }
    return day
  }

  /// The day a commute is worked out for when `date` is asked: `date` when it runs then, else
  /// the next day it does (`skipped` then says `date`); nil for a commute of no weekday (a
  /// stored mask of 0, or one with only bits past Sunday), which runs on no day at all.
  public static func day(of commute: UserStore.Commute, asked date: ServiceDate) -> (date: ServiceDate, skipped: ServiceDate?)? {
    guard let day = nextDay(of: commute, from: date) else { return nil }
    return (day, day == date ? nil : date)
  }

  /// The deadline of `commute` on `date`: its arrive-by time on the wall clock of `zone`
  /// (on the day clocks go forward a time in the skipped hour comes out an hour later).
  public static func deadline(_ commute: UserStore.Commute, on date: ServiceDate, zone: LocalZone) -> UnixTime {
    LocalClock.instant(date, secondsAfterMidnight: commute.arriveByMinutes * 60, in: zone)
  }

  /// The stops `commute` leaves from, as the timetables hold them now: its stop, then its other
  /// stops (a complex's stations; issue 32) that are still held; empty when its own stop is
  /// gone (a re-ingest dropped it).
  /// - Throws: the store's errors.
  public static func stops(of commute: UserStore.Commute, store: Store) throws -> [TransitModel.Stop] {
    var stops: [TransitModel.Stop] = []
    for (index, key) in commute.stops.enumerated() {
      guard let stop = try store.stop(StopID(key.stopID), feed: FeedName(key.feed)) else {
        if index == 0 { return [] }
        continue
      }
      if !stops.contains(stop) { stops.append(stop) }
    }
    return stops
  }

  /// The complex a commute of several stops leaves from (its `stop` held), when its stops are
  /// all that complex's stations; nil for a commute of one stop.
  /// - Throws: the store's errors.
  public static func complex(of commute: UserStore.Commute, stop: TransitModel.Stop, store: Store) throws -> StopComplex? {
    guard !commute.otherStops.isEmpty, let complex = try store.complex(containing: stop) else { return nil }
    let keys = Set(complex.parts.map { UserStore.StopKey(feed: $0.feed.rawValue, stopID: $0.id.rawValue) })
    return commute.stops.allSatisfy(keys.contains) ? complex : nil
  }

  /// `plan(_:stops:on:deadline:store:live:)` of one stop.
  public static func plan(
    _ commute: UserStore.Commute, stop: TransitModel.Stop, on date: ServiceDate, deadline: UnixTime, store: Store, live: LiveRealtime
  ) throws -> Plan {
    try plan(commute, stops: [stop], on: date, deadline: deadline, store: store, live: live)
  }

  /// `plan(_:stops:on:deadline:store:live:)` at the commute's own deadline on `date`.
  public static func plan(
    _ commute: UserStore.Commute, stops: [TransitModel.Stop], on date: ServiceDate, store: Store, live: LiveRealtime
  ) throws -> Plan {
    try plan(
      commute, stops: stops, on: date, deadline: deadline(commute, on: date, zone: store.timeZone(of: stops[0].feed)), store: store,
      live: live)
  }

  /// `plan(_:stop:on:deadline:store:live:)` at the commute's own deadline on `date`.
  public static func plan(
    _ commute: UserStore.Commute, stop: TransitModel.Stop, on date: ServiceDate, store: Store, live: LiveRealtime
  ) throws -> Plan {
    try plan(
      commute, stop: stop, on: date, deadline: deadline(commute, on: date, zone: store.timeZone(of: stop.feed)), store: store, live: live)
  }

  /// Chooses the departures for `commute` on `date`: the latest whose arrival on foot (the
  /// vehicle's arrival at the destination, as predicted, plus the walk after it; without a
  /// destination, its departure) is no later than `deadline` is recommended. With several
  /// `stops` (a complex's stations), the departures of all of them are weighed.
  /// - Throws: the store's errors.
  public static func plan(
    _ commute: UserStore.Commute, stops: [TransitModel.Stop], on date: ServiceDate, deadline: UnixTime, store: Store,
    live: LiveRealtime
  ) throws -> Plan {
    precondition(!stops.isEmpty, "a commute leaves from a stop")
    let start = deadline - 2 * 3600  // an earlier trip is not this commute (a night bus is not the 08:00 one)
    let stop = stops[0]
    let destination = try commute.destination.map { try destinationStops($0, feed: stop.feed, store: store) ?? [] }
    // The departures of all `stops` as one board (a place of their own, so the parts are
    // labelled as a commute's stops, not as stops named one by one).
    let place: StopPlace = stops.count == 1 ? .stop(stop) : .complex(StopComplex(name: stop.name, parts: stops))
    let board = try TransitSession(store: store, options: live.options).board(
      BoardRequest(places: [place], query: BoardQuery(start: start, windowMinutes: 4 * 60, limit: 10_000, route: commute.route)),
      live: live)
    let byInstance = Dictionary(live.trips.map { ($0.instance, $0) }, uniquingKeysWith: { first, _ in first })
    var options: [Option] = []
    let walk = Int64(commute.walkMinutes * 60)
    let thenWalk = Int64(commute.thenWalkMinutes * 60)
    for row in board.rows where row.departure.status != .cancelled && row.departure.status != .skipped {
      let departure = row.departure
      guard let departs = departure.time else { continue }
      var arrives: UnixTime?
      if let destination {
        let call = departure.call
        let instance = TripInstance(call)
        let trip =
          try byInstance[instance]
          ?? ScheduledTrip(
            instance: instance, routeID: call.routeID,
            stops: store.tripCalls(call.tripID, feed: call.feed, serviceDate: call.serviceDate, startTime: call.startTime))
        guard let times = live.expectedTime(of: trip, at: destination, after: call.stopSequence, arrival: true),
          let time = times.expected ?? times.scheduled
        else { continue }
        arrives = time
      }
      let reaches = arrives.map { $0 + thenWalk }
      options.append(
        Option(row: row, departs: departs, arrives: arrives, reaches: reaches, leaveBy: departs - walk, partLabel: row.partLabel))
    }
    options.sort { ($0.reaches ?? $0.departs, $0.departs) < ($1.reaches ?? $1.departs, $1.departs) }
    let best: Int? = options.lastIndex { ($0.reaches ?? $0.departs) <= deadline }
    var shown: [Option]
    var index: Int?
    if let best {
      let lower = Swift.max(0, best - 2)
      let upper = Swift.min(options.count - 1, best + 1)
      shown = Array(options[lower...upper])
      index = best - lower
    } else {
      shown = Array(options.prefix(1))
    }
    return Plan(date: date, deadline: deadline, options: shown, recommended: index, report: live.report)
  }
}

/// How a timetable refresh moved a commute's recommended departure (issue 19, "what changed
/// for you"): both on the commute's next day, from the timetable alone.
public struct CommuteChange: Sendable, Equatable {
  /// A recommended departure: its route and when it leaves the commute's stop.
  public struct Choice: Sendable, Equatable {
    public var route: String
    public var departs: UnixTime
  }

  /// The commute's name.
  public var name: String
  /// The day compared.
  public var date: ServiceDate
  /// The recommendation with the replaced timetable, and with the new one (nil: none arrives
  /// in time, or the stop is gone).
  public var before: Choice?
  public var after: Choice?

  /// The change of `commute`'s recommendation from `old` to `new` on its next day from the
  /// local date of `now`; nil when it is the same (or the commute's stop was in neither).
  public static func between(
    _ commute: UserStore.Commute, old: Store, new: Store, now: UnixTime, options: ServiceOptions = .init()
  ) throws -> CommuteChange? {
    let feed = FeedName(commute.feed)
    func choice(_ store: Store) throws -> (ServiceDate, Choice?)? {
      let stops = try CommutePlanner.stops(of: commute, store: store)
      guard !stops.isEmpty, let date = CommutePlanner.nextDay(of: commute, from: store.localDate(of: now, feed: feed)) else {
        return nil
      }
      let plan = try CommutePlanner.plan(commute, stops: stops, on: date, store: store, live: .none(now: now, options: options))
      let option = plan.recommended.map { plan.options[$0] }
      return (date, option.map { Choice(route: $0.departure.call.routeShortName, departs: $0.departs) })
    }
    let before = try choice(old), after = try choice(new)
    guard let date = before?.0 ?? after?.0 else { return nil }
    let change = CommuteChange(name: commute.name, date: date, before: before?.1 ?? nil, after: after?.1 ?? nil)
    return change.before == change.after ? nil : change
  }
}
