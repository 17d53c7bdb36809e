// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// A descriptor that identifies an instance of a GTFS trip, or all instances of a trip along a
/// route.
///
/// The proto's `TripDescriptor`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct TripDescriptor: Sendable, Equatable {
  /// The trip_id from the GTFS feed that this selector refers to.
  ///
  /// Proto field 1: `optional string trip_id`.
  public var tripID: String?
  /// The route_id from the GTFS that this selector refers to.
  ///
  /// Proto field 5: `optional string route_id`.
  public var routeID: String?
  /// The direction_id from the GTFS feed trips.txt file, indicating the direction of travel for
  /// trips this selector refers to.
  ///
  /// Proto field 6: `optional uint32 direction_id`.
  public var directionID: UInt32?
  /// The initially scheduled start time of this trip instance.
  ///
  /// Proto field 2: `optional string start_time`.
  public var startTime: String?
  /// The scheduled start date of this trip instance.
  ///
  /// Proto field 3: `optional string start_date`.
  public var startDate: String?
  /// How the trip relates to the schedule.
  ///
  /// Proto field 4: `optional ScheduleRelationship schedule_relationship`.
  public var scheduleRelationship: ScheduleRelationship?
  /// Linkage to any modifications done to this trip (shape changes, removal or addition of stops).
  ///
  /// Proto field 7: `optional ModifiedTripSelector modified_trip`.
  public var modifiedTrip: ModifiedTripSelector? {
    get { modifiedTripBox?.value }
    set { modifiedTripBox = newValue.map(Box.init) }
  }
  /// Where `modifiedTrip` is kept: a shared, copy-on-write cell (see `Box`).
  var modifiedTripBox: Box<ModifiedTripSelector>?
  /// Where NYCT's extension (`nyctTripDescriptor`, field 1001) is kept: set only in its feeds.
  var nyctTripDescriptorBox: Box<NyctTripDescriptor>?

  /// A `TripDescriptor` with every field unset.
  public init() {}

  /// A `TripDescriptor` with the given fields; those not given are unset.
  public init(
    tripID: String? = nil,
    routeID: String? = nil,
    directionID: UInt32? = nil,
    startTime: String? = nil,
    startDate: String? = nil,
    scheduleRelationship: ScheduleRelationship? = nil,
    modifiedTrip: ModifiedTripSelector? = nil
  ) {
    self.tripID = tripID
    self.routeID = routeID
    self.directionID = directionID
    self.startTime = startTime
    self.startDate = startDate
    self.scheduleRelationship = scheduleRelationship
    self.modifiedTrip = modifiedTrip
  }

  /// `scheduleRelationship`, or the proto's default `SCHEDULED` (proto2's implicit default, its
  /// first value) when unset.
  public var scheduleRelationshipOrDefault: ScheduleRelationship {
    scheduleRelationship ?? .scheduled
  }

  /// The relation between this trip and the static schedule.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum ScheduleRelationship: ProtoEnum {
    /// `SCHEDULED`: Trip that is running in accordance with its GTFS schedule, or is close enough
    /// to the scheduled trip to be associated with it.
    case scheduled
    /// `ADDED`: This value has been deprecated as the behavior was unspecified.
    case added
    /// `UNSCHEDULED`: A trip that is running with no schedule associated to it (GTFS
    /// frequencies.txt exact_times=0).
    case unscheduled
    /// `CANCELED`: A trip that existed in the schedule but was removed.
    case canceled
    /// `REPLACEMENT`: A trip that replaces an existing trip in the schedule.
    case replacement
    /// `DUPLICATED`: An extra trip that was added in addition to a running schedule, for example,
    /// to replace a broken vehicle or to respond to sudden passenger load.
    case duplicated
    /// `DELETED`: A trip that existed in the schedule but was removed and must not be shown to
    /// users.
    case deleted
    /// `NEW`: An extra trip unrelated to any existing trips, for example, to respond to sudden
    /// passenger load.
    case new
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .scheduled
      case 1: self = .added
      case 2: self = .unscheduled
      case 3: self = .canceled
      case 5: self = .replacement
      case 6: self = .duplicated
      case 7: self = .deleted
      case 8: self = .new
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .scheduled: 0
      case .added: 1
      case .unscheduled: 2
      case .canceled: 3
      case .replacement: 5
      case .duplicated: 6
      case .deleted: 7
      case .new: 8
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`SCHEDULED`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .scheduled: "SCHEDULED"
      case .added: "ADDED"
      case .unscheduled: "UNSCHEDULED"
      case .canceled: "CANCELED"
      case .replacement: "REPLACEMENT"
      case .duplicated: "DUPLICATED"
      case .deleted: "DELETED"
      case .new: "NEW"
      case .unrecognized: nil
      }
    }
  }

  /// Links a trip to the TripModifications entity that changes it.
  ///
  /// The proto's `TripDescriptor.ModifiedTripSelector`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct ModifiedTripSelector: Sendable, Equatable {
    /// The 'id' from the FeedEntity in which the contained TripModifications object affects this
    /// trip.
    ///
    /// Proto field 1: `optional string modifications_id`.
    public var modificationsID: String?
    /// The trip_id from the GTFS feed that is modified by the modifications_id.
    ///
    /// Proto field 2: `optional string affected_trip_id`.
    public var affectedTripID: String?
    /// The initially scheduled start time of this trip instance, applied to the frequency based
    /// modified trip.
    ///
    /// Proto field 3: `optional string start_time`.
    public var startTime: String?
    /// The start date of this trip instance in YYYYMMDD format, applied to the modified trip.
    ///
    /// Proto field 4: `optional string start_date`.
    public var startDate: String?

    /// A `ModifiedTripSelector` with every field unset.
    public init() {}

    /// A `ModifiedTripSelector` with the given fields; those not given are unset.
    public init(
      modificationsID: String? = nil,
      affectedTripID: String? = nil,
      startTime: String? = nil,
      startDate: String? = nil
    ) {
      self.modificationsID = modificationsID
      self.affectedTripID = affectedTripID
      self.startTime = startTime
      self.startDate = startDate
    }
  }
}

/// Identification information for the vehicle performing the trip.
///
/// The proto's `VehicleDescriptor`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct VehicleDescriptor: Sendable, Equatable {
  /// Internal system identification of the vehicle.
  ///
  /// Proto field 1: `optional string id`.
  public var id: String?
  /// User visible label, i.e., something that must be shown to the passenger to help identify the
  /// correct vehicle.
  ///
  /// Proto field 2: `optional string label`.
  public var label: String?
  /// The license plate of the vehicle.
  ///
  /// Proto field 3: `optional string license_plate`.
  public var licensePlate: String?
  /// Whether the vehicle is wheelchair accessible (unset means `NO_VALUE`).
  ///
  /// Proto field 4: `optional WheelchairAccessible wheelchair_accessible` [default = NO_VALUE].
  public var wheelchairAccessible: WheelchairAccessible?

  /// A `VehicleDescriptor` with every field unset.
  public init() {}

  /// A `VehicleDescriptor` with the given fields; those not given are unset.
  public init(
    id: String? = nil,
    label: String? = nil,
    licensePlate: String? = nil,
    wheelchairAccessible: WheelchairAccessible? = nil
  ) {
    self.id = id
    self.label = label
    self.licensePlate = licensePlate
    self.wheelchairAccessible = wheelchairAccessible
  }

  /// `wheelchairAccessible`, or the proto's default `NO_VALUE` when unset.
  public var wheelchairAccessibleOrDefault: WheelchairAccessible {
    wheelchairAccessible ?? .noValue
  }

  /// Whether a vehicle is wheelchair accessible.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum WheelchairAccessible: ProtoEnum {
    /// `NO_VALUE`: The trip doesn't have information about wheelchair accessibility.
    case noValue
    /// `UNKNOWN`: The trip has no accessibility value present.
    case unknown
    /// `WHEELCHAIR_ACCESSIBLE`: The trip is wheelchair accessible.
    case wheelchairAccessible
    /// `WHEELCHAIR_INACCESSIBLE`: The trip is **not** wheelchair accessible.
    case wheelchairInaccessible
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .noValue
      case 1: self = .unknown
      case 2: self = .wheelchairAccessible
      case 3: self = .wheelchairInaccessible
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .noValue: 0
      case .unknown: 1
      case .wheelchairAccessible: 2
      case .wheelchairInaccessible: 3
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`NO_VALUE`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .noValue: "NO_VALUE"
      case .unknown: "UNKNOWN"
      case .wheelchairAccessible: "WHEELCHAIR_ACCESSIBLE"
      case .wheelchairInaccessible: "WHEELCHAIR_INACCESSIBLE"
      case .unrecognized: nil
      }
    }
  }
}
