/// One trip instance calling at one stop, as the timetable has it: what Merge starts from.
///
/// Times are absolute: the GTFS layer has already turned "service date + seconds from noon
/// minus 12 h" into `UnixTime` in the agency's time zone, so nothing downstream needs a zone.
public struct ScheduledCall: Hashable, Sendable {
  /// The feed the trip comes from (ids are unique only within a feed).
  public var feed: FeedName
  /// `trips.trip_id` (for a frequency trip, its template's).
  public var tripID: TripID
  /// `routes.route_id`.
  public var routeID: RouteID
  /// `route_short_name`, else `route_long_name`, else the route id.
  public var routeShortName: String
  /// What the vehicle shows here: the `stop_headsign` if set, else the `trip_headsign`, else
  /// the name of the trip's last stop.
  public var headsign: String
  /// The stop called at (a platform, when a station was asked for).
  public var stopID: StopID
  /// `stop_times.stop_sequence` of this call (realtime updates match on it).
  public var stopSequence: Int
  /// The service date the trip's times count from (the day before, for "25:10:00").
  public var serviceDate: ServiceDate
  /// For frequency-based trips, the instance's start time at its first stop (realtime matches
  /// by `start_date` + `start_time`); nil for ordinary trips.
  public var startTime: ServiceTime?
  /// The scheduled arrival, or nil when the timetable has none.
  public var scheduledArrival: UnixTime?
  /// The scheduled departure, or nil when the timetable has none.
  public var scheduledDeparture: UnixTime?
  /// Whether the time was interpolated at ingest (an untimed stop).
  public var isInterpolated: Bool
  /// `pickup_type`: 0 regular, 1 none, 2 phone, 3 ask the driver.
  public var pickupType: Int
  /// `drop_off_type`, same values.
  public var dropOffType: Int
  /// Whether this is the trip's last stop (an arrival, not a departure).
  public var isLastStop: Bool
  /// `route_type`, as in routes.txt (extended types kept).
  public var routeType: Int
  /// `trips.direction_id`.
  public var directionID: Int?
  /// `trips.block_id`: the trips one vehicle runs in turn that day.
  public var blockID: String?
  /// When the trip leaves its first stop (for a frequency instance, the instance's start), when
  /// the timetable says.
  public var tripStart: UnixTime?

  /// Creates a call; times already absolute.
  public init(
    feed: FeedName, tripID: TripID, routeID: RouteID, routeShortName: String, headsign: String,
    stopID: StopID, stopSequence: Int, serviceDate: ServiceDate, startTime: ServiceTime? = nil,
    scheduledArrival: UnixTime?, scheduledDeparture: UnixTime?, isInterpolated: Bool = false,
    pickupType: Int = 0, dropOffType: Int = 0, isLastStop: Bool = false, routeType: Int = 3,
    directionID: Int? = nil, blockID: String? = nil, tripStart: UnixTime? = nil
  ) {
    self.feed = feed
    self.tripID = tripID
    self.routeID = routeID
    self.routeShortName = routeShortName
    self.headsign = headsign
    self.stopID = stopID
    self.stopSequence = stopSequence
    self.serviceDate = serviceDate
    self.startTime = startTime
    self.scheduledArrival = scheduledArrival
    self.scheduledDeparture = scheduledDeparture
    self.isInterpolated = isInterpolated
    self.pickupType = pickupType
    self.dropOffType = dropOffType
    self.isLastStop = isLastStop
    self.routeType = routeType
    self.directionID = directionID
    self.blockID = blockID
    self.tripStart = tripStart
  }

  /// The time the call is listed by: the departure, else the arrival.
  public var scheduledTime: UnixTime? { scheduledDeparture ?? scheduledArrival }
}
