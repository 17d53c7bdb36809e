import GTFSRealtime
import TestSupport
import Testing

/// `StopTimeUpdates.timesLie(within:)` says what a loop over every update's optional times says.
@Suite struct StopTimeUpdatesTimesTests {
  typealias Update = TripUpdate.StopTimeUpdate
  typealias Event = TripUpdate.StopTimeEvent

  static let range: ClosedRange<Int64> = -100...1_000

  /// The answer from the public optionals, one value at a time.
  static func lies(_ updates: [Update]) -> Bool {
    let times = updates.flatMap { [$0.arrival?.time, $0.arrival?.scheduledTime, $0.departure?.time, $0.departure?.scheduledTime] }
    return times.allSatisfy { $0.map(range.contains) ?? true }
  }

  static func event(time: Int64? = nil, scheduled: Int64? = nil, delay: Int32? = nil) -> Event {
    var event = Event()
    event.time = time
    event.scheduledTime = scheduled
    event.delay = delay
    return event
  }

  @Test(arguments: [
    // Nothing set, and zero delays: in range.
    [Update(stopSequence: 1)],
    [Update(stopSequence: 1, arrival: event(delay: 5_000)), Update(stopSequence: 2, departure: event(time: 1_000))],
    // Each of the four times, just out of range, on the second update.
    [Update(stopSequence: 1, arrival: event(time: 5)), Update(stopSequence: 2, arrival: event(time: 1_001))],
    [Update(stopSequence: 1), Update(stopSequence: 2, arrival: event(scheduled: -101))],
    [Update(stopSequence: 1), Update(stopSequence: 2, departure: event(time: -101))],
    [Update(stopSequence: 1), Update(stopSequence: 2, departure: event(time: 0, scheduled: 1_001))],
    // The edges themselves: in.
    [Update(stopSequence: 1, arrival: event(time: -100, scheduled: 1_000), departure: event(time: 1_000, scheduled: -100))],
  ])
  func aTimeOutOfRangeIsFoundWhereverItIs(_ updates: [Update]) {
    let collection = TripUpdate.StopTimeUpdates(updates)
    #expect(collection.timesLie(within: Self.range) == Self.lies(updates))
  }

  @Test func anArrivalClearedAfterItWasSetCountsAsUnset() throws {
    var update = Update(stopSequence: 1, arrival: Self.event(time: 9_999))
    update.arrival = nil
    #expect(TripUpdate.StopTimeUpdates([update]).timesLie(within: Self.range))
    // A decoded feed's trip updates share one array of stop time updates, each its own range
    // of it: only a trip update's own are looked at.
    func entity(_ id: String, time: Int64) -> FeedEntity {
      FeedEntity(
        id: id,
        tripUpdate: TripUpdate(
          trip: TripDescriptor(tripID: id), stopTimeUpdates: [Update(stopSequence: 1, arrival: Self.event(time: time))]))
    }
    let bytes = FeedMessage(entities: [entity("a", time: 9_999), entity("b", time: 10), entity("c", time: -9_999)]).encoded()
    let decoded = try FeedMessage(decoding: bytes)
    #expect(decoded.entities.map { $0.tripUpdate!.stopTimeUpdates.timesLie(within: Self.range) } == [false, true, false])
  }
}
