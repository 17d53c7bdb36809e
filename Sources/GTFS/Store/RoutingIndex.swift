import SQLite

/// The router's arrays as ingest stores them (`routing_index`, built by `RoutingIndexBuilder`):
/// one row per connected part of the network, and row -1 mapping each stop to its part.
///
/// A journey never leaves the part its first stop is in, so `transit plan` reads only the
/// parts its two ends reach: on a country's timetable of separate regions, one region's
/// patterns, trips and footpaths instead of all of them (2.3 s to gather the whole of a
/// 15 M-row feed from the tables).
///
/// Each row is little-endian int32 words: a header (magic, format version, then the counts),
/// then the values. The index sits in the timetable file, so it is replaced with it, atomically;
/// a row of another format or size is refused when read (`nil`) and the caller builds the
/// network from the tables instead.
enum RoutingIndex {
  /// "TRIX" little-endian.
  static let magic: Int32 = 0x5849_5254
  /// Bumped when the words change; a row of another format is not read.
  static let formatVersion: Int32 = 1

  /// A trip as the router's loader needs it; `lastArrival` is `Int32.max` when unknown.
  struct Trip: Equatable {
    var trip: Int32
    var service: Int32
    var firstDeparture: Int32
    var lastArrival: Int32
  }

  /// A pattern: its stops, where one may board and alight, its trips by first departure.
  struct Pattern: Equatable {
    var pattern: Int64
    var routeType: Int32
    var maxSpan: Int32
    var stops: [Int32] = []
    var canBoard: [Bool] = []
    var canAlight: [Bool] = []
    var trips: [Trip] = []
  }

  /// One part: its stops with their footpaths (to, metres), and its patterns.
  struct Part: Equatable {
    var stops: [Int32] = []
    var footpaths: [[(to: Int32, meters: Int32)]] = []
    var patterns: [Pattern] = []

    static func == (a: Part, b: Part) -> Bool {
      a.stops == b.stops && a.patterns == b.patterns
        && a.footpaths.map { $0.map(\.to) } == b.footpaths.map { $0.map(\.to) }
        && a.footpaths.map { $0.map(\.meters) } == b.footpaths.map { $0.map(\.meters) }
    }
  }

  // MARK: - Encoding

  static func bytes(_ words: [Int32]) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: words.count * 4)
    for (index, word) in words.enumerated() {
      let value = UInt32(bitPattern: word)
      bytes[index * 4] = UInt8(value & 0xFF)
      bytes[index * 4 + 1] = UInt8((value >> 8) & 0xFF)
      bytes[index * 4 + 2] = UInt8((value >> 16) & 0xFF)
      bytes[index * 4 + 3] = UInt8(value >> 24)
    }
    return bytes
  }

  /// Row -1: magic, version, stop slots, then each stop's part (-1: none).
  static func encodeStopParts(_ parts: [Int32]) -> [UInt8] {
    bytes([magic, formatVersion, Int32(parts.count)] + parts)
  }

  /// A part's row: magic, version, stop count, pattern count; per stop its index, its
  /// footpath count and (to, metres) pairs; per pattern its index (two words), route type,
  /// longest trip, width, trip count, stops, flags (bit 0 board, bit 1 alight), and per trip
  /// (trip, service, first departure, last arrival).
  static func encodePart(stops: [(Int32, [(to: Int32, meters: Int32)])], patterns: [Pattern]) -> [UInt8] {
    var words: [Int32] = [magic, formatVersion, Int32(stops.count), Int32(patterns.count)]
    for (stop, paths) in stops {
      words.append(stop)
      words.append(Int32(paths.count))
      for path in paths {
        words.append(path.to)
        words.append(path.meters)
      }
    }
    for pattern in patterns {
      words += [
        Int32(truncatingIfNeeded: pattern.pattern), Int32(truncatingIfNeeded: pattern.pattern >> 32), pattern.routeType,
        pattern.maxSpan, Int32(pattern.stops.count), Int32(pattern.trips.count),
      ]
      words += pattern.stops
      for index in pattern.stops.indices {
        words.append((pattern.canBoard[index] ? 1 : 0) | (pattern.canAlight[index] ? 2 : 0))
      }
      for trip in pattern.trips { words += [trip.trip, trip.service, trip.firstDeparture, trip.lastArrival] }
    }
    return bytes(words)
  }

  // MARK: - Decoding

  /// Reads words from a row, refusing to read past its end.
  private struct Reader {
    let raw: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset == raw.count }

    mutating func next() -> Int32? {
      guard offset + 4 <= raw.count else { return nil }
      defer { offset += 4 }
      return Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    /// A count: not negative, and no more than the words left could hold at `wordsEach`.
    mutating func count(wordsEach: Int) -> Int? {
      guard let value = next(), value >= 0, Int(value) * max(1, wordsEach) * 4 <= raw.count - offset else { return nil }
      return Int(value)
    }

    mutating func header() -> Bool {
      let magic = next(), version = next()
      return magic == RoutingIndex.magic && version == RoutingIndex.formatVersion
    }
  }

  /// Row -1's parts per stop; nil when the row is of another format or malformed.
  static func decodeStopParts(_ raw: UnsafeRawBufferPointer) -> [Int32]? {
    var reader = Reader(raw: raw)
    guard reader.header(), let count = reader.count(wordsEach: 1) else { return nil }
    var parts = [Int32](repeating: -1, count: count)
    for index in 0..<count {
      guard let part = reader.next() else { return nil }
      parts[index] = part
    }
    return reader.isAtEnd ? parts : nil
  }

  /// A part's row; nil when it is of another format or malformed.
  static func decodePart(_ raw: UnsafeRawBufferPointer) -> Part? {
    var reader = Reader(raw: raw)
    guard reader.header(), let stopCount = reader.count(wordsEach: 2), let patternCount = reader.count(wordsEach: 6) else { return nil }
    var part = Part()
    part.stops.reserveCapacity(stopCount)
    part.footpaths.reserveCapacity(stopCount)
    for _ in 0..<stopCount {
      guard let stop = reader.next(), let count = reader.count(wordsEach: 2) else { return nil }
      var paths: [(to: Int32, meters: Int32)] = []
      paths.reserveCapacity(count)
      for _ in 0..<count {
        guard let to = reader.next(), let meters = reader.next() else { return nil }
        paths.append((to, meters))
      }
      part.stops.append(stop)
      part.footpaths.append(paths)
    }
    part.patterns.reserveCapacity(patternCount)
    for _ in 0..<patternCount {
      guard let low = reader.next(), let high = reader.next(), let routeType = reader.next(), let maxSpan = reader.next(),
        let width = reader.count(wordsEach: 2), let tripCount = reader.count(wordsEach: 4)
      else { return nil }
      var pattern = Pattern(
        pattern: Int64(high) << 32 | Int64(UInt32(bitPattern: low)), routeType: routeType, maxSpan: maxSpan)
      for _ in 0..<width {
        guard let stop = reader.next() else { return nil }
        pattern.stops.append(stop)
      }
      for _ in 0..<width {
        guard let flags = reader.next() else { return nil }
        pattern.canBoard.append(flags & 1 != 0)
        pattern.canAlight.append(flags & 2 != 0)
      }
      pattern.trips.reserveCapacity(tripCount)
      for _ in 0..<tripCount {
        guard let trip = reader.next(), let service = reader.next(), let first = reader.next(), let last = reader.next() else {
          return nil
        }
        pattern.trips.append(Trip(trip: trip, service: service, firstDeparture: first, lastArrival: last))
      }
      part.patterns.append(pattern)
    }
    return reader.isAtEnd ? part : nil
  }
}

// MARK: - Reading

extension FeedReader {
  /// Each stop's part of the network (row -1 of `routing_index`), read once; nil when the
  /// index is missing or of another format (the network is then built from the tables).
  func routingStopParts() -> [Int32]? {
    if let known = stopPartsCache { return known }
    guard let select = try? db.cached("SELECT data FROM routing_index WHERE part = -1"), (try? select.step()) == true else {
      return nil
    }
    defer { select.reset() }
    let parts = select.withBlob(0) { RoutingIndex.decodeStopParts($0) }
    stopPartsCache = parts
    return parts
  }

  /// The parts of the network `stops` are in (a stop in none adds nothing); nil when the
  /// index cannot be read.
  func routingParts(of stops: [Int64]) -> Set<Int32>? {
    guard let parts = routingStopParts() else { return nil }
    var result = Set<Int32>()
    for stop in stops where stop >= 0 && stop < Int64(parts.count) && parts[Int(stop)] >= 0 { result.insert(parts[Int(stop)]) }
    return result
  }

  /// Part `part`'s row; nil when missing or malformed.
  func routingPart(_ part: Int32) throws -> RoutingIndex.Part? {
    let select = try db.cached("SELECT data FROM routing_index WHERE part = ?")
    select.reset()
    select.bind(Int64(part), at: 1)
    guard try select.step() else { return nil }
    defer { select.reset() }
    return select.withBlob(0) { RoutingIndex.decodePart($0) }
  }
}
