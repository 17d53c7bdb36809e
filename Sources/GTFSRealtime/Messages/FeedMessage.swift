// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// The contents of a feed message.
///
/// The proto's `FeedMessage`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct FeedMessage: Sendable, Equatable {
  /// Metadata about this feed and feed message.
  ///
  /// Proto field 1: `required FeedHeader header`.
  public var header: FeedHeader?
  /// Contents of the feed.
  ///
  /// Proto field 2: `repeated FeedEntity entity`.
  public var entities: [FeedEntity] = []

  /// A `FeedMessage` with every field unset.
  public init() {}

  /// A `FeedMessage` with the given fields; those not given are unset.
  public init(
    header: FeedHeader? = nil,
    entities: [FeedEntity] = []
  ) {
    self.header = header
    self.entities = entities
  }
}

/// Metadata about a feed, included in feed messages.
///
/// The proto's `FeedHeader`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct FeedHeader: Sendable, Equatable {
  /// Version of the feed specification.
  ///
  /// Proto field 1: `required string gtfs_realtime_version`.
  public var gtfsRealtimeVersion: String?
  /// Whether this fetch holds the whole dataset or only changes (unset means `FULL_DATASET`).
  ///
  /// Proto field 2: `optional Incrementality incrementality` [default = FULL_DATASET].
  public var incrementality: Incrementality?
  /// This timestamp identifies the moment when the content of this feed has been created (in server
  /// time).
  ///
  /// Proto field 3: `optional uint64 timestamp`.
  public var timestamp: UInt64?
  /// String that matches the feed_info.feed_version from the GTFS feed that the real time data is
  /// based on.
  ///
  /// Proto field 4: `optional string feed_version`.
  public var feedVersion: String?
  /// Where NYCT's extension (`nyctFeedHeader`, field 1001) is kept: set only in its feeds.
  var nyctFeedHeaderBox: Box<NyctFeedHeader>?

  /// A `FeedHeader` with every field unset.
  public init() {}

  /// A `FeedHeader` with the given fields; those not given are unset.
  public init(
    gtfsRealtimeVersion: String? = nil,
    incrementality: Incrementality? = nil,
    timestamp: UInt64? = nil,
    feedVersion: String? = nil
  ) {
    self.gtfsRealtimeVersion = gtfsRealtimeVersion
    self.incrementality = incrementality
    self.timestamp = timestamp
    self.feedVersion = feedVersion
  }

  /// `incrementality`, or the proto's default `FULL_DATASET` when unset.
  public var incrementalityOrDefault: Incrementality { incrementality ?? .fullDataset }

  /// Whether a fetch holds the whole dataset or only changes.
  ///
  /// Values this decoder does not know are kept as `unrecognized` (proto2 treats enums as
  /// closed, but a newer feed may use values added to the spec later).
  public enum Incrementality: ProtoEnum {
    /// `FULL_DATASET` (0).
    case fullDataset
    /// `DIFFERENTIAL` (1).
    case differential
    /// A value the proto this decoder was built from does not define.
    case unrecognized(Int32)

    /// The value for its number on the wire; unknown numbers become `unrecognized`.
    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .fullDataset
      case 1: self = .differential
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .fullDataset: 0
      case .differential: 1
      case .unrecognized(let value): value
      }
    }

    /// The name the .proto gives the value (`FULL_DATASET`), or nil when unrecognized.
    public var protoName: String? {
      switch self {
      case .fullDataset: "FULL_DATASET"
      case .differential: "DIFFERENTIAL"
      case .unrecognized: nil
      }
    }
  }
}

/// A definition (or update) of an entity in the transit feed.
///
/// The proto's `FeedEntity`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
///
/// Stored compactly, so a feed of many small entities decodes without building and freeing a
/// large struct per entity: the two common payloads, `tripUpdate` and `vehicle`, are kept in an
/// `EntityPayloads` that every entity of a decoded feed shares (each entity holds its index in
/// it); the four rare ones in `Box`es. Setting a payload gives the entity a store of its own.
public struct FeedEntity: Sendable {
  /// The entity's id, unique within a FeedMessage (required by the proto; nil when a feed omits
  /// it).
  ///
  /// Proto field 1: `required string id`.
  public var id: String?
  /// Whether this entity is to be deleted.
  ///
  /// Proto field 2: `optional bool is_deleted` [default = false].
  public var isDeleted: Bool?
  /// `tripUpdate`'s index in `payloads`, or -1 when unset. While a feed is being decoded (and
  /// `payloads` is still nil) it indexes the reader's pool instead (see `WireReader`).
  var tripUpdateIndex: Int32 = -1
  /// `vehicle`'s index in `payloads`, or -1 when unset (as `tripUpdateIndex`).
  var vehicleIndex: Int32 = -1
  /// Where `tripUpdate` and `vehicle` are kept: shared by the entities of a decoded feed.
  var payloads: EntityPayloads?
  /// A realtime update of a trip's progress.
  ///
  /// Proto field 3: `optional TripUpdate trip_update`.
  public var tripUpdate: TripUpdate? {
    get {
      guard tripUpdateIndex >= 0, let payloads else { return nil }
      return payloads.tripUpdates[Int(tripUpdateIndex)]
    }
    set { setPayloads(tripUpdate: newValue, vehicle: vehicle) }
  }
  /// A vehicle's position.
  ///
  /// Proto field 4: `optional VehiclePosition vehicle`.
  public var vehicle: VehiclePosition? {
    get {
      guard vehicleIndex >= 0, let payloads else { return nil }
      return payloads.vehicles[Int(vehicleIndex)]
    }
    set { setPayloads(tripUpdate: tripUpdate, vehicle: newValue) }
  }
  /// Whether `tripUpdate` is set: `tripUpdate != nil` without copying the trip update out of
  /// the store (a copy retains each of its strings and arrays, and releases them again).
  public var hasTripUpdate: Bool { tripUpdateIndex >= 0 && payloads != nil }
  /// Whether `vehicle` is set, as `hasTripUpdate`.
  public var hasVehicle: Bool { vehicleIndex >= 0 && payloads != nil }
  /// A service alert.
  ///
  /// Proto field 5: `optional Alert alert`.
  public var alert: Alert? {
    get { alertBox?.value }
    set { alertBox = newValue.map(Box.init) }
  }
  /// Where `alert` is kept: a shared, copy-on-write cell (see `Box`).
  var alertBox: Box<Alert>?
  /// A shape for a detour (experimental in the proto).
  ///
  /// Proto field 6: `optional Shape shape`.
  public var shape: Shape? {
    get { shapeBox?.value }
    set { shapeBox = newValue.map(Box.init) }
  }
  /// Where `shape` is kept: a shared, copy-on-write cell (see `Box`).
  var shapeBox: Box<Shape>?
  /// A stop added or changed in realtime (experimental in the proto).
  ///
  /// Proto field 7: `optional Stop stop`.
  public var stop: Stop? {
    get { stopBox?.value }
    set { stopBox = newValue.map(Box.init) }
  }
  /// Where `stop` is kept: a shared, copy-on-write cell (see `Box`).
  var stopBox: Box<Stop>?
  /// Changes to the stops and shape of some trips (experimental in the proto).
  ///
  /// Proto field 8: `optional TripModifications trip_modifications`.
  public var tripModifications: TripModifications? {
    get { tripModificationsBox?.value }
    set { tripModificationsBox = newValue.map(Box.init) }
  }
  /// Where `tripModifications` is kept: a shared, copy-on-write cell (see `Box`).
  var tripModificationsBox: Box<TripModifications>?

  /// Gives the entity a store of its own holding `tripUpdate` and `vehicle` (the shared one is
  /// never written: other entities and copies read it).
  private mutating func setPayloads(tripUpdate: TripUpdate?, vehicle: VehiclePosition?) {
    tripUpdateIndex = tripUpdate == nil ? -1 : 0
    vehicleIndex = vehicle == nil ? -1 : 0
    payloads =
      tripUpdate == nil && vehicle == nil
      ? nil
      : EntityPayloads(
        tripUpdates: tripUpdate.map { [$0] } ?? [], vehicles: vehicle.map { [$0] } ?? [])
  }

  /// A `FeedEntity` with every field unset.
  public init() {}

  /// A `FeedEntity` with the given fields; those not given are unset.
  public init(
    id: String? = nil,
    isDeleted: Bool? = nil,
    tripUpdate: TripUpdate? = nil,
    vehicle: VehiclePosition? = nil,
    alert: Alert? = nil,
    shape: Shape? = nil,
    stop: Stop? = nil,
    tripModifications: TripModifications? = nil
  ) {
    self.id = id
    self.isDeleted = isDeleted
    setPayloads(tripUpdate: tripUpdate, vehicle: vehicle)
    self.alert = alert
    self.shape = shape
    self.stop = stop
    self.tripModifications = tripModifications
  }

  /// `isDeleted`, or the proto's default `false` when unset.
  public var isDeletedOrDefault: Bool { isDeleted ?? false }
}

extension FeedEntity: Equatable {
  /// Entities are equal when their fields are, wherever the payloads are stored.
  public static func == (lhs: FeedEntity, rhs: FeedEntity) -> Bool {
    lhs.id == rhs.id && lhs.isDeleted == rhs.isDeleted && lhs.tripUpdate == rhs.tripUpdate
      && lhs.vehicle == rhs.vehicle && lhs.alertBox == rhs.alertBox && lhs.shapeBox == rhs.shapeBox
      && lhs.stopBox == rhs.stopBox && lhs.tripModificationsBox == rhs.tripModificationsBox
  }
}

/// The trip updates and vehicle positions of the entities of one decoded feed, in one place: an
/// entity holds this store and its indices in it (`FeedEntity.tripUpdateIndex`), so decoding an
/// entity builds only what the feed holds, not an entity-sized template with every payload unset,
/// and freeing the feed frees two arrays instead of walking every entity's unset fields.
///
/// Never written once made (an entity given a new payload gets a store of its own), so any number
/// of entities and threads may share it.
final class EntityPayloads: Sendable {
  let tripUpdates: [TripUpdate]
  let vehicles: [VehiclePosition]

  init(tripUpdates: [TripUpdate], vehicles: [VehiclePosition]) {
    self.tripUpdates = tripUpdates
    self.vehicles = vehicles
  }
}

extension FeedMessage {
  /// The header of the serialized feed message `bytes`, decoded without its entities (each is
  /// stepped over by its length): what a folder of snapshots is sorted by before any is
  /// decoded whole. A header given more than once is merged, as the whole decode merges it.
  /// - Throws: `WireError` for a malformed key, a length past the end or a malformed header;
  ///   the entities are not checked.
  public static func header(decoding bytes: [UInt8]) throws(WireError) -> FeedHeader? {
    var reader = WireReader(bytes)
    var header: FeedHeader?
    while let key = try reader.readKey() {
      if key == 0x0A {  // 1: required FeedHeader header
        try reader.mergeMessage(reader.messageTag(forKey: key), "header", into: &header)
      } else {
        let tag = try reader.tag(forKey: key)
        if tag.number == 1 { throw reader.wrongWireType(tag, expected: .lengthDelimited, "header") }
        try reader.skip(tag)
      }
    }
    return header
  }
}
