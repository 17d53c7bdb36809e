import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// Where one call of a trip stands, as `trip show` says it.
public enum CallStatus: String, Sendable, Hashable {
  /// The vehicle has left it (or, untracked, its expected time is past).
  case passed
  /// Realtime says the trip does not stop there.
  case skipped
  /// The stop the vehicle is at or heading to.
  case next
  /// Still to come after the next one.
  case ahead
}

/// One trip instance with all its calls: what `transit trip show` prints.
public struct TripReport: Sendable {
  /// One call.
  public struct Call: Sendable, Hashable {
    public var stopID: StopID
    public var name: String
    /// The platform's label at a station (code, suffix or description); nil otherwise.
    public var platform: String?
    public var stopSequence: Int
    public var scheduledArrival: UnixTime?
    public var scheduledDeparture: UnixTime?
    /// nil when realtime says nothing about this call.
    public var expectedArrival: UnixTime?
    public var expectedDeparture: UnixTime?
    /// Expected minus scheduled, when realtime gives a time.
    public var delaySeconds: Int64?
    /// The delay's class under the configured thresholds (rule 12); nil without a delay.
    public var delayStatus: DepartureStatus?
    /// Where the expected time comes from (`schedule` without realtime).
    public var source: PredictionSource
    public var status: CallStatus
    /// Whether the vehicle is standing at this stop now.
    public var isVehicleHere: Bool
    /// The stop's wheelchair access (inherited from its station).
    public var access: WheelchairAccess
    /// The stop's own raw `wheelchair_boarding`, for JSON.
    public var wheelchairBoarding: Int?

    /// The scheduled time riders read: the departure, else the arrival.
    public var scheduled: UnixTime? { scheduledDeparture ?? scheduledArrival }
    /// The expected time: the departure, else the arrival.
    public var expected: UnixTime? { expectedDeparture ?? expectedArrival }
  }

  /// The trip the same vehicle runs next (block_id), or ran before.
  public struct Continuation: Sendable, Hashable {
    public var tripID: TripID
    public var routeShortName: String
    public var headsign: String
    public var departure: UnixTime?
  }

  public var feed: FeedName
  public var tripID: TripID
  public var serviceDate: ServiceDate
  public var startTime: ServiceTime?
  public var route: RouteSummary
  public var headsign: String
  public var shortName: String?
  public var directionID: Int?
  public var blockID: String?
  /// Raw `wheelchair_accessible`.
  public var wheelchairAccessible: Int?
  public var access: WheelchairAccess { Accessibility.trip(wheelchairAccessible) }
  public var isCancelled: Bool
  public var isRealtime: Bool
  /// Whether the trip is not in the timetable: built from its trip update alone (ADDED, or a
  /// producer's train the timetable lacks), its times the update's.
  public var isAdded = false
  /// The live vehicle running it, when the realtime has one.
  public var vehicle: VehicleView?
  /// How full that vehicle is.
  public var crowding: Crowding?
  public var calls: [Call]
  public var next: Continuation?
}

/// What a `trip show` argument names.
public enum TripReference: Sendable, Hashable {
  /// A trip_id (or a trip_short_name), or a vehicle id or label of the realtime.
  case text(String)
  /// The departure of `route` at `place` (a stop, a station: any platform, a complex: any of
  /// its stations) at (or first after) `time`.
  case departure(route: String, place: StopPlace, time: UnixTime)
}

/// Builds `TripReport`s: the trip named, its instance, its calls merged with the realtime of
/// the one matching path, the status of each call, the vehicle, and the block's next trip.
public enum TripInspector {
  /// Why a trip could not be shown.
  public enum Failure: Error, Sendable, Equatable {
    /// Nothing has this id, short name, vehicle id or label.
    case notFound(String)
    /// The route has no departure at the stop at or after the time (within 3 hours).
    case noDeparture(route: String, stop: String)
    /// The trip does not run on the date asked.
    case notRunning(trip: String, date: ServiceDate)
  }

  /// The trip `reference` names, on `date` (else the instance running nearest `live.now`, or
  /// the one the realtime matched).
  /// - Throws: `Failure`, or the store's errors.
  public static func report(_ reference: TripReference, date: ServiceDate?, store: Store, live: LiveRealtime) throws -> TripReport {
    var fleet = Fleet(store: store, live: live)
    let vehicles = try fleet.vehicles(includeEstimated: false)
    var vehicleHint: VehicleView?
    let tripID: TripID, details: TripDetails
    var startDate = date
    var addedTrip: ScheduledTrip?
    switch reference {
    case .text(let text):
      let addedVehicle = vehicles.first { $0.isAdded && $0.isNamed(text) }
      if let found = try store.tripDetails(TripID(text)) {
        tripID = found.tripID
        details = found
      } else if let view = vehicles.first(where: { $0.isNamed(text) }), let id = view.tripID,
        let found = try store.tripDetails(id, feed: view.feed)
      {
        tripID = id
        details = found
        vehicleHint = view
        if startDate == nil { startDate = view.serviceDate }
      } else if let id = try store.trip(shortName: text), let found = try store.tripDetails(id) {
        tripID = id
        details = found
      } else if let (trip, found) = try fleet.addedTrip(addedVehicle?.tripID ?? TripID(text)) {
        // Not in the timetable: the trip its update describes.
        tripID = trip.instance.tripID
        details = found
        addedTrip = trip
        vehicleHint = addedVehicle
      } else {
        throw Failure.notFound(text)
      }
    case .departure(let route, let place, let time):
      // The first at any part (a complex's stations may each be served by the route).
      var first: ScheduledCall?
      for part in place.parts {
        let calls = try store.departures(at: part, DepartureQuery(from: time, until: time + 3 * 3600, route: route))
        if let call = calls.first, let at = call.scheduledTime, first?.scheduledTime.map({ at < $0 }) ?? true { first = call }
      }
      guard let call = first, let found = try store.tripDetails(call.tripID, feed: call.feed) else {
        throw Failure.noDeparture(route: route, stop: place.name)
      }
      tripID = call.tripID
      details = found
      if startDate == nil { startDate = call.serviceDate }
    }
    let trip: ScheduledTrip
    if let addedTrip {
      trip = addedTrip
    } else if let startDate {
      guard try store.tripRuns(tripID, feed: details.feed, on: startDate) else {
        throw Failure.notRunning(trip: tripID.rawValue, date: startDate)
      }
      if let matched = fleet.live.instances(of: tripID).first(where: { $0.instance.serviceDate == startDate }) {
        trip = matched
      } else {
        trip = ScheduledTrip(
          instance: TripInstance(tripID: tripID, serviceDate: startDate), routeID: details.route.id,
          stops: try store.tripCalls(tripID, feed: details.feed, serviceDate: startDate),
          serviceDayStart: store.serviceDayStart(startDate, feed: details.feed))
      }
    } else {
      guard let found = try fleet.instance(of: tripID, feed: details.feed, startDate: nil) else {
        throw Failure.notRunning(trip: tripID.rawValue, date: store.localDate(of: live.now, feed: details.feed))
      }
      trip = found
    }
    let vehicle =
      vehicleHint.flatMap { $0.serviceDate == trip.instance.serviceDate ? $0 : nil }
      ?? vehicles.first { $0.tripID == tripID && $0.serviceDate == trip.instance.serviceDate }
    let prediction = live.prediction(for: trip.instance)
    let attributes = try store.attributes(ofTrip: tripID, feed: details.feed)

    // Calls, with names, platform labels and access.
    var labelCache: [StopID: [StopID: String]] = [:]
    var calls: [TripReport.Call] = []
    let predicted = Dictionary((prediction?.stops ?? []).map { ($0.stop.stopSequence, $0) }, uniquingKeysWith: { a, _ in a })
    let options = live.options  // the thresholds each call's delay is classed by
    for call in trip.stops {
      let stop = fleet.stop(call.stopID, feed: details.feed)
      var platform: String?
      if let stop, let parentID = stop.parentStation {
        if labelCache[parentID] == nil {
          let siblings = try stop.parentStation.flatMap { try store.stop($0, feed: details.feed) }.map { try store.platforms(of: $0) } ?? []
          var platforms: [PlatformLabels.Platform] = []
          for sibling in siblings {
            platforms.append(
              PlatformLabels.Platform(
                id: sibling.id, name: sibling.name, platformCode: sibling.platformCode,
                description: try store.attributes(ofStop: sibling.id, feed: sibling.feed)?.description))
          }
          labelCache[parentID] = PlatformLabels.labels(platforms)
        }
        platform = labelCache[parentID]?[call.stopID]
      }
      let stopAttributes = try store.attributes(ofStop: call.stopID, feed: details.feed)
      let own = stopAttributes?.wheelchairBoarding, parent = stopAttributes?.parentWheelchairBoarding
      let guess = predicted[call.stopSequence]
      let live = guess.flatMap { $0.source == .schedule ? nil : $0 }
      // An added trip has no timetable: its stops' times are the update's predictions.
      let isAdded = addedTrip != nil
      let expectedArrival = isAdded ? call.arrival : live?.expectedArrival
      let expectedDeparture = isAdded ? call.departure : live?.expectedDeparture
      let scheduled = isAdded ? nil : call.departure ?? call.arrival
      let delay = zip(expectedDeparture ?? expectedArrival, scheduled).map { $0 - $1 }
      calls.append(
        TripReport.Call(
          stopID: call.stopID, name: stop?.name ?? call.stopID.rawValue, platform: platform, stopSequence: call.stopSequence,
          scheduledArrival: isAdded ? nil : call.arrival, scheduledDeparture: isAdded ? nil : call.departure,
          expectedArrival: expectedArrival, expectedDeparture: expectedDeparture, delaySeconds: delay,
          delayStatus: delay.map(options.status(delaySeconds:)), source: isAdded ? .realtime : guess?.source ?? .schedule,
          status: .ahead,
          isVehicleHere: false, access: Accessibility.stop(own: own, parent: parent),
          wheelchairBoarding: own))
    }
    let vehicleIndex = vehicle?.currentStopSequence.flatMap { sequence in calls.firstIndex { $0.stopSequence == sequence } }
    let statuses = Self.statuses(
      times: calls.map { $0.expected ?? $0.scheduled }, skipped: calls.map { predicted[$0.stopSequence]?.isSkipped ?? false },
      vehicleIndex: vehicleIndex, vehicleAtStop: vehicle?.isAtStop ?? false, now: live.now)
    for index in calls.indices {
      calls[index].status = statuses[index]
      calls[index].isVehicleHere = index == vehicleIndex && (vehicle?.isAtStop ?? false)
    }

    var next: TripReport.Continuation?
    if addedTrip == nil, let (following, info) = try fleet.nextTrip(after: trip, details: details) {
      next = TripReport.Continuation(
        tripID: following.instance.tripID, routeShortName: info.route.shortName, headsign: info.headsign,
        departure: following.stops.first?.reference)
    }
    let crowding = vehicle?.crowding ?? CrowdingIndex(live).crowding(of: trip.instance, vehicleID: vehicle?.vehicleID)
    return TripReport(
      feed: details.feed, tripID: tripID, serviceDate: trip.instance.serviceDate, startTime: trip.instance.startTime,
      route: details.route, headsign: details.headsign, shortName: attributes?.shortName, directionID: attributes?.directionID,
      blockID: details.blockID, wheelchairAccessible: attributes?.wheelchairAccessible, isCancelled: prediction?.isCanceled ?? false,
      isRealtime: prediction != nil || vehicle != nil || addedTrip != nil, isAdded: addedTrip != nil, vehicle: vehicle,
      crowding: crowding, calls: calls, next: next)
  }

  /// The status of each call: with the vehicle's stop known (`vehicleIndex`), the calls before
  /// it are passed, it is next, the rest ahead; otherwise the calls up to the last whose time
  /// (expected, else scheduled) is before `now` are passed, the first after them next, the rest
  /// ahead. Skipped calls are skipped wherever they fall.
  /// - Complexity: O(calls).
  public static func statuses(times: [UnixTime?], skipped: [Bool], vehicleIndex: Int?, vehicleAtStop: Bool, now: UnixTime) -> [CallStatus] {
    precondition(times.count == skipped.count, "one skipped flag per call")
    let boundary: Int  // the index of the next call
    if let vehicleIndex {
      boundary = vehicleIndex
    } else {
      let lastPassed = times.indices.last { index in times[index].map { $0 < now } ?? false }
      boundary = lastPassed.map { $0 + 1 } ?? 0
    }
    var result: [CallStatus] = []
    var nextGiven = false
    for index in times.indices {
      if skipped[index] {
        result.append(.skipped)
      } else if index < boundary {
        result.append(.passed)
      } else if !nextGiven {
        result.append(.next)
        nextGiven = true
      } else {
        result.append(.ahead)
      }
    }
    return result
  }
}
