import GTFSRealtime
import Merge
import TransitModel

/// How full a vehicle is, from its vehicle position: `occupancy_status`,
/// `occupancy_percentage`, and per carriage (`multi_carriage_details`).
public struct Crowding: Sendable, Hashable {
  /// One carriage of a multi-carriage vehicle.
  public struct Carriage: Sendable, Hashable {
    public var id: String?
    public var label: String?
    /// `carriage_sequence`: 1 is the first carriage in the direction of travel.
    public var sequence: Int?
    public var status: VehiclePosition.OccupancyStatus?
    /// nil when unset or -1 (the .proto's "no data").
    public var percentage: Int?

    /// Creates a carriage.
    public init(
      id: String? = nil, label: String? = nil, sequence: Int? = nil, status: VehiclePosition.OccupancyStatus? = nil, percentage: Int? = nil
    ) {
      self.id = id
      self.label = label
      self.sequence = sequence
      self.status = status
      self.percentage = percentage
    }

    /// The carriage's level on the 3-step gauge (see `Crowding.level`).
    public var level: Int? { Crowding.level(status: status, percentage: percentage) }
  }

  /// `occupancy_status`.
  public var status: VehiclePosition.OccupancyStatus?
  /// `occupancy_percentage` (may pass 100).
  public var percentage: Int?
  /// The carriages, in carriage_sequence order (as sent when the sequence is missing).
  public var carriages: [Carriage]

  /// Creates a crowding value.
  public init(status: VehiclePosition.OccupancyStatus? = nil, percentage: Int? = nil, carriages: [Carriage] = []) {
    self.status = status
    self.percentage = percentage
    self.carriages = carriages
  }

  /// What `vehicle` says about its crowding, or nil when it says nothing.
  public init?(_ vehicle: VehiclePosition) {
    let carriages = vehicle.multiCarriageDetails.enumerated().map { index, details in
      Carriage(
        id: details.id.flatMap { $0.isEmpty ? nil : $0 }, label: details.label.flatMap { $0.isEmpty ? nil : $0 },
        sequence: details.carriageSequence.map(Int.init),
        status: details.occupancyStatus, percentage: details.occupancyPercentage.flatMap { $0 < 0 ? nil : Int($0) })
    }.enumerated().sorted { a, b in
      (a.element.sequence ?? Int.max, a.offset) < (b.element.sequence ?? Int.max, b.offset)
    }.map(\.element)
    self.init(status: vehicle.occupancyStatus, percentage: vehicle.occupancyPercentage.map { Int(clamping: $0) }, carriages: carriages)
    if status == nil && percentage == nil && carriages.allSatisfy({ $0.status == nil && $0.percentage == nil }) { return nil }
  }

  /// 1 (seats free), 2 (few seats or standing), 3 (crowded, full or not taking anyone), or nil
  /// when unknown (no data, or a vehicle nobody boards).
  public var level: Int? { Self.level(status: status, percentage: percentage) ?? carriages.compactMap(\.level).max() }

  /// The 3-step level of a status, else of a percentage (below 50 %: 1; below 85 %: 2; else 3).
  public static func level(status: VehiclePosition.OccupancyStatus?, percentage: Int?) -> Int? {
    switch status {
    case .empty?, .manySeatsAvailable?: return 1
    case .fewSeatsAvailable?, .standingRoomOnly?: return 2
    case .crushedStandingRoomOnly?, .full?, .notAcceptingPassengers?: return 3
    default:
      guard let percentage else { return nil }
      return percentage < 50 ? 1 : percentage < 85 ? 2 : 3
    }
  }

  /// A short word for a status: "empty", "many seats", "few seats", "standing", "crushed",
  /// "full", "not boarding", "no boarding"; nil for no data.
  public static func word(_ status: VehiclePosition.OccupancyStatus?) -> String? {
    switch status {
    case .empty?: return "empty"
    case .manySeatsAvailable?: return "many seats"
    case .fewSeatsAvailable?: return "few seats"
    case .standingRoomOnly?: return "standing"
    case .crushedStandingRoomOnly?: return "crushed"
    case .full?: return "full"
    case .notAcceptingPassengers?: return "not boarding"
    case .notBoardable?: return "no boarding"
    default: return nil
    }
  }

  /// The vehicle's short word ("many seats", "62 %", "many seats 40 %"), else the carriages'
  /// highest level as a word; nil when nothing is known.
  public var summary: String? {
    var parts: [String] = []
    if let word = Self.word(status) { parts.append(word) }
    if let percentage { parts.append("\(percentage) %") }
    if parts.isEmpty, let level { parts.append(["", "seats", "standing", "crowded"][level]) }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// The gauge: `●○○`, `●●○`, `●●●` for levels 1–3 (the output's ASCII mode turns them into
  /// `*oo`…), or nil when unknown.
  public static func gauge(_ level: Int?) -> String? {
    guard let level, (1...3).contains(level) else { return nil }
    return String(repeating: "●", count: level) + String(repeating: "○", count: 3 - level)
  }

  /// One gauge per carriage, first carriage first ("●○○ ●●○ ●●●"; "?" for a carriage without data).
  public var carriageGauges: String? {
    guard !carriages.isEmpty else { return nil }
    return carriages.map { Self.gauge($0.level) ?? "?" }.joined(separator: " ")
  }
}

/// The crowding each vehicle of the realtime reports, by trip instance and by vehicle.
public struct CrowdingIndex: Sendable {
  /// By the trip instance the vehicle runs.
  public private(set) var byInstance: [TripInstance: Crowding] = [:]
  /// By trip_id, for vehicles whose instance did not match.
  public private(set) var byTrip: [TripID: Crowding] = [:]
  /// By vehicle id (else label).
  public private(set) var byVehicle: [String: Crowding] = [:]

  /// Reads every vehicle position of `live`'s feeds once.
  public init(_ live: LiveRealtime) {
    for feed in live.feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        guard let vehicle = entity.vehicle, let crowding = Crowding(vehicle) else { continue }
        if let key = vehicle.vehicle?.id ?? vehicle.vehicle?.label, byVehicle[key] == nil { byVehicle[key] = crowding }
        guard let descriptor = vehicle.trip, let id = descriptor.tripID, !id.isEmpty else { continue }
        if byTrip[TripID(id)] == nil { byTrip[TripID(id)] = crowding }
        if let instance = live.instance(for: descriptor)?.instance, byInstance[instance] == nil { byInstance[instance] = crowding }
      }
    }
  }

  /// Whether no vehicle reports crowding.
  public var isEmpty: Bool { byVehicle.isEmpty && byTrip.isEmpty && byInstance.isEmpty }

  /// The crowding of the vehicle running `instance`, or of the vehicle named `vehicleID`.
  public func crowding(of instance: TripInstance, vehicleID: String? = nil) -> Crowding? {
    byInstance[instance] ?? vehicleID.flatMap { byVehicle[$0] }
  }
}
