import SQLite

/// Writes the router's arrays at ingest (`routing_index`, see `RoutingIndex`), and each
/// pattern's trips by first departure (`patterns.starts`) for departure queries: the network's
/// connected parts, and for each its stops' footpaths and its patterns with their stops and
/// their trips in order of first departure, so that a journey search reads the part it can use
/// in one pass instead of scanning every pattern, trip and footpath of the feed.
///
/// Two stops are in one part when a pattern calls at both, a footpath or transfers.txt links
/// them, or one is the other's station: no journey leaves its part (rides stay on a pattern,
/// walks on footpaths and transfers, and a station means its platforms).
enum RoutingIndexBuilder {
  /// Builds the index from the tables already loaded (stops, patterns, pattern_stops, trips,
  /// trip_times, footpaths, transfers) and writes it into `routing_index`.
  /// - Complexity: one pass over each of those tables, O(trips log trips) to sort.
  static func build(in db: Connection) throws {
    let slots = Int(try db.scalarInt("SELECT coalesce(max(stop_idx), -1) + 1 FROM stops") ?? 0)
    var parts = UnionFind(count: slots)

    let stations = try db.prepare("SELECT stop_idx, parent_idx FROM stops WHERE parent_idx IS NOT NULL")
    while try stations.step() {
      let idx = Int(stations.int64(0)), parent = Int(stations.int64(1))
      if idx >= 0, idx < slots, parent >= 0, parent < slots { parts.union(idx, parent) }
    }

    // Patterns: their route's type, longest trip, stops and boarding flags.
    var routeTypes: [Int64: Int32] = [:]
    let routes = try db.prepare("SELECT route_idx, route_type FROM routes")
    while try routes.step() { routeTypes[routes.int64(0)] = Int32(clamping: routes.int64(1)) }
    var patterns: [Int64: RoutingIndex.Pattern] = [:]
    let patternSelect = try db.prepare("SELECT pattern_idx, route_idx, max_span FROM patterns")
    while try patternSelect.step() {
      let pattern = patternSelect.int64(0)
      patterns[pattern] = RoutingIndex.Pattern(
        pattern: pattern, routeType: routeTypes[patternSelect.int64(1)] ?? 3, maxSpan: Int32(clamping: patternSelect.int64(2)))
    }
    let patternStops = try db.prepare(
      "SELECT pattern_idx, stop_idx, pickup_type, drop_off_type FROM pattern_stops ORDER BY pattern_idx, position")
    while try patternStops.step() {
      let pattern = patternStops.int64(0)
      let stop = Int(patternStops.int64(1))
      guard patterns[pattern] != nil, stop >= 0, stop < slots else { continue }
      if let first = patterns[pattern]!.stops.first { parts.union(Int(first), stop) }
      patterns[pattern]!.stops.append(Int32(stop))
      patterns[pattern]!.canBoard.append(patternStops.int(2) != 1)
      patterns[pattern]!.canAlight.append(patternStops.int(3) != 1)
    }

    // Trips: service, first departure and last arrival, by pattern in departure order.
    let tripSlots = Int(try db.scalarInt("SELECT coalesce(max(trip_idx), -1) + 1 FROM trips") ?? 0)
    var services = [Int32](repeating: -1, count: tripSlots)
    let tripSelect = try db.prepare("SELECT trip_idx, service_idx FROM trips")
    while try tripSelect.step() {
      let trip = Int(tripSelect.int64(0))
      if trip >= 0 && trip < tripSlots { services[trip] = Int32(clamping: tripSelect.int64(1)) }
    }
    let times = try db.prepare(
      "SELECT trip_idx, pattern_idx, first_departure, last_arrival FROM trip_times WHERE first_departure IS NOT NULL")
    while try times.step() {
      let pattern = times.int64(1)
      guard patterns[pattern] != nil else { continue }
      let trip = times.int64(0)
      patterns[pattern]!.trips.append(
        RoutingIndex.Trip(
          trip: Int32(clamping: trip), service: trip >= 0 && trip < Int64(tripSlots) ? services[Int(trip)] : -1,
          firstDeparture: Int32(clamping: times.int64(2)),
          lastArrival: times.isNull(3) ? Int32.max : Int32(clamping: times.int64(3))))
    }

    // Walks: footpaths (in key order: per stop, a range of two flat arrays), then
    // transfers.txt (which may link stops farther apart).
    var pathStart = [Int32](repeating: 0, count: slots + 1)
    var pathTo: [Int32] = [], pathMeters: [Int32] = []
    let pathSelect = try db.prepare("SELECT from_stop_idx, to_stop_idx, distance_m FROM footpaths ORDER BY from_stop_idx, to_stop_idx")
    while try pathSelect.step() {
      let from = Int(pathSelect.int64(0)), to = Int(pathSelect.int64(1))
      guard from >= 0, from < slots, to >= 0, to < slots else { continue }
      parts.union(from, to)
      pathStart[from + 1] += 1
      pathTo.append(Int32(to))
      pathMeters.append(Int32(clamping: pathSelect.int64(2)))
    }
    for stop in 0..<slots { pathStart[stop + 1] += pathStart[stop] }
    let transfers = try db.prepare(
      """
      SELECT a.stop_idx, b.stop_idx FROM transfers t JOIN stops a ON a.stop_id = t.from_stop_id
      JOIN stops b ON b.stop_id = t.to_stop_id WHERE t.transfer_type != 3
      """)
    while try transfers.step() {
      let from = Int(transfers.int64(0)), to = Int(transfers.int64(1))
      if from >= 0, from < slots, to >= 0, to < slots { parts.union(from, to) }
    }

    // Parts with a pattern get dense numbers; a stop in no such part is -1 (nothing to ride).
    var number: [Int: Int32] = [:]
    for pattern in patterns.keys.sorted() {
      guard let first = patterns[pattern]!.stops.first else { continue }
      let root = parts.find(Int(first))
      if number[root] == nil { number[root] = Int32(number.count) }
    }
    var partOfStop = [Int32](repeating: -1, count: slots)
    var stopsOfPart = [[Int32]](repeating: [], count: number.count)
    for stop in 0..<slots {
      guard let part = number[parts.find(stop)] else { continue }
      partOfStop[stop] = part
      stopsOfPart[Int(part)].append(Int32(stop))
    }
    var patternsOfPart = [[Int64]](repeating: [], count: number.count)
    for pattern in patterns.keys.sorted() {
      guard let first = patterns[pattern]!.stops.first, let part = number[parts.find(Int(first))] else { continue }
      patternsOfPart[Int(part)].append(pattern)
    }

    // Each pattern's trips by first departure, for departure queries (`patterns.starts`).
    let starts = try db.prepare("UPDATE patterns SET starts = ? WHERE pattern_idx = ?")
    for pattern in patterns.keys.sorted() {
      let trips = patterns[pattern]!.trips.sorted { ($0.firstDeparture, $0.trip) < ($1.firstDeparture, $1.trip) }
      starts.reset()
      starts.bindBlob(RoutingIndex.bytes(trips.flatMap { [$0.firstDeparture, $0.trip, $0.service] }), at: 1)
      starts.bind(pattern, at: 2)
      try starts.run()
    }

    let insert = try db.prepare("INSERT INTO routing_index (part, data) VALUES (?, ?)")
    insert.bind(-1, at: 1)
    insert.bindBlob(RoutingIndex.encodeStopParts(partOfStop), at: 2)
    try insert.run()
    for part in 0..<number.count {
      var written: [RoutingIndex.Pattern] = []
      for pattern in patternsOfPart[part] {
        var entry = patterns[pattern]!
        entry.trips.sort { ($0.firstDeparture, $0.trip) < ($1.firstDeparture, $1.trip) }
        written.append(entry)
      }
      let walks = stopsOfPart[part].map { stop in
        (stop, (Int(pathStart[Int(stop)])..<Int(pathStart[Int(stop) + 1])).map { (to: pathTo[$0], meters: pathMeters[$0]) })
      }
      insert.reset()
      insert.bind(Int64(part), at: 1)
      insert.bindBlob(RoutingIndex.encodePart(stops: walks, patterns: written), at: 2)
      try insert.run()
    }
  }
}

/// Disjoint sets of `0..<count`, with path halving and union by size.
struct UnionFind {
  private var parent: [Int32]
  private var size: [Int32]

  init(count: Int) {
    parent = (0..<count).map { Int32($0) }
    size = [Int32](repeating: 1, count: count)
  }

  mutating func find(_ element: Int) -> Int {
    var x = element
    while Int(parent[x]) != x {
      parent[x] = parent[Int(parent[x])]
      x = Int(parent[x])
    }
    return x
  }

  mutating func union(_ a: Int, _ b: Int) {
    var ra = find(a), rb = find(b)
    guard ra != rb else { return }
    if size[ra] < size[rb] { swap(&ra, &rb) }
    parent[rb] = Int32(ra)
    size[ra] += size[rb]
  }
}
