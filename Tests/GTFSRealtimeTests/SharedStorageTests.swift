import GTFSRealtime
import TestSupport
import Testing

/// The entities of a decoded feed share one store of trip updates and vehicle positions, and its
/// trip updates one array of stop time updates (issue 24). None of that may show: each value
/// reads and changes as if it held its own.
@Suite struct SharedStorageTests {
  /// Three entities: a trip update of two stops, a vehicle, and one with both (stop "c").
  static func feedBytes() -> [UInt8] {
    var writer = WireWriter()
    writer.writeMessage(1) { $0.writeString(1, "2.0") }
    writer.writeMessage(2) { entity in
      entity.writeString(1, "tu")
      entity.writeMessage(3) { update in
        update.writeMessage(1) { $0.writeString(1, "trip-1") }
        update.writeMessage(2) { $0.writeString(4, "a") }
        update.writeMessage(2) { $0.writeString(4, "b") }
      }
    }
    writer.writeMessage(2) { entity in
      entity.writeString(1, "vp")
      entity.writeMessage(4) { $0.writeMessage(8) { $0.writeString(1, "bus-7") } }
    }
    writer.writeMessage(2) { entity in
      entity.writeString(1, "both")
      entity.writeMessage(4) { $0.writeUInt64(5, 99) }
      entity.writeMessage(3) { update in
        update.writeMessage(2) { $0.writeString(4, "c") }
        update.writeInt32(5, 30)
      }
    }
    return writer.bytes
  }

  @Test func eachEntityReadsItsOwnPayloads() throws {
    let feed = try FeedMessage(decoding: Self.feedBytes())
    #expect(feed.entities.map(\.id) == ["tu", "vp", "both"])
    #expect(feed.entities[0].tripUpdate?.trip?.tripID == "trip-1")
    #expect(feed.entities[0].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["a", "b"])
    #expect(feed.entities[0].vehicle == nil)
    #expect(feed.entities[1].tripUpdate == nil)
    #expect(feed.entities[1].vehicle?.vehicle?.id == "bus-7")
    #expect(feed.entities[2].vehicle?.timestamp == 99)
    #expect(feed.entities[2].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["c"])
    #expect(feed.entities[2].tripUpdate?.delay == 30)
    // The same entities built one by one compare equal, wherever their payloads are kept.
    let built = [
      FeedEntity(
        id: "tu",
        tripUpdate: TripUpdate(
          trip: TripDescriptor(tripID: "trip-1"), stopTimeUpdates: [.init(stopID: "a"), .init(stopID: "b")])),
      FeedEntity(id: "vp", vehicle: VehiclePosition(vehicle: VehicleDescriptor(id: "bus-7"))),
      FeedEntity(
        id: "both", tripUpdate: TripUpdate(stopTimeUpdates: [.init(stopID: "c")], delay: 30),
        vehicle: VehiclePosition(timestamp: 99)),
    ]
    #expect(feed.entities == built)
  }

  @Test func hasTripUpdateAndHasVehicleSayWhatIsSet() throws {
    var feed = try FeedMessage(decoding: Self.feedBytes())
    // tu: a trip update only; vp: a vehicle only; both: both (see `feedBytes`).
    #expect(feed.entities.map(\.hasTripUpdate) == [true, false, true])
    #expect(feed.entities.map(\.hasVehicle) == [false, true, true])
    feed.entities[2].tripUpdate = nil
    #expect(!feed.entities[2].hasTripUpdate)
    #expect(feed.entities[2].hasVehicle)
    feed.entities[1].vehicle = nil
    #expect(!feed.entities[1].hasTripUpdate && !feed.entities[1].hasVehicle)
    #expect(!FeedEntity(id: "none").hasTripUpdate && !FeedEntity(id: "none").hasVehicle)
    #expect(FeedEntity(tripUpdate: TripUpdate()).hasTripUpdate)
    #expect(!FeedEntity(tripUpdate: TripUpdate()).hasVehicle)
    #expect(FeedEntity(vehicle: VehiclePosition()).hasVehicle)
  }

  @Test func changingOneEntityLeavesTheOthersAndCopies() throws {
    let decoded = try FeedMessage(decoding: Self.feedBytes())
    var feed = decoded
    feed.entities[2].vehicle?.timestamp = 100
    feed.entities[0].tripUpdate?.stopTimeUpdates[1].stopID = "B"
    feed.entities[0].tripUpdate?.stopTimeUpdates.append(.init(stopID: "z"))
    feed.entities[1].tripUpdate = TripUpdate(delay: 5)
    #expect(feed.entities[2].vehicle?.timestamp == 100)
    #expect(feed.entities[2].tripUpdate?.delay == 30)  // its other payload kept
    #expect(feed.entities[0].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["a", "B", "z"])
    #expect(feed.entities[1].tripUpdate?.delay == 5)
    #expect(feed.entities[1].vehicle?.vehicle?.id == "bus-7")
    #expect(feed.entities[2].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["c"])
    // The decoded feed, which shares the stores, is as it was.
    #expect(decoded == (try FeedMessage(decoding: Self.feedBytes())))
    #expect(decoded.entities[0].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["a", "b"])
    #expect(decoded.entities[2].vehicle?.timestamp == 99)
    feed.entities[2].tripUpdate = nil
    #expect(feed.entities[2].tripUpdate == nil)
    #expect(feed.entities[2].vehicle?.timestamp == 100)
  }

  @Test func aTripUpdateSeenTwiceInAnEntityMerges() throws {
    // trip_update, vehicle, trip_update again: the second's stop time updates follow the first's.
    var writer = WireWriter()
    writer.writeMessage(2) { entity in
      entity.writeString(1, "e")
      entity.writeMessage(3) { $0.writeMessage(2) { $0.writeString(4, "a") } }
      entity.writeMessage(4) { $0.writeUInt64(5, 1) }
      entity.writeMessage(3) { update in
        update.writeMessage(2) { $0.writeString(4, "b") }
        update.writeInt32(5, 7)
      }
    }
    writer.writeMessage(2) { entity in
      entity.writeMessage(3) { $0.writeMessage(2) { $0.writeString(4, "c") } }
    }
    let feed = try FeedMessage(decoding: writer.bytes)
    #expect(feed.entities[0].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["a", "b"])
    #expect(feed.entities[0].tripUpdate?.delay == 7)
    #expect(feed.entities[0].vehicle?.timestamp == 1)
    #expect(feed.entities[1].tripUpdate?.stopTimeUpdates.map(\.stopID) == ["c"])
  }

  @Test func stopTimeUpdatesActAsAnArray() {
    var updates: TripUpdate.StopTimeUpdates = [.init(stopSequence: 1), .init(stopSequence: 2)]
    let copy = updates
    updates[0].stopSequence = 10
    updates.insert(.init(stopSequence: 5), at: 1)
    updates.removeLast()
    #expect(updates.map(\.stopSequence) == [10, 5])
    #expect(copy.map(\.stopSequence) == [1, 2])
    #expect(updates.count == 2 && !updates.isEmpty && updates.indices == 0..<2)
    #expect(TripUpdate.StopTimeUpdates().isEmpty)
    #expect(Array(copy) == [.init(stopSequence: 1), .init(stopSequence: 2)])
  }
}
