import SQLite

/// What a query can look a feed up by, in a Bloom filter that ingest stores in the feed's own
/// timetable (`key_filter`), so that with many feeds held a lookup skips, without any SQL, the
/// feeds that cannot hold its key (issue 18): a stop_id, a stop_code, a whole folded name, or
/// the start of a folded name word.
///
/// A filter never says no to a key it was given; it says yes to about 1 % of the others, which
/// are then asked as before. It lives in the timetable it describes and is replaced with it
/// (the file is swapped whole by rename), so it can never describe another version of the
/// feed. A timetable made before it has no `key_filter`: every lookup asks the feed.
struct FeedKeyFilter: Equatable {
  /// What a key is.
  enum Kind: UInt8 {
    /// `stops.stop_id`, as stored (any location_type).
    case stopID = 1
    /// `stops.code`, as stored.
    case code = 2
    /// A whole folded name of a stop or station (`search_names.folded`).
    case name = 3
    /// A start of a folded name word (`search_words.word`), at every Unicode scalar.
    case wordStart = 4
    /// `trips.trip_id`, as stored: in a filter of its own (`trip_filter`), read only by what
    /// looks trips up by the id a realtime feed gives.
    case tripID = 5
  }

  /// A key's two hashes, worked out once however many feeds are asked.
  struct Probe {
    let first: UInt64
    let step: UInt64

    /// FNV-1a over the kind and the key's UTF-8 bytes, then two finalising mixes: the same
    /// answer in every process and on every machine (it is stored).
    init(_ kind: Kind, _ key: String) {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      hash = (hash ^ UInt64(kind.rawValue)) &* 0x0000_0100_0000_01b3
      for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      first = Self.mix(hash)
      step = Self.mix(first ^ 0x9e37_79b9_7f4a_7c15) | 1
    }

    /// MurmurHash3's 64-bit finaliser.
    static func mix(_ value: UInt64) -> UInt64 {
      var x = value
      x ^= x >> 33
      x = x &* 0xff51_afd7_ed55_8ccd
      x ^= x >> 33
      x = x &* 0xc4ce_b9fe_1a85_ec53
      x ^= x >> 33
      return x
    }
  }

  /// The bits, 8 to a byte, as stored (bit i is bit i % 8 of byte i / 8).
  private(set) var bytes: [UInt8]
  /// Bits tested per key.
  let hashes: Int

  /// An empty filter for about `capacity` keys: 10 bits and 7 hashes a key (1 % false yes).
  init(capacity: Int) {
    bytes = [UInt8](repeating: 0, count: max(8, (max(capacity, 1) * 10 + 7) / 8))
    hashes = 7
  }

  /// A filter as stored (read as is: no conversion, since a process may read one per feed).
  init?(bytes: [UInt8], hashes: Int) {
    guard !bytes.isEmpty, (1...32).contains(hashes) else { return nil }
    self.bytes = bytes
    self.hashes = hashes
  }

  mutating func insert(_ probe: Probe) {
    let count = UInt64(bytes.count * 8)
    for index in 0..<UInt64(hashes) {
      let bit = (probe.first &+ index &* probe.step) % count
      bytes[Int(bit / 8)] |= 1 << UInt8(bit % 8)
    }
  }

  /// False only when the key was never inserted.
  func mayContain(_ probe: Probe) -> Bool {
    let count = UInt64(bytes.count * 8)
    for index in 0..<UInt64(hashes) {
      let bit = (probe.first &+ index &* probe.step) % count
      if bytes[Int(bit / 8)] & (1 << UInt8(bit % 8)) == 0 { return false }
    }
    return true
  }

  static let table = "CREATE TABLE key_filter (bits BLOB NOT NULL, hashes INTEGER NOT NULL, keys INTEGER NOT NULL);"

  /// Builds the filter of `db`'s stops and search tables (`StopSearchTables`, made first) and
  /// stores it as the one row of `key_filter`.
  /// - Complexity: one pass over the stops, the folded names and the name words.
  static func build(in db: Connection) throws {
    var probes: [Probe] = []
    let ids = try db.prepare("SELECT stop_id, code FROM stops")
    while try ids.step() {
      probes.append(Probe(.stopID, ids.text(0)))
      if let code = ids.optionalText(1) { probes.append(Probe(.code, code)) }
    }
    let names = try db.prepare("SELECT folded FROM search_names")
    while try names.step() { probes.append(Probe(.name, names.text(0))) }
    let words = try db.prepare("SELECT word FROM search_words")
    while try words.step() {
      var start = ""
      for scalar in words.text(0).unicodeScalars {
        start.unicodeScalars.append(scalar)
        probes.append(Probe(.wordStart, start))
      }
    }
    try store(probes, as: "key_filter", in: db)
  }

  /// The filter stored in `db`; nil when it has none (a timetable made before it).
  static func read(from db: Connection) -> FeedKeyFilter? { read("key_filter", from: db) }

  /// The filter of every `trips.trip_id` (issue 36), stored as the one row of `trip_filter`:
  /// a realtime feed the timetable does not match names hundreds of trips it does not hold,
  /// and each then costs a few hashes instead of an index probe. Kept apart from `key_filter`,
  /// which the catalog holds for every feed and which trip ids would make several times larger.
  /// - Complexity: one pass over `trips`.
  static func buildTrips(in db: Connection) throws {
    var probes: [Probe] = []
    let ids = try db.prepare("SELECT trip_id FROM trips")
    while try ids.step() { probes.append(Probe(.tripID, ids.text(0))) }
    try store(probes, as: "trip_filter", in: db)
  }

  /// The trip filter stored in `db`; nil when it has none (a timetable made before it: every
  /// trip id is then looked up).
  static func readTrips(from db: Connection) -> FeedKeyFilter? { read("trip_filter", from: db) }

  private static func store(_ probes: [Probe], as table: String, in db: Connection) throws {
    var filter = FeedKeyFilter(capacity: probes.count)
    for probe in probes { filter.insert(probe) }
    try db.execute("CREATE TABLE \(table) (bits BLOB NOT NULL, hashes INTEGER NOT NULL, keys INTEGER NOT NULL);")
    let insert = try db.prepare("INSERT INTO \(table) (bits, hashes, keys) VALUES (?, ?, ?)")
    insert.bindBlob(filter.bytes, at: 1)
    insert.bind(filter.hashes, at: 2)
    insert.bind(probes.count, at: 3)
    try insert.run()
  }

  private static func read(_ table: String, from db: Connection) -> FeedKeyFilter? {
    guard db.hasTable(table),
      let select = try? db.prepare("SELECT bits, hashes FROM \(table)"), (try? select.step()) == true
    else { return nil }
    return FeedKeyFilter(bytes: select.blob(0), hashes: select.int(1))
  }
}
