import GTFS
import History
import Merge
import TransitModel
import UserData

/// What `transit history` asks: the calls of a stop (or a route), over the last days, maybe
/// only some hours, weekdays, a route or a destination.
public struct HistoryQuery: Sendable, Equatable {
  /// The stops asked about (a station's platforms included); nil: every stop of `routeIDs`.
  public var stopIDs: Set<String>?
  /// Only these routes (route_ids); nil: any.
  public var routeIDs: Set<String>?
  /// Only trips whose headsign contains this (case folded).
  public var headsign: String?
  /// The days back from `now` (default 30).
  public var days: Int = 30
  /// Only calls scheduled from this local hour (included) to that one (excluded).
  public var hours: ClosedRange<Int>?
  /// Only calls scheduled Monday to Friday.
  public var weekdaysOnly = false

  /// Creates a query.
  public init(
    stopIDs: Set<String>? = nil, routeIDs: Set<String>? = nil, headsign: String? = nil, days: Int = 30, hours: ClosedRange<Int>? = nil,
    weekdaysOnly: Bool = false
  ) {
    self.stopIDs = stopIDs
    self.routeIDs = routeIDs
    self.headsign = headsign
    self.days = days
    self.hours = hours
    self.weekdaysOnly = weekdaysOnly
  }
}

/// The answer of `transit history`: the calls recorded with an actual, their delay figures
/// overall and by hour, prediction accuracy per route and stop, and ghost trips and
/// cancellations by day.
public struct HistoryAnswer: Sendable, Encodable {
  /// One call with its actual.
  public struct Row: Sendable, Encodable, Equatable {
    public var event: StopEvent
    /// The local service day and hour of its scheduled time.
    public var localDate: ServiceDate
    public var localHour: Int
    public var delaySeconds: Int64?

    enum CodingKeys: String, CodingKey {
      case tripID = "trip_id", serviceDate = "service_date", routeID = "route_id", headsign, stopID = "stop_id"
      case stopSequence = "stop_sequence", scheduled, actual, actualKind = "actual_kind", actualLow = "actual_low"
      case actualHigh = "actual_high", delaySeconds = "delay_seconds", lastPredicted = "last_predicted"
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(event.key.trip.tripID, forKey: .tripID)
      try c.encode(String(event.key.trip.serviceDate), forKey: .serviceDate)
      try c.encode(event.routeID, forKey: .routeID)
      try c.encode(event.headsign, forKey: .headsign)
      try c.encode(event.stopID, forKey: .stopID)
      try c.encode(event.key.stopSequence, forKey: .stopSequence)
      try c.encode(event.scheduled, forKey: .scheduled)
      try c.encode(event.actual, forKey: .actual)
      try c.encode(event.kind.map { $0 == .observed ? "observed" : "inferred" }, forKey: .actualKind)
      try c.encode(event.actualLow, forKey: .actualLow)
      try c.encode(event.actualHigh, forKey: .actualHigh)
      try c.encode(delaySeconds, forKey: .delaySeconds)
      try c.encode(event.lastPredicted, forKey: .lastPredicted)
    }
  }

  /// One hour of the day's figures.
  public struct Hour: Sendable, Encodable {
    public var hour: Int
    public var statistics: DelayStatistics
  }

  /// Prediction accuracy of one route at one stop.
  public struct Accuracy: Sendable, Encodable {
    public var routeID: String
    public var routeName: String
    public var stopID: String
    public var score: ETAAccuracy.Score

    enum CodingKeys: String, CodingKey { case routeID = "route_id", routeName = "route", stopID = "stop_id", score }
  }

  /// Ghost trips and cancellations of one day.
  public struct Day: Sendable, Encodable {
    public var date: ServiceDate
    public var ghostTrips: Int
    public var cancellations: Int

    enum CodingKeys: String, CodingKey { case date, ghostTrips = "ghost_trips", cancellations }
    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(date.description, forKey: .date)
      try c.encode(ghostTrips, forKey: .ghostTrips)
      try c.encode(cancellations, forKey: .cancellations)
    }
  }

  /// What was asked, in words ("stop 4527 Tallaght Village", "route 27").
  public var subject: String
  /// The window, Unix seconds.
  public var from: Int64
  public var to: Int64
  /// The thresholds the figures use.
  public var earlySeconds: Int64
  public var lateSeconds: Int64
  /// Calls with an actual and a schedule, by scheduled time.
  public var rows: [Row]
  /// Calls the feed said it skipped.
  public var skips: Int
  /// The figures of every row.
  public var overall: DelayStatistics
  /// The figures per local hour of the scheduled time (hours with rows only).
  public var byHour: [Hour]
  /// Prediction accuracy per route and stop.
  public var accuracy: [Accuracy]
  /// All of the predictions judged.
  public var accuracyOverall: ETAAccuracy.Score
  /// Ghost trips and cancellations per day (days with any).
  public var days: [Day]
  /// The clock the days and hours are read on (the first feed held's).
  public var zone: LocalZone

  /// The figures of a set of calls (fewer than `Statistics.minimumCount`: nothing claimed).
  public typealias Statistics = DelayStatistics
  /// Prediction accuracy over some predictions, per bucket of how far ahead they were made.
  public typealias Score = ETAAccuracy.Score
  /// The labels of the prediction-accuracy buckets, in order ("0-3 min", ...).
  public static var accuracyBucketLabels: [String] { ETAAccuracy.buckets.map(\.label) }

  enum CodingKeys: String, CodingKey {
    case subject, from, to, earlySeconds = "early_seconds", lateSeconds = "late_seconds", overall, byHour = "by_hour", skips
    case accuracyOverall = "prediction_accuracy", accuracy = "prediction_accuracy_by_route_and_stop", days = "by_day", rows
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(subject, forKey: .subject)
    try c.encode(from, forKey: .from)
    try c.encode(to, forKey: .to)
    try c.encode(earlySeconds, forKey: .earlySeconds)
    try c.encode(lateSeconds, forKey: .lateSeconds)
    try c.encode(overall, forKey: .overall)
    try c.encode(byHour, forKey: .byHour)
    try c.encode(skips, forKey: .skips)
    try c.encode(accuracyOverall, forKey: .accuracyOverall)
    try c.encode(accuracy, forKey: .accuracy)
    try c.encode(days, forKey: .days)
    try c.encode(rows, forKey: .rows)
  }
}

extension TransitSession {
  /// The history of `query` in `history` over the `query.days` days before `now`.
  /// - Throws: the history's errors.
  public func history(_ query: HistoryQuery, subject: String, in history: HistoryStore, now: UnixTime) throws -> HistoryAnswer {
    let to = now.seconds
    let from = to - Int64(query.days) * 86_400
    let zone = store.feedNames.first.map { store.timeZone(of: $0) }
    let all = try history.events(stopIDs: query.stopIDs, routeIDs: query.routeIDs, from: from, to: to)
    let needle = query.headsign.map { $0.lowercased() }
    var rows: [HistoryAnswer.Row] = []
    var skips = 0
    var kept: [StopEvent] = []
    for event in all {
      guard let scheduled = event.scheduled else { continue }
      if let needle, !event.headsign.lowercased().contains(needle) { continue }
      let local = scheduled + Int64(zone?.secondsFromGMT(at: scheduled) ?? 0)
      let days = Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
      let hour = Int((((local % 86_400) + 86_400) % 86_400) / 3600)
      let date = ServiceDate(daysSinceEpoch: days)
      if let hours = query.hours, !(hours.lowerBound <= hour && hour < hours.upperBound) { continue }
      if query.weekdaysOnly, date.weekday > 5 { continue }
      if event.isSkipped {
        skips += 1
        continue
      }
      guard event.actual != nil else { continue }
      kept.append(event)
      rows.append(HistoryAnswer.Row(event: event, localDate: date, localHour: hour, delaySeconds: event.delaySeconds))
    }
    let early = options.reconciler.earlyThresholdSeconds
    let late = options.reconciler.lateThresholdSeconds
    let overall = DelayStatistics(rows.compactMap(\.delaySeconds), earlySeconds: early, lateSeconds: late)
    var byHour: [HistoryAnswer.Hour] = []
    for hour in Set(rows.map(\.localHour)).sorted() {
      byHour.append(
        HistoryAnswer.Hour(
          hour: hour,
          statistics: DelayStatistics(
            rows.filter { $0.localHour == hour }.compactMap(\.delaySeconds), earlySeconds: early, lateSeconds: late)))
    }
    // Prediction accuracy: each sampled prediction against its call's actual.
    let actuals = Dictionary(kept.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
    var samples: [String: [ETAAccuracy.Sample]] = [:]
    var all2: [ETAAccuracy.Sample] = []
    for prediction in try history.predictions(of: kept.map(\.key)) {
      guard let event = actuals[prediction.key], let actual = event.actual else { continue }
      let sample = ETAAccuracy.Sample(madeAt: prediction.madeAt, predicted: prediction.predicted, actual: actual)
      samples[event.routeID + "\u{0}" + event.stopID, default: []].append(sample)
      all2.append(sample)
    }
    var accuracy: [HistoryAnswer.Accuracy] = []
    for key in samples.keys.sorted() {
      let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
      let name = (try? store.route(RouteID(parts[0])))?.shortName ?? parts[0]
      accuracy.append(
        HistoryAnswer.Accuracy(
          routeID: parts[0], routeName: name.isEmpty ? parts[0] : name, stopID: parts[1], score: ETAAccuracy.score(samples[key]!)))
    }
    // Ghosts and cancellations of the routes asked about (of the stop's routes, for a stop).
    let routes = query.routeIDs ?? Set(all.map(\.routeID))
    var byDay: [ServiceDate: (Int, Int)] = [:]
    for event in try history.tripEvents(routeIDs: routes, from: from, to: to) {
      guard let date = ServiceDate(yyyymmdd: event.trip.serviceDate) else { continue }
      var counts = byDay[date] ?? (0, 0)
      if event.kind == .ghost { counts.0 += 1 } else { counts.1 += 1 }
      byDay[date] = counts
    }
    return HistoryAnswer(
      subject: subject, from: from, to: to, earlySeconds: early, lateSeconds: late, rows: rows, skips: skips, overall: overall,
      byHour: byHour, accuracy: accuracy, accuracyOverall: ETAAccuracy.score(all2),
      days: byDay.keys.sorted().map { HistoryAnswer.Day(date: $0, ghostTrips: byDay[$0]!.0, cancellations: byDay[$0]!.1) },
      zone: zone ?? LocalZone.utc)
  }

  /// "your 08:05: on time 4 of 6 days, usually 2 min late": how the departure a commute takes
  /// (its route, from its stop, at that scheduled time of day) ran on the days recorded before
  /// `now`; nil when the history holds none of it.
  public func commuteRecord(
    stopIDs: Set<String>, routeID: String, scheduled: UnixTime, in history: HistoryStore, now: UnixTime, days: Int = 60
  ) throws -> CommuteRecord? {
    let zone = store.feedNames.first.map { store.timeZone(of: $0) }
    func timeOfDay(_ t: Int64) -> Int64 {
      let local = t + Int64(zone?.secondsFromGMT(at: t) ?? 0)
      return ((local % 86_400) + 86_400) % 86_400
    }
    let wanted = timeOfDay(scheduled.seconds)
    let events = try history.events(
      stopIDs: stopIDs, routeIDs: [routeID], from: now.seconds - Int64(days) * 86_400, to: now.seconds - 60)
    let delays = events.filter { event in
      guard let s = event.scheduled, event.actual != nil else { return false }
      return timeOfDay(s) == wanted
    }.compactMap(\.delaySeconds)
    guard !delays.isEmpty else { return nil }
    return CommuteRecord(
      scheduled: scheduled,
      statistics: DelayStatistics(
        delays, earlySeconds: options.reconciler.earlyThresholdSeconds, lateSeconds: options.reconciler.lateThresholdSeconds))
  }

  /// The learned leave-now margin: the 90th percentile lateness (never below zero) of `routeID`
  /// at `stopIDs` in the local hour of `departs`, from at least `LearnedMargin.minimumCount`
  /// recorded calls over the last 60 days; nil with fewer.
  public func learnedMargin(
    stopIDs: Set<String>, routeID: String, feed: FeedName, departs: UnixTime, in history: HistoryStore, now: UnixTime
  ) throws -> LearnedMargin? {
    // The hour on the clock of the feed that runs the route (not the first feed held's).
    let zone: LocalZone? = store.timeZone(of: feed)
    func hour(_ t: Int64) -> Int64 {
      let local = t + Int64(zone?.secondsFromGMT(at: t) ?? 0)
      return (((local % 86_400) + 86_400) % 86_400) / 3600
    }
    let wanted = hour(departs.seconds)
    let delays = try history.events(stopIDs: stopIDs, routeIDs: [routeID], from: now.seconds - 60 * 86_400, to: now.seconds)
      .filter { $0.actual != nil && $0.scheduled.map(hour) == wanted }.compactMap(\.delaySeconds).sorted()
    guard delays.count >= LearnedMargin.minimumCount else { return nil }
    return LearnedMargin(seconds: max(0, DelayStatistics.percentile(delays, 90)), count: delays.count, hour: Int(wanted))
  }
}

/// The margin leave-now advice uses for one departure, and which rule gave it
/// (`leave-margin = learned`, issue 34).
public struct LeaveMarginChoice: Sendable, Equatable {
  /// The margin.
  public var margin: LeaveAdvice.Margin
  /// The learned figure it comes from; nil when the fixed rule applies (not learning, no
  /// history, or fewer than `LearnedMargin.minimumCount` calls recorded).
  public var learned: LearnedMargin?
}

extension TransitSession {
  /// The leave-now margin for `departure`: with `learning`, the learned margin of its route at
  /// its stop in its hour where `history` holds enough calls; else `fixed`. Every command that
  /// advises when to leave (`departures --from`, `commute --watch`) asks here, so they cannot
  /// choose two ways.
  public func leaveMargin(
    for departure: Departure, fixed: LeaveAdvice.Margin, learning: Bool, history: HistoryStore?, now: UnixTime
  ) throws -> LeaveMarginChoice {
    guard learning, let history else { return LeaveMarginChoice(margin: fixed, learned: nil) }
    let call = departure.call
    guard
      let learned = try learnedMargin(
        stopIDs: [call.stopID.rawValue], routeID: call.routeID.rawValue, feed: call.feed, departs: departure.time ?? now,
        in: history, now: now)
    else { return LeaveMarginChoice(margin: fixed, learned: nil) }
    return LeaveMarginChoice(margin: LeaveAdvice.Margin(learnedSeconds: learned.seconds), learned: learned)
  }
}

/// How one commute departure ran on the days recorded.
public struct CommuteRecord: Sendable, Equatable {
  /// Its scheduled time (today's).
  public var scheduled: UnixTime
  /// Its delays' figures, one per recorded day.
  public var statistics: DelayStatistics
}

/// A leave-now margin learned from the history.
public struct LearnedMargin: Sendable, Hashable {
  /// The fewest recorded calls a learned margin is made from.
  public static let minimumCount = 10
  /// The margin: the 90th percentile lateness, in seconds.
  public var seconds: Int64
  /// How many calls it comes from, and the local hour.
  public var count: Int
  public var hour: Int
}
