import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TestSupport
import Testing
import TransitModel

/// Merge over the real matched pairs in shared/data (PROVENANCE.md): every trip update is
/// matched against the instances of its trip that run on its start_date (else the feed's local
/// date and the day before), and properties are checked on what comes out.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct RealtimeMergePropertyTests {
  /// A timetable in shared/data and a realtime capture of the same agency (PROVENANCE.md), with
  /// the share of the capture's trips that the timetable has and runs that day.
  struct RealPair: CustomStringConvertible, Sendable {
    var feed: String
    var capture: String
    var minimumMatchShare: Double
    var description: String { capture }
  }

  static let pairs = [
    RealPair(feed: "caltrain-2023.zip", capture: "caltrain-tripupdates-20231108T010534Z.pb", minimumMatchShare: 1.0),
    RealPair(feed: "bart-2019.zip", capture: "bart-tripupdates-20190807T174521Z.pb", minimumMatchShare: 0.71),
  ]

  @Test(arguments: pairs)
  func mergeProperties(_ pair: RealPair) throws {
    let home = try IngestedFeeds.folder(pair.feed, as: "real")
    let message = try capture(pair.capture)
    let store = try Store(directory: home)
    let feedName = FeedName("real")
    let now = UnixTime(Int64(try #require(message.header?.timestamp)))
    let today = store.localDate(of: now, feed: feedName)

    // The instances each update may name, with their whole stop lists.
    var trips: [ScheduledTrip] = []
    var seen = Set<TripInstance>()
    for entity in message.entities {
      guard let descriptor = entity.tripUpdate?.trip, let rawID = descriptor.tripID else { continue }
      let tripID = TripID(rawID)
      let dates = descriptor.startDate.flatMap { ServiceDate(gtfs: $0) }.map { [$0] } ?? [today.adding(days: -1), today]
      for date in dates where try store.tripRuns(tripID, feed: feedName, on: date) {
        let instance = TripInstance(tripID: tripID, serviceDate: date)
        guard seen.insert(instance).inserted else { continue }
        let calls = try store.tripCalls(tripID, feed: feedName, serviceDate: date)
        trips.append(
          ScheduledTrip(
            instance: instance, routeID: RouteID(descriptor.routeID ?? ""),
            stops: calls, serviceDayStart: store.serviceDayStart(date, feed: feedName)))
      }
    }
    let realtime = Reconciler.realtime(trips: trips, feeds: [message], now: now)
    let report = realtime.report
    print(
      "\(pair.capture): \(report.matchedTripUpdateCount) of \(report.tripUpdateCount) trip updates matched a scheduled trip "
        + "(\(Int((report.matchShare * 100).rounded())) %), \(realtime.added.count) added, \(report.issues.count) issues")
    var kinds: [String: Int] = [:]
    for issue in report.issues { kinds[String(describing: issue).prefix { $0 != "(" }.description, default: 0] += 1 }
    print("\(pair.capture): issues \(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    #expect(report.matchShare >= pair.minimumMatchShare)
    #expect(realtime.freshness.status == .fresh)

    // No trip instance twice.
    #expect(!report.issues.contains { if case .duplicateUpdate = $0 { true } else { false } })

    // Expected times never decrease along a trip.
    for prediction in realtime.predictions.values {
      var last: UnixTime?
      for stop in prediction.stops where !stop.isSkipped {
        for time in [stop.expectedArrival, stop.expectedDeparture].compactMap({ $0 }) {
          if let last { #expect(time >= last, "\(prediction.instance) runs backwards at \(stop.stop.stopSequence)") }
          last = time
        }
      }
    }

    // Every absolute time a feed gives is the expected time at that stop (unless the report
    // says it was clamped or not trusted).
    var checked = 0
    let adjusted = Set(
      report.issues.compactMap { issue -> String? in
        switch issue {
        case .clamped(let instance, let sequence, _), .outlier(let instance, let sequence, _): "\(instance.tripID)#\(sequence)"
        default: nil
        }
      })
    for entity in message.entities {
      guard let update = entity.tripUpdate, let rawID = update.trip?.tripID,
        let prediction = realtime.predictions.values.first(where: { $0.instance.tripID.rawValue == rawID })
      else { continue }
      var cursor = 0
      for stu in update.stopTimeUpdates {
        let index =
          stu.stopSequence.map { sequence in prediction.stops.firstIndex { $0.stop.stopSequence == Int(sequence) } }
          ?? stu.stopID.flatMap { id in prediction.stops[cursor...].firstIndex { $0.stop.stopID.rawValue == id } }
        guard let index else { continue }
        cursor = index + 1
        let stop = prediction.stops[index]
        guard stu.scheduleRelationshipOrDefault == .scheduled, !adjusted.contains("\(rawID)#\(stop.stop.stopSequence)")
        else { continue }
        if let time = stu.arrival?.time {
          #expect(stop.expectedArrival == UnixTime(time), "\(rawID) arrival at \(stop.stop.stopSequence)")
          checked += 1
        }
        if let time = stu.departure?.time {
          #expect(stop.expectedDeparture == UnixTime(time), "\(rawID) departure at \(stop.stop.stopSequence)")
          checked += 1
        }
      }
    }
    print("\(pair.capture): \(checked) absolute times checked, \(adjusted.count) clamped or not trusted")
    #expect(checked > 0)

    // Through the command's own path: at every stop an update names, each call of a trip
    // instance once, and a stop's absolute departure time is what it shows.
    let stopIDs = Set(message.entities.flatMap { $0.tripUpdate?.stopTimeUpdates.compactMap(\.stopID) ?? [] })
    for id in stopIDs.sorted() {
      guard let stop = try store.stop(StopID(id), feed: feedName) else { continue }
      let departures = try DepartureBoard.departures(
        store: store, stop: stop, platforms: [], live: LiveRealtime(store: store, feeds: [message], now: now, options: ServiceOptions()),
        query: BoardQuery(start: now, windowMinutes: 180, limit: 1000, includeArrivals: true))
      let keys = departures.map { "\($0.call.tripID)@\($0.call.serviceDate)#\($0.call.stopSequence)" }
      #expect(Set(keys).count == keys.count, "a call twice at \(id)")
      for departure in departures where departure.source == .realtime {
        let instance = TripInstance(departure.call)
        guard let prediction = realtime.predictions[instance],
          let predicted = prediction.stops.first(where: { $0.stop.stopSequence == departure.call.stopSequence })
        else { continue }
        let expected = departure.call.isLastStop ? predicted.expectedArrival : predicted.expected
        #expect(departure.expected == expected, "\(instance) at \(id)")
      }
    }
  }
}
