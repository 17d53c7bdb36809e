import FoundationEssentials
import Glibc
import HostSystem
import SQLite
import TransitModel

/// How stop_times.txt is stored (see `Schema`): each trip's rows, read together, become a
/// pattern (shared by the trips that call at the same stops the same way) and the trip's times.
extension FeedImporter {
  struct PatternKey: Hashable {
    var route: Int64
    var bytes: [UInt8]

    /// The bytes in one call: `[UInt8]`'s own hashing feeds the hasher a byte at a time.
    func hash(into hasher: inout Hasher) {
      hasher.combine(route)
      hasher.combine(bytes.count)
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }

  /// The number of a stop_times headsign already numbered by the parser (`takeHeadsigns`):
  /// every headsign stored was numbered when its row was read.
  func headsignNumber(_ headsign: String) -> UInt32 {
    guard let number = stopHeadsigns[headsign] else { preconditionFailure("headsign '\(headsign)' stored but never numbered") }
    return number
  }

  /// Whether two byte arrays are equal (one memcmp).
  static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { a in b.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
  }

  /// The key of `rows`' pattern, written into `bytes` (emptied first, its storage reused).
  func patternKey(route: Int64, _ rows: [PendingStopTime], into bytes: inout [UInt8]) {
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(rows.count * 6)
    func varint(_ value: UInt64) { bytes.appendVarint(value) }
    for row in rows {
      varint(UInt64(bitPattern: row.stop))
      varint(UInt64(bitPattern: row.sequence))
      // pickup and drop-off 0...3 (2 bits each), timepoint none/0/1, then what follows.
      var flags = UInt8(row.pickup & 3) | UInt8(row.dropOff & 3) << 2
      if let timepoint = row.timepoint { flags |= UInt8(1 + (timepoint & 1)) << 4 }
      if row.headsign != nil { flags |= 0x40 }
      if row.distance != nil { flags |= 0x80 }
      bytes.append(flags)
      if let headsign = row.headsign { varint(UInt64(headsign)) }
      if let distance = row.distance {
        let bits = distance.bitPattern  // little-endian, a byte at a time (no generic append)
        for shift in stride(from: UInt64(0), to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
      }
    }
  }

  /// Stores one trip: in stop_sequence order, refusing a repeated stop_sequence with its line,
  /// with untimed stops filled in, as its pattern and its times. Empties `rows`; returns how
  /// many stop times it stored.
  /// The line of the first row (in stop_sequence order) whose arrival is earlier than the time
  /// before it on the trip, or whose departure is earlier than its arrival; nil when the times
  /// never go backwards.
  static func firstBackwardsLine(_ rows: [PendingStopTime]) -> Int? {
    var latest = Int32.min
    for row in rows {
      if let arrival = row.arrival {
        if arrival < latest { return row.line }
        latest = arrival
      }
      if let departure = row.departure {
        if departure < latest { return row.line }
        latest = departure
      }
    }
    return nil
  }

  func storeTrip(_ trip: Int64, _ rows: inout [PendingStopTime], revisited: Bool) throws -> Int {
    defer { rows.removeAll(keepingCapacity: true) }
    let started = MonotonicClock.nanoseconds()
    let newRows = rows.count
    if revisited {
      // The trip's rows are split across the file: merge with what was stored before.
      rows += try storedRows(of: trip)
      try db.execute("DELETE FROM trip_times WHERE trip_idx = \(trip)")
    }
    if !zip(rows, rows.dropFirst()).allSatisfy({ $0.sequence < $1.sequence }) {
      rows.sort { ($0.sequence, $0.line) < ($1.sequence, $1.line) }
      for index in rows.indices.dropFirst() where rows[index].sequence == rows[index - 1].sequence {
        let line = max(rows[index].line, rows[index - 1].line)
        throw GTFSError(
          file: "stop_times.txt", line: line,
          .duplicateStopSequence(tripID: tripIDs[Int(trip) - 1], sequence: Int(rows[index].sequence)))
      }
    }
    let filled = Self.interpolate(&rows)
    // Times that run backwards would make a ride of minus 20 minutes: the trip is left out.
    if let line = Self.firstBackwardsLine(rows) {
      if summary.backwardsTrips.count == 0 { summary.backwardsTrips.firstLine = line }
      summary.backwardsTrips.count += 1
      return 0
    }
    summary.interpolatedStopTimes += filled

    // Consecutive trips mostly share their pattern: compared with the previous trip's key
    // (bytes, one memcmp) before hashing. The key's bytes are written into a buffer kept from
    // trip to trip, copied only for a new pattern.
    let route = tripRoutes[Int(trip) - 1]
    var keyBytes = patternKeyBuffer
    patternKeyBuffer = []
    patternKey(route: route, rows, into: &keyBytes)
    let pattern: Int64
    if let last = lastPattern, last.key.route == route, Self.sameBytes(last.key.bytes, keyBytes) {
      pattern = last.pattern
    } else {
      let key = PatternKey(route: route, bytes: keyBytes)  // shares the buffer (copied on the next write)
      if let known = patterns[key] {
        pattern = known
      } else {
        pattern = try insertPattern(key, rows)
      }
      lastPattern = (key, pattern)
    }
    patternKeyBuffer = keyBytes
    let patternFound = MonotonicClock.nanoseconds()
    patternNanoseconds += patternFound - started
    defer { tripTimesNanoseconds += MonotonicClock.nanoseconds() - patternFound }

    var times = [UInt8](repeating: 0, count: rows.count * 8)
    var interpolated: [UInt8]? = nil
    var first: Int32?, last: Int32?
    times.withUnsafeMutableBytes { times in
      for (position, row) in rows.enumerated() {
        times.storeBytes(of: (row.arrival ?? -1).littleEndian, toByteOffset: position * 8, as: Int32.self)
        times.storeBytes(of: (row.departure ?? -1).littleEndian, toByteOffset: position * 8 + 4, as: Int32.self)
        if first == nil, let time = row.departure { first = time }
        if let time = row.arrival { last = time }
      }
    }
    for (position, row) in rows.enumerated() where row.isInterpolated {
      if interpolated == nil { interpolated = [UInt8](repeating: 0, count: (rows.count + 7) / 8) }
      interpolated![position / 8] |= 1 << UInt8(position % 8)
    }
    if let first, let last, last - first > patternSpans[Int(pattern) - 1] {
      patternSpans[Int(pattern) - 1] = last - first
    }
    if let first {
      patternOffsets[Int(pattern) - 1].withUnsafeMutableBufferPointer { offsets in
        for (position, row) in rows.enumerated() where position * 2 + 1 < offsets.count {
          if let time = row.arrival {
            offsets[position * 2] = min(offsets[position * 2], time - first)
            offsets[position * 2 + 1] = max(offsets[position * 2 + 1], time - first)
          }
          if let time = row.departure {
            offsets[position * 2] = min(offsets[position * 2], time - first)
            offsets[position * 2 + 1] = max(offsets[position * 2 + 1], time - first)
          }
        }
      }
    }
    let insert = try db.cached(
      "INSERT INTO trip_times (trip_idx, pattern_idx, first_departure, last_arrival, times, interpolated) VALUES (?,?,?,?,?,?)")
    insert.bind(trip, at: 1)
    insert.bind(pattern, at: 2)
    insert.bind(first.map(Int64.init), at: 3)
    insert.bind(last.map(Int64.init), at: 4)
    insert.bindBlob(times, at: 5)
    if let interpolated { insert.bindBlob(interpolated, at: 6) } else { insert.bindNull(at: 6) }
    try insert.run()
    return newRows
  }

  func insertPattern(_ key: PatternKey, _ rows: [PendingStopTime]) throws -> Int64 {
    let insert = try db.cached("INSERT INTO patterns (route_idx, stop_count) VALUES (?, ?)")
    insert.bind(key.route, at: 1)
    insert.bind(rows.count, at: 2)
    try insert.run()
    let pattern = db.lastInsertRowID
    let insertStop = try db.cached(
      "INSERT INTO pattern_stops (pattern_idx, position, stop_idx, stop_sequence, pickup_type, drop_off_type, stop_headsign, timepoint, shape_dist_traveled) VALUES (?,?,?,?,?,?,?,?,?)"
    )
    for (position, stop) in rows.enumerated() {
      insertStop.bind(pattern, at: 1)
      insertStop.bind(position, at: 2)
      insertStop.bind(stop.stop, at: 3)
      insertStop.bind(stop.sequence, at: 4)
      insertStop.bind(stop.pickup, at: 5)
      insertStop.bind(stop.dropOff, at: 6)
      insertStop.bind(stop.headsign.map { headsignTexts[Int($0) - 1] }, at: 7)
      insertStop.bind(stop.timepoint, at: 8)
      insertStop.bind(stop.distance, at: 9)
      try insertStop.run()
    }
    patterns[key] = pattern
    patternSpans.append(0)
    var offsets = [Int32](repeating: Int32.max, count: rows.count * 2)
    for position in rows.indices { offsets[position * 2 + 1] = Int32.min }
    patternOffsets.append(offsets)
    return pattern
  }

  /// The rows stored for `trip` so far, as pending rows (times that were filled in are emptied
  /// again, to be filled in anew with the rest of the trip).
  func storedRows(of trip: Int64) throws -> [PendingStopTime] {
    let select = try db.cached(
      "SELECT ps.stop_idx, ps.stop_sequence, ps.pickup_type, ps.drop_off_type, ps.stop_headsign, ps.timepoint, ps.shape_dist_traveled, tt.times, tt.interpolated FROM trip_times tt JOIN pattern_stops ps USING (pattern_idx) WHERE tt.trip_idx = ? ORDER BY ps.position"
    )
    select.bind(trip, at: 1)
    var rows: [PendingStopTime] = []
    while try select.step() {
      let position = rows.count
      let times = TripTimes(blob: select.blob(7), interpolated: select.blob(8))
      let wasFilledIn = times.isInterpolated(at: position)
      if wasFilledIn { summary.interpolatedStopTimes -= 1 }
      rows.append(
        PendingStopTime(
          sequence: select.int64(1), stop: select.int64(0), arrival: wasFilledIn ? nil : times.arrival(at: position),
          departure: wasFilledIn ? nil : times.departure(at: position), headsign: select.optionalText(4).map(headsignNumber),
          pickup: select.int64(2), dropOff: select.int64(3), timepoint: select.optionalInt(5),
          distance: select.optionalDouble(6), line: 0))
    }
    return rows
  }

  /// Records each pattern's longest trip and its times at each position after the first
  /// departure (`patterns.offsets`: per position the least and the greatest, little-endian
  /// int32, -1 and -1 where no trip has a time), which bound departure queries.
  func storePatternSpans() throws {
    let update = try db.cached("UPDATE patterns SET max_span = ?, offsets = ? WHERE pattern_idx = ?")
    for (index, span) in patternSpans.enumerated() {
      let offsets = patternOffsets[index]
      var bytes = [UInt8](repeating: 0, count: offsets.count * 4)
      for position in 0..<(offsets.count / 2) {
        let known = offsets[position * 2] <= offsets[position * 2 + 1]
        for (slot, value) in [offsets[position * 2], offsets[position * 2 + 1]].enumerated() {
          let word = UInt32(bitPattern: known ? value : -1)
          for byte in 0..<4 { bytes[position * 8 + slot * 4 + byte] = UInt8((word >> (8 * UInt32(byte))) & 0xFF) }
        }
      }
      update.bind(Int64(max(span, 0)), at: 1)
      update.bindBlob(bytes, at: 2)
      update.bind(Int64(index + 1), at: 3)
      try update.run()
    }
  }

  /// Fills in times of stops that have none between two timed stops of the same trip, by
  /// `shape_dist_traveled` when every stop involved has it, else evenly by stop count (GTFS:
  /// "arrival_time … is required … for timepoints; consumers may interpolate the others").
  /// Marks the rows it filled in and returns how many; leading and trailing untimed stops stay
  /// empty.
  static func interpolate(_ rows: inout [PendingStopTime]) -> Int {
    var filled = 0
    var previous: Int?
    for index in rows.indices where rows[index].departure != nil {
      if let from = previous, index - from > 1, let start = rows[from].departure, let end = rows[index].arrival {
        let startDistance = rows[from].distance, endDistance = rows[index].distance
        let byDistance =
          startDistance != nil && endDistance != nil && endDistance! > startDistance!
          && rows[(from + 1)..<index].allSatisfy { $0.distance != nil }
        for middle in (from + 1)..<index {
          let fraction: Double
          if byDistance {
            fraction = (rows[middle].distance! - startDistance!) / (endDistance! - startDistance!)
          } else {
            fraction = Double(middle - from) / Double(index - from)
          }
          let value = start + Int32((Double(end - start) * min(max(fraction, 0), 1)).rounded())
          rows[middle].arrival = value
          rows[middle].departure = value
          rows[middle].isInterpolated = true
          filled += 1
        }
      }
      previous = index
    }
    return filled
  }
}
