import FoundationEssentials
import TransitModel

extension Store {
  /// Every call of `tripID` in `feed` on `serviceDate`, in stop_sequence order, with absolute
  /// times; for a frequency instance starting at `startTime`, the template's times moved to it.
  /// Empty when the trip is unknown.
  ///
  /// GTFS times count from noon minus 12 h of the service date in the agency's zone, so a
  /// "25:10:00" call lands on the next calendar day.
  /// - Complexity: one indexed lookup and one range scan of the trip's pattern.
  public func tripCalls(
    _ tripID: TripID, feed: FeedName, serviceDate: ServiceDate, startTime: ServiceTime? = nil
  )
    throws -> [ScheduledStop]
  {
    guard let reader = reader(feed) else { return [] }
    let stopTimes = try reader.timetable.stopTimes(ofTrip: tripID.rawValue)
    let base = serviceDayStart(serviceDate, feed: feed)
    var offset: Int64 = 0
    if let startTime, let first = stopTimes.first.flatMap({ $0.departure ?? $0.arrival }) {
      offset = Int64(startTime.seconds) - Int64(first)
    }
    return stopTimes.map { row in
      ScheduledStop(
        stopID: StopID(row.stopID), stopSequence: row.stopSequence,
        arrival: row.arrival.map { base + Int64($0) + offset }, departure: row.departure.map { base + Int64($0) + offset },
        shapeDistance: row.shapeDistTraveled)
    }
  }

  /// The instant `date`'s service-day times count from in `feed`'s zone (noon minus 12 h).
  public func serviceDayStart(_ date: ServiceDate, feed: FeedName) -> UnixTime {
    ServiceCalendar.start(of: date, in: timeZone(of: feed))
  }

  /// The calendar date `time` falls on in `feed`'s zone.
  public func localDate(of time: UnixTime, feed: FeedName) -> ServiceDate {
    ServiceCalendar.localDate(of: time, in: timeZone(of: feed))
  }
}

extension Store {
  /// Whether `tripID` of `feed` runs on service date `date` (its service is active then);
  /// false for an unknown trip.
  /// - Complexity: one indexed lookup, plus the calendar of `date` (cached).
  public func tripRuns(_ tripID: TripID, feed: FeedName, on date: ServiceDate) throws -> Bool {
    guard let reader = reader(feed) else { return false }
    let select = try reader.db.cached("SELECT service_idx FROM trips WHERE trip_id = ?")
    select.bind(tripID.rawValue, at: 1)
    guard try select.step() else { return false }
    let service = select.int64(0)
    return try reader.calendar.services(on: date).contains(service)
  }
}

extension Store {
  /// Whether `tripID` of `feed` is a frequencies.txt template: its instances are told apart by
  /// start_time (rule 3), where a timetabled trip's start_time only repeats its first departure.
  /// - Complexity: one indexed lookup, plus the frequencies (cached).
  public func isFrequencyTrip(_ tripID: TripID, feed: FeedName) throws -> Bool {
    guard let reader = reader(feed) else { return false }
    let select = try reader.db.cached("SELECT trip_idx FROM trips WHERE trip_id = ?")
    select.bind(tripID.rawValue, at: 1)
    guard try select.step() else { return false }
    return reader.frequencyTrips.contains(select.int64(0))
  }
}
