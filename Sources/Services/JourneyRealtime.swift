import GTFS
import Merge
import Routing
import TransitModel

/// The realtime a journey search uses: every instance the one matching path matched, with its
/// expected times per stop, and the instances cancelled or deleted.
public enum JourneyRealtime {
  /// The matched instances as the router takes them (DELETED and CANCELED as cancelled; added
  /// and duplicated trips are not in the router's network and are left out).
  public static func trips(_ live: LiveRealtime) -> [RealtimeTrip] {
    var results: [RealtimeTrip] = []
    for instance in live.realtime.deleted.sorted() {
      guard let feed = live.details[instance.tripID]?.feed else { continue }
      results.append(
        RealtimeTrip(
          feed: feed, tripID: instance.tripID, serviceDate: instance.serviceDate, startTime: instance.startTime, isCancelled: true,
          arrivals: [], departures: [], skipped: []))
    }
    for (instance, prediction) in live.realtime.predictions.sorted(by: { $0.key < $1.key }) where !prediction.isAdded {
      guard let feed = live.details[instance.tripID]?.feed else { continue }
      results.append(
        RealtimeTrip(
          feed: feed, tripID: instance.tripID, serviceDate: instance.serviceDate, startTime: instance.startTime,
          isCancelled: prediction.isCanceled, arrivals: prediction.stops.map(\.expectedArrival),
          departures: prediction.stops.map(\.expectedDeparture), skipped: prediction.stops.map(\.isSkipped)))
    }
    return results
  }
}
