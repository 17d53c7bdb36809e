/// How the decoder fills `FeedEntity`'s shared payload store (`EntityPayloads`): while a feed is
/// decoded, each entity's trip update and vehicle position are decoded in place at the end of
/// one of the reader's two pools, and the entity keeps the index; once every entity is decoded
/// the pools become the store that all of them share.
extension WireReader {
  /// `FeedEntity.trip_update`, merged into the entity's trip update as proto2 requires.
  mutating func mergeTripUpdate(
    _ tag: FieldTag, _ name: StaticString, into entity: inout FeedEntity
  ) throws(WireError) {
    if entity.payloads != nil {
      // An entity decoded (or built) before, merged again: its store is shared, so it gets a
      // new one.
      var value = entity.tripUpdate ?? TripUpdate()
      try decodeNested(tag, name, index: nil, into: &value)
      entity.tripUpdate = value
      return
    }
    // Decoded in place in the pool, moved out of the reader meanwhile (a nested message is read
    // by this same reader).
    var pool: [TripUpdate] = []
    swap(&pool, &pooledTripUpdates)
    defer { swap(&pool, &pooledTripUpdates) }
    try mergePooled(tag, name, index: &entity.tripUpdateIndex, pool: &pool)
  }

  /// `FeedEntity.vehicle`, merged as `mergeTripUpdate(_:_:into:)` merges `trip_update`.
  mutating func mergeVehicle(
    _ tag: FieldTag, _ name: StaticString, into entity: inout FeedEntity
  ) throws(WireError) {
    if entity.payloads != nil {
      var value = entity.vehicle ?? VehiclePosition()
      try decodeNested(tag, name, index: nil, into: &value)
      entity.vehicle = value
      return
    }
    var pool: [VehiclePosition] = []
    swap(&pool, &pooledVehicles)
    defer { swap(&pool, &pooledVehicles) }
    try mergePooled(tag, name, index: &entity.vehicleIndex, pool: &pool)
  }

  /// The message at `index` in `pool` (a new one at its end when `index` is -1), merged in place.
  @inline(__always)
  private mutating func mergePooled<M: WireMessage>(
    _ tag: FieldTag, _ name: StaticString, index: inout Int32, pool: inout [M]
  ) throws(WireError) {
    if index < 0 {
      // Room for one per entity of the feed, made once.
      if pool.capacity == 0 { pool.reserveCapacity(Swift.max(1, entitiesSpent)) }
      index = Int32(truncatingIfNeeded: pool.count)
      pool.append(M())
    }
    try pool.withUnsafeMutableBufferPointer { buffer throws(WireError) in
      try decodeNested(tag, name, index: nil, into: &buffer[Int(index)])
    }
  }

  /// Starts decoding a feed's entities: their payloads are pooled until
  /// `endPoolingPayloads(attachingTo:)`.
  mutating func beginPoolingPayloads() {
    isPoolingPayloads = true
  }

  /// Gives every entity decoded since `beginPoolingPayloads()` the store made of the pools.
  mutating func endPoolingPayloads(attachingTo entities: inout [FeedEntity]) {
    isPoolingPayloads = false
    guard let payloads = takePayloads() else { return }
    entities.withUnsafeMutableBufferPointer { buffer in
      for index in buffer.indices where buffer[index].payloads == nil {
        if buffer[index].tripUpdateIndex >= 0 || buffer[index].vehicleIndex >= 0 {
          buffer[index].payloads = payloads
        }
      }
    }
  }

  /// Gives an entity decoded on its own (not within a feed) the store made of the pools.
  mutating func attachPooledPayloads(to entity: inout FeedEntity) {
    guard entity.payloads == nil, let payloads = takePayloads() else { return }
    entity.payloads = payloads
  }

  /// The pools as a store, leaving them empty; nil when both are empty.
  private mutating func takePayloads() -> EntityPayloads? {
    guard !pooledTripUpdates.isEmpty || !pooledVehicles.isEmpty else { return nil }
    var tripUpdates: [TripUpdate] = []
    var vehicles: [VehiclePosition] = []
    swap(&tripUpdates, &pooledTripUpdates)
    swap(&vehicles, &pooledVehicles)
    return EntityPayloads(tripUpdates: tripUpdates, vehicles: vehicles)
  }
}
