import GTFSRealtime
import TransitModel

/// What `Reconciler.departures` is asked about, beyond the scheduled calls.
public struct DepartureRequest: Hashable, Sendable {
  /// The stops asked about (a station's platforms): where added trips' calls are looked for.
  public var stopIDs: Set<StopID>
  /// Departures expected before this are gone and left out (nil keeps all).
  public var from: UnixTime?
  /// The feed the realtime belongs to (for added trips' calls).
  public var feed: FeedName
  /// The service date of an added trip whose update gives no start_date.
  public var fallbackServiceDate: ServiceDate
  /// When service dates' times count from, for DUPLICATED trips moved to them (see
  /// `Reconciler.realtime`).
  public var serviceDayStarts: [ServiceDate: UnixTime]
  /// Whether arrivals at an added trip's last stop count (`--arrivals`), as the timetable's
  /// calls then include last stops.
  public var includeArrivals: Bool

  /// Creates a request.
  public init(
    stopIDs: Set<StopID>, from: UnixTime?, feed: FeedName, fallbackServiceDate: ServiceDate,
    serviceDayStarts: [ServiceDate: UnixTime] = [:], includeArrivals: Bool = false
  ) {
    self.includeArrivals = includeArrivals
    self.stopIDs = stopIDs
    self.from = from
    self.feed = feed
    self.fallbackServiceDate = fallbackServiceDate
    self.serviceDayStarts = serviceDayStarts
  }
}

extension Reconciler {
  /// The departures at a stop with realtime applied (rules 4–7, 11, 12, 14): predictions first,
  /// the schedule filling the gaps, each trip instance once per call, sorted by expected (else
  /// scheduled) time.
  ///
  /// - Parameters:
  ///   - scheduled: the timetable's calls at the stop (look back far enough for late trips).
  ///   - trips: the whole stop lists of the instances the feed updates (for propagation; an
  ///     instance without one is matched on its calls alone).
  ///   - feeds: decoded realtime feeds (trip updates and vehicle positions).
  ///   - now: the current time.
  ///   - request: the stops asked about and the time from which departures count.
  /// - Returns: the departures and what the merge could not use.
  public static func departures(
    scheduled: [ScheduledCall], trips: [ScheduledTrip], feeds: [FeedMessage], now: UnixTime,
    request: DepartureRequest, options: ReconcilerOptions = .init()
  ) -> (departures: [Departure], realtime: RealtimeFreshness, report: MergeReport) {
    let (feeds, outOfRange) = RealtimeBounds.bounded(feeds)
    var result = departures(scheduled: scheduled, trips: trips, boundedFeeds: feeds, now: now, request: request, options: options)
    result.report.outOfRangeCount = outOfRange
    return result
  }

  /// `departures(scheduled:trips:feeds:now:request:options:)` of feeds already bounded
  /// (`RealtimeBounds.bounded`, whose count is the caller's to report), as `LiveRealtime`'s
  /// are: a board does not check every value of a large feed a second time.
  package static func departures(
    scheduled: [ScheduledCall], trips: [ScheduledTrip], boundedFeeds feeds: [FeedMessage], now: UnixTime,
    request: DepartureRequest, options: ReconcilerOptions = .init()
  ) -> (departures: [Departure], realtime: RealtimeFreshness, report: MergeReport) {
    // Instances with calls but no stop list given are matched on their calls alone.
    var allTrips = trips
    let given = Set(trips.map(\.instance))
    var callsByInstance: [TripInstance: [ScheduledCall]] = [:]
    for call in scheduled { callsByInstance[TripInstance(call), default: []].append(call) }
    for (instance, calls) in callsByInstance where !given.contains(instance) {
      allTrips.append(
        ScheduledTrip(
          instance: instance, routeID: calls[0].routeID,
          stops: calls.map {
            ScheduledStop(stopID: $0.stopID, stopSequence: $0.stopSequence, arrival: $0.scheduledArrival, departure: $0.scheduledDeparture)
          }))
    }
    let realtime = realtime(
      trips: allTrips, boundedFeeds: feeds, now: now, options: options, serviceDayStarts: request.serviceDayStarts)
    var result: [Departure] = []
    var seen = Set<CallKey>()

    for call in scheduled {
      let instance = TripInstance(call)
      guard seen.insert(CallKey(instance: instance, stopSequence: call.stopSequence)).inserted else { continue }
      if realtime.deleted.contains(instance) { continue }
      guard let prediction = realtime.predictions[instance] else {
        // Inside a NYCT replacement period the feed lists every trip that starts in it (and so
        // every one under way): a scheduled one it omits is not running (rule 16), so its
        // timetable time is not shown.
        if let end = realtime.replacedRoutes[call.routeID], let start = call.tripStart ?? call.scheduledTime, start <= end,
          realtime.freshness.isUsable
        {
          continue
        }
        result.append(Departure(call: call))
        continue
      }
      result.append(departure(call, prediction.stops.first { $0.stop.stopSequence == call.stopSequence }, prediction, options))
    }

    // DUPLICATED trips: copies of a scheduled trip at a new start.
    let templates = Dictionary(scheduled.map { ($0.tripID, $0) }, uniquingKeysWith: { first, _ in first })
    let originals = Dictionary(allTrips.map { ($0.instance.tripID, $0) }, uniquingKeysWith: { first, _ in first })
    for prediction in realtime.predictions.values.sorted(by: { $0.instance < $1.instance }) where prediction.isAdded {
      for (index, stop) in prediction.stops.enumerated() where request.stopIDs.contains(stop.stop.stopID) {
        let isLast = index == prediction.stops.count - 1
        guard !isLast else { continue }
        let original = prediction.duplicateOf ?? prediction.instance.tripID
        let template = templates[original]
        let trip = originals[original]
        let call = ScheduledCall(
          feed: request.feed, tripID: prediction.instance.tripID, routeID: template?.routeID ?? trip?.routeID ?? RouteID(""),
          routeShortName: template?.routeShortName ?? trip?.route?.shortName ?? "",
          headsign: template?.headsign ?? trip?.headsign ?? "", stopID: stop.stop.stopID,
          stopSequence: stop.stop.stopSequence, serviceDate: prediction.instance.serviceDate,
          startTime: prediction.instance.startTime, scheduledArrival: stop.stop.arrival,
          scheduledDeparture: stop.stop.departure, routeType: template?.routeType ?? trip?.route?.routeType ?? 3)
        guard seen.insert(CallKey(instance: prediction.instance, stopSequence: stop.stop.stopSequence)).inserted else { continue }
        var entry = departure(call, stop, prediction, options)
        if entry.status != .skipped && entry.status != .cancelled { entry.status = .added }
        result.append(entry)
      }
    }

    // ADDED / NEW trips: the timetable lacks them; their update is all there is.
    let shortNames = Dictionary(scheduled.map { ($0.routeID, ($0.routeShortName, $0.routeType)) }, uniquingKeysWith: { a, _ in a })
    for trip in realtime.added {
      for (index, added) in trip.calls.enumerated() where request.stopIDs.contains(added.stopID) {
        let isLast = index == trip.calls.count - 1
        guard !isLast || request.includeArrivals else { continue }
        // At the last stop the arrival is what there is to show.
        guard let time = isLast ? added.arrival ?? added.departure : added.departure ?? added.arrival ?? added.scheduled else {
          continue
        }
        let scheduledTime = added.scheduled ?? time
        let route = trip.routeID ?? RouteID("")
        let call = ScheduledCall(
          feed: request.feed, tripID: trip.tripID, routeID: route,
          routeShortName: shortNames[route]?.0 ?? route.rawValue, headsign: trip.headsign ?? "",
          stopID: added.stopID, stopSequence: added.stopSequence,
          serviceDate: trip.serviceDate ?? request.fallbackServiceDate, scheduledArrival: scheduledTime,
          scheduledDeparture: isLast ? nil : scheduledTime, isLastStop: isLast, routeType: shortNames[route]?.1 ?? 3)
        let instance = TripInstance(call)
        guard seen.insert(CallKey(instance: instance, stopSequence: added.stopSequence)).inserted else { continue }
        var departure =
          added.isSkipped
          ? Departure(call: call, status: .skipped, source: .realtime, vehicleID: trip.vehicleID)
          : Departure(
            call: call, expected: time, delaySeconds: added.scheduled.map { time - $0 }, status: .added, source: .realtime,
            vehicleID: trip.vehicleID)
        departure.isAwaitingTrain = trip.isAwaitingTrain
        result.append(departure)
      }
    }

    if let from = request.from {
      result.removeAll { departure in
        guard let time = departure.time else { return false }
        return time < from
      }
    }
    result.sort { a, b in
      let ta = a.time ?? UnixTime(0), tb = b.time ?? UnixTime(0)
      if ta != tb { return ta < tb }
      if a.call.routeShortName != b.call.routeShortName { return a.call.routeShortName < b.call.routeShortName }
      if a.call.tripID != b.call.tripID { return a.call.tripID < b.call.tripID }
      return a.call.stopSequence < b.call.stopSequence
    }
    return (result, realtime.freshness, realtime.report)
  }

  /// One call with its trip's prediction applied.
  static func departure(
    _ call: ScheduledCall, _ stop: PredictedStop?, _ prediction: TripPrediction, _ options: ReconcilerOptions
  )
    -> Departure
  {
    var departure = predictedDeparture(call, stop, prediction, options)
    departure.isAwaitingTrain = prediction.isAwaitingTrain
    return departure
  }

  private static func predictedDeparture(
    _ call: ScheduledCall, _ stop: PredictedStop?, _ prediction: TripPrediction, _ options: ReconcilerOptions
  )
    -> Departure
  {
    if prediction.isCanceled {
      return Departure(call: call, status: .cancelled, source: .realtime, vehicleID: prediction.vehicleID)
    }
    guard let stop else { return Departure(call: call, vehicleID: prediction.vehicleID) }
    // The timetable's time because a prediction here or before here (whose delay would have
    // carried on to here) was ignored as an outlier, not for want of one.
    let ignored = prediction.stops.prefix { $0.stop.stopSequence <= stop.stop.stopSequence }.contains(where: \.isOutlier)
    if stop.isSkipped {
      return Departure(call: call, status: .skipped, source: .realtime, vehicleID: prediction.vehicleID)
    }
    // A platform change moves the call to its assigned stop (rule 17).
    var call = call
    if let assigned = stop.platformChange?.assignedStopID { call.stopID = assigned }
    let expected = call.isLastStop ? stop.expectedArrival ?? stop.expected : stop.expected
    guard let expected, stop.source != .schedule else {
      var departure = Departure(call: call, vehicleID: prediction.vehicleID, isPredictionIgnored: ignored)
      departure.platformChange = stop.platformChange
      return departure
    }
    let delay = call.scheduledTime.map { expected - $0 }
    var departure = Departure(
      call: call, expected: expected, delaySeconds: delay, status: delay.map(options.status(delay:)) ?? .onTime,
      source: stop.source, vehicleID: prediction.vehicleID)
    departure.platformChange = stop.platformChange
    return departure
  }
}

/// A call of one trip instance: what each departure is unique by (rule 14).
struct CallKey: Hashable {
  var instance: TripInstance
  var stopSequence: Int
}
