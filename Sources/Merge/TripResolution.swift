import GTFSRealtime
import TransitModel

/// How a trip update or vehicle position found its trip (DESIGN.md rule 18).
public enum MatchRule: String, Sendable, Hashable, CaseIterable, Encodable {
  /// By its trip_id (rule 4).
  case tripID = "trip_id"
  /// By route_id, direction_id, start_time and start_date, without a trip_id (rule 15).
  case descriptor
  /// By a producer's own naming, recognised from the feed (rule 16: NYCT).
  case convention
  /// Not in the timetable: a live trip built from the update's own stops and times (ADDED or
  /// NEW trips, and NYCT's trips inside a replacement period).
  case builtFromUpdate = "built_from_update"
}

/// Why a trip update or vehicle position matched no trip (DESIGN.md rule 18).
public enum UnmatchedReason: String, Sendable, Hashable, CaseIterable, Encodable, Comparable {
  /// The trip_id is not in the timetables held (nor could its descriptor name one).
  case unknownTrip = "unknown_trip"
  /// The descriptor's route_id is not in the timetables held.
  case unknownRoute = "unknown_route"
  /// The trip exists, but its service does not run on start_date (or near the feed's time).
  case notRunning = "not_running_on_start_date"
  /// None of the update's stop time updates names a stop of its trip.
  case noStopKnown = "no_stop_known"
  /// A second update for a trip instance already updated (the first is kept).
  case duplicate
  /// The descriptor names several trips (no direction_id to tell them apart), or none can be
  /// named without a trip_id (no route_id or start_time).
  case ambiguous
  /// Older than the limit for predictions.
  case expired

  public static func < (lhs: UnmatchedReason, rhs: UnmatchedReason) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// A scheduled trip a descriptor without trip_id may name: what the timetable says of it.
public struct TripStartCandidate: Sendable, Hashable {
  /// `trips.trip_id`.
  public var tripID: TripID
  /// `trips.direction_id`.
  public var directionID: Int?
  /// Its first departure, in seconds of its service day (a frequency template's own).
  public var firstDeparture: Int32?
  /// NYCT's `mta_trip_id` (`N..N34R`), when the timetable has one.
  public var mtaTripID: String?
  /// For a frequency template, the windows its instances start in (seconds of the day).
  public var frequencyWindows: [ClosedRange<Int32>]
  /// The service date it runs on.
  public var serviceDate: ServiceDate

  /// Creates a candidate.
  public init(
    tripID: TripID, directionID: Int?, firstDeparture: Int32?, mtaTripID: String? = nil,
    frequencyWindows: [ClosedRange<Int32>] = [], serviceDate: ServiceDate
  ) {
    self.tripID = tripID
    self.directionID = directionID
    self.firstDeparture = firstDeparture
    self.mtaTripID = mtaTripID
    self.frequencyWindows = frequencyWindows
    self.serviceDate = serviceDate
  }
}

/// What a descriptor without a usable trip_id names.
public enum TripResolution: Sendable, Hashable {
  /// One trip instance: the trip, its service date, and for a frequency trip its start time.
  case trip(TripID, ServiceDate, startTime: ServiceTime?, rule: MatchRule)
  /// No trip, and why.
  case unmatched(UnmatchedReason)
}

/// NYCT's realtime trip name: `077450_5..S16R` is the origin time in hundredths of a minute
/// after midnight (077450 = 12:54:30), `_`, the route, `..` (one dot for a two-letter route, as
/// in `GS.N04R`), the direction letter and a path code. The timetable's `mta_trip_id` is the
/// same name without the origin time.
public struct NYCTTripName: Sendable, Hashable {
  /// The origin time, in seconds after midnight of start_date.
  public var originSeconds: Int32
  /// The route, as the name spells it (`5`, `GS`).
  public var route: String
  /// `N`, `S`, `E` or `W`.
  public var direction: Character
  /// The path code (`16R`), possibly empty.
  public var path: String

  /// Reads a realtime trip id; nil when it is not of NYCT's form.
  public init?(realtime id: String) {
    let parts = id.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 6, let hundredths = Int32(parts[0]), hundredths >= 0,
      let rest = Self.parse(parts[1])
    else { return nil }
    originSeconds = hundredths * 60 / 100
    (route, direction, path) = rest
  }

  /// Reads a timetable `mta_trip_id` (`N..N34R`): route, direction and path.
  public static func parse<S: StringProtocol>(_ name: S) -> (route: String, direction: Character, path: String)? {
    guard let dot = name.firstIndex(of: ".") else { return nil }
    let route = String(name[..<dot])
    var rest = name[dot...].drop { $0 == "." }
    guard !route.isEmpty, let direction = rest.first, "NSEW".contains(direction) else { return nil }
    rest = rest.dropFirst()
    return (route, direction, String(rest))
  }
}

extension Reconciler {
  /// The trip instance a descriptor without trip_id names (rule 15): route_id + direction_id +
  /// start_time + start_date. Without direction_id, only when one trip fits. A frequency trip
  /// is named by a start_time inside one of its windows.
  ///
  /// - Parameters:
  ///   - candidates: the route's trips running on start_date (and, for a start_time past
  ///     24:00:00 given as the calendar time, the day before), from the timetable.
  ///   - routeKnown: whether the timetables hold the route at all.
  public static func resolve(
    _ descriptor: TripDescriptor, among candidates: [TripStartCandidate], routeKnown: Bool
  ) -> TripResolution {
    guard descriptor.routeID?.isEmpty == false else { return .unmatched(.ambiguous) }
    guard routeKnown else { return .unmatched(.unknownRoute) }
    guard let start = descriptor.startTime.flatMap({ ServiceTime(gtfs: $0) }) else { return .unmatched(.ambiguous) }
    let date = descriptor.startDate.flatMap { ServiceDate(gtfs: $0) }
    var found = candidates.filter { candidate in
      if let date, candidate.serviceDate != date { return false }
      if let direction = descriptor.directionID, candidate.directionID != Int(direction) { return false }
      if candidate.frequencyWindows.isEmpty { return candidate.firstDeparture == Int32(start.seconds) }
      return candidate.frequencyWindows.contains { $0.contains(Int32(start.seconds)) }
    }
    if found.isEmpty { return .unmatched(candidates.isEmpty ? .notRunning : .unknownTrip) }
    // Without start_date, the same trip may run on the dates around the feed's: the caller
    // offers the nearest date first.
    if date == nil, let first = found.first { found = found.filter { $0.serviceDate == first.serviceDate } }
    guard found.count == 1, let trip = found.first else { return .unmatched(.ambiguous) }
    return .trip(trip.tripID, trip.serviceDate, startTime: trip.frequencyWindows.isEmpty ? nil : start, rule: .descriptor)
  }

  /// The scheduled trip a NYCT trip update names (rule 16): same route (the descriptor's
  /// route_id, else the name's), same direction, and first departure at the origin time on
  /// start_date (or 24 h later on the day before); a matching path code breaks ties.
  ///
  /// - Parameter candidates: the route's trips running on start_date and the day before.
  public static func resolveNYCT(
    _ name: NYCTTripName, startDate: ServiceDate, among candidates: [TripStartCandidate]
  ) -> TripResolution {
    let previous = startDate.adding(days: -1)
    let found = candidates.filter { candidate in
      guard let first = candidate.firstDeparture else { return false }
      let atOrigin =
        (candidate.serviceDate == startDate && first == name.originSeconds)
        || (candidate.serviceDate == previous && first == name.originSeconds + 86_400)
      guard atOrigin else { return false }
      guard let mta = candidate.mtaTripID.flatMap({ NYCTTripName.parse($0) }) else { return candidate.mtaTripID == nil }
      return mta.direction == name.direction
    }
    guard !found.isEmpty else { return .unmatched(.unknownTrip) }
    let samePath = found.filter { $0.mtaTripID.flatMap { NYCTTripName.parse($0) }?.path == name.path }
    let pick = (samePath.isEmpty ? found : samePath).min { $0.tripID < $1.tripID }!
    return .trip(pick.tripID, pick.serviceDate, startTime: nil, rule: .convention)
  }

  /// Routes whose scheduled trips a NYCT feed replaces, with the end of each period: within it,
  /// a scheduled trip the feed omits is not running (nyct-subway.proto, rule 16).
  public static func replacementPeriods(in feeds: [FeedMessage]) -> [RouteID: UnixTime] {
    var result: [RouteID: UnixTime] = [:]
    for feed in feeds {
      guard let header = feed.header?.nyctFeedHeader else { continue }
      let now = feed.header?.timestamp.map { UnixTime(Int64(clamping: $0)) }
      for period in header.tripReplacementPeriods {
        guard let route = period.routeID, !route.isEmpty else { continue }
        // NYCT omits the start (now) and gives the end; a period without an end lasts until the
        // feed's own time at least.
        guard let end = period.replacementPeriod?.end.map({ UnixTime(Int64(clamping: $0)) }) ?? now else { continue }
        result[RouteID(route)] = max(result[RouteID(route)] ?? end, end)
      }
    }
    return result
  }
}
