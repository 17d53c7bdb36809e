// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// Realtime positioning information for a given vehicle.
///
/// The proto's `VehiclePosition`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct VehiclePosition: Sendable, Equatable {
  /// The Trip that this vehicle is serving.
  ///
  /// Proto field 1: `optional TripDescriptor trip`.
  public var trip: TripDescriptor?
  /// Additional information on the vehicle that is serving this trip.
  ///
  /// Proto field 8: `optional VehicleDescriptor vehicle`.
  public var vehicle: VehicleDescriptor?
  /// Current position of this vehicle.
  ///
  /// Proto field 2: `optional Position position`.
  public var position: Position?
  /// The stop sequence index of the current stop.
  ///
  /// Proto field 3: `optional uint32 current_stop_sequence`.
  public var currentStopSequence: UInt32?
  /// Identifies the current stop.
  ///
  /// Proto field 7: `optional string stop_id`.
  public var stopID: String?
  /// The vehicle's status with respect to the current stop (unset means `IN_TRANSIT_TO`).
  ///
  /// Proto field 4: `optional VehicleStopStatus current_status` [default = IN_TRANSIT_TO].
  public var currentStatus: VehicleStopStatus?
  /// Moment at which the vehicle's position was measured.
  ///
  /// Proto field 5: `optional uint64 timestamp`.
  public var timestamp: UInt64?
  /// The congestion affecting the vehicle.
  ///
  /// Proto field 6: `optional CongestionLevel congestion_level`.
  public var congestionLevel: CongestionLevel?
  /// How full the whole vehicle is.
  ///
  /// Proto field 9: `optional OccupancyStatus occupancy_status`.
  public var occupancyStatus: OccupancyStatus?
  /// A percentage value indicating the degree of passenger occupancy in the vehicle.
  ///
  /// Proto field 10: `optional uint32 occupancy_percentage`.
  public var occupancyPercentage: UInt32?
  /// Details of the multiple carriages of this given vehicle.
  ///
  /// Proto field 11: `repeated CarriageDetails multi_carriage_details`.
  public var multiCarriageDetails: [CarriageDetails] = []

  /// A `VehiclePosition` with every field unset.
  public init() {}

  /// A `VehiclePosition` with the given fields; those not given are unset.
  public init(
    trip: TripDescriptor? = nil,
    vehicle: VehicleDescriptor? = nil,
    position: Position? = nil,
    currentStopSequence: UInt32? = nil,
    stopID: String? = nil,
    currentStatus: VehicleStopStatus? = nil,
    timestamp: UInt64? = nil,
    congestionLevel: CongestionLevel? = nil,
    occupancyStatus: OccupancyStatus? = nil,
    occupancyPercentage: UInt32? = nil,
    multiCarriageDetails: [CarriageDetails] = []
  ) {
    self.trip = trip
    self.vehicle = vehicle
    self.position = position
    self.currentStopSequence = currentStopSequence
    self.stopID = stopID
    self.currentStatus = currentStatus
    self.timestamp = timestamp
    self.congestionLevel = congestionLevel
    self.occupancyStatus = occupancyStatus
    self.occupancyPercentage = occupancyPercentage
    self.multiCarriageDetails = multiCarriageDetails
  }

  /// `currentStatus`, or the proto's default `IN_TRANSIT_TO` when unset.
  public var currentStatusOrDefault: VehicleStopStatus { currentStatus ?? .inTransitTo }

  /// Where the vehicle is with respect to its current stop.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum VehicleStopStatus: ProtoEnum {
    /// `INCOMING_AT`: The vehicle is just about to arrive at the stop (on a stop display, the
    /// vehicle symbol typically flashes).
    case incomingAt
    /// `STOPPED_AT`: The vehicle is standing at the stop.
    case stoppedAt
    /// `IN_TRANSIT_TO`: The vehicle has departed and is in transit to the next stop.
    case inTransitTo
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .incomingAt
      case 1: self = .stoppedAt
      case 2: self = .inTransitTo
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .incomingAt: 0
      case .stoppedAt: 1
      case .inTransitTo: 2
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`INCOMING_AT`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .incomingAt: "INCOMING_AT"
      case .stoppedAt: "STOPPED_AT"
      case .inTransitTo: "IN_TRANSIT_TO"
      case .unrecognized: nil
      }
    }
  }

  /// Congestion level that is affecting this vehicle.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum CongestionLevel: ProtoEnum {
    /// `UNKNOWN_CONGESTION_LEVEL` (0).
    case unknownCongestionLevel
    /// `RUNNING_SMOOTHLY` (1).
    case runningSmoothly
    /// `STOP_AND_GO` (2).
    case stopAndGo
    /// `CONGESTION` (3).
    case congestion
    /// `SEVERE_CONGESTION`: People leaving their cars.
    case severeCongestion
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .unknownCongestionLevel
      case 1: self = .runningSmoothly
      case 2: self = .stopAndGo
      case 3: self = .congestion
      case 4: self = .severeCongestion
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .unknownCongestionLevel: 0
      case .runningSmoothly: 1
      case .stopAndGo: 2
      case .congestion: 3
      case .severeCongestion: 4
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`UNKNOWN_CONGESTION_LEVEL`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .unknownCongestionLevel: "UNKNOWN_CONGESTION_LEVEL"
      case .runningSmoothly: "RUNNING_SMOOTHLY"
      case .stopAndGo: "STOP_AND_GO"
      case .congestion: "CONGESTION"
      case .severeCongestion: "SEVERE_CONGESTION"
      case .unrecognized: nil
      }
    }
  }

  /// The state of passenger occupancy for the vehicle or carriage.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum OccupancyStatus: ProtoEnum {
    /// `EMPTY`: The vehicle or carriage is considered empty by most measures, and has few or no
    /// passengers onboard, but is still accepting passengers.
    case empty
    /// `MANY_SEATS_AVAILABLE`: The vehicle or carriage has a large number of seats available.
    case manySeatsAvailable
    /// `FEW_SEATS_AVAILABLE`: The vehicle or carriage has a relatively small number of seats
    /// available.
    case fewSeatsAvailable
    /// `STANDING_ROOM_ONLY`: The vehicle or carriage can currently accommodate only standing
    /// passengers.
    case standingRoomOnly
    /// `CRUSHED_STANDING_ROOM_ONLY`: The vehicle or carriage can currently accommodate only
    /// standing passengers and has limited space for them.
    case crushedStandingRoomOnly
    /// `FULL`: The vehicle or carriage is considered full by most measures, but may still be
    /// allowing passengers to board.
    case full
    /// `NOT_ACCEPTING_PASSENGERS`: The vehicle or carriage is not accepting passengers, but usually
    /// accepts passengers for boarding.
    case notAcceptingPassengers
    /// `NO_DATA_AVAILABLE`: The vehicle or carriage doesn't have any occupancy data available at
    /// that time.
    case noDataAvailable
    /// `NOT_BOARDABLE`: The vehicle or carriage is not boardable and never accepts passengers.
    case notBoardable
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .empty
      case 1: self = .manySeatsAvailable
      case 2: self = .fewSeatsAvailable
      case 3: self = .standingRoomOnly
      case 4: self = .crushedStandingRoomOnly
      case 5: self = .full
      case 6: self = .notAcceptingPassengers
      case 7: self = .noDataAvailable
      case 8: self = .notBoardable
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .empty: 0
      case .manySeatsAvailable: 1
      case .fewSeatsAvailable: 2
      case .standingRoomOnly: 3
      case .crushedStandingRoomOnly: 4
      case .full: 5
      case .notAcceptingPassengers: 6
      case .noDataAvailable: 7
      case .notBoardable: 8
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`EMPTY`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .empty: "EMPTY"
      case .manySeatsAvailable: "MANY_SEATS_AVAILABLE"
      case .fewSeatsAvailable: "FEW_SEATS_AVAILABLE"
      case .standingRoomOnly: "STANDING_ROOM_ONLY"
      case .crushedStandingRoomOnly: "CRUSHED_STANDING_ROOM_ONLY"
      case .full: "FULL"
      case .notAcceptingPassengers: "NOT_ACCEPTING_PASSENGERS"
      case .noDataAvailable: "NO_DATA_AVAILABLE"
      case .notBoardable: "NOT_BOARDABLE"
      case .unrecognized: nil
      }
    }
  }

  /// Details of one carriage of a multi-carriage vehicle.
  ///
  /// The proto's `VehiclePosition.CarriageDetails`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct CarriageDetails: Sendable, Equatable {
    /// Identification of the carriage.
    ///
    /// Proto field 1: `optional string id`.
    public var id: String?
    /// User visible label that may be shown to the passenger to help identify the carriage.
    ///
    /// Proto field 2: `optional string label`.
    public var label: String?
    /// How full this carriage is (unset means `NO_DATA_AVAILABLE`).
    ///
    /// Proto field 3: `optional OccupancyStatus occupancy_status` [default = NO_DATA_AVAILABLE].
    public var occupancyStatus: OccupancyStatus?
    /// How full this carriage is, in percent (unset means -1, no data).
    ///
    /// Proto field 4: `optional int32 occupancy_percentage` [default = -1].
    public var occupancyPercentage: Int32?
    /// Identifies the order of this carriage with respect to the other carriages in the vehicle's
    /// list of CarriageDetails.
    ///
    /// Proto field 5: `optional uint32 carriage_sequence`.
    public var carriageSequence: UInt32?

    /// A `CarriageDetails` with every field unset.
    public init() {}

    /// A `CarriageDetails` with the given fields; those not given are unset.
    public init(
      id: String? = nil,
      label: String? = nil,
      occupancyStatus: OccupancyStatus? = nil,
      occupancyPercentage: Int32? = nil,
      carriageSequence: UInt32? = nil
    ) {
      self.id = id
      self.label = label
      self.occupancyStatus = occupancyStatus
      self.occupancyPercentage = occupancyPercentage
      self.carriageSequence = carriageSequence
    }

    /// `occupancyStatus`, or the proto's default `NO_DATA_AVAILABLE` when unset.
    public var occupancyStatusOrDefault: OccupancyStatus { occupancyStatus ?? .noDataAvailable }

    /// `occupancyPercentage`, or the proto's default `-1` when unset.
    public var occupancyPercentageOrDefault: Int32 { occupancyPercentage ?? -1 }
  }
}

/// A position.
///
/// The proto's `Position`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct Position: Sendable, Equatable {
  /// Degrees north, WGS-84 (required by the proto).
  ///
  /// Proto field 1: `required float latitude`.
  public var latitude: Float?
  /// Degrees east, WGS-84 (required by the proto).
  ///
  /// Proto field 2: `required float longitude`.
  public var longitude: Float?
  /// Bearing, in degrees, clockwise from North, i.e., 0 is North and 90 is East.
  ///
  /// Proto field 3: `optional float bearing`.
  public var bearing: Float?
  /// Odometer value, in meters.
  ///
  /// Proto field 4: `optional double odometer`.
  public var odometer: Double?
  /// Momentary speed measured by the vehicle, in meters per second.
  ///
  /// Proto field 5: `optional float speed`.
  public var speed: Float?

  /// A `Position` with every field unset.
  public init() {}

  /// A `Position` with the given fields; those not given are unset.
  public init(
    latitude: Float? = nil,
    longitude: Float? = nil,
    bearing: Float? = nil,
    odometer: Double? = nil,
    speed: Float? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.bearing = bearing
    self.odometer = odometer
    self.speed = speed
  }
}
