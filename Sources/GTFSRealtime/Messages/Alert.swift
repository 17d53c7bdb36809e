// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// An alert, indicating some sort of incident in the public transit network.
///
/// The proto's `Alert`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct Alert: Sendable, Equatable {
  /// Time when the alert should be shown to the user.
  ///
  /// Proto field 1: `repeated TimeRange active_period`.
  public var activePeriods: [TimeRange] = []
  /// Entities whose users we should notify of this alert.
  ///
  /// Proto field 5: `repeated EntitySelector informed_entity`.
  public var informedEntities: [EntitySelector] = []
  /// The cause of the alert (unset means `UNKNOWN_CAUSE`).
  ///
  /// Proto field 6: `optional Cause cause` [default = UNKNOWN_CAUSE].
  public var cause: Cause?
  /// The effect of the problem on the affected entities (unset means `UNKNOWN_EFFECT`).
  ///
  /// Proto field 7: `optional Effect effect` [default = UNKNOWN_EFFECT].
  public var effect: Effect?
  /// The URL which provides additional information about the alert.
  ///
  /// Proto field 8: `optional TranslatedString url`.
  public var url: TranslatedString?
  /// Alert header.
  ///
  /// Proto field 10: `optional TranslatedString header_text`.
  public var headerText: TranslatedString?
  /// Full description for the alert as plain-text.
  ///
  /// Proto field 11: `optional TranslatedString description_text`.
  public var descriptionText: TranslatedString?
  /// Text for alert header to be used in text-to-speech implementations.
  ///
  /// Proto field 12: `optional TranslatedString tts_header_text`.
  public var ttsHeaderText: TranslatedString?
  /// Text for full description for the alert to be used in text-to-speech implementations.
  ///
  /// Proto field 13: `optional TranslatedString tts_description_text`.
  public var ttsDescriptionText: TranslatedString?
  /// How severe the alert is (unset means `UNKNOWN_SEVERITY`).
  ///
  /// Proto field 14: `optional SeverityLevel severity_level` [default = UNKNOWN_SEVERITY].
  public var severityLevel: SeverityLevel?
  /// TranslatedImage to be displayed along the alert text.
  ///
  /// Proto field 15: `optional TranslatedImage image`.
  public var image: TranslatedImage?
  /// Text describing the appearance of the linked image in the `image` field (e.g., in case the
  /// image can't be displayed or the user can't see the image for accessibility reasons).
  ///
  /// Proto field 16: `optional TranslatedString image_alternative_text`.
  public var imageAlternativeText: TranslatedString?
  /// Description of the cause of the alert that allows for agency-specific language; more specific
  /// than the Cause.
  ///
  /// Proto field 17: `optional TranslatedString cause_detail`.
  public var causeDetail: TranslatedString?
  /// Description of the effect of the alert that allows for agency-specific language; more specific
  /// than the Effect.
  ///
  /// Proto field 18: `optional TranslatedString effect_detail`.
  public var effectDetail: TranslatedString?

  /// A `Alert` with every field unset.
  public init() {}

  /// A `Alert` with the given fields; those not given are unset.
  public init(
    activePeriods: [TimeRange] = [],
    informedEntities: [EntitySelector] = [],
    cause: Cause? = nil,
    effect: Effect? = nil,
    url: TranslatedString? = nil,
    headerText: TranslatedString? = nil,
    descriptionText: TranslatedString? = nil,
    ttsHeaderText: TranslatedString? = nil,
    ttsDescriptionText: TranslatedString? = nil,
    severityLevel: SeverityLevel? = nil,
    image: TranslatedImage? = nil,
    imageAlternativeText: TranslatedString? = nil,
    causeDetail: TranslatedString? = nil,
    effectDetail: TranslatedString? = nil
  ) {
    self.activePeriods = activePeriods
    self.informedEntities = informedEntities
    self.cause = cause
    self.effect = effect
    self.url = url
    self.headerText = headerText
    self.descriptionText = descriptionText
    self.ttsHeaderText = ttsHeaderText
    self.ttsDescriptionText = ttsDescriptionText
    self.severityLevel = severityLevel
    self.image = image
    self.imageAlternativeText = imageAlternativeText
    self.causeDetail = causeDetail
    self.effectDetail = effectDetail
  }

  /// `cause`, or the proto's default `UNKNOWN_CAUSE` when unset.
  public var causeOrDefault: Cause { cause ?? .unknownCause }

  /// `effect`, or the proto's default `UNKNOWN_EFFECT` when unset.
  public var effectOrDefault: Effect { effect ?? .unknownEffect }

  /// `severityLevel`, or the proto's default `UNKNOWN_SEVERITY` when unset.
  public var severityLevelOrDefault: SeverityLevel { severityLevel ?? .unknownSeverity }

  /// Cause of this alert.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum Cause: ProtoEnum {
    /// `UNKNOWN_CAUSE` (1).
    case unknownCause
    /// `OTHER_CAUSE`: Not machine-representable.
    case otherCause
    /// `TECHNICAL_PROBLEM` (3).
    case technicalProblem
    /// `STRIKE`: Public transit agency employees stopped working.
    case strike
    /// `DEMONSTRATION`: People are blocking the streets.
    case demonstration
    /// `ACCIDENT` (6).
    case accident
    /// `HOLIDAY` (7).
    case holiday
    /// `WEATHER` (8).
    case weather
    /// `MAINTENANCE` (9).
    case maintenance
    /// `CONSTRUCTION` (10).
    case construction
    /// `POLICE_ACTIVITY` (11).
    case policeActivity
    /// `MEDICAL_EMERGENCY` (12).
    case medicalEmergency
    /// `SPECIAL_EVENT`: A special one-time or recurring event such as a parade, festival,
    /// performance, farmers market, or sporting event.
    case specialEvent
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 1: self = .unknownCause
      case 2: self = .otherCause
      case 3: self = .technicalProblem
      case 4: self = .strike
      case 5: self = .demonstration
      case 6: self = .accident
      case 7: self = .holiday
      case 8: self = .weather
      case 9: self = .maintenance
      case 10: self = .construction
      case 11: self = .policeActivity
      case 12: self = .medicalEmergency
      case 13: self = .specialEvent
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .unknownCause: 1
      case .otherCause: 2
      case .technicalProblem: 3
      case .strike: 4
      case .demonstration: 5
      case .accident: 6
      case .holiday: 7
      case .weather: 8
      case .maintenance: 9
      case .construction: 10
      case .policeActivity: 11
      case .medicalEmergency: 12
      case .specialEvent: 13
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`UNKNOWN_CAUSE`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .unknownCause: "UNKNOWN_CAUSE"
      case .otherCause: "OTHER_CAUSE"
      case .technicalProblem: "TECHNICAL_PROBLEM"
      case .strike: "STRIKE"
      case .demonstration: "DEMONSTRATION"
      case .accident: "ACCIDENT"
      case .holiday: "HOLIDAY"
      case .weather: "WEATHER"
      case .maintenance: "MAINTENANCE"
      case .construction: "CONSTRUCTION"
      case .policeActivity: "POLICE_ACTIVITY"
      case .medicalEmergency: "MEDICAL_EMERGENCY"
      case .specialEvent: "SPECIAL_EVENT"
      case .unrecognized: nil
      }
    }
  }

  /// What is the effect of this problem on the affected entity.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum Effect: ProtoEnum {
    /// `NO_SERVICE` (1).
    case noService
    /// `REDUCED_SERVICE` (2).
    case reducedService
    /// `SIGNIFICANT_DELAYS`: We don't care about INsignificant delays.
    case significantDelays
    /// `DETOUR` (4).
    case detour
    /// `ADDITIONAL_SERVICE` (5).
    case additionalService
    /// `MODIFIED_SERVICE` (6).
    case modifiedService
    /// `OTHER_EFFECT` (7).
    case otherEffect
    /// `UNKNOWN_EFFECT` (8).
    case unknownEffect
    /// `STOP_MOVED` (9).
    case stopMoved
    /// `NO_EFFECT` (10).
    case noEffect
    /// `ACCESSIBILITY_ISSUE` (11).
    case accessibilityIssue
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 1: self = .noService
      case 2: self = .reducedService
      case 3: self = .significantDelays
      case 4: self = .detour
      case 5: self = .additionalService
      case 6: self = .modifiedService
      case 7: self = .otherEffect
      case 8: self = .unknownEffect
      case 9: self = .stopMoved
      case 10: self = .noEffect
      case 11: self = .accessibilityIssue
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .noService: 1
      case .reducedService: 2
      case .significantDelays: 3
      case .detour: 4
      case .additionalService: 5
      case .modifiedService: 6
      case .otherEffect: 7
      case .unknownEffect: 8
      case .stopMoved: 9
      case .noEffect: 10
      case .accessibilityIssue: 11
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`NO_SERVICE`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .noService: "NO_SERVICE"
      case .reducedService: "REDUCED_SERVICE"
      case .significantDelays: "SIGNIFICANT_DELAYS"
      case .detour: "DETOUR"
      case .additionalService: "ADDITIONAL_SERVICE"
      case .modifiedService: "MODIFIED_SERVICE"
      case .otherEffect: "OTHER_EFFECT"
      case .unknownEffect: "UNKNOWN_EFFECT"
      case .stopMoved: "STOP_MOVED"
      case .noEffect: "NO_EFFECT"
      case .accessibilityIssue: "ACCESSIBILITY_ISSUE"
      case .unrecognized: nil
      }
    }
  }

  /// Severity of this alert.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum SeverityLevel: ProtoEnum {
    /// `UNKNOWN_SEVERITY` (1).
    case unknownSeverity
    /// `INFO` (2).
    case info
    /// `WARNING` (3).
    case warning
    /// `SEVERE` (4).
    case severe
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 1: self = .unknownSeverity
      case 2: self = .info
      case 3: self = .warning
      case 4: self = .severe
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .unknownSeverity: 1
      case .info: 2
      case .warning: 3
      case .severe: 4
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`UNKNOWN_SEVERITY`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .unknownSeverity: "UNKNOWN_SEVERITY"
      case .info: "INFO"
      case .warning: "WARNING"
      case .severe: "SEVERE"
      case .unrecognized: nil
      }
    }
  }
}

/// A time interval.
///
/// The proto's `TimeRange`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct TimeRange: Sendable, Equatable {
  /// Start time, in POSIX time (i.e., number of seconds since January 1st 1970 00:00:00 UTC).
  ///
  /// Proto field 1: `optional uint64 start`.
  public var start: UInt64?
  /// End time, in POSIX time (i.e., number of seconds since January 1st 1970 00:00:00 UTC).
  ///
  /// Proto field 2: `optional uint64 end`.
  public var end: UInt64?

  /// A `TimeRange` with every field unset.
  public init() {}

  /// A `TimeRange` with the given fields; those not given are unset.
  public init(
    start: UInt64? = nil,
    end: UInt64? = nil
  ) {
    self.start = start
    self.end = end
  }
}

/// A selector for an entity in a GTFS feed.
///
/// The proto's `EntitySelector`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct EntitySelector: Sendable, Equatable {
  /// The selected agency's `agency_id`.
  ///
  /// Proto field 1: `optional string agency_id`.
  public var agencyID: String?
  /// The selected route's `route_id`.
  ///
  /// Proto field 2: `optional string route_id`.
  public var routeID: String?
  /// The selected `route_type`.
  ///
  /// Proto field 3: `optional int32 route_type`.
  public var routeType: Int32?
  /// The selected trip.
  ///
  /// Proto field 4: `optional TripDescriptor trip`.
  public var trip: TripDescriptor?
  /// The selected stop's `stop_id`.
  ///
  /// Proto field 5: `optional string stop_id`.
  public var stopID: String?
  /// Corresponds to trip direction_id in GTFS trips.txt.
  ///
  /// Proto field 6: `optional uint32 direction_id`.
  public var directionID: UInt32?

  /// A `EntitySelector` with every field unset.
  public init() {}

  /// A `EntitySelector` with the given fields; those not given are unset.
  public init(
    agencyID: String? = nil,
    routeID: String? = nil,
    routeType: Int32? = nil,
    trip: TripDescriptor? = nil,
    stopID: String? = nil,
    directionID: UInt32? = nil
  ) {
    self.agencyID = agencyID
    self.routeID = routeID
    self.routeType = routeType
    self.trip = trip
    self.stopID = stopID
    self.directionID = directionID
  }
}
