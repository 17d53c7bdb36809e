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
      try mergeUnpooled(tag, name, into: &entity, \.tripUpdate)
      return
    }
    // Decoded in place in the pool, moved out of the reader meanwhile (a nested message is read
    // by this same reader).
    if pools == nil { pools = PayloadPools() }
    var pool: [TripUpdate] = []
    swap(&pool, &pools!.tripUpdates)
    defer { swap(&pool, &pools!.tripUpdates) }
    try mergePooled(tag, name, index: &entity.tripUpdateIndex, pool: &pool)
  }

  /// `FeedEntity.vehicle`, merged as `mergeTripUpdate(_:_:into:)` merges `trip_update`.
  mutating func mergeVehicle(
    _ tag: FieldTag, _ name: StaticString, into entity: inout FeedEntity
  ) throws(WireError) {
    if entity.payloads != nil {
      try mergeUnpooled(tag, name, into: &entity, \.vehicle)
      return
    }
    if pools == nil { pools = PayloadPools() }
    var pool: [VehiclePosition] = []
    swap(&pool, &pools!.vehicles)
    defer { swap(&pool, &pools!.vehicles) }
    try mergePooled(tag, name, index: &entity.vehicleIndex, pool: &pool)
  }

  /// An entity decoded (or built) before, merged again: its store is shared, so its
  /// `payload` (trip_update or vehicle) gets a new one (a trip update holding its own stop time
  /// updates). Out of line: rare, and its copies of a whole payload would make every entity's
  /// call larger.
  @inline(never)
  private mutating func mergeUnpooled<M: WireMessage>(
    _ tag: FieldTag, _ name: StaticString, into entity: inout FeedEntity, _ payload: WritableKeyPath<FeedEntity, M?>
  ) throws(WireError) {
    var value = entity[keyPath: payload] ?? M()
    try decodeUnpooled(tag, name, into: &value)
    entity[keyPath: payload] = value
  }

  /// A message decoded outside the feed's pools: whatever it pools, it takes at its end.
  private mutating func decodeUnpooled<M: WireMessage>(
    _ tag: FieldTag, _ name: StaticString, into value: inout M
  ) throws(WireError) {
    let wasPooling = isPoolingPayloads
    isPoolingPayloads = false
    defer { isPoolingPayloads = wasPooling }
    try decodeNested(tag, name, index: nil, into: &value)
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

  /// Gives every entity decoded since `beginPoolingPayloads()` the store made of the pools (and
  /// every trip update in it the array of all their stop time updates).
  @inline(__always)
  mutating func endPoolingPayloads(attachingTo entities: inout [FeedEntity]) {
    isPoolingPayloads = false
    guard var taken = pools.take() else { return }
    Self.attach(&taken, to: &entities)
  }

  /// (`pools` inout, so that its arrays stay uniquely referenced: a copy would copy them.)
  private static func attach(_ pools: inout PayloadPools, to entities: inout [FeedEntity]) {
    if !pools.stopTimeUpdates.isEmpty {
      let updates = pools.stopTimeUpdates
      pools.tripUpdates.withUnsafeMutableBufferPointer { buffer in
        for index in buffer.indices where buffer[index].stopTimeUpdates.isPending {
          buffer[index].stopTimeUpdates.base = updates
        }
      }
    }
    guard let payloads = pools.store() else { return }
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
    guard entity.payloads == nil, let payloads = pools.take()?.store() else { return }
    entity.payloads = payloads
  }

  // MARK: - Stop time updates

  /// `TripUpdate.stop_time_update` whose one-byte `key` a decoder matched: this element and
  /// those that directly follow it, decoded in place at the end of the reader's pool (the trip
  /// update's elements stay contiguous there: nothing else adds to the pool while a trip update
  /// is decoded).
  ///
  /// The first run of a trip update counts every element the message holds
  /// (`count(of:from:)`), spends them from the budget and makes room for them, as
  /// `appendMessages` does for an array.
  mutating func appendStopTimeUpdates(
    key: UInt64, _ name: StaticString, to updates: inout TripUpdate.StopTimeUpdates
  ) throws(WireError) {
    if !updates.base.isEmpty {
      // Decoded (or built) before and merged again: appended to an array of its own.
      var elements = Array(updates)
      try appendMessages(key: key, name, budget: .stopTimeUpdate, to: &elements)
      updates = TripUpdate.StopTimeUpdates(elements)
      return
    }
    if pools == nil { pools = PayloadPools() }
    var pool: [TripUpdate.StopTimeUpdate] = []
    swap(&pool, &pools!.stopTimeUpdates)
    defer { swap(&pool, &pools!.stopTimeUpdates) }
    let isFirstRun = !updates.isPending
    if isFirstRun {
      updates.start = pool.count
      updates.end = pool.count
    } else if updates.end != pool.count {
      // (Not expected, see above; kept correct all the same.) Moved to the end of the pool.
      let earlier = Array(pool[updates.start..<updates.end])
      updates.start = pool.count
      pool.append(contentsOf: earlier)
      updates.end = pool.count
    }
    let tag = messageTag(forKey: key)
    var capacity = 1
    if isFirstRun {
      capacity = try spendRun(tag, from: .stopTimeUpdate)  // all, before any is allocated
    } else {
      try spendElement(tag, from: .stopTimeUpdate)
    }
    let first = pool.count
    let needed = first &+ capacity
    if pool.capacity < needed {
      // Room for the whole feed's, at once: moving a large pool to a larger one costs more than
      // decoding it. The first trip update's share of what is left of the input, with half as
      // much again to spare, says about how many there are (each takes at least 2 bytes);
      // growth doubles beyond that.
      let span = Swift.max(1, end &- tag.offset)
      let left = Swift.max(span, bytes.count &- tag.offset)
      var estimate = needed
      if first == 0 {
        estimate = Swift.min(capacity &* (left / span) &* 3 / 2 &+ capacity, left / 2)
        estimate = Swift.min(estimate, stopTimeUpdateBudget &+ capacity)
      }
      pool.reserveCapacity(Swift.max(needed, estimate, pool.capacity &* 2))
    }
    for _ in 0..<capacity { pool.append(TripUpdate.StopTimeUpdate()) }
    let indexBase = first &- updates.start  // the first one's index within the trip update
    let decoded = try pool.withUnsafeMutableBufferPointer { buffer throws(WireError) in
      try decodeRun(key: key, name, first: tag, upTo: capacity, into: buffer, at: first, indexBase: indexBase)
    }
    if decoded < capacity { pool.removeLast(capacity &- decoded) }  // more of them later
    updates.end = pool.count
  }

  /// Gives a trip update decoded on its own (not within a feed) its stop time updates: the
  /// pool, or a copy of its part of it.
  mutating func attachPooledStopTimeUpdates(to update: inout TripUpdate) {
    guard update.stopTimeUpdates.isPending, pools != nil else { return }
    let range = update.stopTimeUpdates.start..<update.stopTimeUpdates.end
    if range == pools!.stopTimeUpdates.indices {
      var elements: [TripUpdate.StopTimeUpdate] = []
      swap(&elements, &pools!.stopTimeUpdates)
      update.stopTimeUpdates.base = elements
    } else {
      update.stopTimeUpdates = TripUpdate.StopTimeUpdates(Array(pools!.stopTimeUpdates[range]))
    }
  }
}

/// What the reader holds while a feed is decoded: its trip updates and vehicle positions, and
/// the stop time updates of all its trip updates, each decoded in place at the end of its pool.
struct PayloadPools {
  var tripUpdates: [TripUpdate] = []
  var vehicles: [VehiclePosition] = []
  var stopTimeUpdates: [TripUpdate.StopTimeUpdate] = []

  /// The trip updates and vehicle positions as a store; nil when there are none.
  func store() -> EntityPayloads? {
    guard !tripUpdates.isEmpty || !vehicles.isEmpty else { return nil }
    return EntityPayloads(tripUpdates: tripUpdates, vehicles: vehicles)
  }
}
