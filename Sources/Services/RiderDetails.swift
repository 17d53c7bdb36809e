import GTFS
import Merge
import TransitModel

/// What a rider asks about a departure beyond its time: can I board with a wheelchair, and
/// how full is it.
public struct RiderDetails: Sendable, Hashable {
  /// The trip's raw `wheelchair_accessible`.
  public var wheelchairAccessible: Int?
  /// The boarding stop's own raw `wheelchair_boarding`.
  public var wheelchairBoarding: Int?
  /// The trip's access.
  public var tripAccess: WheelchairAccess
  /// The boarding stop's access (inherited from its station when it says nothing).
  public var stopAccess: WheelchairAccess
  /// The vehicle's crowding, when a vehicle position gives it.
  public var crowding: Crowding?

  /// Whether `--accessible` keeps it: the trip and the stop both said accessible.
  public var isAccessible: Bool { tripAccess.passesFilter && stopAccess.passesFilter }

  /// The details of each of `departures`, read from `store` and `live`'s vehicle positions.
  /// - Throws: the store's errors.
  /// - Complexity: one lookup per distinct trip and per distinct stop.
  public static func of(_ departures: [Departure], store: Store, live: LiveRealtime) throws -> [RiderDetails] {
    var trips: [String: TripAttributes?] = [:]
    var stops: [String: StopAttributes?] = [:]
    let crowding = CrowdingIndex(live)
    return try departures.map { departure in
      let call = departure.call
      let tripKey = call.feed.rawValue + "\u{1}" + call.tripID.rawValue
      if trips[tripKey] == nil { trips[tripKey] = .some(try store.attributes(ofTrip: call.tripID, feed: call.feed)) }
      let stopKey = call.feed.rawValue + "\u{1}" + call.stopID.rawValue
      if stops[stopKey] == nil { stops[stopKey] = .some(try store.attributes(ofStop: call.stopID, feed: call.feed)) }
      let trip = trips[tripKey]!, stop = stops[stopKey]!
      return RiderDetails(
        wheelchairAccessible: trip?.wheelchairAccessible, wheelchairBoarding: stop?.wheelchairBoarding,
        tripAccess: Accessibility.trip(trip?.wheelchairAccessible),
        stopAccess: Accessibility.stop(own: stop?.wheelchairBoarding, parent: stop?.parentWheelchairBoarding),
        crowding: crowding.crowding(of: TripInstance(call), vehicleID: departure.vehicleID))
    }
  }
}
