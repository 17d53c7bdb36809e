import GTFSRealtime
import TestSupport
import Testing

@Suite struct DecodingTests {
  @Test func fullyPopulatedFeedRoundTrips() throws {
    let feed = FeedMessage.sample
    let decoded = try FeedMessage(decoding: feed.encoded())
    #expect(decoded == feed)
    #expect(decoded.encoded() == feed.encoded())
  }

  @Test func sampleSetsEveryField() {
    // Guards the round trip above: a field added to the model but not to the sample fails here.
    #expect(unsetFields(of: FeedMessage.sample, at: "FeedMessage") == [])
  }

  @Test func eachMessageRoundTripsOnItsOwn() throws {
    #expect(try TripUpdate(decoding: TripUpdate.sample.encoded()) == .sample)
    #expect(
      try TripUpdate.StopTimeEvent(decoding: TripUpdate.StopTimeEvent.sample.encoded()) == .sample)
    #expect(try VehiclePosition(decoding: VehiclePosition.sample.encoded()) == .sample)
    #expect(try Alert(decoding: Alert.sample.encoded()) == .sample)
    #expect(try Stop(decoding: Stop.sample.encoded()) == .sample)
    #expect(try Shape(decoding: Shape.sample.encoded()) == .sample)
    #expect(try TripModifications(decoding: TripModifications.sample.encoded()) == .sample)
    #expect(try TripDescriptor(decoding: TripDescriptor.sample.encoded()) == .sample)
  }

  @Test func boxedPayloadsKeepValueSemantics() throws {
    // trip_update and trip_properties live in shared copy-on-write cells.
    var original = try FeedEntity(decoding: FeedEntity.sample.encoded())
    let copy = original
    original.tripUpdate?.delay = 5
    original.tripUpdate?.tripProperties?.tripID = "changed"
    #expect(copy == FeedEntity.sample)
    #expect(original.tripUpdate?.delay == 5)
    #expect(original.tripUpdate?.tripProperties?.tripID == "changed")
    #expect(original != copy)

    // Merging a second trip_update into a decoded entity must not touch an earlier copy.
    var writer = WireWriter()
    writer.writeMessage(3) { $0.writeInt32(5, 1) }
    var reader = WireReader(writer.bytes)
    var merged = copy
    try merged.merge(from: &reader)
    #expect(merged.tripUpdate?.delay == 1)
    #expect(copy.tripUpdate?.delay == TripUpdate.sample.delay)
    #expect(merged.tripUpdate?.stopTimeUpdates == copy.tripUpdate?.stopTimeUpdates)
  }

  @Test func emptyInputIsAnEmptyMessage() throws {
    let feed = try FeedMessage(decoding: [])
    #expect(feed == FeedMessage())
    #expect(feed.header == nil)
    #expect(feed.entities.isEmpty)
  }

  @Test func unsetDiffersFromDefault() throws {
    // A StopTimeUpdate without schedule_relationship means SCHEDULED (the proto's default), but
    // the model keeps it unset so output can show what the feed said.
    let unset = try TripUpdate.StopTimeUpdate(decoding: [0x08, 0x05])  // stop_sequence = 5
    #expect(unset.stopSequence == 5)
    #expect(unset.scheduleRelationship == nil)
    #expect(unset.scheduleRelationshipOrDefault == .scheduled)
    let explicit = try TripUpdate.StopTimeUpdate(decoding: [0x08, 0x05, 0x28, 0x00])
    #expect(explicit.scheduleRelationship == .scheduled)
    #expect(explicit != unset)
    // Zero values are values, not absences.
    let zero = try TripUpdate.StopTimeEvent(decoding: [0x08, 0x00, 0x18, 0x00])
    #expect(zero.delay == 0)
    #expect(zero.uncertainty == 0)
    #expect(zero.time == nil)
  }

  @Test func keepsUnknownEnumValues() throws {
    var writer = WireWriter()
    writer.writeInt32(4, 9)  // current_status: no such VehicleStopStatus
    writer.writeInt32(6, -1)  // congestion_level: a negative enum is a 10-byte varint
    let vehicle = try VehiclePosition(decoding: writer.bytes)
    #expect(vehicle.currentStatus == .unrecognized(9))
    #expect(vehicle.currentStatus?.rawValue == 9)
    #expect(vehicle.currentStatus?.protoName == nil)
    #expect(vehicle.congestionLevel == .unrecognized(-1))
    #expect(vehicle.encoded() == writer.bytes)
    #expect(VehiclePosition.VehicleStopStatus(rawValue: 1) == .stoppedAt)
    #expect(VehiclePosition.VehicleStopStatus.unrecognized(1) == .stoppedAt)
    #expect(Alert.Effect.significantDelays.protoName == "SIGNIFICANT_DELAYS")
  }

  @Test func skipsUnknownFieldsAndExtensions() throws {
    var plain = WireWriter()
    plain.writeString(1, "2.0")
    plain.writeUInt64(3, 1_505_314_375)
    var extended = WireWriter()
    extended.writeUInt64(99, 7)  // unknown field
    extended.writeString(1, "2.0")
    extended.writeMessage(1000) { $0.writeString(1, "OneBusAway") }  // extension, like bullrunner's
    extended.writeDouble(1001, 2.5)
    extended.writeUInt64(3, 1_505_314_375)
    extended.writeFloat(9000, 1)
    extended.writeBytes(9999, [0xFF, 0xFE])  // not UTF-8, but never read as a string
    #expect(try FeedHeader(decoding: extended.bytes) == FeedHeader(decoding: plain.bytes))
  }

  @Test func fieldsMayComeInAnyOrderAndRepeat() throws {
    var writer = WireWriter()
    writer.writeUInt64(4, 10)  // timestamp
    writer.writeMessage(1) { $0.writeString(1, "trip-a") }  // trip, part 1
    writer.writeMessage(2) { $0.writeUInt32(1, 1) }  // stop_time_update[0]
    writer.writeUInt64(4, 20)  // timestamp again: the last one wins
    writer.writeMessage(1) { $0.writeString(5, "route-b") }  // trip, part 2: merged
    writer.writeMessage(2) { $0.writeUInt32(1, 2) }  // stop_time_update[1]
    let update = try TripUpdate(decoding: writer.bytes)
    #expect(update.timestamp == 20)
    #expect(update.trip == TripDescriptor(tripID: "trip-a", routeID: "route-b"))
    #expect(update.stopTimeUpdates.map(\.stopSequence) == [1, 2])
  }

  @Test func aStringSeenAgainReplacesTheFirst() throws {
    // The decoder puts a string in place of an unset field without releasing it; a field seen
    // again is assigned as usual (short strings are kept inline, long ones on the heap).
    var update = WireWriter()
    update.writeString(4, "a stop id longer than fifteen bytes")  // stop_id (compact storage)
    update.writeString(4, "S2")
    update.writeString(4, "another stop id of more than 15 bytes")
    let stopTimeUpdate = try TripUpdate.StopTimeUpdate(decoding: update.bytes)
    #expect(stopTimeUpdate.stopID == "another stop id of more than 15 bytes")
    var vehicle = WireWriter()
    vehicle.writeString(1, "V1")  // id
    vehicle.writeString(1, "vehicle id of more than fifteen bytes")
    vehicle.writeString(2, "label of more than fifteen bytes")  // label
    vehicle.writeString(2, "L")
    let descriptor = try VehicleDescriptor(decoding: vehicle.bytes)
    #expect(descriptor.id == "vehicle id of more than fifteen bytes")
    #expect(descriptor.label == "L")
  }

  @Test func int32FieldsTruncateLikeProtobuf() throws {
    var writer = WireWriter()
    writer.writeUInt64(1, 0x1_0000_0005)  // delay: wider than 32 bits, keep the low 32
    writer.writeInt32(3, .min)
    let event = try TripUpdate.StopTimeEvent(decoding: writer.bytes)
    #expect(event.delay == 5)
    #expect(event.uncertainty == .min)
  }

  @Test func errorNamesTheFieldPath() throws {
    // entity[0].trip_update.stop_time_update[3].arrival, whose length runs past its end.
    var update = WireWriter()
    update.writeMessage(1) { $0.writeString(1, "t1") }
    for sequence in 1...3 { update.writeMessage(2) { $0.writeUInt32(1, UInt32(sequence)) } }
    update.writeMessage(2) { broken in
      broken.writeUInt32(1, 4)
      broken.tag(2, .lengthDelimited)
      broken.varint(812)
    }
    var entity = WireWriter()
    entity.writeString(1, "e1")
    entity.writeBytes(3, update.bytes)
    var feed = WireWriter()
    feed.writeMessage(1) { $0.writeString(1, "2.0") }
    feed.writeBytes(2, entity.bytes)
    let lengthOffset = feed.bytes.count - 2  // 812 is a two-byte varint at the very end
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: feed.bytes) }
    #expect(error?.reason == .lengthPastEnd(length: 812, offset: lengthOffset))
    #expect(
      error?.description
        == "entity[0].trip_update.stop_time_update[3].arrival: length 812 runs past the end at byte \(lengthOffset)"
    )
  }

  @Test func wrongWireTypeForAKnownFieldThrows() {
    // FeedEntity.id (string) sent as a varint.
    let error = #expect(throws: WireError.self) {
      try FeedMessage(decoding: [0x12, 0x02, 0x08, 0x01])
    }
    #expect(
      error
        == WireError(
          .wrongWireType(field: 1, found: .varint, expected: .lengthDelimited, offset: 2),
          path: ["entity[0]", "id"]))
    #expect(
      error?.description
        == "entity[0].id: field 1 has wire type 0 (varint), expected 2 (length-delimited), at byte 2"
    )
  }

  @Test func nestingBeyondTheBudgetThrows() throws {
    // FeedMessage > entity > alert > informed_entity > trip > modified_trip: 5 levels deep.
    var entity = FeedEntity(id: "a")
    entity.alert = Alert(informedEntities: [
      EntitySelector(trip: TripDescriptor(modifiedTrip: .init(modificationsID: "m")))
    ])
    let bytes = FeedMessage(entities: [entity]).encoded()
    var enough = WireReader(bytes, maxDepth: 5)
    var feed = FeedMessage()
    try feed.merge(from: &enough)
    #expect(feed.entities == [entity])

    var shallow = WireReader(bytes, maxDepth: 4)
    var rejected = FeedMessage()
    let error = #expect(throws: WireError.self) { try rejected.merge(from: &shallow) }
    #expect(error?.path == ["entity[0]", "alert", "informed_entity[0]", "trip", "modified_trip"])
    if case .tooDeep(limit: 4, _) = error?.reason {
    } else {
      Issue.record("expected tooDeep, got \(String(describing: error))")
    }
  }

  @Test func invalidUTF8Throws() {
    let error = #expect(throws: WireError.self) {
      try FeedMessage(decoding: [0x0A, 0x03, 0x0A, 0x01, 0xFF])
    }
    #expect(error == WireError(.invalidUTF8(offset: 4), path: ["header", "gtfs_realtime_version"]))
  }

  @Test func reportsMissingRequiredFields() throws {
    // Decoded leniently: required fields may be absent; the feed says which.
    var vehicle = VehiclePosition()
    vehicle.position = Position(longitude: 1)
    let feed = FeedMessage(entities: [
      FeedEntity(
        id: "ok", alert: Alert(headerText: TranslatedString(translations: [.init(language: "en")]))),
      FeedEntity(tripUpdate: TripUpdate(), vehicle: vehicle),
    ])
    let decoded = try FeedMessage(decoding: feed.encoded())
    #expect(decoded == feed)
    #expect(
      decoded.missingRequiredFields == [
        "header", "entity[0].alert.header_text.translation[0].text", "entity[1].id",
        "entity[1].trip_update.trip", "entity[1].vehicle.position.latitude",
      ])
    #expect(FeedMessage.sample.missingRequiredFields == [])
  }

  @Test func decodesUTF8Text() throws {
    let text = TranslatedString.Translation(text: "Délai ⚠︎ 東京", language: "fr")
    #expect(try TranslatedString.Translation(decoding: text.encoded()) == text)
  }
}

/// The paths of optional properties that are nil and arrays that are empty, anywhere in `value`.
func unsetFields(of value: Any, at path: String) -> [String] {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .optional:
    guard let wrapped = mirror.children.first?.value else { return [path] }
    return unsetFields(of: wrapped, at: path)
  case .collection:
    if mirror.children.isEmpty { return [path] }
    return mirror.children.enumerated().flatMap { index, child in
      unsetFields(of: child.value, at: "\(path)[\(index)]")
    }
  case .class:  // a Box holding a large payload
    return mirror.children.flatMap { child in
      unsetFields(of: child.value, at: "\(path).\(child.label ?? "?")")
    }
  case .struct:
    return mirror.children.flatMap { child in
      unsetFields(of: child.value, at: "\(path).\(child.label ?? "?")")
    }
  default:
    return []
  }
}
