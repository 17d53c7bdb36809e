import GTFSRealtime
import TransitModel

@testable import Merge

/// Small hand-built values for the Merge tests: a day whose service starts at `base`.
enum Build {
  /// 2026-12-01 00:00:00Z, the service day start of `date` (Dublin keeps GMT in December).
  static let base = UnixTime(Int64(date.daysSinceEpoch) * 86_400)
  static let date = ServiceDate(year: 2026, month: 12, day: 1)!
  static let now = base + 8 * 3600  // 08:00

  /// Seconds since the service day's start, from "HH:MM".
  static func at(_ hhmm: String, day: Int = 0) -> UnixTime {
    let parts = hhmm.split(separator: ":").map { Int64($0)! }
    return base + Int64(day) * 86_400 + parts[0] * 3600 + parts[1] * 60
  }

  /// A trip instance calling at `stops` (stop_id, "HH:MM") with stop_sequence 10, 20, ...
  static func trip(
    _ id: String, _ stops: [(String, String)], date: ServiceDate = date, startTime: ServiceTime? = nil,
    dayOffset: Int = 0, route: String = "R1"
  ) -> ScheduledTrip {
    ScheduledTrip(
      instance: TripInstance(tripID: TripID(id), serviceDate: date, startTime: startTime), routeID: RouteID(route),
      stops: stops.enumerated().map { index, stop in
        let time = at(stop.1, day: dayOffset)
        return ScheduledStop(stopID: StopID(stop.0), stopSequence: (index + 1) * 10, arrival: time, departure: time)
      }, serviceDayStart: base + Int64(dayOffset) * 86_400)
  }

  /// The scheduled call of `trip` at its stop with `sequence`.
  static func call(_ trip: ScheduledTrip, sequence: Int, route: String = "1", headsign: String = "Town") -> ScheduledCall {
    let stop = trip.stops.first { $0.stopSequence == sequence }!
    let isLast = stop.stopSequence == trip.stops.last!.stopSequence
    return ScheduledCall(
      feed: "test", tripID: trip.instance.tripID, routeID: trip.routeID, routeShortName: route, headsign: headsign,
      stopID: stop.stopID, stopSequence: sequence, serviceDate: trip.instance.serviceDate,
      startTime: trip.instance.startTime, scheduledArrival: stop.arrival,
      scheduledDeparture: isLast ? nil : stop.departure, isLastStop: isLast)
  }

  /// A feed of `updates`, stamped `age` seconds before `now`.
  static func feed(_ updates: [TripUpdate], vehicles: [VehiclePosition] = [], age: Int64 = 20) -> FeedMessage {
    FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", timestamp: UInt64((now - age).seconds)),
      entities: updates.enumerated().map {
        FeedEntity(id: "tu\($0.offset)", tripUpdate: $0.element)
      } + vehicles.enumerated().map { FeedEntity(id: "vp\($0.offset)", vehicle: $0.element) })
  }

  /// A trip update.
  static func update(
    _ tripID: String, startDate: String? = nil, startTime: String? = nil,
    _ relationship: TripDescriptor.ScheduleRelationship? = nil, stops: [TripUpdate.StopTimeUpdate] = [],
    delay: Int32? = nil, properties: TripUpdate.TripProperties? = nil, routeID: String? = nil
  ) -> TripUpdate {
    TripUpdate(
      trip: TripDescriptor(
        tripID: tripID, routeID: routeID, startTime: startTime, startDate: startDate, scheduleRelationship: relationship),
      stopTimeUpdates: stops, delay: delay, tripProperties: properties)
  }

  /// A stop time update with a departure delay.
  static func delay(_ seconds: Int32, sequence: Int? = nil, stop: String? = nil) -> TripUpdate.StopTimeUpdate {
    TripUpdate.StopTimeUpdate(
      stopSequence: sequence.map(UInt32.init), stopID: stop, arrival: .init(delay: seconds), departure: .init(delay: seconds))
  }

  /// A stop time update with an absolute departure time.
  static func time(
    _ time: UnixTime, sequence: Int? = nil, stop: String? = nil, delay: Int32? = nil
  )
    -> TripUpdate.StopTimeUpdate
  {
    TripUpdate.StopTimeUpdate(
      stopSequence: sequence.map(UInt32.init), stopID: stop, departure: .init(delay: delay, time: time.seconds))
  }

  /// A stop time update with only a schedule relationship.
  static func mark(
    _ relationship: TripUpdate.StopTimeUpdate.ScheduleRelationship, sequence: Int
  )
    -> TripUpdate.StopTimeUpdate
  {
    TripUpdate.StopTimeUpdate(stopSequence: UInt32(sequence), scheduleRelationship: relationship)
  }

  /// The request for departures at `stops`, from `from` (default: the start of the day).
  static func request(_ stops: Set<StopID>, from: UnixTime? = nil) -> DepartureRequest {
    DepartureRequest(stopIDs: stops, from: from, feed: "test", fallbackServiceDate: date)
  }

  /// Runs `Reconciler.departures`.
  static func departures(
    _ calls: [ScheduledCall], trips: [ScheduledTrip], feeds: [FeedMessage], stops: Set<StopID> = ["A"],
    from: UnixTime? = nil, options: ReconcilerOptions = .init()
  ) -> (departures: [Departure], realtime: RealtimeFreshness, report: MergeReport) {
    Reconciler.departures(
      scheduled: calls, trips: trips, feeds: feeds, now: now, request: request(stops, from: from), options: options)
  }
}
