import GTFSRealtime
import TransitModel

/// Reconciles the timetable with realtime: schedule and predictions in, answers out
/// (DESIGN.md, "Merge rules" 4–7, 11, 12, 14).
///
/// Pure: no I/O, no clock of its own, no time zones; the caller passes `now` and absolute times.
///
/// ```swift
/// let (departures, report) = Reconciler.departures(
///   scheduled: calls, trips: trips, feeds: [tripUpdates], now: now,
///   request: DepartureRequest(stopIDs: ["TINT-A"], from: now, feed: "demo", fallbackServiceDate: today))
/// ```
public enum Reconciler {
  /// Everything realtime says, per trip instance.
  public struct Realtime: Hashable, Sendable {
    /// How old the realtime is.
    public var freshness: RealtimeFreshness
    /// Matched (and duplicated) trip instances with their expected times.
    public var predictions: [TripInstance: TripPrediction]
    /// Instances DELETED: not to be shown.
    public var deleted: Set<TripInstance>
    /// Trips the timetable lacks (ADDED, NEW).
    public var added: [AddedTrip]
    /// What could not be used.
    public var report: MergeReport
    /// Routes whose scheduled trips the feed replaces until the time given (NYCT's
    /// trip_replacement_period, rule 16): a scheduled call of one without a prediction, before
    /// that time, is not running.
    public var replacedRoutes: [RouteID: UnixTime] = [:]

    /// Creates a realtime answer (`LiveRealtime.none` builds the empty one).
    public init(
      freshness: RealtimeFreshness, predictions: [TripInstance: TripPrediction], deleted: Set<TripInstance>, added: [AddedTrip],
      report: MergeReport
    ) {
      self.freshness = freshness
      self.predictions = predictions
      self.deleted = deleted
      self.added = added
      self.report = report
    }
  }

  // MARK: - Freshness (rule 11)

  /// How old the realtime in `feeds` is at `now`: judged on the feeds holding trip updates (all
  /// feeds when none does), by the newest header timestamp (else entity timestamp).
  public static func freshness(
    of feeds: [FeedMessage], now: UnixTime, options: ReconcilerOptions = .init()
  )
    -> RealtimeFreshness
  {
    guard !feeds.isEmpty else { return RealtimeFreshness(status: .none) }
    let withTrips = feeds.filter { $0.entities.contains(where: \.hasTripUpdate) }
    let judged = withTrips.isEmpty ? feeds : withTrips
    let stamps = judged.compactMap { feed -> UInt64? in
      feed.header?.timestamp
        ?? feed.entities.compactMap { $0.tripUpdate?.timestamp ?? $0.vehicle?.timestamp }.max()
    }
    // A feed that gives no time at all cannot be judged: its age is unknown (never "fresh").
    guard let newest = stamps.max(), newest <= UInt64(Int64.max) else { return RealtimeFreshness(status: .unknown) }
    let stamp = UnixTime(Int64(newest))
    let age = now - stamp
    let status: RealtimeStatus =
      age > options.ignoreAfterSeconds ? .expired : age > options.staleAfterSeconds ? .stale : .fresh
    return RealtimeFreshness(status: status, feedTimestamp: stamp, ageSeconds: age)
  }

  // MARK: - Trips (rules 4–7)

  /// Matches every trip update in `feeds` to the trip instances in `trips` and works out the
  /// expected time at each of their stops.
  ///
  /// - Parameters:
  ///   - trips: the scheduled trip instances the updates may refer to, each with its whole stop
  ///     list (several instances of one trip_id are told apart by start_date / start_time, else
  ///     by nearness to the feed's time).
  ///   - feeds: decoded feeds of any kind; trip updates and vehicle positions are used.
  ///   - now: the current time, for freshness.
  ///   - serviceDayStarts: when each service date's times count from (noon minus 12 h in the
  ///     agency's zone), for the dates DUPLICATED trips move to; a date not given is taken to
  ///     start whole days after the original's (wrong by the hour across a DST change).
  /// - Complexity: O(updates × stops of their trip) plus O(trips) to index.
  public static func realtime(
    trips: [ScheduledTrip], feeds: [FeedMessage], now: UnixTime, options: ReconcilerOptions = .init(),
    serviceDayStarts: [ServiceDate: UnixTime] = [:]
  ) -> Realtime {
    let (feeds, outOfRange) = RealtimeBounds.bounded(feeds)
    var result = realtime(trips: trips, boundedFeeds: feeds, now: now, options: options, serviceDayStarts: serviceDayStarts)
    result.report.outOfRangeCount = outOfRange
    return result
  }

  /// `realtime(trips:feeds:now:options:serviceDayStarts:)` of feeds already bounded
  /// (`RealtimeBounds.bounded`, whose count is the caller's to report): `LiveRealtime` bounds
  /// its feeds before it resolves their descriptors, and checking every value of a large feed a
  /// second time cost as much as a tenth of the match.
  package static func realtime(
    trips: [ScheduledTrip], boundedFeeds feeds: [FeedMessage], now: UnixTime, options: ReconcilerOptions = .init(),
    serviceDayStarts: [ServiceDate: UnixTime] = [:]
  ) -> Realtime {
    let freshness = freshness(of: feeds, now: now, options: options)
    var result = Realtime(freshness: freshness, predictions: [:], deleted: [], added: [], report: MergeReport())
    result.replacedRoutes = replacementPeriods(in: feeds)
    if freshness.status == .expired, let age = freshness.ageSeconds {
      result.report.issues.append(.expiredFeed(ageSeconds: age))
    }
    guard freshness.isUsable else { return result }

    var byTrip: [TripID: [ScheduledTrip]] = [:]
    for trip in trips { byTrip[trip.instance.tripID, default: []].append(trip) }
    let vehicles = VehicleIndex(feeds: feeds)

    for feed in feeds {
      let feedTime = feed.header?.timestamp.map { UnixTime(Int64(clamping: $0)) } ?? now
      for entity in feed.entities where !entity.isDeletedOrDefault {
        guard let update = entity.tripUpdate else { continue }
        let descriptor = update.trip ?? TripDescriptor()
        result.report.tripUpdateCount += 1
        guard let rawTripID = descriptor.tripID, !rawTripID.isEmpty else {
          result.report.issues.append(.tripUpdateWithoutTripID(entityID: entity.id))
          result.report.unmatched[.ambiguous, default: 0] += 1
          continue
        }
        let tripID = TripID(rawTripID)
        let relationship = descriptor.scheduleRelationshipOrDefault
        let reference = update.timestamp.map { UnixTime(Int64(clamping: $0)) } ?? feedTime
        let candidates = byTrip[tripID] ?? []
        if let stamp = update.timestamp.map({ UnixTime(Int64(clamping: $0)) }), now - stamp > options.ignoreAfterSeconds {
          result.report.issues.append(.expiredUpdate(tripID: rawTripID, ageSeconds: now - stamp))
          result.report.unmatched[.expired, default: 0] += 1
          continue
        }

        if relationship == .duplicated {
          // Without trip_properties (older producers) start_time is the copy's new start, not
          // the original's: the original is found by trip_id and start_date alone.
          var originalDescriptor = descriptor
          if update.tripProperties == nil { originalDescriptor.startTime = nil }
          guard let original = match(originalDescriptor, among: candidates, near: reference, within: .max),
            let copy = duplicate(
              original, properties: update.tripProperties ?? descriptor.startTime.map { .init(startTime: $0) },
              serviceDayStarts: serviceDayStarts)
          else {
            result.report.issues.append(.unusableDuplicate(tripID: rawTripID))
            result.report.unmatched[candidates.isEmpty ? .unknownTrip : .notRunning, default: 0] += 1
            continue
          }
          result.report.matchedTripUpdateCount += 1
          if update.tripProperties == nil, let start = descriptor.startTime {
            result.report.issues.append(.duplicatedFromStartTime(copy.instance, startTime: start))
          }
          guard result.predictions[copy.instance] == nil else {
            result.report.issues.append(.duplicateUpdate(copy.instance))
            result.report.matchedTripUpdateCount -= 1
            result.report.unmatched[.duplicate, default: 0] += 1
            continue
          }
          var prediction = predict(copy, update: update, options: options, report: &result.report)
          prediction.isAdded = true
          prediction.isAwaitingTrain = Self.isAwaitingTrain(update)
          prediction.duplicateOf = original.instance.tripID
          prediction.vehicleID = update.vehicle?.id ?? vehicles.vehicle(for: copy.instance)
          result.predictions[copy.instance] = prediction
          continue
        }

        guard
          let trip = match(descriptor, among: candidates, near: reference, within: options.matchWindowSeconds).map({ chosen in
            earlierRunByPredictions(update, chosen: chosen, among: candidates) ?? chosen
          })
        else {
          if relationship == .added || relationship == .new {
            // An added trip is used as it is: it counts as matched (MergeReport says so).
            result.report.matchedTripUpdateCount += 1
            result.report.addedTripUpdateCount += 1
            result.added.append(addedTrip(update, tripID: tripID))
          } else {
            result.report.issues.append(
              .unmatchedTrip(tripID: rawTripID, startDate: descriptor.startDate, startTime: descriptor.startTime))
            result.report.unmatched[candidates.isEmpty ? .unknownTrip : .notRunning, default: 0] += 1
          }
          continue
        }
        result.report.matchedTripUpdateCount += 1
        let instance = trip.instance
        if let given = descriptor.startDate.flatMap({ ServiceDate(gtfs: $0) }), given != instance.serviceDate {
          result.report.issues.append(.repairedStartDate(instance, startDate: given))
        }
        guard result.predictions[instance] == nil, !result.deleted.contains(instance) else {
          result.report.issues.append(.duplicateUpdate(instance))
          result.report.matchedTripUpdateCount -= 1
          result.report.unmatched[.duplicate, default: 0] += 1
          continue
        }
        switch relationship {
        case .deleted:
          result.deleted.insert(instance)
        case .canceled:
          result.predictions[instance] = TripPrediction(
            instance: instance, stops: trip.stops.map { PredictedStop(stop: $0) }, isCanceled: true,
            vehicleID: update.vehicle?.id ?? vehicles.vehicle(for: instance))
        default:
          let issuesBefore = result.report.issues.count
          var prediction = predict(trip, update: update, options: options, report: &result.report)
          // Every stop it names is foreign to the trip (each one an unmatched stop, as `predict`
          // found): nothing of it can be placed, so it is not matched.
          let unplaced = result.report.issues[issuesBefore...].count { issue in
            if case .unmatchedStop = issue { return true }
            return false
          }
          if !update.stopTimeUpdates.isEmpty && unplaced == update.stopTimeUpdates.count {
            result.report.matchedTripUpdateCount -= 1
            result.report.unmatched[.noStopKnown, default: 0] += 1
            continue
          }
          prediction.vehicleID = update.vehicle?.id ?? vehicles.vehicle(for: instance)
          prediction.isAwaitingTrain = Self.isAwaitingTrain(update)
          result.predictions[instance] = prediction
        }
      }
    }
    return result
  }

  /// The instance among `candidates` a descriptor names: same start_date (the service date),
  /// same start_time for frequency instances, else the one running nearest to `reference`.
  static func match(
    _ descriptor: TripDescriptor, among candidates: [ScheduledTrip], near reference: UnixTime, within window: Int64
  ) -> ScheduledTrip? {
    var found = candidates
    let date = descriptor.startDate.flatMap { ServiceDate(gtfs: $0) }
    if let date {
      found = found.filter { $0.instance.serviceDate == date }
      if found.isEmpty { return afterMidnightRun(descriptor, among: candidates) }
    }
    if let start = descriptor.startTime.flatMap({ ServiceTime(gtfs: $0) }),
      found.contains(where: { $0.instance.startTime != nil })
    {
      found = found.filter { $0.instance.startTime == start }
    }
    func distance(_ trip: ScheduledTrip) -> Int64 {
      guard let span = trip.span else { return .max }
      if span.contains(reference) { return 0 }
      return reference < span.lowerBound ? span.lowerBound - reference : reference - span.upperBound
    }
    // start_date names the run; without it only a run near the update's time can be meant.
    if date == nil { found = found.filter { distance($0) <= window } }
    guard found.count > 1 else { return found.first }
    return found.min { a, b in
      let da = distance(a), db = distance(b)
      return da != db ? da < db : a.instance < b.instance
    }
  }

  /// The run a descriptor means when its start_date is the calendar date of an after-midnight
  /// departure rather than the service date (some producers do this): among `candidates` (the
  /// instances on dates the trip's service runs), none is on start_date, and one on the day
  /// before has its first departure at or after 24:00:00; a start_time, if given, must be
  /// that departure minus 24 h. Nil when the descriptor has no start_date, or when no such run
  /// (or more than one) exists.
  public static func afterMidnightRun(_ descriptor: TripDescriptor, among candidates: [ScheduledTrip]) -> ScheduledTrip? {
    guard let date = descriptor.startDate.flatMap({ ServiceDate(gtfs: $0) }),
      !candidates.contains(where: { $0.instance.serviceDate == date })
    else { return nil }
    let start = descriptor.startTime.flatMap { ServiceTime(gtfs: $0) }
    if descriptor.startTime != nil && start == nil { return nil }
    let previous = date.adding(days: -1)
    let runs = candidates.filter { trip in
      guard trip.instance.serviceDate == previous, let dayStart = trip.serviceDayStart, let first = trip.span?.lowerBound
      else { return false }
      let offset = first - dayStart  // the GTFS time of the first departure
      guard offset >= 86_400 else { return false }
      return start.map { Int64($0.seconds) + 86_400 == offset } ?? true
    }
    return runs.count == 1 ? runs[0] : nil
  }

  /// The general after-midnight repair: the day before's run of `chosen`'s trip, when the trip
  /// runs on both days, that run's first departure is at or after 24:00:00 (so it falls on
  /// start_date's calendar day), and the update's absolute times lie within 30 minutes of that
  /// run's timetable (the median over the stops they name) but 3 hours or more from `chosen`'s.
  /// Nil otherwise: `chosen` stands.
  public static func earlierRunByPredictions(
    _ update: TripUpdate, chosen: ScheduledTrip, among candidates: [ScheduledTrip]
  ) -> ScheduledTrip? {
    guard update.trip?.startDate != nil else { return nil }
    let previous = chosen.instance.serviceDate.adding(days: -1)
    guard
      let earlier = candidates.first(where: {
        $0.instance.serviceDate == previous && $0.instance.tripID == chosen.instance.tripID
      }),
      let dayStart = earlier.serviceDayStart, let first = earlier.span?.lowerBound, first - dayStart >= 86_400,
      let near = medianOffset(of: update, from: earlier), near <= 30 * 60,
      let far = medianOffset(of: update, from: chosen), far >= 3 * 3600
    else { return nil }
    return earlier
  }

  /// The median of |predicted − scheduled| over the stops of `trip` that `update` gives an
  /// absolute time for (by stop_sequence, else stop_id); nil when it gives none.
  static func medianOffset(of update: TripUpdate, from trip: ScheduledTrip) -> Int64? {
    var offsets: [Int64] = []
    for stu in update.stopTimeUpdates {
      guard let time = (stu.departure?.time ?? stu.arrival?.time).map({ Int64(clamping: $0) }) else { continue }
      let stop =
        stu.stopSequence.flatMap { sequence in trip.stops.first { $0.stopSequence == Int(sequence) } }
        ?? stu.stopID.flatMap { id in trip.stops.first { $0.stopID.rawValue == id } }
      guard let scheduled = stop.flatMap({ $0.departure ?? $0.arrival }) else { continue }
      offsets.append(abs(time - scheduled.seconds))
    }
    guard !offsets.isEmpty else { return nil }
    offsets.sort()
    return offsets[offsets.count / 2]
  }

  /// A copy of `original` moved to the DUPLICATED trip's new id, date and start time.
  ///
  /// The new service day starts where `serviceDayStarts` says; a date it lacks is taken to start
  /// whole days after the original's (a DST change between the two dates would shift it by the
  /// hour).
  static func duplicate(
    _ original: ScheduledTrip, properties: TripUpdate.TripProperties?, serviceDayStarts: [ServiceDate: UnixTime] = [:]
  ) -> ScheduledTrip? {
    guard let properties else { return nil }
    let newID = properties.tripID.map(TripID.init) ?? original.instance.tripID
    let date = properties.startDate.flatMap { ServiceDate(gtfs: $0) } ?? original.instance.serviceDate
    let startTime = properties.startTime.flatMap { ServiceTime(gtfs: $0) }
    if properties.startTime != nil && startTime == nil { return nil }
    let days = Int64(date.daysSinceEpoch - original.instance.serviceDate.daysSinceEpoch)
    let newDayStart = serviceDayStarts[date] ?? original.serviceDayStart.map { $0 + days * 86_400 }
    var shift = days * 86_400
    if let newDayStart, let oldDayStart = original.serviceDayStart { shift = newDayStart - oldDayStart }
    if let startTime {
      guard let newDayStart, let first = original.span?.lowerBound else { return nil }
      shift = (newDayStart + Int64(startTime.seconds)) - first
    }
    // A copy keeping the original's trip_id and date (no new trip_id given) is told apart from
    // it by its start time, frequency trip or not.
    let keepsKey = newID == original.instance.tripID && date == original.instance.serviceDate
    let instance = TripInstance(
      tripID: newID, serviceDate: date, startTime: original.instance.startTime == nil && !keepsKey ? nil : startTime)
    var copy = ScheduledTrip(
      instance: instance, routeID: original.routeID,
      stops: original.stops.map {
        ScheduledStop(
          stopID: $0.stopID, stopSequence: $0.stopSequence, arrival: $0.arrival.map { $0 + shift },
          departure: $0.departure.map { $0 + shift }, shapeDistance: $0.shapeDistance)
      })
    copy.serviceDayStart = newDayStart
    return copy
  }

  /// Whether the producer says no train serves the update's trip yet: NYCT's extension without
  /// `is_assigned` (its trains are assigned at the origin terminal; until then the times are
  /// the plan's). Without the extension nothing is said.
  static func isAwaitingTrain(_ update: TripUpdate) -> Bool {
    guard let nyct = update.trip?.nyctTripDescriptor else { return false }
    return nyct.isAssigned != true
  }

  /// An ADDED/NEW trip from its update's own stops and absolute times.
  static func addedTrip(_ update: TripUpdate, tripID: TripID) -> AddedTrip {
    let descriptor = update.trip ?? TripDescriptor()
    var calls: [AddedTrip.Call] = []
    for (index, stu) in update.stopTimeUpdates.enumerated() {
      guard let stopID = stu.stopID else { continue }
      calls.append(
        AddedTrip.Call(
          stopID: StopID(stopID), stopSequence: stu.stopSequence.map(Int.init) ?? index + 1,
          arrival: stu.arrival?.time.map(UnixTime.init), departure: stu.departure?.time.map(UnixTime.init),
          scheduled: (stu.departure?.scheduledTime ?? stu.arrival?.scheduledTime).map(UnixTime.init),
          isSkipped: stu.scheduleRelationshipOrDefault == .skipped))
    }
    return AddedTrip(
      tripID: tripID, routeID: descriptor.routeID.map(RouteID.init),
      serviceDate: descriptor.startDate.flatMap { ServiceDate(gtfs: $0) },
      headsign: update.tripProperties?.tripHeadsign, calls: calls, vehicleID: update.vehicle?.id,
      isAwaitingTrain: isAwaitingTrain(update))
  }
}

/// Vehicle positions by trip, to name the vehicle serving a trip instance.
struct VehicleIndex {
  private var byTrip: [TripID: [(descriptor: TripDescriptor, id: String)]] = [:]

  init(feeds: [FeedMessage]) {
    for feed in feeds {
      for entity in feed.entities {
        guard let vehicle = entity.vehicle, let trip = vehicle.trip, let tripID = trip.tripID,
          let id = vehicle.vehicle?.id ?? vehicle.vehicle?.label ?? entity.id
        else { continue }
        byTrip[TripID(tripID), default: []].append((trip, id))
      }
    }
  }

  /// The vehicle whose trip descriptor names `instance` (a start_date or start_time given must agree).
  func vehicle(for instance: TripInstance) -> String? {
    byTrip[instance.tripID]?.first { entry in
      if let date = entry.descriptor.startDate.flatMap({ ServiceDate(gtfs: $0) }), date != instance.serviceDate {
        return false
      }
      if let start = instance.startTime, let given = entry.descriptor.startTime.flatMap({ ServiceTime(gtfs: $0) }),
        given != start
      {
        return false
      }
      return true
    }?.id
  }
}
