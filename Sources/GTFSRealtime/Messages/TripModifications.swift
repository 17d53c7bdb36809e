// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// Changes to the stops and shape of a set of trips (experimental in the proto).
///
/// The proto's `TripModifications`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct TripModifications: Sendable, Equatable {
  /// A list of selected trips affected by this TripModifications.
  ///
  /// Proto field 1: `repeated SelectedTrips selected_trips`.
  public var selectedTrips: [SelectedTrips] = []
  /// A list of start times in the real-time trip descriptor for the trip_id defined in trip_ids.
  ///
  /// Proto field 2: `repeated string start_times`.
  public var startTimes: [String] = []
  /// Dates on which the modifications occurs, in the YYYYMMDD format.
  ///
  /// Proto field 3: `repeated string service_dates`.
  public var serviceDates: [String] = []
  /// A list of modifications to apply to the affected trips.
  ///
  /// Proto field 4: `repeated Modification modifications`.
  public var modifications: [Modification] = []

  /// A `TripModifications` with every field unset.
  public init() {}

  /// A `TripModifications` with the given fields; those not given are unset.
  public init(
    selectedTrips: [SelectedTrips] = [],
    startTimes: [String] = [],
    serviceDates: [String] = [],
    modifications: [Modification] = []
  ) {
    self.selectedTrips = selectedTrips
    self.startTimes = startTimes
    self.serviceDates = serviceDates
    self.modifications = modifications
  }

  /// A `Modification` message replaces a span of n stop times from each affected trip starting at
  /// `start_stop_selector`.
  ///
  /// The proto's `TripModifications.Modification`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct Modification: Sendable, Equatable {
    /// The stop selector of the first stop_time of the original trip that is to be affected by this
    /// modification.
    ///
    /// Proto field 1: `optional StopSelector start_stop_selector`.
    public var startStopSelector: StopSelector?
    /// The stop selector of the last stop of the original trip that is to be affected by this
    /// modification.
    ///
    /// Proto field 2: `optional StopSelector end_stop_selector`.
    public var endStopSelector: StopSelector?
    /// Seconds of delay added to every time after the end of this modification (unset means 0).
    ///
    /// Proto field 3: `optional int32 propagated_modification_delay` [default = 0].
    public var propagatedModificationDelay: Int32?
    /// A list of replacement stops, replacing those of the original trip.
    ///
    /// Proto field 4: `repeated ReplacementStop replacement_stops`.
    public var replacementStops: [ReplacementStop] = []
    /// An `id` value from the `FeedEntity` message that contains the `Alert` describing this
    /// Modification for user-facing communication.
    ///
    /// Proto field 5: `optional string service_alert_id`.
    public var serviceAlertID: String?
    /// This timestamp identifies the moment when the modification has last been changed.
    ///
    /// Proto field 6: `optional uint64 last_modified_time`.
    public var lastModifiedTime: UInt64?

    /// A `Modification` with every field unset.
    public init() {}

    /// A `Modification` with the given fields; those not given are unset.
    public init(
      startStopSelector: StopSelector? = nil,
      endStopSelector: StopSelector? = nil,
      propagatedModificationDelay: Int32? = nil,
      replacementStops: [ReplacementStop] = [],
      serviceAlertID: String? = nil,
      lastModifiedTime: UInt64? = nil
    ) {
      self.startStopSelector = startStopSelector
      self.endStopSelector = endStopSelector
      self.propagatedModificationDelay = propagatedModificationDelay
      self.replacementStops = replacementStops
      self.serviceAlertID = serviceAlertID
      self.lastModifiedTime = lastModifiedTime
    }

    /// `propagatedModificationDelay`, or the proto's default `0` when unset.
    public var propagatedModificationDelayOrDefault: Int32 { propagatedModificationDelay ?? 0 }
  }

  /// Trips affected by a modification that share one new shape.
  ///
  /// The proto's `TripModifications.SelectedTrips`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct SelectedTrips: Sendable, Equatable {
    /// A list of trips affected with this replacement that all have the same new `shape_id`.
    ///
    /// Proto field 1: `repeated string trip_ids`.
    public var tripIDs: [String] = []
    /// The ID of the new shape for the modified trips in this SelectedTrips.
    ///
    /// Proto field 2: `optional string shape_id`.
    public var shapeID: String?

    /// A `SelectedTrips` with every field unset.
    public init() {}

    /// A `SelectedTrips` with the given fields; those not given are unset.
    public init(
      tripIDs: [String] = [],
      shapeID: String? = nil
    ) {
      self.tripIDs = tripIDs
      self.shapeID = shapeID
    }
  }
}

/// Select a stop by stop sequence or by stop_id.
///
/// The proto's `StopSelector`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct StopSelector: Sendable, Equatable {
  /// Must be the same as in stop_times.txt in the corresponding GTFS feed.
  ///
  /// Proto field 1: `optional uint32 stop_sequence`.
  public var stopSequence: UInt32?
  /// Must be the same as in stops.txt in the corresponding GTFS feed.
  ///
  /// Proto field 2: `optional string stop_id`.
  public var stopID: String?

  /// A `StopSelector` with every field unset.
  public init() {}

  /// A `StopSelector` with the given fields; those not given are unset.
  public init(
    stopSequence: UInt32? = nil,
    stopID: String? = nil
  ) {
    self.stopSequence = stopSequence
    self.stopID = stopID
  }
}

/// A stop that replaces stops of the original trip.
///
/// The proto's `ReplacementStop`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct ReplacementStop: Sendable, Equatable {
  /// The difference in seconds between the arrival time at this stop and the arrival time at the
  /// reference stop.
  ///
  /// Proto field 1: `optional int32 travel_time_to_stop`.
  public var travelTimeToStop: Int32?
  /// The replacement stop ID which will now be visited by the trip.
  ///
  /// Proto field 2: `optional string stop_id`.
  public var stopID: String?

  /// A `ReplacementStop` with every field unset.
  public init() {}

  /// A `ReplacementStop` with the given fields; those not given are unset.
  public init(
    travelTimeToStop: Int32? = nil,
    stopID: String? = nil
  ) {
    self.travelTimeToStop = travelTimeToStop
    self.stopID = stopID
  }
}
