import GTFS
import History
import Merge
import TransitModel
import UserData

/// A saved commute as the timetables hold it now: its stop (nil when a re-ingest dropped it),
/// its destination's stop, and the complex a commute of several stations leaves from.
public struct CommuteEntry: Sendable {
  public var commute: UserStore.Commute
  public var stop: TransitModel.Stop?
  /// The stop its destination names (nil: none, or not held).
  public var destination: TransitModel.Stop?
  /// The complex of a commute of several stops, when they are all its stations.
  public var complex: StopComplex?

  /// An entry of `commute` leaving from `stop`.
  public init(commute: UserStore.Commute, stop: TransitModel.Stop?, destination: TransitModel.Stop?, complex: StopComplex?) {
    self.commute = commute
    self.stop = stop
    self.destination = destination
    self.complex = complex
  }
}

extension CommuteEntry: Encodable {
  /// `commute list --json`'s entry (and `commute add --json`'s): the saved commute, its stop's
  /// name (null when the timetables no longer hold it: `missing`), its stops and complex when
  /// it leaves from several.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(commute.name, forKey: "name")
    try members.encode(commute.feed, forKey: "feed")
    try members.encode(commute.stopID, forKey: "stop_id")
    try members.encode(stop?.name, forKey: "stop_name")
    if !commute.otherStops.isEmpty {
      var stops = members.nestedUnkeyedContainer(forKey: "stops")
      for key in commute.stops {
        var item = stops.nestedContainer(keyedBy: JSONKey.self)
        try item.encode(key.feed, forKey: "feed")
        try item.encode(key.stopID, forKey: "stop_id")
      }
    }
    if let complex { try ComplexAnswer(complex, namesFeed: true).encode(into: &members, forKey: "complex") }
    try members.encode(commute.route, forKey: "route")
    try members.encode(commute.destination, forKey: "to")
    try members.encode(commute.arriveByText, forKey: "arrive_by")
    try members.encode(commute.daysText, forKey: "days")
    try members.encode(commute.walkMinutes, forKey: "walk_minutes")
    try members.encode(commute.thenWalkMinutes, forKey: "then_walk_minutes")
    try members.encode(stop == nil, forKey: "missing")
  }
}

/// A commute worked out for one day (`commute NAME`): which departure to take and when to
/// leave, how it ran before, and why there is none.
public struct CommuteDay: Sendable {
  public var entry: CommuteEntry
  /// The commute's stop (held).
  public var stop: TransitModel.Stop
  /// Its agency's clock, the one every time of the day is on.
  public var zone: LocalZone
  /// The local date of `now` at its stop.
  public var today: ServiceDate
  /// The date asked when the commute does not run then (the plan is of its next day).
  public var inactive: ServiceDate?
  public var plan: CommutePlanner.Plan
  /// Why no departure is there when the timetable is the reason (its service ended or not
  /// begun at the deadline).
  public var emptyReason: ServiceStatus?
  /// How the recommended departure ran on the days the history recorded.
  public var record: CommuteRecord?
  /// The moment asked at.
  public var now: UnixTime

  public var commute: UserStore.Commute { entry.commute }
  /// Whether the plan is of today (then each option says how long until leaving).
  public var isToday: Bool { plan.date == today }

  /// Whole minutes until leaving for `option` today; nil on another day or once too late.
  public func minutesUntilLeave(_ option: CommutePlanner.Option) -> Int64? {
    isToday && option.leaveBy >= now ? (option.leaveBy - now) / 60 : nil
  }

  /// The recommended departure, when one arrives in time.
  public var recommended: CommutePlanner.Option? { plan.recommended.map { plan.options[$0] } }
}

/// The saved commutes asked about (`commute [NAME]`), each worked out for its day. Its
/// `Encodable` form is `commute --json`.
public struct CommuteAnswer: Sendable {
  /// One commute of the answer.
  public enum Item: Sendable {
    /// Its stop is not in the timetables since the last ingest.
    case missingStop(UserStore.Commute)
    /// Its weekday mask holds no day (a stored mask of 0): it runs on no day at all.
    case runsOnNoDay(UserStore.Commute)
    case day(CommuteDay)
  }

  public var items: [Item]
  /// Whether any realtime feed was read.
  public var hasRealtime: Bool
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// What went wrong reading the realtime (a fallback snapshot, a feed left out).
  public var realtimeProblems: [RealtimeProblem]
}

/// How `commute add` leaves for its destination: the stop saved (a complex's part that trips
/// there leave from) and the destination stop.
public struct CommuteStops: Sendable {
  /// Why a commute cannot be saved so.
  public enum Failure: Error, Sendable {
    /// No trip goes from any station of the complex to the destination.
    case noTrip(complex: String, destination: String)
  }

  public var stop: TransitModel.Stop
  public var destination: TransitModel.Stop?
  /// Whether `stop` was chosen among a complex's stations (for the trips to the destination).
  public var isChosenPart: Bool
  /// The other stops a commute without a destination also leaves from (a complex's others).
  public var otherStops: [TransitModel.Stop]
  /// Whether the destination is in another feed than the stop (a commute rides one feed).
  public var isAcrossFeeds: Bool { destination.map { $0.feed != stop.feed } ?? false }
}

extension TransitSession {
  /// `commutes` as the timetables hold them now.
  /// - Throws: the store's errors.
  public func commuteEntries(_ commutes: [UserStore.Commute]) throws -> [CommuteEntry] {
    try commutes.map { commute in
      let stop = store.isEmpty ? nil : try store.stop(StopID(commute.stopID), feed: FeedName(commute.feed))
      let destination = store.isEmpty ? nil : commute.destination.flatMap { try? store.stop(StopID($0), feed: FeedName(commute.feed)) }
      return CommuteEntry(
        commute: commute, stop: stop, destination: destination,
        complex: try stop.flatMap { try CommutePlanner.complex(of: commute, stop: $0, store: store) })
    }
  }

  /// Each of `commutes` worked out for `date` (else today at its stop; a day it does not run:
  /// its next day), with the session's realtime (every feed); `history`, when there is one,
  /// says how the recommended departure ran before.
  /// - Throws: the store's and the history's errors, and what the realtime source cannot go on
  ///   without.
  public func commute(
    _ commutes: [UserStore.Commute], date: ServiceDate?, now: UnixTime, history: HistoryStore? = nil
  ) throws -> CommuteAnswer {
    let read = try realtime.read(preferring: nil)
    let live = try LiveRealtime(store: store, feeds: read.feeds, now: now, options: options)
    let items = try commuteEntries(commutes).map { entry in
      try commuteItem(entry, date: date, live: live, history: history)
    }
    return CommuteAnswer(items: items, hasRealtime: !read.feeds.isEmpty, report: live.report, realtimeProblems: read.problems)
  }

  /// One commute of `commute(_:date:now:history:)` under `live`.
  func commuteItem(_ entry: CommuteEntry, date: ServiceDate?, live: LiveRealtime, history: HistoryStore?) throws -> CommuteAnswer.Item {
    let commute = entry.commute
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard let stop = stops.first else { return .missingStop(commute) }
    let today = store.localDate(of: live.now, feed: stop.feed)
    guard let (day, inactive) = CommutePlanner.day(of: commute, asked: date ?? today) else { return .runsOnNoDay(commute) }
    let plan = try CommutePlanner.plan(commute, stops: stops, on: day, store: store, live: live)
    var answer = CommuteDay(
      entry: entry, stop: stop, zone: store.timeZone(of: stop.feed), today: today, inactive: inactive, plan: plan,
      emptyReason: plan.options.isEmpty ? DepartureBoard.emptyReason(store: store, stop: stop, start: plan.deadline) : nil,
      record: nil, now: live.now)
    if let history, let call = answer.recommended?.departure.call, let scheduled = call.scheduledTime {
      answer.record = try commuteRecord(
        stopIDs: [call.stopID.rawValue], routeID: call.routeID.rawValue, scheduled: scheduled, in: history, now: live.now)
    }
    return .day(answer)
  }

  /// The stops a new commute leaves from and goes to: from a complex with a destination, the
  /// station a trip there leaves from; the destination's part in that feed a trip reaches
  /// (else its first there, else its first); without a destination, all of the origin.
  /// - Throws: `CommuteStops.Failure`; the store's errors.
  public func commuteStops(from origin: StopPlace, to destination: StopPlace?) throws -> CommuteStops {
    var stop = origin.parts[0]
    var isChosenPart = false
    if let complex = origin.complex, let destination {
      guard
        let part = try complex.parts.first(where: { part in
          if case .trip = try store.reach(from: [part], to: destination.parts) { return true }
          return false
        })
      else { throw CommuteStops.Failure.noTrip(complex: complex.name, destination: destination.name) }
      stop = part
      isChosenPart = true
    }
    let end = try destination.map { place -> TransitModel.Stop in
      let inFeed = place.parts.filter { $0.feed == stop.feed }
      for part in inFeed where try store.reach(from: [stop], to: [part]) != nil { return part }
      return inFeed.first ?? place.parts[0]
    }
    return CommuteStops(
      stop: stop, destination: end, isChosenPart: isChosenPart, otherStops: destination == nil ? Array(origin.parts.dropFirst()) : [])
  }
}

extension CommuteRecord {
  /// The median delay in whole minutes (rounded as every delay is: `DelayRounding`), signed:
  /// negative when early; nil from fewer than `DelayStatistics.minimumCount` days.
  public var usualDelayMinutes: Int64? {
    guard statistics.isEnough, let median = statistics.medianSeconds else { return nil }
    let minutes = DelayRounding.minutes(median)
    return median >= 0 ? minutes : -minutes
  }

  /// The fewest days a record is told from.
  public static var minimumDays: Int { DelayStatistics.minimumCount }
}

extension TransitSession {
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool { store.feedNames.count > 1 }

  /// Saves `commute` in the user's data (replacing one of its name), stamped `now`.
  /// - Throws: what opening or writing the user's data throws.
  public func saveCommute(_ commute: UserStore.Commute, now: UnixTime) throws {
    try userData.open()?.saveCommute(commute, now: now.seconds)
  }
}
