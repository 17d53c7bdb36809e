// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// Describes a stop which is served by trips.
///
/// The proto's `Stop`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct Stop: Sendable, Equatable {
  /// The stop's `stop_id`.
  ///
  /// Proto field 1: `optional string stop_id`.
  public var stopID: String?
  /// The stop's `stop_code`.
  ///
  /// Proto field 2: `optional TranslatedString stop_code`.
  public var stopCode: TranslatedString?
  /// The stop's `stop_name`.
  ///
  /// Proto field 3: `optional TranslatedString stop_name`.
  public var stopName: TranslatedString?
  /// The stop's `tts_stop_name`.
  ///
  /// Proto field 4: `optional TranslatedString tts_stop_name`.
  public var ttsStopName: TranslatedString?
  /// The stop's `stop_desc`.
  ///
  /// Proto field 5: `optional TranslatedString stop_desc`.
  public var stopDesc: TranslatedString?
  /// The stop's latitude, in degrees.
  ///
  /// Proto field 6: `optional float stop_lat`.
  public var stopLat: Float?
  /// The stop's longitude, in degrees.
  ///
  /// Proto field 7: `optional float stop_lon`.
  public var stopLon: Float?
  /// The stop's fare `zone_id`.
  ///
  /// Proto field 8: `optional string zone_id`.
  public var zoneID: String?
  /// The stop's `stop_url`.
  ///
  /// Proto field 9: `optional TranslatedString stop_url`.
  public var stopURL: TranslatedString?
  /// The `stop_id` of the stop's parent station.
  ///
  /// Proto field 11: `optional string parent_station`.
  public var parentStation: String?
  /// The stop's time zone.
  ///
  /// Proto field 12: `optional string stop_timezone`.
  public var stopTimezone: String?
  /// Whether the stop has wheelchair boarding (unset means `UNKNOWN`).
  ///
  /// Proto field 13: `optional WheelchairBoarding wheelchair_boarding` [default = UNKNOWN].
  public var wheelchairBoarding: WheelchairBoarding?
  /// The stop's `level_id`.
  ///
  /// Proto field 14: `optional string level_id`.
  public var levelID: String?
  /// The stop's platform code.
  ///
  /// Proto field 15: `optional TranslatedString platform_code`.
  public var platformCode: TranslatedString?

  /// A `Stop` with every field unset.
  public init() {}

  /// A `Stop` with the given fields; those not given are unset.
  public init(
    stopID: String? = nil,
    stopCode: TranslatedString? = nil,
    stopName: TranslatedString? = nil,
    ttsStopName: TranslatedString? = nil,
    stopDesc: TranslatedString? = nil,
    stopLat: Float? = nil,
    stopLon: Float? = nil,
    zoneID: String? = nil,
    stopURL: TranslatedString? = nil,
    parentStation: String? = nil,
    stopTimezone: String? = nil,
    wheelchairBoarding: WheelchairBoarding? = nil,
    levelID: String? = nil,
    platformCode: TranslatedString? = nil
  ) {
    self.stopID = stopID
    self.stopCode = stopCode
    self.stopName = stopName
    self.ttsStopName = ttsStopName
    self.stopDesc = stopDesc
    self.stopLat = stopLat
    self.stopLon = stopLon
    self.zoneID = zoneID
    self.stopURL = stopURL
    self.parentStation = parentStation
    self.stopTimezone = stopTimezone
    self.wheelchairBoarding = wheelchairBoarding
    self.levelID = levelID
    self.platformCode = platformCode
  }

  /// `wheelchairBoarding`, or the proto's default `UNKNOWN` when unset.
  public var wheelchairBoardingOrDefault: WheelchairBoarding { wheelchairBoarding ?? .unknown }

  /// Whether a stop has wheelchair boarding.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum WheelchairBoarding: ProtoEnum {
    /// `UNKNOWN` (0).
    case unknown
    /// `AVAILABLE` (1).
    case available
    /// `NOT_AVAILABLE` (2).
    case notAvailable
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .unknown
      case 1: self = .available
      case 2: self = .notAvailable
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .unknown: 0
      case .available: 1
      case .notAvailable: 2
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`UNKNOWN`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .unknown: "UNKNOWN"
      case .available: "AVAILABLE"
      case .notAvailable: "NOT_AVAILABLE"
      case .unrecognized: nil
      }
    }
  }
}
