// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// Realtime update of the progress of a vehicle along a trip.
///
/// The proto's `TripUpdate`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct TripUpdate: Sendable, Equatable {
  /// The trip this update applies to (required by the proto).
  ///
  /// Proto field 1: `required TripDescriptor trip`.
  public var trip: TripDescriptor?
  /// Additional information on the vehicle that is serving this trip.
  ///
  /// Proto field 3: `optional VehicleDescriptor vehicle`.
  public var vehicle: VehicleDescriptor?
  /// Updates to StopTimes for the trip (both future, i.e., predictions, and in some cases, past
  /// ones, i.e., those that already happened).
  ///
  /// Proto field 2: `repeated StopTimeUpdate stop_time_update`.
  public var stopTimeUpdates: StopTimeUpdates = []
  /// The most recent moment at which the vehicle's real-time progress was measured to estimate
  /// StopTimes in the future.
  ///
  /// Proto field 4: `optional uint64 timestamp`.
  public var timestamp: UInt64?
  /// The current schedule deviation for the whole trip, in seconds.
  ///
  /// Proto field 5: `optional int32 delay`.
  public var delay: Int32?
  /// Updated properties of the trip, such as a new shape_id when there is a detour.
  ///
  /// Proto field 6: `optional TripProperties trip_properties`.
  public var tripProperties: TripProperties? {
    get { tripPropertiesBox?.value }
    set { tripPropertiesBox = newValue.map(Box.init) }
  }
  /// Where `tripProperties` is kept: a shared, copy-on-write cell (see `Box`).
  var tripPropertiesBox: Box<TripProperties>?

  /// A `TripUpdate` with every field unset.
  public init() {}

  /// A `TripUpdate` with the given fields; those not given are unset.
  public init(
    trip: TripDescriptor? = nil,
    vehicle: VehicleDescriptor? = nil,
    stopTimeUpdates: [StopTimeUpdate] = [],
    timestamp: UInt64? = nil,
    delay: Int32? = nil,
    tripProperties: TripProperties? = nil
  ) {
    self.trip = trip
    self.vehicle = vehicle
    self.stopTimeUpdates = StopTimeUpdates(stopTimeUpdates)
    self.timestamp = timestamp
    self.delay = delay
    self.tripProperties = tripProperties
  }

  /// Timing information for a single predicted event (either arrival or departure).
  ///
  /// The proto's `TripUpdate.StopTimeEvent`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  ///
  /// Stored compactly (a large feed holds tens of thousands): the four values as plain numbers
  /// plus a bit per field that says whether it is set, 25 bytes instead of 41. An unset value is
  /// always stored as 0, so comparing the stored properties compares the optionals.
  public struct StopTimeEvent: Sendable, Equatable {
    /// `time`'s value, or 0 when unset.
    var storedTime: Int64 = 0
    /// `scheduledTime`'s value, or 0 when unset.
    var storedScheduledTime: Int64 = 0
    /// `delay`'s value, or 0 when unset.
    var storedDelay: Int32 = 0
    /// `uncertainty`'s value, or 0 when unset.
    var storedUncertainty: Int32 = 0
    /// Which fields are set: the `Field` bits.
    var presence: UInt8 = 0

    /// The presence bit of each field.
    enum Field {
      static let delay: UInt8 = 1 << 0
      static let time: UInt8 = 1 << 1
      static let uncertainty: UInt8 = 1 << 2
      static let scheduledTime: UInt8 = 1 << 3
    }

    /// Sets or clears `field`'s presence bit.
    private mutating func mark(_ field: UInt8, set: Bool) {
      presence = set ? presence | field : presence & ~field
    }

    /// Delay in seconds: positive when late, negative when early.
    ///
    /// Proto field 1: `optional int32 delay`.
    public var delay: Int32? {
      get { presence & Field.delay != 0 ? storedDelay : nil }
      set {
        storedDelay = newValue ?? 0
        mark(Field.delay, set: newValue != nil)
      }
    }
    /// The event as an absolute time, in Unix seconds.
    ///
    /// Proto field 2: `optional int64 time`.
    public var time: Int64? {
      get { presence & Field.time != 0 ? storedTime : nil }
      set {
        storedTime = newValue ?? 0
        mark(Field.time, set: newValue != nil)
      }
    }
    /// The expected error of the prediction, in seconds; nil means unknown, 0 means certain.
    ///
    /// Proto field 3: `optional int32 uncertainty`.
    public var uncertainty: Int32? {
      get { presence & Field.uncertainty != 0 ? storedUncertainty : nil }
      set {
        storedUncertainty = newValue ?? 0
        mark(Field.uncertainty, set: newValue != nil)
      }
    }
    /// The scheduled time, in Unix seconds, for a NEW, REPLACEMENT or DUPLICATED trip.
    ///
    /// Proto field 4: `optional int64 scheduled_time`.
    public var scheduledTime: Int64? {
      get { presence & Field.scheduledTime != 0 ? storedScheduledTime : nil }
      set {
        storedScheduledTime = newValue ?? 0
        mark(Field.scheduledTime, set: newValue != nil)
      }
    }

    /// A `StopTimeEvent` with every field unset.
    public init() {}

    /// A `StopTimeEvent` with the given fields; those not given are unset.
    public init(
      delay: Int32? = nil,
      time: Int64? = nil,
      uncertainty: Int32? = nil,
      scheduledTime: Int64? = nil
    ) {
      self.delay = delay
      self.time = time
      self.uncertainty = uncertainty
      self.scheduledTime = scheduledTime
    }
  }

  /// Realtime update for arrival and/or departure events for a given stop on a trip.
  ///
  /// The proto's `TripUpdate.StopTimeUpdate`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  ///
  /// Stored compactly, like `StopTimeEvent` (a large feed holds tens of thousands, and building
  /// and freeing them is most of the decoder's work): plain values, an unset one stored as its
  /// zero value, plus a bit per field that says whether it is set; 96 bytes instead of 144.
  public struct StopTimeUpdate: Sendable, Equatable {
    // Declared in this order so the fields pack without padding.
    /// `stopID`'s value, or "" when unset (the literal, which holds no reference: the decoder
    /// puts a string in its place without releasing it).
    var storedStopID: String = ""
    /// Where `stopTimeProperties` and NYCT's extension (`nyctStopTimeUpdate`, field 1001) are
    /// kept: one shared, copy-on-write cell for both (see `Box`), nil while both are unset, so
    /// that the stop time updates of a large feed stay one pointer smaller.
    var rareBox: Box<Rare>?

    /// The rarely set fields (see `rareBox`).
    struct Rare: RareFields, Equatable {
      var stopTimeProperties: StopTimeProperties?
      var nyctStopTimeUpdate: NyctStopTimeUpdate?

      init() {}

      var isEmpty: Bool { stopTimeProperties == nil && nyctStopTimeUpdate == nil }
    }

    /// Sets one rare field through a new cell (a shared cell is never written).
    mutating func setRare<Value>(_ field: WritableKeyPath<Rare, Value?>, _ value: Value?) {
      var rare = rareBox?.value ?? Rare()
      rare[keyPath: field] = value
      rareBox = rare.isEmpty ? nil : Box(rare)
    }
    /// `arrival`'s value, or an empty event when unset.
    var storedArrival = StopTimeEvent()
    /// Which fields are set: the `Field` bits.
    var presence: UInt8 = 0
    /// NYCT's tracks when short (`NYCTTracks`, in bytes that are padding otherwise); 0 when
    /// unset or kept in `rareBox`.
    var storedTracks: UInt32 = 0
    /// `departure`'s value, or an empty event when unset.
    var storedDeparture = StopTimeEvent()
    /// `stopSequence`'s value, or 0 when unset.
    var storedStopSequence: UInt32 = 0
    /// `scheduleRelationship`'s number, or 0 when unset.
    var storedScheduleRelationship: Int32 = 0
    /// `departureOccupancyStatus`'s number, or 0 when unset.
    var storedDepartureOccupancyStatus: Int32 = 0

    /// The presence bit of each field (`stop_time_properties` is present when its box is).
    enum Field {
      static let stopSequence: UInt8 = 1 << 0
      static let stopID: UInt8 = 1 << 1
      static let arrival: UInt8 = 1 << 2
      static let departure: UInt8 = 1 << 3
      static let departureOccupancyStatus: UInt8 = 1 << 4
      static let scheduleRelationship: UInt8 = 1 << 5
    }

    /// Sets or clears `field`'s presence bit.
    private mutating func mark(_ field: UInt8, set: Bool) {
      presence = set ? presence | field : presence & ~field
    }

    /// The stop's `stop_sequence` in the GTFS stop_times.txt.
    ///
    /// Proto field 1: `optional uint32 stop_sequence`.
    public var stopSequence: UInt32? {
      get { presence & Field.stopSequence != 0 ? storedStopSequence : nil }
      set {
        storedStopSequence = newValue ?? 0
        mark(Field.stopSequence, set: newValue != nil)
      }
    }
    /// The stop's `stop_id` in the GTFS stops.txt.
    ///
    /// Proto field 4: `optional string stop_id`.
    public var stopID: String? {
      get { presence & Field.stopID != 0 ? storedStopID : nil }
      set {
        storedStopID = newValue ?? ""
        mark(Field.stopID, set: newValue != nil)
      }
    }
    /// The predicted arrival.
    ///
    /// Proto field 2: `optional StopTimeEvent arrival`.
    public var arrival: StopTimeEvent? {
      get { presence & Field.arrival != 0 ? storedArrival : nil }
      set {
        storedArrival = newValue ?? StopTimeEvent()
        mark(Field.arrival, set: newValue != nil)
      }
    }
    /// The predicted departure.
    ///
    /// Proto field 3: `optional StopTimeEvent departure`.
    public var departure: StopTimeEvent? {
      get { presence & Field.departure != 0 ? storedDeparture : nil }
      set {
        storedDeparture = newValue ?? StopTimeEvent()
        mark(Field.departure, set: newValue != nil)
      }
    }
    /// Expected occupancy after departure from the given stop.
    ///
    /// Proto field 7: `optional VehiclePosition.OccupancyStatus departure_occupancy_status`.
    public var departureOccupancyStatus: VehiclePosition.OccupancyStatus? {
      get {
        presence & Field.departureOccupancyStatus != 0
          ? VehiclePosition.OccupancyStatus(rawValue: storedDepartureOccupancyStatus) : nil
      }
      set {
        storedDepartureOccupancyStatus = newValue?.rawValue ?? 0
        mark(Field.departureOccupancyStatus, set: newValue != nil)
      }
    }
    /// How the update relates to the schedule (unset means `SCHEDULED`).
    ///
    /// Proto field 5: `optional ScheduleRelationship schedule_relationship` [default = SCHEDULED].
    public var scheduleRelationship: ScheduleRelationship? {
      get {
        presence & Field.scheduleRelationship != 0
          ? ScheduleRelationship(rawValue: storedScheduleRelationship) : nil
      }
      set {
        storedScheduleRelationship = newValue?.rawValue ?? 0
        mark(Field.scheduleRelationship, set: newValue != nil)
      }
    }
    /// Realtime updates to properties of the stop time from GTFS stop_times.txt.
    ///
    /// Proto field 6: `optional StopTimeProperties stop_time_properties`.
    public var stopTimeProperties: StopTimeProperties? {
      get { rareBox?.value.stopTimeProperties }
      set { setRare(\.stopTimeProperties, newValue) }
    }

    /// Whether `stopTimeProperties` or NYCT's extension may be set: false (two stored words
    /// looked at, nothing unpacked) for the great many updates that hold only times and a stop.
    public var hasRareFields: Bool { rareBox != nil || storedTracks != 0 }

    /// A `StopTimeUpdate` with every field unset.
    public init() {}

    /// A `StopTimeUpdate` with the given fields; those not given are unset.
    public init(
      stopSequence: UInt32? = nil,
      stopID: String? = nil,
      arrival: StopTimeEvent? = nil,
      departure: StopTimeEvent? = nil,
      departureOccupancyStatus: VehiclePosition.OccupancyStatus? = nil,
      scheduleRelationship: ScheduleRelationship? = nil,
      stopTimeProperties: StopTimeProperties? = nil
    ) {
      self.stopSequence = stopSequence
      self.stopID = stopID
      self.arrival = arrival
      self.departure = departure
      self.departureOccupancyStatus = departureOccupancyStatus
      self.scheduleRelationship = scheduleRelationship
      self.stopTimeProperties = stopTimeProperties
    }

    /// `scheduleRelationship`, or the proto's default `SCHEDULED` when unset.
    public var scheduleRelationshipOrDefault: ScheduleRelationship {
      scheduleRelationship ?? .scheduled
    }

    /// The relation between the StopTimeEvents and the static schedule.
    ///
    /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
    /// closed, but a newer feed may use values added to the spec later).
    public enum ScheduleRelationship: ProtoEnum {
      /// `SCHEDULED`: The vehicle is proceeding in accordance with its static schedule of stops,
      /// although not necessarily according to the times of the schedule.
      case scheduled
      /// `SKIPPED`: The stop is skipped, i.e., the vehicle will not stop at this stop.
      case skipped
      /// `NO_DATA`: No StopTimeEvents are given for this stop.
      case noData
      /// `UNSCHEDULED`: The vehicle is operating a trip defined in GTFS frequencies.txt with
      /// exact_times = 0.
      case unscheduled
      /// A value the proto this decoder was built from does not define.
      case unrecognized(Int32)

      /// The value for its number on the wire; unknown numbers become `unrecognized`.
      public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .scheduled
        case 1: self = .skipped
        case 2: self = .noData
        case 3: self = .unscheduled
        default: self = .unrecognized(rawValue)
        }
      }

      /// The number on the wire.
      public var rawValue: Int32 {
        switch self {
        case .scheduled: 0
        case .skipped: 1
        case .noData: 2
        case .unscheduled: 3
        case .unrecognized(let value): value
        }
      }

      /// The name the .proto gives the value (`SCHEDULED`), or nil when unrecognized.
      public var protoName: String? {
        switch self {
        case .scheduled: "SCHEDULED"
        case .skipped: "SKIPPED"
        case .noData: "NO_DATA"
        case .unscheduled: "UNSCHEDULED"
        case .unrecognized: nil
        }
      }
    }

    /// Provides the updated values for the stop time.
    ///
    /// The proto's `TripUpdate.StopTimeUpdate.StopTimeProperties`. Optional properties are nil when the field is absent
    /// (proto2 "has" semantics: unset differs from the default).
    public struct StopTimeProperties: Sendable, Equatable {
      /// Supports real-time stop assignments.
      ///
      /// Proto field 1: `optional string assigned_stop_id`.
      public var assignedStopID: String?
      /// The updated headsign of the vehicle at the stop.
      ///
      /// Proto field 2: `optional string stop_headsign`.
      public var stopHeadsign: String?
      /// The updated pickup of the vehicle at the stop.
      ///
      /// Proto field 3: `optional DropOffPickupType pickup_type`.
      public var pickupType: DropOffPickupType?
      /// The updated drop off of the vehicle at the stop.
      ///
      /// Proto field 4: `optional DropOffPickupType drop_off_type`.
      public var dropOffType: DropOffPickupType?

      /// A `StopTimeProperties` with every field unset.
      public init() {}

      /// A `StopTimeProperties` with the given fields; those not given are unset.
      public init(
        assignedStopID: String? = nil,
        stopHeadsign: String? = nil,
        pickupType: DropOffPickupType? = nil,
        dropOffType: DropOffPickupType? = nil
      ) {
        self.assignedStopID = assignedStopID
        self.stopHeadsign = stopHeadsign
        self.pickupType = pickupType
        self.dropOffType = dropOffType
      }

      /// How passengers may be picked up or dropped off.
      ///
      /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
      /// closed, but a newer feed may use values added to the spec later).
      public enum DropOffPickupType: ProtoEnum {
        /// `REGULAR`: Regularly scheduled pickup/dropoff.
        case regular
        /// `NONE`: No pickup/dropoff available.
        case none
        /// `PHONE_AGENCY`: Must phone agency to arrange pickup/dropoff.
        case phoneAgency
        /// `COORDINATE_WITH_DRIVER`: Must coordinate with driver to arrange pickup/dropoff.
        case coordinateWithDriver
        /// A value the proto this decoder was built from does not define.
        case unrecognized(Int32)

        /// The value for its number on the wire; unknown numbers become `unrecognized`.
        public init(rawValue: Int32) {
          switch rawValue {
          case 0: self = .regular
          case 1: self = .none
          case 2: self = .phoneAgency
          case 3: self = .coordinateWithDriver
          default: self = .unrecognized(rawValue)
          }
        }

        /// The number on the wire.
        public var rawValue: Int32 {
          switch self {
          case .regular: 0
          case .none: 1
          case .phoneAgency: 2
          case .coordinateWithDriver: 3
          case .unrecognized(let value): value
          }
        }

        /// The name the .proto gives the value (`REGULAR`), or nil when unrecognized.
        public var protoName: String? {
          switch self {
          case .regular: "REGULAR"
          case .none: "NONE"
          case .phoneAgency: "PHONE_AGENCY"
          case .coordinateWithDriver: "COORDINATE_WITH_DRIVER"
          case .unrecognized: nil
          }
        }
      }
    }
  }

  /// Defines updated properties of the trip, such as a new shape_id when there is a detour.
  ///
  /// The proto's `TripUpdate.TripProperties`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct TripProperties: Sendable, Equatable {
    /// Defines the identifier of a new trip that is a duplicate of an existing trip defined in
    /// (CSV) GTFS trips.txt but will start at a different service date and/or time (defined using
    /// the TripProperties.start_date and TripProperties.start_time fields).
    ///
    /// Proto field 1: `optional string trip_id`.
    public var tripID: String?
    /// Service date on which the DUPLICATED trip will be run, in YYYYMMDD format.
    ///
    /// Proto field 2: `optional string start_date`.
    public var startDate: String?
    /// Defines the departure start time of the trip when it’s duplicated.
    ///
    /// Proto field 3: `optional string start_time`.
    public var startTime: String?
    /// Specifies the identifier of the shape of the vehicle travel path when the trip shape differs
    /// from the shape specified in (CSV) GTFS or to specify it in real-time when it's not provided
    /// by (CSV) GTFS, such as a vehicle that takes differing paths based on rider demand.
    ///
    /// Proto field 4: `optional string shape_id`.
    public var shapeID: String?
    /// Specifies the headsign for this trip when it differs from the original.
    ///
    /// Proto field 5: `optional string trip_headsign`.
    public var tripHeadsign: String?
    /// Specifies the name for this trip when it differs from the original.
    ///
    /// Proto field 6: `optional string trip_short_name`.
    public var tripShortName: String?

    /// A `TripProperties` with every field unset.
    public init() {}

    /// A `TripProperties` with the given fields; those not given are unset.
    public init(
      tripID: String? = nil,
      startDate: String? = nil,
      startTime: String? = nil,
      shapeID: String? = nil,
      tripHeadsign: String? = nil,
      tripShortName: String? = nil
    ) {
      self.tripID = tripID
      self.startDate = startDate
      self.startTime = startTime
      self.shapeID = shapeID
      self.tripHeadsign = tripHeadsign
      self.tripShortName = tripShortName
    }
  }
}
