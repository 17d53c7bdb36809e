import GTFS
import TransitModel

/// One change of a guarded journey in JSON: where, the walk, the live buffer and its state.
public struct TransferAnswer: Encodable, Sendable {
  public var transfer: GuardedJourney.Transfer

  /// The answer for `transfer`.
  public init(_ transfer: GuardedJourney.Transfer) { self.transfer = transfer }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(transfer.from?.id.rawValue, forKey: "from_stop_id")
    try members.encode(transfer.from?.name, forKey: "from_stop_name")
    try members.encode(transfer.to?.id.rawValue, forKey: "to_stop_id")
    try members.encode(transfer.to?.name, forKey: "to_stop_name")
    try members.encode(transfer.walkSeconds, forKey: "walk_seconds")
    try members.encode(transfer.bufferSeconds, forKey: "buffer_seconds")
    try members.encode(transfer.state.rawValue, forKey: "state")
    try members.encode(transfer.isDone, forKey: "done")
  }
}

/// A guarded journey in one update of `plan --watch --json`, its times on `zone`'s clock.
public struct GuardedJourneyAnswer: Encodable, Sendable {
  public var guarded: GuardedJourney
  public var zone: LocalZone
  /// The changes whose state moved in this update.
  public var changed: [Int]
  /// The journey offered from a change stop, when a change went wrong.
  public var alternative: JourneyPlanner.Journey?

  /// The answer for `guarded`.
  public init(_ guarded: GuardedJourney, zone: LocalZone, changed: [Int] = [], alternative: JourneyPlanner.Journey? = nil) {
    self.guarded = guarded
    self.zone = zone
    self.changed = changed
    self.alternative = alternative
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(zone.isoText(guarded.now), forKey: "now")
    switch guarded.progress {
    case .beforeFirstRide: try members.encode("before_first_ride", forKey: "progress")
    case .riding(let index):
      try members.encode("riding", forKey: "progress")
      try members.encode(index, forKey: "ride_index")
    case .changing(let index):
      try members.encode("changing", forKey: "progress")
      try members.encode(index, forKey: "transfer_index")
    case .arrived: try members.encode("arrived", forKey: "progress")
    }
    try members.encode(zone.isoText(guarded.expectedArrival), forKey: "expected_arrival")
    var rides = members.nestedUnkeyedContainer(forKey: "rides")
    for ride in guarded.rides {
      var item = rides.nestedContainer(keyedBy: JSONKey.self)
      try item.encode(ride.ride.tripID.rawValue, forKey: "trip_id")
      try item.encode(ride.ride.route.shortName, forKey: "route_short_name")
      try item.encode(ride.ride.headsign, forKey: "headsign")
      try item.encode(ride.ride.stops.first?.stop.id.rawValue, forKey: "from_stop_id")
      try item.encode(ride.ride.stops.last?.stop.id.rawValue, forKey: "to_stop_id")
      try item.encode(zone.isoText(ride.scheduledDeparture), forKey: "scheduled_departure")
      try item.encode(zone.isoText(ride.expectedDeparture), forKey: "expected_departure")
      try item.encode(zone.isoText(ride.scheduledArrival), forKey: "scheduled_arrival")
      try item.encode(zone.isoText(ride.expectedArrival), forKey: "expected_arrival")
      try item.encode(ride.isLive, forKey: "live")
      try item.encode(ride.isCancelled, forKey: "cancelled")
    }
    try members.encode(guarded.transfers.map(TransferAnswer.init), forKey: "transfers")
    try members.encode(changed, forKey: "changed")
    if let alternative {
      var item = members.nestedContainer(keyedBy: JSONKey.self, forKey: "alternative")
      try item.encode(zone.isoText(alternative.departure), forKey: "departure")
      try item.encode(zone.isoText(alternative.arrival), forKey: "arrival")
      var legs = item.nestedUnkeyedContainer(forKey: "rides")
      for leg in alternative.legs {
        guard case .ride(let ride, let departure, let arrival) = leg else { continue }
        var entry = legs.nestedContainer(keyedBy: JSONKey.self)
        try entry.encode(ride.tripID.rawValue, forKey: "trip_id")
        try entry.encode(ride.route.shortName, forKey: "route_short_name")
        try entry.encode(ride.stops.first?.stop.id.rawValue, forKey: "from_stop_id")
        try entry.encode(ride.stops.last?.stop.id.rawValue, forKey: "to_stop_id")
        try entry.encode(zone.isoText(departure), forKey: "departure")
        try entry.encode(zone.isoText(arrival), forKey: "arrival")
      }
    } else {
      try members.encodeNil(forKey: "alternative")
    }
  }
}
