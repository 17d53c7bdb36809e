import GTFSRealtime
import TransitModel

extension PlatformChange {
  /// The change a stop time update states, if any: an assigned stop other than `scheduled`, or
  /// a NYCT actual track other than the scheduled one.
  public init?(_ stu: TripUpdate.StopTimeUpdate, scheduled: StopID) {
    guard stu.hasRareFields else { return nil }
    let assigned = stu.stopTimeProperties?.assignedStopID.flatMap { $0.isEmpty || $0 == scheduled.rawValue ? nil : StopID($0) }
    let track = stu.nyctStopTimeUpdate?.changedTrack
    guard assigned != nil || track != nil else { return nil }
    self.init(assignedStopID: assigned, actualTrack: track?.actual, scheduledTrack: track?.scheduled)
  }
}

/// One stop of a trip instance with what realtime expects there.
public struct PredictedStop: Hashable, Sendable {
  /// The call as scheduled.
  public var stop: ScheduledStop
  /// The expected arrival; nil without a prediction (and at skipped or NO_DATA stops).
  public var expectedArrival: UnixTime?
  /// The expected departure; nil without a prediction.
  public var expectedDeparture: UnixTime?
  /// Where the expected times come from.
  public var source: PredictionSource
  /// Whether the feed says the vehicle will not stop here (SKIPPED).
  public var isSkipped: Bool
  /// Whether the feed's own prediction for this stop was ignored: more than the outlier bound
  /// (1 h) off the timetable.
  public var isOutlier = false
  /// The call's platform change, when the feed states one (rule 17).
  public var platformChange: PlatformChange?

  /// Creates a predicted stop.
  public init(
    stop: ScheduledStop, expectedArrival: UnixTime? = nil, expectedDeparture: UnixTime? = nil,
    source: PredictionSource = .schedule, isSkipped: Bool = false
  ) {
    self.stop = stop
    self.expectedArrival = expectedArrival
    self.expectedDeparture = expectedDeparture
    self.source = source
    self.isSkipped = isSkipped
  }

  /// The expected time the stop is passed: departure, else arrival.
  public var expected: UnixTime? { expectedDeparture ?? expectedArrival }
}

/// What realtime says about one trip instance.
public struct TripPrediction: Hashable, Sendable {
  /// The instance (for a DUPLICATED trip, the new one).
  public var instance: TripInstance
  /// Every stop of the trip, in order, with expected times where known.
  public var stops: [PredictedStop]
  /// Whether the trip is CANCELED.
  public var isCanceled: Bool
  /// Whether the trip is not in the timetable (DUPLICATED copies one).
  public var isAdded: Bool
  /// The vehicle serving it, when the feed says.
  public var vehicleID: String?
  /// For a DUPLICATED trip, the trip_id it copies.
  public var duplicateOf: TripID?
  /// Whether the producer says no train serves the trip yet (NYCT: not assigned).
  public var isAwaitingTrain = false

  /// Whether a stop prediction of the trip was ignored as an outlier (see `PredictedStop.isOutlier`).
  public var hasOutlier: Bool { stops.contains(where: \.isOutlier) }

  /// Creates a prediction.
  public init(
    instance: TripInstance, stops: [PredictedStop], isCanceled: Bool = false, isAdded: Bool = false,
    vehicleID: String? = nil
  ) {
    self.instance = instance
    self.stops = stops
    self.isCanceled = isCanceled
    self.isAdded = isAdded
    self.vehicleID = vehicleID
  }
}

/// A trip the timetable lacks (ADDED or NEW), as the feed describes it.
public struct AddedTrip: Hashable, Sendable {
  /// One call of the added trip.
  public struct Call: Hashable, Sendable {
    /// The stop, by the feed's stop_id.
    public var stopID: StopID
    /// The feed's stop_sequence, else the position in the update (from 1).
    public var stopSequence: Int
    /// The predicted arrival (absolute times only: there is no schedule to add a delay to).
    public var arrival: UnixTime?
    /// The predicted departure.
    public var departure: UnixTime?
    /// The scheduled time the feed gives (`StopTimeEvent.scheduled_time`), if any.
    public var scheduled: UnixTime?
    /// Whether the stop is SKIPPED.
    public var isSkipped: Bool
  }

  /// The feed's trip_id.
  public var tripID: TripID
  /// The feed's route_id, if any.
  public var routeID: RouteID?
  /// start_date, if given.
  public var serviceDate: ServiceDate?
  /// `trip_properties.trip_headsign`, if given.
  public var headsign: String?
  /// The calls, in the update's order.
  public var calls: [Call]
  /// The vehicle serving it.
  public var vehicleID: String?
  /// Whether the producer says no train serves it yet (NYCT: not assigned).
  public var isAwaitingTrain = false
}
