import TestSupport
import Testing

@testable import GTFSRealtime

/// The decoder's fast paths (see Benchmarks/rt-decode): raw-key matching, word-at-a-time
/// varints, runs of repeated messages decoded into a new array, short strings built in place and
/// the compact StopTimeUpdate/StopTimeEvent. Each must give what the general path gives.
@Suite struct FastPathTests {
  // MARK: - Strings

  /// IDs of every length around the table's 15-byte limit, ASCII and not, with shared prefixes.
  static let ids: [String] = {
    var ids = (0...40).map { String(repeating: "7", count: $0) }
    ids += (1...20).map { String(repeating: "é", count: $0) }  // 2 bytes each
    ids += ["日本", "🚌", "🚌🚌🚌🚌", "a\u{0}", "a", "a\u{0}\u{0}", "abcdefg", "abcdefgh", "abcdefghi"]
    ids += ["stop 1", "stop 2", "stop 10", "stop\t1", "Stop 1", "stöp 1"]
    return ids
  }()

  @Test func stringsOfEveryLengthRoundTrip() throws {
    // Each ID as an entity id and as stop_ids, repeated (so the second and later ones are found
    // in the table) and interleaved with others (so they sit at other offsets).
    let entities = Self.ids.enumerated().map { index, id in
      var entity = FeedEntity(id: id)
      entity.tripUpdate = TripUpdate(
        trip: TripDescriptor(tripID: id, routeID: Self.ids[(index + 1) % Self.ids.count]),
        stopTimeUpdates: (0..<4).map { step in
          .init(stopID: Self.ids[(index + step * 7) % Self.ids.count])
        })
      return entity
    }
    let feed = FeedMessage(header: FeedHeader(gtfsRealtimeVersion: "2.0"), entities: entities)
    let decoded = try FeedMessage(decoding: feed.encoded())
    #expect(decoded == feed)
    for (entity, original) in zip(decoded.entities, feed.entities) {
      #expect(entity.id?.utf8.count == original.id?.utf8.count)
    }
    // The last field of the input: fewer than 16 bytes after its start.
    for id in Self.ids {
      let header = FeedHeader(gtfsRealtimeVersion: id)
      #expect(try FeedHeader(decoding: header.encoded()) == header)
    }
  }

  @Test func shortStringsAreTheStandardLibrarysOwn() {
    // On the 64-bit little-endian platforms the package builds for, short strings are built in
    // place; elsewhere the check fails and they are built the ordinary way.
    #if _pointerBitWidth(_64) && _endian(little)
      #expect(ShortString.isLayoutKnown)
    #endif
  }

  @Test func tableGivesBackEveryStringAfterCollisions() throws {
    // 600 distinct short strings (once kept in a table of 64 slots, where most evicted another),
    // each built three times.
    var generator = SplitMix64(state: 42)
    var strings: [String] = []
    while strings.count < 600 {
      let length = Int(generator.next() % 15) + 1
      let scalars = (0..<length).map { _ -> Character in
        let pick = generator.next() % 10
        return pick == 0
          ? "ß" : pick == 1 ? "€" : Character(Unicode.Scalar(UInt8(32 + generator.next() % 95)))
      }
      let string = String(scalars)
      if string.utf8.count <= 15 && !strings.contains(string) { strings.append(string) }
    }
    // All of them in one input, then 16 bytes, so both ways of loading a key are used.
    var input: [UInt8] = []
    var ranges: [Range<Int>] = []
    for string in strings {
      ranges.append(input.count..<input.count + string.utf8.count)
      input += Array(string.utf8)
    }
    input += Array(repeating: 0x20, count: 16)
    try input.withUnsafeBufferPointer { buffer in
      for round in 0..<3 {
        for index in (round == 1 ? Array(strings.indices.reversed()) : Array(strings.indices)) {
          let bytes = UnsafeBufferPointer(rebasing: buffer[ranges[index]])
          let string = try #require(ShortString.make(bytes, source: buffer, inline: ShortString.isLayoutKnown))
          #expect(string == strings[index])
        }
      }
    }
  }

  static let invalidShortStrings: [[UInt8]] = [
    [0xFF], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80], [0x61, 0x62, 0xE2, 0x82], Array(repeating: 0x61, count: 14) + [0x80],
  ]

  @Test(arguments: invalidShortStrings)
  func invalidShortStringsAreNeverKept(bytes: [UInt8]) throws {
    let input = bytes + Array(repeating: 0x20, count: 16)
    input.withUnsafeBufferPointer { buffer in
      let slice = UnsafeBufferPointer(rebasing: buffer[0..<bytes.count])
      #expect(ShortString.make(slice, source: buffer, inline: ShortString.isLayoutKnown) == nil)
      #expect(ShortString.make(slice, source: buffer, inline: ShortString.isLayoutKnown) == nil)
    }
    // In a stop_id with more of the input after it.
    var writer = WireWriter()
    writer.writeMessage(2) { update in
      update.tag(4, .lengthDelimited)
      update.varint(UInt64(bytes.count))
      update.append(bytes)
    }
    writer.writeUInt64(4, 1_699_405_534)
    writer.writeUInt64(4, 1_699_405_534)
    let error = #expect(throws: WireError.self) { try TripUpdate(decoding: writer.bytes) }
    #expect(error == WireError(.invalidUTF8(offset: 4), path: ["stop_time_update[0]", "stop_id"]))
  }

  // MARK: - Compact storage

  @Test func compactStopTimeUpdateKeepsPresence() throws {
    var update = TripUpdate.StopTimeUpdate()
    update.arrival = TripUpdate.StopTimeEvent()
    #expect(update.arrival == TripUpdate.StopTimeEvent())  // present, though empty
    #expect(update != TripUpdate.StopTimeUpdate())
    update.arrival?.time = 5
    update.arrival?.delay = 0
    #expect(update.arrival?.time == 5)
    #expect(update.arrival?.delay == 0)
    #expect(update.arrival?.uncertainty == nil)
    update.arrival = nil
    #expect(update == TripUpdate.StopTimeUpdate())

    update.stopID = ""
    #expect(update.stopID == "")
    #expect(update != TripUpdate.StopTimeUpdate())
    update.stopID = nil
    update.scheduleRelationship = .unrecognized(9)
    update.departureOccupancyStatus = .unrecognized(-3)
    update.stopSequence = 0
    let decoded = try TripUpdate.StopTimeUpdate(decoding: update.encoded())
    #expect(decoded == update)
    #expect(decoded.scheduleRelationship == .unrecognized(9))
    #expect(decoded.departureOccupancyStatus?.rawValue == -3)
    #expect(decoded.stopSequence == 0)
    #expect(decoded.stopID == nil)
    #expect(decoded.arrival == nil && decoded.departure == nil)

    var sample = TripUpdate.StopTimeUpdate.sample
    sample.stopID = nil
    sample.stopSequence = nil
    sample.arrival = nil
    sample.departure = nil
    sample.departureOccupancyStatus = nil
    sample.scheduleRelationship = nil
    sample.stopTimeProperties = nil
    #expect(sample != TripUpdate.StopTimeUpdate())  // NYCT's extension is still set
    sample.nyctStopTimeUpdate = nil
    #expect(sample == TripUpdate.StopTimeUpdate())
  }

  @Test func compactStorageStaysSmall() {
    // What the benchmark relies on: a large feed holds tens of thousands of these.
    #expect(MemoryLayout<TripUpdate.StopTimeEvent>.size <= 25)
    #expect(MemoryLayout<TripUpdate.StopTimeUpdate>.stride <= 96)
  }

  // MARK: - Varints and runs

  @Test(arguments: 0..<64)
  func eventTimesOfEveryLengthRoundTrip(bit: Int) throws {
    let value = Int64(bitPattern: UInt64(1) << UInt64(bit))
    let event = TripUpdate.StopTimeEvent(
      delay: Int32(truncatingIfNeeded: 0 &- value), time: value,
      uncertainty: Int32(truncatingIfNeeded: value),
      scheduledTime: value &- 1)
    // Alone (the varints end the input) and in a trip update (more input after them).
    #expect(try TripUpdate.StopTimeEvent(decoding: event.encoded()) == event)
    let update = TripUpdate(
      stopTimeUpdates: [.init(stopSequence: UInt32(truncatingIfNeeded: value), arrival: event)],
      timestamp: UInt64(bitPattern: value))
    #expect(try TripUpdate(decoding: update.encoded()) == update)
  }

  @Test func repeatedMessagesSplitByOtherFieldsKeepTheirOrder() throws {
    var writer = WireWriter()
    writer.writeMessage(2) { $0.writeString(4, "a") }
    writer.writeUInt64(4, 7)
    writer.writeMessage(2) { $0.writeString(4, "b") }
    writer.writeMessage(2) { $0.writeString(4, "c") }
    writer.writeMessage(1) { $0.writeString(1, "trip") }
    writer.writeMessage(2) { $0.writeString(4, "d") }
    var update = try TripUpdate(decoding: writer.bytes)
    #expect(update.stopTimeUpdates.map(\.stopID) == ["a", "b", "c", "d"])
    #expect(update.timestamp == 7)
    #expect(update.trip?.tripID == "trip")

    // Merging appends to what is there.
    var reader = WireReader(writer.bytes)
    try update.merge(from: &reader)
    #expect(update.stopTimeUpdates.map(\.stopID) == ["a", "b", "c", "d", "a", "b", "c", "d"])
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var expected: WireError
    var testDescription: String { name }
  }

  /// Malformed trip updates whose errors come from the fast paths; 10 bytes of a timestamp
  /// field follow each, so word-at-a-time reads have input to spare.
  static let malformed: [Case] = [
    Case(
      name: "time runs past its event",
      bytes: [0x12, 0x07, 0x12, 0x02, 0x10, 0x80, 0x22, 0x01, 0x61],
      expected: WireError(.truncated(offset: 5), path: ["stop_time_update[0]", "arrival", "time"])),
    Case(
      name: "stop_id as a varint", bytes: [0x12, 0x02, 0x20, 0x01],
      expected: WireError(
        .wrongWireType(field: 4, found: .varint, expected: .lengthDelimited, offset: 2),
        path: ["stop_time_update[0]", "stop_id"])),
    Case(
      name: "arrival as a varint", bytes: [0x12, 0x02, 0x10, 0x01],
      expected: WireError(
        .wrongWireType(field: 2, found: .varint, expected: .lengthDelimited, offset: 2),
        path: ["stop_time_update[0]", "arrival"])),
    Case(
      name: "time as a string", bytes: [0x12, 0x05, 0x12, 0x03, 0x12, 0x01, 0x61],
      expected: WireError(
        .wrongWireType(field: 2, found: .lengthDelimited, expected: .varint, offset: 4),
        path: ["stop_time_update[0]", "arrival", "time"])),
    Case(
      name: "stop_id length past its update", bytes: [0x12, 0x03, 0x22, 0x05, 0x61],
      expected: WireError(
        .lengthPastEnd(length: 5, offset: 3), path: ["stop_time_update[0]", "stop_id"])),
    Case(
      name: "second update of a run past the end", bytes: [0x12, 0x00, 0x12, 0x7F],
      expected: WireError(.lengthPastEnd(length: 127, offset: 3), path: ["stop_time_update[1]"])),
    Case(
      name: "stop_time_update as a varint", bytes: [0x10, 0x01],
      expected: WireError(
        .wrongWireType(field: 2, found: .varint, expected: .lengthDelimited, offset: 0),
        path: ["stop_time_update[0]"])),
  ]

  @Test(arguments: malformed)
  func malformedFastPathFieldsThrow(_ test: Case) {
    var writer = WireWriter()
    writer.writeUInt64(4, .max)  // 11 bytes more after the case's own
    let error = #expect(throws: WireError.self) {
      try TripUpdate(decoding: test.bytes + writer.bytes)
    }
    #expect(error == test.expected)
  }

  // MARK: - Stop time events

  /// A stop time update's arrival and departure, written out by hand: `12 LEN` / `1A LEN`,
  /// then varint fields 1-4 (delay, time, uncertainty, scheduled_time).
  static let minusSixty: [UInt8] = [0xC4, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]  // -60, sign-extended
  static let time: [UInt8] = [0x80, 0xE2, 0xCF, 0xAA, 0x06]  // 1,700,000,000 = 0x6553F100

  /// The events as the bytes give them, each read by the short path where ten bytes follow and
  /// by the general one at the end of the input: both give the fields written out above.
  @Test(arguments: [false, true])
  func stopTimeEventsReadAsWritten(atTheEnd: Bool) throws {
    let arrival: [UInt8] = [0x08] + Self.minusSixty + [0x10] + Self.time  // delay, time
    let departure: [UInt8] = [0x10] + Self.time + [0x18, 0x1E, 0x20] + Self.time  // time, 30, scheduled
    var bytes: [UInt8] = [0x22, 0x01, 0x41]  // stop_id "A"
    bytes += [0x12, UInt8(arrival.count)] + arrival + [0x1A, UInt8(departure.count)] + departure
    // stop_sequence 7, schedule_relationship SCHEDULED, departure_occupancy_status EMPTY, again:
    // ten bytes after the departure.
    if !atTheEnd { bytes += [0x08, 0x07, 0x28, 0x00, 0x38, 0x00, 0x08, 0x07, 0x28, 0x00] }
    let update = try TripUpdate.StopTimeUpdate(decoding: bytes)
    #expect(update.stopID == "A")
    #expect(update.arrival?.delay == -60)
    #expect(update.arrival?.time == 1_700_000_000)
    #expect(update.arrival?.uncertainty == nil && update.arrival?.scheduledTime == nil)
    #expect(update.departure?.delay == nil)
    #expect(update.departure?.time == 1_700_000_000)
    #expect(update.departure?.uncertainty == 30)
    #expect(update.departure?.scheduledTime == 1_700_000_000)
    if !atTheEnd { #expect(update.stopSequence == 7 && update.scheduleRelationship == .scheduled) }
  }

  /// An event seen twice is merged (a field read again replaces, the others stay), an empty
  /// one is present, and one with a field the short path does not know (an unknown varint, a
  /// length-delimited field) is read the general way with the same result.
  @Test func stopTimeEventsMergeAndFallBack() throws {
    // stop_sequence 1, then 2 (the last one stays), and others: twelve bytes after the events.
    let tail: [UInt8] = [0x08, 0x01, 0x28, 0x00, 0x38, 0x00, 0x38, 0x00, 0x08, 0x02, 0x28, 0x00]
    var bytes: [UInt8] = [0x12, 0x02, 0x08, 0x05]  // arrival delay 5
    bytes += [0x12, 0x02, 0x18, 0x09]  // arrival again: uncertainty 9 (delay stays)
    bytes += [0x12, 0x04, 0x08, 0x07, 0x38, 0x01]  // again: delay 7, unknown field 7 skipped
    bytes += [0x1A, 0x00]  // an empty departure
    bytes += [0x1A, 0x05, 0x42, 0x01, 0x58, 0x10, 0x03]  // unknown field 8 (bytes), then time 3
    let update = try TripUpdate.StopTimeUpdate(decoding: bytes + tail)
    #expect(update.arrival?.delay == 7)
    #expect(update.arrival?.uncertainty == 9)
    #expect(update.arrival?.time == nil)
    #expect(update.departure?.time == 3)
    #expect(update.departure?.delay == nil)
    #expect(update.stopSequence == 2)
  }

  /// Malformed events fail as the general decoder says, where the short path would have read
  /// them (ten bytes follow each).
  @Test func malformedStopTimeEventsNameTheirField() {
    let padding: [UInt8] = [0x08, 0x01, 0x08, 0x01, 0x08, 0x01, 0x08, 0x01, 0x08, 0x01, 0x08, 0x01]
    let cases: [([UInt8], WireError)] = [
      // A varint running past the event's length.
      ([0x12, 0x02, 0x10, 0x80], WireError(.truncated(offset: 3), path: ["arrival", "time"])),
      // time as a fixed64.
      (
        [0x12, 0x09, 0x11, 0, 0, 0, 0, 0, 0, 0, 0],
        WireError(.wrongWireType(field: 2, found: .fixed64, expected: .varint, offset: 2), path: ["arrival", "time"])
      ),
      // A varint of eleven bytes.
      (
        [0x1A, 0x0C, 0x10] + Array(repeating: 0xFF, count: 10) + [0x01],
        WireError(.malformedVarint(offset: 3), path: ["departure", "time"])
      ),
    ]
    for (bytes, expected) in cases {
      let error = #expect(throws: WireError.self) { try TripUpdate.StopTimeUpdate(decoding: bytes + padding) }
      #expect(error == expected)
    }
  }

  // MARK: - Vehicle positions

  @Test func vehicleFieldsInAnyOrderAndWithUnknownOnesBetween() throws {
    // Every field of VehiclePosition and Position, written backwards, with an unknown field
    // and an extension between them: the raw-key path and the general one give one value.
    var position = WireWriter()
    position.writeFloat(5, 9.5)
    position.writeDouble(4, 12_345.5)
    position.writeFloat(3, 240)
    position.writeUInt64(99, 7)
    position.writeFloat(2, -6.3664)
    position.writeFloat(1, 53.2875)
    var vehicle = WireWriter()
    vehicle.writeUInt32(10, 55)
    vehicle.writeUInt64(9, 2)
    vehicle.writeMessage(8) { $0.writeString(1, "V27-1") }
    vehicle.writeString(7, "TD4526")
    vehicle.writeUInt64(6, 1)
    vehicle.writeUInt64(5, 1_796_110_750)
    vehicle.writeUInt64(1000, 3)
    vehicle.writeUInt64(4, 2)
    vehicle.writeUInt32(3, 60)
    vehicle.writeBytes(2, position.bytes)
    vehicle.writeMessage(1) { $0.writeString(1, "27-WK-0-0720") }
    let decoded = try VehiclePosition(decoding: vehicle.bytes)
    #expect(
      decoded
        == VehiclePosition(
          trip: TripDescriptor(tripID: "27-WK-0-0720"),
          vehicle: VehicleDescriptor(id: "V27-1"),
          position: Position(latitude: 53.2875, longitude: -6.3664, bearing: 240, odometer: 12_345.5, speed: 9.5),
          currentStopSequence: 60, stopID: "TD4526", currentStatus: .inTransitTo, timestamp: 1_796_110_750,
          congestionLevel: .runningSmoothly, occupancyStatus: .fewSeatsAvailable, occupancyPercentage: 55))
    #expect(try VehiclePosition(decoding: decoded.encoded()) == decoded)
  }

  @Test func malformedVehicleFieldsNameTheirPath() {
    // latitude (fixed32) with two of its four bytes.
    let short = #expect(throws: WireError.self) { try VehiclePosition(decoding: [0x12, 0x03, 0x0D, 0x00, 0x00]) }
    #expect(short == WireError(.truncated(offset: 3), path: ["position", "latitude"]))
    // latitude as a varint: the general path reports the wire type.
    let varint = #expect(throws: WireError.self) { try VehiclePosition(decoding: [0x12, 0x02, 0x08, 0x01]) }
    #expect(
      varint
        == WireError(.wrongWireType(field: 1, found: .varint, expected: .fixed32, offset: 2), path: ["position", "latitude"]))
    // timestamp cut short.
    let timestamp = #expect(throws: WireError.self) { try VehiclePosition(decoding: [0x28, 0x80]) }
    #expect(timestamp == WireError(.truncated(offset: 1), path: ["timestamp"]))
  }
}
