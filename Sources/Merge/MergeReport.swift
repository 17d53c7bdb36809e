import TransitModel

/// What a merge could not use, as data for the caller to show or count (Merge never prints).
public struct MergeReport: Hashable, Sendable {
  /// One thing that was left out, and why.
  public enum Issue: Hashable, Sendable {
    /// A trip update without a trip_id (route-wide updates are not applied).
    case tripUpdateWithoutTripID(entityID: String?)
    /// A trip update whose trip (or instance) is not among the scheduled trips given.
    case unmatchedTrip(tripID: String, startDate: String?, startTime: String?)
    /// A second update for an instance already updated; the first one is kept.
    case duplicateUpdate(TripInstance)
    /// A stop time update naming no stop of its trip.
    case unmatchedStop(tripID: String, stopSequence: Int?, stopID: String?)
    /// A prediction more than the outlier bound off the timetable: not trusted.
    case outlier(TripInstance, stopSequence: Int, delaySeconds: Int64)
    /// A prediction earlier than the stop before it: raised to that stop's time.
    case clamped(TripInstance, stopSequence: Int, bySeconds: Int64)
    /// A DUPLICATED trip whose original or new start could not be read.
    case unusableDuplicate(tripID: String)
    /// A DUPLICATED trip without trip_properties (older producers): copied to the start its
    /// TripDescriptor.start_time gives, keeping its trip_id and start_date.
    case duplicatedFromStartTime(TripInstance, startTime: String)
    /// A start_date naming the calendar date of an after-midnight run: the trip's service does
    /// not run on `startDate`, and the day before runs it with a first departure at or after
    /// 24:00:00 (the start_time, if given, that minus 24 h), so that run is the one matched.
    case repairedStartDate(TripInstance, startDate: ServiceDate)
    /// A trip update whose own timestamp is older than the limit: not used.
    case expiredUpdate(tripID: String, ageSeconds: Int64)
    /// Everything realtime was ignored: the feed is older than the limit.
    case expiredFeed(ageSeconds: Int64)
  }

  /// What was left out, in feed order.
  public var issues: [Issue] = []
  /// Trip updates seen (with or without a trip_id).
  public var tripUpdateCount = 0
  /// Of those, how many matched a scheduled trip instance (or were added trips).
  public var matchedTripUpdateCount = 0
  /// The trip updates that matched nothing, by reason (rule 18); trip updates without a trip_id
  /// are counted under `ambiguous` (the caller, which resolves descriptors, may say better).
  public var unmatched: [UnmatchedReason: Int] = [:]
  /// Of the matched, how many were ADDED/NEW trips built from the update (rule 7).
  public var addedTripUpdateCount = 0

  /// Realtime values out of range (`RealtimeBounds`: a time past year 9999, a NaN speed), each
  /// treated as absent.
  public var outOfRangeCount = 0

  /// Creates an empty report.
  public init() {}

  /// The share of trip updates that matched, 0...1 (1 when there were none).
  public var matchShare: Double {
    tripUpdateCount == 0 ? 1 : Double(matchedTripUpdateCount) / Double(tripUpdateCount)
  }
}
