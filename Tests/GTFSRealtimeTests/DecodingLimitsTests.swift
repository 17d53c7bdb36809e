import GTFSRealtime
import Testing

/// Issue 23, case 2: the decoder's counts are checked before room is made for the elements.
@Suite struct DecodingLimitsTests {
  /// `count` empty entities: `entity {}` is the two bytes 0x12 0x00.
  static func emptyEntities(_ count: Int) -> [UInt8] {
    Array([[UInt8]](repeating: [0x12, 0x00], count: count).joined())
  }

  /// One entity whose trip update lists `count` empty stop_time_updates (key 0x12 in TripUpdate).
  static func stopTimeUpdates(_ count: Int) -> [UInt8] {
    let updates = Array([[UInt8]](repeating: [0x12, 0x00], count: count).joined())
    let tripUpdate = [0x0A, 0x00] + updates  // trip {} first (required), then the updates
    let entity = [0x0A, 0x01, 0x61] + [0x1A] + varint(tripUpdate.count) + tripUpdate
    return [0x12] + varint(entity.count) + entity
  }

  static func varint(_ value: Int) -> [UInt8] {
    var value = UInt64(value)
    var out: [UInt8] = []
    while value >= 0x80 {
      out.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    return out + [UInt8(value)]
  }

  @Test func entitiesOverTheLimitAreRefusedNamingIt() throws {
    let limits = DecodingLimits(maxEntities: 1000, maxStopTimeUpdates: 10, maxMessages: 1_000_000)
    #expect(try FeedMessage(decoding: Self.emptyEntities(1000), limits: limits).entities.count == 1000)
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: Self.emptyEntities(1001), limits: limits) }
    #expect(error?.reason == .tooMany("entity", limit: 1000, offset: 0))
    #expect(error?.description == "more than 1000 entity elements at byte 0 (a decoding limit)")
  }

  @Test func entitiesAfterOtherFieldsCountToo() throws {
    // A header between two runs of entities: the first run's scan counts every entity to the
    // end of the message, so the feed is refused at its first byte.
    let header: [UInt8] = [0x0A, 0x02, 0x18, 0x01]
    let bytes = Self.emptyEntities(600) + header + Self.emptyEntities(600)
    let limits = DecodingLimits(maxEntities: 1000)
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: bytes, limits: limits) }
    #expect(error?.reason == .tooMany("entity", limit: 1000, offset: 0))
    #expect(throws: Never.self) { try FeedMessage(decoding: Self.emptyEntities(500) + header + Self.emptyEntities(500), limits: limits) }
  }

  @Test func stopTimeUpdatesOverTheLimitAreRefusedWithTheirPath() {
    let limits = DecodingLimits(maxEntities: 10, maxStopTimeUpdates: 500)
    let fits = try? FeedMessage(decoding: Self.stopTimeUpdates(500), limits: limits)
    #expect(fits?.entities.first?.tripUpdate?.stopTimeUpdates.count == 500)
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: Self.stopTimeUpdates(501), limits: limits) }
    guard case .tooMany("stop_time_update", limit: 500, _)? = error?.reason else {
      Issue.record("expected the stop_time_update limit, got \(String(describing: error))")
      return
    }
    #expect(error?.path == ["entity[0]", "trip_update"])
  }

  /// A trip_update given several times in one entity is merged into one (protobuf's rule), and
  /// every occurrence's stop_time_updates count: 3 occurrences of 200 are 600, over a limit
  /// of 500 that each occurrence alone is under. (Only the first was counted before.)
  @Test func stopTimeUpdatesOfARepeatedTripUpdateCountToo() throws {
    let updates = Array([[UInt8]](repeating: [0x12, 0x00], count: 200).joined())
    let tripUpdate = [0x0A, 0x00] + updates
    let occurrence = [0x1A] + Self.varint(tripUpdate.count) + tripUpdate
    let entity = [0x0A, 0x01, 0x61] + occurrence + occurrence + occurrence
    let bytes = [0x12] + Self.varint(entity.count) + entity
    let error = #expect(throws: WireError.self) {
      try FeedMessage(decoding: bytes, limits: DecodingLimits(maxEntities: 10, maxStopTimeUpdates: 500))
    }
    guard case .tooMany("stop_time_update", limit: 500, _)? = error?.reason else {
      Issue.record("expected the stop_time_update limit, got \(String(describing: error))")
      return
    }
    let merged = try FeedMessage(decoding: bytes, limits: DecodingLimits(maxEntities: 10, maxStopTimeUpdates: 600))
    #expect(merged.entities.first?.tripUpdate?.stopTimeUpdates.count == 600)
  }

  @Test func aMillionEmptyEntitiesFailBeforeAnyIsMade() {
    // 2 MB of input that would make a million FeedEntity values (hundreds of MB) today.
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: Self.emptyEntities(1_000_000)) }
    #expect(error?.reason == .tooMany("entity", limit: DecodingLimits.default.maxEntities, offset: 0))
  }

  @Test func allRepeatedMessagesTogetherHaveALimit() {
    let limits = DecodingLimits(maxEntities: 100, maxStopTimeUpdates: 100, maxMessages: 150)
    // 90 entities, then one with 90 stop_time_updates: 181 messages.
    let bytes = Self.emptyEntities(90) + Self.stopTimeUpdates(90)
    let error = #expect(throws: WireError.self) { try FeedMessage(decoding: bytes, limits: limits) }
    guard case .tooMany("repeated message", limit: 150, _)? = error?.reason else {
      Issue.record("expected the repeated message limit, got \(String(describing: error))")
      return
    }
  }
}
