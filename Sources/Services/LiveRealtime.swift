import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// The one realtime matching path: every trip update and vehicle position of the decoded feeds
/// matched once against the timetables held, at `now` (DESIGN.md rules 3, 4, 11). Every
/// command's answer (departures, the home view, commute, plan, vehicles, follow, status,
/// record) is read from one `LiveRealtime`, so two commands cannot disagree about a trip.
///
/// Candidates are the instances of each trip the feeds name, on the service dates around
/// `now` (start_date's alone when given) on which the trip runs. A start_time tells instances
/// apart only for frequencies.txt trips; on a timetabled trip it repeats the first departure
/// and is not part of the instance (the spec allows it, and Caltrain sends it).
public struct LiveRealtime: Sendable {
  /// The decoded feeds, of any kind.
  public let feeds: [FeedMessage]
  /// The moment the realtime is judged at.
  public let now: UnixTime
  /// The options it was matched with.
  public let options: ServiceOptions
  /// Merge's answer: predictions per matched instance, deletions, added trips.
  public let realtime: Reconciler.Realtime
  /// Every candidate instance, with its whole stop list and route.
  public let trips: [ScheduledTrip]
  /// The timetable's details of each trip the feeds name and the timetable holds.
  public let details: [TripID: TripDetails]
  /// What matched, and what did not.
  public let report: RealtimeReport
  /// When the service days DUPLICATED trips move to start.
  public let serviceDayStarts: [ServiceDate: UnixTime]

  /// No realtime at all: the timetable alone.
  public static func none(now: UnixTime, options: ServiceOptions = .init()) -> LiveRealtime {
    LiveRealtime(
      feeds: [], now: now, options: options,
      realtime: Reconciler.Realtime(
        freshness: RealtimeFreshness(status: .none), predictions: [:], deleted: [], added: [], report: MergeReport()),
      trips: [], details: [:], report: RealtimeReport(), serviceDayStarts: [:])
  }

  private init(
    feeds: [FeedMessage], now: UnixTime, options: ServiceOptions, realtime: Reconciler.Realtime, trips: [ScheduledTrip],
    details: [TripID: TripDetails], report: RealtimeReport, serviceDayStarts: [ServiceDate: UnixTime]
  ) {
    self.serviceDayStarts = serviceDayStarts
    self.feeds = feeds
    self.now = now
    self.options = options
    self.realtime = realtime
    self.trips = trips
    self.details = details
    self.report = report
  }

  /// A trip's facts and its stop times (`Store.tripFacts`, `Store.stopTimes(of:)`), nil when
  /// `feed` does not hold it.
  static func tripFacts(_ tripID: TripID, feed: FeedName, store: Store) throws -> (TripFacts, TripStopTimes)? {
    guard let found = try store.tripFacts(tripID, feed: feed) else { return nil }
    return (found, try store.stopTimes(of: found))
  }

  /// Matches `feeds` against the timetables in `store` at `now`.
  ///
  /// With `cache`, what the timetables were asked (trips, their stop times, the instances built
  /// from them, the resolver's answers) is taken from earlier snapshots matched with the same
  /// cache and kept for later ones: the answer is the one without it (the timetables do not
  /// change between snapshots), only cheaper for a sequence of snapshots (`HistoryRecorder`).
  /// - Throws: the store's errors.
  /// - Complexity: a few indexed queries per trip named in the feeds (none for a trip the cache
  ///   holds), then one Merge pass.
  public init(store: Store, feeds given: [FeedMessage], now: UnixTime, options: ServiceOptions, cache: MatchCache? = nil) throws {
    // Out-of-range values go first, so no answer built from `feeds` can meet one; then
    // descriptors that name their trip without a held trip_id (rules 15, 16) are rewritten to
    // the timetable's trip, so everything below, and every answer, matches them one way.
    let (bounded, outOfRange) = RealtimeBounds.bounded(given)
    var resolver = cache?.resolver(store: store, now: now) ?? DescriptorResolver(store: store, now: now)
    let resolution = try resolver.resolve(bounded)
    cache?.keep(resolver)
    let feeds = resolution.feeds
    self.feeds = feeds
    self.now = now
    self.options = options
    // Each trip named, with the start dates and (frequency) start times its descriptors give.
    typealias Named = MatchCache.Descriptor
    var named: [Named] = []
    var seen = Set<Named>()
    var newDates = Set<ServiceDate>()
    for feed in feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        let descriptor = entity.tripUpdate?.trip ?? entity.vehicle?.trip
        guard let descriptor, let id = descriptor.tripID, !id.isEmpty else { continue }
        let entry = Named(
          tripID: TripID(id), startDate: descriptor.startDate.flatMap { ServiceDate(gtfs: $0) },
          startTime: descriptor.startTime.flatMap { ServiceTime(gtfs: $0) })
        if seen.insert(entry).inserted { named.append(entry) }
        if let date = entity.tripUpdate?.tripProperties?.startDate.flatMap({ ServiceDate(gtfs: $0) }) { newDates.insert(date) }
      }
    }
    var details: [TripID: TripDetails] = [:]
    // Trip ids the resolver found no timetable holds are not asked again.
    var unknown = resolution.unknownTripIDs
    var trips: [ScheduledTrip] = []
    var instances = Set<TripInstance>()
    // Per trip: one lookup of its service (the days it runs are then the calendar's) and one
    // read of its stop times, placed on each day asked about.
    var facts: [TripID: (TripFacts, TripStopTimes)] = [:]
    // Each feed's date now: the same for every trip of it (a time-zone computation each).
    var todays: [FeedName: ServiceDate] = [:]
    for entry in named {
      if unknown.contains(entry.tripID) { continue }
      let info: TripDetails
      if let known = details[entry.tripID] ?? resolution.details[entry.tripID] {
        info = known
        details[entry.tripID] = known
      } else {
        // (`map`, not `?.`: a trip the cache found no details for is not asked of the store again.)
        guard let found = try cache.map({ try $0.details(entry.tripID, store: store) }) ?? store.tripDetails(entry.tripID)
        else {
          unknown.insert(entry.tripID)
          continue
        }
        details[entry.tripID] = found
        info = found
      }
      // A descriptor that gives its start date names the same candidates at every snapshot
      // (they do not depend on the time): a sequence of snapshots reads them once.
      if entry.startDate != nil, let known = cache?.candidates(of: entry) {
        for built in known where instances.insert(built.instance).inserted { trips.append(built) }
        continue
      }
      let trip: TripFacts, times: TripStopTimes
      if let known = facts[entry.tripID] {
        (trip, times) = known
      } else {
        guard
          let found = try cache.map({ try $0.facts(entry.tripID, feed: info.feed, store: store) })
            ?? Self.tripFacts(entry.tripID, feed: info.feed, store: store)
        else {
          unknown.insert(entry.tripID)
          continue
        }
        (trip, times) = found
        facts[entry.tripID] = found
      }
      guard !times.isEmpty else { continue }
      // A frequency trip's instance is its start_time; without one there is no instance to name.
      let startTime = trip.isFrequency ? entry.startTime : nil
      if trip.isFrequency && startTime == nil { continue }
      let today: ServiceDate
      if let known = todays[info.feed] {
        today = known
      } else {
        today = store.localDate(of: now, feed: info.feed)
        todays[info.feed] = today
      }
      var dates = entry.startDate.map { [$0] } ?? [today.adding(days: -1), today, today.adding(days: 1)]
      // The earliest time of the trip, in seconds of its service day (its instance's own).
      let earliest = times.earliestTime.map { Int64($0) }
      let latest = times.latestTime.map { Int64($0) }
      let shift = startTime.map { start in Int64(start.seconds) - Int64(times.firstTime ?? Int32(start.seconds)) } ?? 0
      // A start_date may be the calendar date of an after-midnight run of the day before
      // (`Reconciler.afterMidnightRun`, `Reconciler.earlierRunByPredictions`): that run is a
      // candidate too, when the trip does not run on start_date or starts at or after 24:00:00.
      var repairDate: ServiceDate?
      if let given = entry.startDate {
        if try !store.runs(trip, on: given) {
          repairDate = given.adding(days: -1)
          dates.append(given.adding(days: -1))
        } else if let earliest, earliest + shift >= 86_400 {
          repairDate = given.adding(days: -1)
          dates.append(given.adding(days: -1))
        }
      }
      // This entry's candidates (an instance an earlier entry named too is left out below).
      var candidates: [ScheduledTrip] = []
      for date in dates {
        let instance = TripInstance(
          tripID: entry.tripID, serviceDate: date,
          startTime: date == repairDate ? startTime.map { ServiceTime(seconds: $0.seconds + 86_400) } : startTime)
        guard try store.runs(trip, on: date) else { continue }
        let dayStart = store.serviceDayStart(date, feed: info.feed)
        // Without start_date only a run near the feed's time can be meant (`Reconciler.match`
        // takes none more than 6 h away): the day before's or after's, half a day off, is not read.
        if entry.startDate == nil, let earliest, let latest {
          let span = (dayStart + earliest + shift)...(dayStart + latest + shift)
          let distance = span.contains(now) ? 0 : now < span.lowerBound ? span.lowerBound - now : now - span.upperBound
          if distance > 12 * 3600 { continue }
        }
        // The instance's calls depend on the instance alone (its trip, day and start).
        let built: ScheduledTrip
        if let known = cache?.trip(instance) {
          built = known
        } else {
          built = ScheduledTrip(
            instance: instance, routeID: info.route.id, stops: times.calls(dayStart: dayStart, startTime: instance.startTime),
            serviceDayStart: dayStart, route: info.route, headsign: info.headsign)
          cache?.keep(built)
        }
        // Only a run whose first departure is at or after 24:00:00 can be meant by the next date.
        if date == repairDate {
          guard let first = built.stops.compactMap({ $0.departure ?? $0.arrival }).min(), first - dayStart >= 86_400 else {
            continue
          }
        }
        candidates.append(built)
      }
      if entry.startDate != nil { cache?.keep(candidates, of: entry) }
      for built in candidates where instances.insert(built.instance).inserted { trips.append(built) }
    }
    var serviceDayStarts: [ServiceDate: UnixTime] = [:]
    // DUPLICATED trips move to new dates: when those dates' service days start.
    if let feed = details.values.first?.feed ?? store.feedNames.first {
      for date in newDates { serviceDayStarts[date] = store.serviceDayStart(date, feed: feed) }
    }
    // `feeds` were bounded above (and resolving descriptors changes no time).
    var realtime = Reconciler.realtime(
      trips: trips, boundedFeeds: feeds, now: now, options: options.reconciler, serviceDayStarts: serviceDayStarts)
    realtime.report.outOfRangeCount = outOfRange
    self.realtime = realtime
    self.trips = trips
    self.details = details
    self.serviceDayStarts = serviceDayStarts

    var report = RealtimeReport()
    report.hasFeeds = !feeds.isEmpty
    report.freshness = realtime.freshness
    report.merge = realtime.report
    report.tripUpdateCount = realtime.report.tripUpdateCount
    report.matchedTripUpdateCount = realtime.report.matchedTripUpdateCount
    report.match = RealtimeMatch(merge: realtime.report, resolution: resolution)
    report.match.explainUnknownTrips(in: feeds, held: details, candidates: Set(trips.map(\.instance.tripID)))
    report.hasAlertsFeed = feeds.contains { feed in feed.entities.contains { $0.alert != nil } || Self.isAlertsOnly(feed) }
    report.hasTripUpdates = feeds.contains { $0.entities.contains(where: \.hasTripUpdate) }
    report.hasVehiclePositions = feeds.contains { $0.entities.contains(where: \.hasVehicle) }
    var byTrip: [TripID: [ScheduledTrip]] = [:]
    for trip in trips { byTrip[trip.instance.tripID, default: []].append(trip) }
    var vehicleKeys = Set<String>()
    for feed in feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        guard let vehicle = entity.vehicle, let id = vehicle.trip?.tripID, !id.isEmpty else { continue }
        let key = vehicle.vehicle?.id ?? vehicle.vehicle?.label ?? entity.id ?? id
        guard vehicleKeys.insert(key).inserted else { continue }
        report.vehicleCount += 1
        if realtime.freshness.isUsable, Self.pick(vehicle.trip!, among: byTrip[TripID(id)] ?? [], realtime: realtime, now: now) != nil {
          report.matchedVehicleCount += 1
        } else if realtime.added.contains(where: { $0.tripID.rawValue == id }) {
          // On a trip the timetable lacks, built from its update (an ADDED trip, NYCT's own).
          report.matchedVehicleCount += 1
          report.match.vehicles[MatchRule.builtFromUpdate.rawValue, default: 0] += 1
        }
      }
    }
    self.report = report
  }

  /// Whether `feed` may be an alerts feed without alerts: a feed without entities does not say
  /// its kind, and an empty alerts feed (no alert in force) is common, so it counts as one.
  static func isAlertsOnly(_ feed: FeedMessage) -> Bool { feed.entities.isEmpty }

  // MARK: - Reading the match

  /// The candidate instances of `tripID`.
  public func instances(of tripID: TripID) -> [ScheduledTrip] {
    trips.filter { $0.instance.tripID == tripID }
  }

  /// The instance a trip descriptor (of a vehicle position, say) names: the one a trip update
  /// matched when there is one, else by start_date / start_time, else the one running nearest
  /// `now`.
  public func instance(for descriptor: TripDescriptor) -> ScheduledTrip? {
    guard let id = descriptor.tripID, !id.isEmpty else { return nil }
    return Self.pick(descriptor, among: instances(of: TripID(id)), realtime: realtime, now: now)
  }

  static func pick(
    _ descriptor: TripDescriptor, among candidates: [ScheduledTrip], realtime: Reconciler.Realtime, now: UnixTime
  )
    -> ScheduledTrip?
  {
    var found = candidates
    if let date = descriptor.startDate.flatMap({ ServiceDate(gtfs: $0) }) {
      // The run the trip update was matched to, when the merge took the day before's
      // after-midnight run for this start_date (`Reconciler.earlierRunByPredictions`).
      let repaired = realtime.report.issues.lazy.compactMap { issue -> TripInstance? in
        guard case .repairedStartDate(let instance, let given) = issue, given == date else { return nil }
        return instance
      }
      if let run = candidates.first(where: { candidate in repaired.contains { $0 == candidate.instance } }) { return run }
      found = found.filter { $0.instance.serviceDate == date }
      if found.isEmpty { return Reconciler.afterMidnightRun(descriptor, among: candidates) }
    }
    if let start = descriptor.startTime.flatMap({ ServiceTime(gtfs: $0) }), found.contains(where: { $0.instance.startTime != nil }) {
      found = found.filter { $0.instance.startTime == start }
    }
    if let predicted = found.first(where: { realtime.predictions[$0.instance] != nil }) { return predicted }
    func distance(_ trip: ScheduledTrip) -> Int64 {
      guard let span = trip.span else { return .max }
      if span.contains(now) { return 0 }
      return now < span.lowerBound ? span.lowerBound - now : now - span.upperBound
    }
    return found.min { a, b in
      let da = distance(a), db = distance(b)
      return da != db ? da < db : a.instance < b.instance
    }
  }

  /// How far ahead of its timetable the earliest prediction runs, at most the outlier bound
  /// (predictions beyond it are ignored): a departure board reads the timetable this much past
  /// its window's end, so that a trip scheduled after the window but expected in it is listed.
  public var earlyLeadSeconds: Int64 {
    var lead: Int64 = 0
    for prediction in realtime.predictions.values where !prediction.isCanceled {
      for stop in prediction.stops where stop.source != .schedule {
        guard let expected = stop.expected, let scheduled = stop.stop.departure ?? stop.stop.arrival else { continue }
        lead = max(lead, scheduled - expected)
      }
    }
    return min(lead, options.reconciler.outlierSeconds)
  }

  /// The prediction for `instance`, when realtime matched it.
  public func prediction(for instance: TripInstance) -> TripPrediction? { realtime.predictions[instance] }

  /// The expected time (`arrival`: the arrival, else the departure) of `instance` at the first
  /// of its calls after `afterSequence` at one of `stopIDs`; the scheduled time when realtime
  /// says nothing; nil when the trip does not call there (or the call is skipped).
  public func expectedTime(
    of trip: ScheduledTrip, at stopIDs: Set<StopID>, after afterSequence: Int, arrival: Bool
  ) -> (scheduled: UnixTime?, expected: UnixTime?)? {
    guard let call = trip.stops.first(where: { $0.stopSequence > afterSequence && stopIDs.contains($0.stopID) }) else { return nil }
    let scheduled = arrival ? call.arrival ?? call.departure : call.departure ?? call.arrival
    guard let prediction = prediction(for: trip.instance),
      let stop = prediction.stops.first(where: { $0.stop.stopSequence == call.stopSequence })
    else { return (scheduled, nil) }
    if stop.isSkipped || prediction.isCanceled { return nil }
    guard stop.source != .schedule else { return (scheduled, nil) }
    return (scheduled, arrival ? stop.expectedArrival ?? stop.expected : stop.expected)
  }
}

/// What a command's realtime matched, for every command to say in text and JSON.
public struct RealtimeReport: Sendable, Hashable {
  /// How old the realtime is.
  public var freshness = RealtimeFreshness(status: .none)
  /// Whether any realtime feed was given.
  public var hasFeeds = false
  /// Whether a feed held trip updates, vehicle positions, or alerts.
  public var hasTripUpdates = false
  public var hasVehiclePositions = false
  public var hasAlertsFeed = false
  /// Trip updates with a trip_id, and how many matched a trip instance of the timetables held.
  public var tripUpdateCount = 0
  public var matchedTripUpdateCount = 0
  /// Vehicles on a trip (by trip_id), and how many are on a trip instance of the timetables.
  public var vehicleCount = 0
  public var matchedVehicleCount = 0
  /// Merge's own account of what it left out.
  public var merge = MergeReport()
  /// How each trip update and vehicle matched, or why not (rule 18).
  public var match = RealtimeMatch()

  /// An empty report (no realtime).
  public init() {}

  /// What the matching repaired or ignored in the feed, one line each (said under the realtime
  /// line; `repairs` in JSON): start dates read as the day before (after-midnight runs),
  /// DUPLICATED trips copied to their start_time, and the trips whose predictions were ignored
  /// as more than the outlier bound off the timetable.
  public var repairs: [RealtimeRepair] {
    guard freshness.isUsable else { return [] }
    var result: [RealtimeRepair] = []
    var outliers = Set<TripInstance>()
    for issue in merge.issues {
      switch issue {
      case .repairedStartDate(let instance, let given):
        result.append(.startDateOfAfterMidnightRun(instance, startDate: given))
      case .duplicatedFromStartTime(let instance, let start):
        result.append(.duplicateFromStartTime(instance, startTime: start))
      case .outlier(let instance, _, _):
        if outliers.insert(instance).inserted { result.append(.predictionIgnored(instance)) }
      default:
        break
      }
    }
    return result
  }

  /// One line per feed kind that matches nothing or less than half; empty when all is well
  /// (or the realtime is too old to have been used).
  public var warnings: [String] {
    var lines: [String] = []
    let outOfRange = merge.outOfRangeCount
    if outOfRange > 0 {
      lines.append(
        "\(outOfRange) value\(outOfRange == 1 ? "" : "s") out of range (a time past the years 1900-9999, a position off the globe, a speed that is no speed) ignored"
      )
    }
    guard freshness.isUsable else { return lines }
    func check(_ matched: Int, _ total: Int, _ noun: String, _ verb: String) {
      guard total > 0 else { return }
      let plural = total == 1 ? noun : noun + "s"
      if matched == 0 {
        lines.append("\(total) \(plural), none \(verb) this timetable: is it the right feed?")
      } else if matched * 2 < total {
        lines.append("only \(matched) of \(total) \(plural) \(verb) this timetable")
      }
    }
    check(matchedTripUpdateCount, tripUpdateCount, "trip update", "match")
    check(matchedVehicleCount, vehicleCount, "vehicle", "on a trip of")
    return lines
  }
}

/// One thing the realtime matching repaired or ignored in a feed, to say so.
public enum RealtimeRepair: Sendable, Hashable {
  /// start_date named the calendar date of an after-midnight run: matched on the day before.
  case startDateOfAfterMidnightRun(TripInstance, startDate: ServiceDate)
  /// A DUPLICATED trip without trip_properties, copied to its start_time.
  case duplicateFromStartTime(TripInstance, startTime: String)
  /// Predictions more than the outlier bound off the timetable: the timetable's times shown.
  case predictionIgnored(TripInstance)

  /// The word scripts read in JSON.
  public var kind: String {
    switch self {
    case .startDateOfAfterMidnightRun: "start_date_after_midnight"
    case .duplicateFromStartTime: "duplicated_from_start_time"
    case .predictionIgnored: "prediction_ignored"
    }
  }

  /// The trip instance concerned.
  public var instance: TripInstance {
    switch self {
    case .startDateOfAfterMidnightRun(let instance, _), .duplicateFromStartTime(let instance, _), .predictionIgnored(let instance):
      instance
    }
  }

  /// What a rider reads.
  public var text: String {
    switch self {
    case .startDateOfAfterMidnightRun(let instance, let given):
      "trip \(instance.tripID): start_date \(given) read as service day \(instance.serviceDate) (a run after midnight)"
    case .duplicateFromStartTime(let instance, let start):
      "trip \(instance.tripID): DUPLICATED without trip_properties, copied to start \(start) on \(instance.serviceDate)"
    case .predictionIgnored(let instance):
      "trip \(instance.tripID): prediction ignored (too far from the timetable)"
    }
  }
}

/// How every trip update and vehicle of the feeds matched, by rule, and why the others did not
/// (DESIGN.md rule 18): part of every realtime answer (`realtime.match` in JSON).
public struct RealtimeMatch: Sendable, Hashable {
  /// Trip updates matched, by rule (`trip_id`, `descriptor`, `convention`, `built_from_update`).
  public var tripUpdates: [String: Int] = [:]
  /// Trip updates matched by no rule, by reason (`UnmatchedReason`'s words).
  public var unmatchedTripUpdates: [String: Int] = [:]
  /// Up to three examples per reason, for `rt check`.
  public var examples: [String: [String]] = [:]
  /// Vehicles on a trip matched other than by trip_id, by rule.
  public var vehicles: [String: Int] = [:]

  /// Nothing matched (no realtime).
  public init() {}

  init(merge: MergeReport, resolution: DescriptorResolver.Outcome) {
    let added = merge.addedTripUpdateCount
    let descriptor = resolution.tripUpdates[.descriptor] ?? 0
    let convention = resolution.tripUpdates[.convention] ?? 0
    let byTripID = max(0, merge.matchedTripUpdateCount - added - descriptor - convention)
    for (rule, count) in [(MatchRule.tripID, byTripID), (.descriptor, descriptor), (.convention, convention), (.builtFromUpdate, added)]
    where count > 0 {
      tripUpdates[rule.rawValue] = count
    }
    // Merge counts an update left without a trip_id as `ambiguous`: the resolver knows why.
    var unmatched = merge.unmatched
    let unresolved = resolution.unresolvedTripUpdates.values.reduce(0, +)
    unmatched[.ambiguous] = max(0, (unmatched[.ambiguous] ?? 0) - unresolved)
    for (reason, count) in resolution.unresolvedTripUpdates { unmatched[reason, default: 0] += count }
    for (reason, count) in unmatched where count > 0 { unmatchedTripUpdates[reason.rawValue] = count }
    for (reason, list) in resolution.examples { examples[reason.rawValue] = list }
    for (rule, count) in resolution.vehicles where count > 0 { vehicles[rule.rawValue] = count }
  }

  /// Merge counts a trip update whose trip has no candidate instance as an unknown trip: one
  /// whose trip the timetables hold but that does not run then is `not_running_on_start_date`.
  /// Keeps up to three examples of each.
  mutating func explainUnknownTrips(in feeds: [FeedMessage], held: [TripID: TripDetails], candidates: Set<TripID>) {
    var notRunning = 0
    for feed in feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault && entity.hasTripUpdate {
        guard let descriptor = entity.tripUpdate?.trip, let id = descriptor.tripID, !id.isEmpty else { continue }
        switch descriptor.scheduleRelationshipOrDefault {
        case .added, .new, .duplicated: continue
        default: break
        }
        let tripID = TripID(id)
        guard !candidates.contains(tripID) else { continue }
        let reason: UnmatchedReason = held[tripID] == nil ? .unknownTrip : .notRunning
        if reason == .notRunning { notRunning += 1 }
        let date = descriptor.startDate.map { " on \($0)" } ?? ""
        if examples[reason.rawValue, default: []].count < 3 { examples[reason.rawValue, default: []].append("trip \(id)\(date)") }
      }
    }
    let moved = min(notRunning, unmatchedTripUpdates[UnmatchedReason.unknownTrip.rawValue] ?? 0)
    guard moved > 0 else { return }
    unmatchedTripUpdates[UnmatchedReason.unknownTrip.rawValue]! -= moved
    if unmatchedTripUpdates[UnmatchedReason.unknownTrip.rawValue] == 0 { unmatchedTripUpdates[UnmatchedReason.unknownTrip.rawValue] = nil }
    unmatchedTripUpdates[UnmatchedReason.notRunning.rawValue, default: 0] += moved
  }

  /// "98 by convention, 73 built from the update; 2 unmatched (unknown trip)": the rules other
  /// than trip_id and the reasons, for the realtime line; nil when everything matched by trip_id.
  public var summary: String? {
    var parts: [String] = []
    for rule in MatchRule.allCases where rule != .tripID {
      guard let count = tripUpdates[rule.rawValue], count > 0 else { continue }
      parts.append("\(count) " + (rule == .builtFromUpdate ? "built from the update" : "by \(rule.rawValue)"))
    }
    let reasons = UnmatchedReason.allCases.compactMap { reason -> (UnmatchedReason, Int)? in
      guard let count = unmatchedTripUpdates[reason.rawValue], count > 0 else { return nil }
      return (reason, count)
    }
    if !reasons.isEmpty {
      let total = reasons.map(\.1).reduce(0, +)
      let words = reasons.map { "\($0.1) \($0.0.rawValue.replacingUnderscores)" }.joined(separator: ", ")
      parts.append("\(total) unmatched: \(words)")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }
}

extension String {
  fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
