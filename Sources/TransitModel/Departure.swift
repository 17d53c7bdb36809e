/// How a departure stands against its timetable (DESIGN.md rule 12, plus rule 7's cases).
public enum DepartureStatus: String, Hashable, Sendable {
  /// No realtime for it: the timetable's time.
  case scheduled
  /// Within the thresholds.
  case onTime = "on_time"
  /// At least `earlyThresholdSeconds` ahead of time.
  case early
  /// At least `lateThresholdSeconds` behind.
  case late
  /// The trip is CANCELED.
  case cancelled
  /// The stop is SKIPPED on this trip.
  case skipped
  /// A trip the timetable lacks (ADDED, NEW, DUPLICATED).
  case added
}

/// Where an expected time comes from.
public enum PredictionSource: String, Hashable, Sendable {
  /// The feed's own prediction for this stop.
  case realtime
  /// Between two predicted stops, the delay interpolated by scheduled time.
  case interpolated
  /// After the last predicted stop (or from the trip's delay), the delay carried forward.
  case propagated
  /// No realtime: the timetable.
  case schedule
}

/// One departure as a rider sees it: the scheduled call and what realtime says about it.
public struct Departure: Hashable, Sendable {
  /// The call as the timetable has it (for an added trip, as the feed describes it).
  public var call: ScheduledCall
  /// The expected time (departure, or arrival at a last stop); nil without a prediction, and
  /// for cancelled trips and skipped stops.
  public var expected: UnixTime?
  /// Expected minus scheduled, in seconds; nil when either is unknown.
  public var delaySeconds: Int64?
  /// On time, late, cancelled, ...
  public var status: DepartureStatus
  /// Where `expected` comes from.
  public var source: PredictionSource
  /// The vehicle serving the trip, from its trip update or a vehicle position.
  public var vehicleID: String?
  /// The call's platform change, when the feed states one (rule 17); with an assigned stop,
  /// `call.stopID` is that stop.
  public var platformChange: PlatformChange?
  /// Whether the feed predicted the trip but the prediction was ignored as more than the outlier
  /// bound (1 h) off the timetable, so the time shown is the timetable's.
  public var isPredictionIgnored: Bool
  /// Whether the producer says no train serves the trip yet (NYCT: not assigned), so its times
  /// are the producer's plan and no running train is shown for it.
  public var isAwaitingTrain = false

  /// Creates a departure.
  public init(
    call: ScheduledCall, expected: UnixTime? = nil, delaySeconds: Int64? = nil, status: DepartureStatus = .scheduled,
    source: PredictionSource = .schedule, vehicleID: String? = nil, isPredictionIgnored: Bool = false
  ) {
    self.call = call
    self.expected = expected
    self.delaySeconds = delaySeconds
    self.status = status
    self.source = source
    self.vehicleID = vehicleID
    self.isPredictionIgnored = isPredictionIgnored
  }

  /// The time it is listed by: expected, else scheduled.
  public var time: UnixTime? { expected ?? call.scheduledTime }

  /// Whether realtime says anything about it (a prediction, a cancellation, a skip, an addition).
  public var isLive: Bool { source != .schedule || status == .cancelled || status == .skipped || status == .added }

  /// Whether only the timetable knows its time (no prediction; an added trip is the feed's).
  public var isTimetableOnly: Bool { source == .schedule && status != .added }
}

/// Where the realtime stands (DESIGN.md rule 11).
public enum RealtimeStatus: String, Hashable, Sendable {
  /// Younger than `staleAfterSeconds`.
  case fresh
  /// Older than `staleAfterSeconds`, still used.
  case stale
  /// Older than `ignoreAfterSeconds`: predictions are not used.
  case expired
  /// No realtime given.
  case none
  /// Realtime given, but with no time in it (no header timestamp, no entity timestamp): its age
  /// cannot be judged, so it is never called fresh; predictions are still used.
  case unknown
}

/// The age of the realtime a merge used.
public struct RealtimeFreshness: Hashable, Sendable {
  /// Fresh, stale, expired or none.
  public var status: RealtimeStatus
  /// The newest feed timestamp (header, else its newest entity).
  public var feedTimestamp: UnixTime?
  /// `now` minus `feedTimestamp`.
  public var ageSeconds: Int64?

  /// Creates a freshness value.
  public init(status: RealtimeStatus, feedTimestamp: UnixTime? = nil, ageSeconds: Int64? = nil) {
    self.status = status
    self.feedTimestamp = feedTimestamp
    self.ageSeconds = ageSeconds
  }

  /// Whether predictions may be used.
  public var isUsable: Bool { status == .fresh || status == .stale || status == .unknown }
}
