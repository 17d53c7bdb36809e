import TransitModel

/// Which run of a trip: a trip id on a service date, and for frequency trips the start time.
public struct TripInstance: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// `trips.trip_id` (a frequency trip's template).
  public var tripID: TripID
  /// The service date its times count from.
  public var serviceDate: ServiceDate
  /// A frequency instance's start time; nil for ordinary trips.
  public var startTime: ServiceTime?

  /// Creates an instance key.
  public init(tripID: TripID, serviceDate: ServiceDate, startTime: ServiceTime? = nil) {
    self.tripID = tripID
    self.serviceDate = serviceDate
    self.startTime = startTime
  }

  /// The instance a scheduled call belongs to.
  public init(_ call: ScheduledCall) {
    self.init(tripID: call.tripID, serviceDate: call.serviceDate, startTime: call.startTime)
  }

  public static func < (lhs: TripInstance, rhs: TripInstance) -> Bool {
    if lhs.tripID != rhs.tripID { return lhs.tripID < rhs.tripID }
    if lhs.serviceDate != rhs.serviceDate { return lhs.serviceDate < rhs.serviceDate }
    return (lhs.startTime?.seconds ?? -1) < (rhs.startTime?.seconds ?? -1)
  }

  public var description: String {
    "\(tripID)@\(serviceDate)" + (startTime.map { " \($0)" } ?? "")
  }
}

/// A trip instance's whole stop list, as the timetable has it, with absolute times.
///
/// Merge needs the full list to propagate a delay from the stops a feed predicts to the stop
/// asked about; the caller builds it (GTFS turns service-day times into `UnixTime`).
public struct ScheduledTrip: Hashable, Sendable {
  /// Which run of which trip.
  public var instance: TripInstance
  /// `routes.route_id`.
  public var routeID: RouteID
  /// Every call, in stop_sequence order.
  public var stops: [ScheduledStop]
  /// The instant the service date's times count from (noon minus 12 h, in the agency's zone);
  /// needed only to move a DUPLICATED trip to a new start_time.
  public var serviceDayStart: UnixTime?
  /// The route and headsign riders see, for a DUPLICATED copy of this trip when none of the
  /// trip's own calls is among the scheduled ones (else they come from those calls).
  public var route: RouteSummary?
  /// `trips.trip_headsign`, else the last stop's name; see `route`.
  public var headsign: String?

  /// Creates a trip instance with its calls (sorted by stop_sequence here).
  public init(
    instance: TripInstance, routeID: RouteID, stops: [ScheduledStop], serviceDayStart: UnixTime? = nil,
    route: RouteSummary? = nil, headsign: String? = nil
  ) {
    self.instance = instance
    self.routeID = routeID
    self.stops = stops.sorted { $0.stopSequence < $1.stopSequence }
    self.serviceDayStart = serviceDayStart
    self.route = route
    self.headsign = headsign
  }

  /// The first scheduled time and the last.
  public var span: ClosedRange<UnixTime>? {
    let times = stops.compactMap { $0.reference ?? $0.arrival }
    guard let first = times.min(), let last = times.max() else { return nil }
    return first...last
  }
}
