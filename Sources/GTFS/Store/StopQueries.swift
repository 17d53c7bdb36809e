import FoundationEssentials
import Glibc
import SQLite
import TransitModel

// MARK: - Public values

/// A stop near a point.
public struct NearbyStop: Sendable, Equatable {
  /// The stop (or, when grouping, the station).
  public var stop: Stop
  /// Great-circle distance from the point asked about.
  public var distanceMeters: Double
  /// The routes calling at it (for a station, at any of its platforms).
  public var routes: [RouteSummary]
}

/// How a search text matched a stop; earlier cases rank first.
public enum StopMatchKind: Int, Sendable, Comparable, CaseIterable {
  /// The text is the stop's code.
  case code
  /// The text is the stop's whole name (ignoring case and accents).
  case name
  /// Every word of the text starts a word of the name ("tallaght sq").
  case words
  /// Every word is close to a word of the name (one or two typing mistakes).
  case typo

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A stop found by `Store.search`.
public struct StopMatch: Sendable, Equatable {
  /// The stop found.
  public var stop: Stop
  /// How the text matched it.
  public var kind: StopMatchKind
  /// From the point searched near, when one was given.
  public var distanceMeters: Double?
}

/// What a STOP argument names.
public enum StopResolution: Sendable, Equatable {
  /// Exactly one stop.
  case found(Stop)
  /// A station complex: the name (or id) fits several stations that are one place.
  case complex(StopComplex)
  /// Several stops fit; the caller lists them.
  case ambiguous([Stop])
  /// Nothing fits; `suggestions` are the closest names.
  case notFound(suggestions: [Stop])
}

/// A route calling at a stop, with where it goes from there.
public struct RouteAtStop: Sendable, Equatable {
  /// The route.
  public var route: RouteSummary
  /// The headsigns shown at this stop (trip or stop headsign, else the last stop's name).
  public var destinations: [String]
}

// MARK: - Store: stops

extension Store {
  /// Resolves a STOP argument: a stop_id (optionally `FEED:stop_id`), else a stop_code, else a
  /// name matching exactly one stop, ignoring case and accents, else the first words of one
  /// stop's name. A station and its platforms sharing a name (or those first words) are the
  /// station: its departures are all of theirs. Stations that are one complex
  /// (`complex(containing:)`) and share the name (or the id, across feeds) are the complex.
  /// - Complexity: unique-index lookups for id, code and whole folded name (`search_names`).
  public func resolveStop(_ text: String) throws -> StopResolution {
    var candidates = feeds
    var key = text
    if let colon = text.firstIndex(of: ":"), let feed = reader(FeedName(String(text[..<colon]))) {
      candidates = [feed]
      key = String(text[text.index(after: colon)...])
    }
    // The key filter skips the feeds that cannot hold the id (here, where the feed is not yet
    // known; a stop already found in its feed is read without it).
    var byID: [Stop] = []
    let idProbe = FeedKeyFilter.Probe(.stopID, key)
    for feed in candidates where feed.mayHold(idProbe) {
      if let idx = try feed.stopIndex(id: key) { byID.append(try feed.stop(idx)!) }
    }
    if byID.count == 1 { return .found(byID[0]) }
    if byID.count > 1 {
      // The same station id in several feeds (place_MLBR): one place when they are one complex.
      // A stop id shared by feeds stays ambiguous: `FEED:stop_id` names the one meant.
      if byID.allSatisfy(\.isStation), let complex = try complex(of: byID, name: nil) { return .complex(complex) }
      return .ambiguous(byID)
    }
    var byCode: [Stop] = []
    for feed in candidates { byCode += try feed.stops(code: key) }
    if byCode.count == 1 { return .found(byCode[0]) }
    if byCode.count > 1 { return .ambiguous(byCode) }
    let keyText = SearchText(key)  // folded once for every feed
    var byName: [Stop] = []
    for feed in candidates { byName += try feed.stops(named: keyText) }
    if byName.count == 1 { return .found(byName[0]) }
    // A station whose platforms share its name is what the name means.
    if let station = try oneStation(byName) { return .found(station) }
    // Stations of that name that are one complex (Times Sq-42 St), in one feed or several.
    if byName.count > 1, let complex = try complex(of: byName, name: byName[0].name) { return .complex(complex) }
    if byName.count > 1 { return .ambiguous(byName) }
    // The name's first words ("Foggy Bottom" for "Foggy Bottom-GWU"), when they name one stop
    // or one station with its platforms.
    var byPrefix: [Stop] = []
    for feed in candidates {
      byPrefix += try feed.stops(matchingWords: keyText, limit: 200).filter { TextFolding.words($0.name).starts(with: keyText.words) }
    }
    if byPrefix.count == 1 { return .found(byPrefix[0]) }
    if let station = try oneStation(byPrefix) { return .found(station) }
    if byPrefix.count > 1, let complex = try complex(of: byPrefix, name: nil) { return .complex(complex) }
    if byPrefix.count > 1 { return .ambiguous(byPrefix) }
    return .notFound(suggestions: try search(key, limit: 5).map(\.stop))
  }

  /// The name words of all feeds held (`SharedVocabulary`), on first use: from
  /// `feeds/catalog.words` when it describes exactly the files held, else read from the
  /// timetables whose words it does not hold and the file rewritten (`VocabularyCatalog`).
  func sharedVocabulary() throws -> SharedVocabulary {
    if let sharedVocabularyCache { return sharedVocabularyCache }
    // The identities taken before any file was read (`init(directory:)`).
    let identities = self.identities.compactMap { $0 }
    guard let feedsDirectory, identities.count == feeds.count else {
      // Opened from files (tests, benchmarks), or a file that could not be seen: nothing kept.
      let unknown = FeedCatalog.Identity(device: 0, inode: 0, size: -1, modified: 0)
      let built = try VocabularyCatalog(feeds, identities: feeds.map { _ in unknown }, reusing: nil).shared
      sharedVocabularyCache = built
      return built
    }
    let kept = VocabularyCatalog.read(from: feedsDirectory)
    if let kept, kept.describes(feeds.map(\.name.rawValue), identities) {
      sharedVocabularyCache = kept.shared
      return kept.shared
    }
    let built = try VocabularyCatalog(feeds, identities: identities, reusing: kept)
    built.write(to: feedsDirectory)
    sharedVocabularyCache = built.shared
    return built.shared
  }

  /// What to type for `stop` so that `resolveStop` finds it (or the station it belongs to): its
  /// name when the name resolves so, else its code, else its id (`FEED:stop_id` when the id
  /// alone is ambiguous). A "did you mean" offers only what then works.
  public func typedName(of stop: Stop) throws -> String {
    func means(_ text: String) throws -> Bool {
      guard case .found(let found) = try resolveStop(text), found.feed == stop.feed else { return false }
      return found.id == stop.id || found.id == stop.parentStation
    }
    if try means(stop.name) { return stop.name }
    if let code = stop.code, !code.isEmpty, try means(code) { return code }
    if try means(stop.id.rawValue) { return stop.id.rawValue }
    return "\(stop.feed.rawValue):\(stop.id.rawValue)"
  }

  /// The station `stops` amount to, when they are one station and (some of) its platforms, of
  /// one feed; nil otherwise.
  func oneStation(_ stops: [Stop]) throws -> Stop? {
    guard stops.count > 1, let feed = stops.first?.feed, stops.allSatisfy({ $0.feed == feed }) else { return nil }
    let stations = Set(stops.map { $0.isStation ? $0.id : $0.parentStation })
    guard stations.count == 1, let id = stations.first ?? nil else { return nil }
    if let station = stops.first(where: { $0.id == id }) { return station }
    guard let station = try stop(id, feed: feed), station.isStation else { return nil }
    return station
  }

  /// The stop `id` of `feed`, if held.
  public func stop(_ id: StopID, feed: FeedName) throws -> Stop? {
    guard let reader = reader(feed), let idx = try reader.stopIndex(id: id.rawValue) else { return nil }
    return try reader.stop(idx)
  }

  /// The platforms (child stops of location_type 0) of a station, by platform code then id.
  public func platforms(of station: Stop) throws -> [Stop] {
    guard let reader = reader(station.feed), let idx = try reader.stopIndex(id: station.id.rawValue) else { return [] }
    return try reader.children(of: idx).filter { $0.locationType == 0 }
  }

  /// The station `stop` belongs to.
  public func parent(of stop: Stop) throws -> Stop? {
    guard let parentID = stop.parentStation else { return nil }
    return try self.stop(parentID, feed: stop.feed)
  }

  /// The routes calling at `stop` (for a station, at any platform), in the feed's route order.
  public func routes(at stop: Stop) throws -> [RouteSummary] {
    guard let reader = reader(stop.feed), let idx = try reader.stopIndex(id: stop.id.rawValue) else { return [] }
    return try reader.routes(atStops: reader.boardingStops(idx))
  }

  /// The routes calling at `stop`, each with the destinations shown there.
  /// - Complexity: reads the headsigns of every trip of each pattern through the stop.
  public func routesWithDestinations(at stop: Stop) throws -> [RouteAtStop] {
    guard let reader = reader(stop.feed), let idx = try reader.stopIndex(id: stop.id.rawValue) else { return [] }
    return try reader.destinations(atStops: reader.boardingStops(idx))
  }

  /// How far `nearby` looks without a radius, and the largest radius `stops near` takes.
  public static let nearbyLimitMeters: Double = 100_000

  /// The stops within `radiusMeters` of `point`, nearest first; without a radius, the nearest
  /// `limit` whatever their distance up to `nearbyLimitMeters` (100 km, not a metre more).
  ///
  /// - Parameters:
  ///   - modes: only stops served by a route of one of these modes (empty: any).
  ///   - stations: list a station in place of its platforms (at its nearest platform's distance).
  /// - Complexity: an R*Tree box query, then exact haversine on the box's stops; the box grows
  ///   from 500 m while too few stops are found when no radius is given.
  public func nearby(
    _ point: Coordinate, radiusMeters: Double? = nil, limit: Int = 10, modes: Set<TransitMode> = [],
    stations: Bool = false
  ) throws -> [NearbyStop] {
    var radius = radiusMeters ?? 500
    while true {
      var candidates: [(FeedReader, Int64, Stop, Double)] = []
      for feed in feeds {
        candidates += try feed.nearby(point, radiusMeters: radius, stations: stations).map { (feed, $0.0, $0.1, $0.2) }
      }
      candidates.sort { ($0.3, $0.2.id) < ($1.3, $1.2.id) }
      // Routes only for what is listed (and, with modes, for candidates until enough match).
      var found: [NearbyStop] = []
      for (feed, idx, stop, distance) in candidates {
        guard found.count < limit else { break }
        let routes = try feed.routes(atStops: stop.isStation ? feed.boardingStops(idx) : [idx])
        if !modes.isEmpty && !routes.contains(where: { modes.contains($0.mode) }) { continue }
        found.append(NearbyStop(stop: stop, distanceMeters: distance, routes: routes))
      }
      if radiusMeters != nil || found.count >= limit || radius >= Self.nearbyLimitMeters {
        return radiusMeters == nil ? found.filter { $0.distanceMeters <= Self.nearbyLimitMeters } : found
      }
      radius = min(radius * 4, Self.nearbyLimitMeters)
    }
  }

  /// Stops by code or name: the code exactly first, then the whole name, then names whose words
  /// start with the text's words, then names within a typo or two, then (also `typo`) names
  /// whose words start with the text's words once the last one loses its last letter; nearest
  /// first within each kind when `near` is given, else by how well the name fits.
  ///
  /// A kind is asked only while fewer than `limit` are found. Without `near`, a kind's feeds
  /// are asked in order until `limit` are found; with `near`, nearest box first, until the next
  /// feed's box lies farther than the matches still needed (`distanceLowerBound`).
  /// - Complexity: index lookups for the code and the whole name, a read of the rarest word's
  ///   stops in rank order (`rankedStops`), and a pass over the vocabulary for typos (only when
  ///   the other kinds find fewer than `limit`).
  public func search(_ text: String, near: Coordinate? = nil, limit: Int = 10) throws -> [StopMatch] {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty, limit > 0 else { return [] }
    let folded = SearchText(trimmed)
    var results: [StopMatch] = []
    var seen = Set<String>()
    // The feeds in the order a kind asks them, each with the least distance to its stops.
    let order: [(feed: FeedReader, bound: Double)] =
      near.map { point in feeds.map { ($0, distanceLowerBound($0, from: point)) }.sorted { $0.bound < $1.bound } }
      ?? feeds.map { ($0, 0) }
    /// Adds one kind's matches (`find` asks one feed); true once `limit` are found.
    func add(_ kind: StopMatchKind, _ find: (FeedReader) throws -> [Stop]) throws -> Bool {
      let needed = limit - results.count
      var batch: [StopMatch] = []
      var distances: [Double] = []  // with `near`, the batch's so far, sorted
      for (feed, bound) in order {
        if batch.count >= needed {
          guard near != nil else { break }
          if bound > distances[needed - 1] { break }
        }
        for stop in try find(feed) where seen.insert(stop.feed.rawValue + "\u{0}" + stop.id.rawValue).inserted {
          let distance = near.flatMap { p in stop.coordinate.map { p.distanceMeters(to: $0) } }
          batch.append(StopMatch(stop: stop, kind: kind, distanceMeters: distance))
          if near != nil {
            let key = distance ?? .infinity
            distances.insert(key, at: distances.firstIndex { $0 > key } ?? distances.count)
          }
        }
      }
      if near != nil {
        batch.sort { ($0.distanceMeters ?? .infinity) < ($1.distanceMeters ?? .infinity) }
      }
      results += batch
      return results.count >= limit
    }
    if try add(.code, { try $0.stops(code: trimmed) }) { return Array(results.prefix(limit)) }
    if try add(.name, { try $0.stops(named: folded) }) { return Array(results.prefix(limit)) }
    if try add(.words, { try $0.stops(matchingWords: folded, limit: max(limit * 5, 50)) }) { return Array(results.prefix(limit)) }
    // Typos: each feed's best `limit` besides those already found (which are not listed twice).
    // The query's words are compared once with the words of all feeds (`SharedVocabulary`);
    // a feed where some word reaches nothing is not asked.
    let wanted = limit + results.count
    let query = folded.characters
    if !query.isEmpty, query.contains(where: { TextFolding.allowedMistakes($0.count) > 0 }) {
      let reaches = try sharedVocabulary().reachByFeed(query, feeds: feeds.count)
      var reachOf: [ObjectIdentifier: [[String: Int]]] = [:]
      for (feed, reach) in zip(feeds, reaches) { reachOf[ObjectIdentifier(feed)] = reach }
      if near != nil {
        _ = try add(.typo) { feed in
          guard let reach = reachOf[ObjectIdentifier(feed)] else { return [] }
          return try feed.stops(scored: feed.typoScores(query, reach: reach), limit: wanted).map(\.0)
        }
      } else {
        // Fewest mistakes, then shortest name, whatever the feed (then in feed order): every
        // feed is scored, and only the best `wanted` stops of all are read.
        var typos: [(feed: FeedReader, score: FeedReader.TypoScore)] = []
        for (feed, reach) in zip(feeds, reaches) {
          guard let reach else { continue }
          typos += try feed.typoScores(query, reach: reach).prefix(wanted).map { (feed, $0) }
        }
        typos.sort { ($0.score.mistakes, $0.score.length) < ($1.score.mistakes, $1.score.length) }
        var listed = false
        _ = try add(.typo) { _ in
          defer { listed = true }
          return listed ? [] : try typos.prefix(wanted).compactMap { try $0.feed.stop($0.score.idx) }
        }
      }
    }
    // A slip in the last word, which may also be unfinished ("3rd Ave & Pike Stt"; a short
    // word allows no typo): the other words, and the last one less its last letter as a start.
    if results.count < limit, let last = folded.words.last, last.count >= 3 {
      let shortened = folded.replacingLastWord(with: String(last.dropLast()))
      _ = try add(.typo) { try $0.stops(matchingWords: shortened, limit: max(limit * 5, 50)) }
    }
    return Array(results.prefix(limit))
  }
}

// MARK: - Text folding

/// A search text folded once (folding costs microseconds, and a search asks every feed).
struct SearchText {
  /// `TextFolding.fold` of the text.
  let folded: String
  /// `TextFolding.words` of the text.
  let words: [String]
  /// The words' characters, for edit distances.
  let characters: [[Character]]

  /// The whole folded text as a name, for the feeds' key filters (hashed once, however many
  /// feeds are asked).
  let nameProbe: FeedKeyFilter.Probe
  /// Each word as the start of a name word, for the feeds' key filters.
  let wordProbes: [FeedKeyFilter.Probe]

  init(_ text: String) {
    self.init(folded: TextFolding.fold(text))
  }

  private init(folded: String, words: [String]? = nil) {
    self.folded = folded
    self.words = words ?? TextFolding.words(folded: folded)
    characters = self.words.map(Array.init)
    nameProbe = FeedKeyFilter.Probe(.name, folded)
    wordProbes = self.words.map { FeedKeyFilter.Probe(.wordStart, $0) }
  }

  /// The same text with its last word replaced (its probes made anew).
  func replacingLastWord(with word: String) -> SearchText {
    SearchText(folded: folded, words: words.dropLast() + [word])
  }
}

/// Case- and accent-insensitive comparison of names.
enum TextFolding {
  /// `text` without case or accents: "Páirc Thíomóin" becomes "pairc thiomoin".
  static func fold(_ text: String) -> String {
    TextFold.fold(text)
  }

  /// The folded words of `text` (letters and digits).
  static func words(_ text: String) -> [String] {
    words(folded: fold(text))
  }

  /// The words of text already folded.
  static func words(folded: String) -> [String] {
    folded.split { !($0.isLetter || $0.isNumber) }.map(String.init)
  }

  /// Mistakes allowed in a word of this length: none below 4 letters, one up to 7, else two.
  static func allowedMistakes(_ length: Int) -> Int { length < 4 ? 0 : length < 8 ? 1 : 2 }
}

// MARK: - FeedReader: stops

extension FeedReader {
  static let stopColumns = "s.stop_idx, s.stop_id, s.code, s.name, s.lat, s.lon, s.location_type, s.parent_station, s.platform_code"

  func readStop(_ statement: Statement, from column: Int32 = 0) -> Stop {
    let c = column
    let coordinate: Coordinate? =
      statement.isNull(c + 4) || statement.isNull(c + 5)
      ? nil : Coordinate(latitude: statement.double(c + 4), longitude: statement.double(c + 5))
    return Stop(
      feed: name, id: StopID(statement.text(c + 1)), code: statement.optionalText(c + 2).flatMap { $0.isEmpty ? nil : $0 },
      name: statement.text(c + 3), coordinate: coordinate, locationType: statement.int(c + 6),
      parentStation: statement.optionalText(c + 7).flatMap { $0.isEmpty ? nil : StopID($0) },
      platformCode: statement.optionalText(c + 8).flatMap { $0.isEmpty ? nil : $0 })
  }

  /// The stop_idx of `id` in this feed (one unique-index seek).
  func stopIndex(id: String) throws -> Int64? {
    let select = try db.cached("SELECT stop_idx FROM stops WHERE stop_id = ?")
    select.bind(id, at: 1)
    return try select.step() ? select.int64(0) : nil
  }

  func stop(_ idx: Int64) throws -> Stop? {
    let select = try db.cached("SELECT \(Self.stopColumns) FROM stops s WHERE s.stop_idx = ?")
    select.bind(idx, at: 1)
    return try select.step() ? readStop(select) : nil
  }

  /// Stops whose stop_code is `code` (exactly).
  func stops(code: String) throws -> [Stop] {
    guard mayHold(FeedKeyFilter.Probe(.code, code)) else { return [] }
    let select = try db.cached("SELECT \(Self.stopColumns) FROM stops s WHERE s.code = ? ORDER BY s.stop_id")
    select.bind(code, at: 1)
    var result: [Stop] = []
    while try select.step() { result.append(readStop(select)) }
    return result
  }

  /// The stops (not entrances or nodes) whose whole name is `text`, ignoring case and accents
  /// (folded once for many feeds).
  func stops(named text: SearchText) throws -> [Stop] {
    guard !text.words.isEmpty, mayHold(text.nameProbe) else { return [] }
    return try stops(foldedName: text.folded)
  }

  /// Stops whose name has, for every word of `text`, a word starting with it, ignoring case
  /// and accents: fewest words in the name first, then shortest name, then stop_id
  /// (`rankedStops`). `text` is folded once for many feeds.
  func stops(matchingWords text: SearchText, limit: Int) throws -> [Stop] {
    guard !text.words.isEmpty, text.wordProbes.allSatisfy(mayHold) else { return [] }
    return try rankedStops(matchingWords: text.words, limit: limit)
  }

  /// The stops of `scored` (in its order) with their mistakes, the first `limit` only.
  func stops(scored: [TypoScore], limit: Int) throws -> [(Stop, Int)] {
    var result: [(Stop, Int)] = []
    for entry in scored.prefix(limit) {
      if let stop = try stop(entry.idx) { result.append((stop, entry.mistakes)) }
    }
    return result
  }

  /// A stop found by the typo search, before it is read whole.
  struct TypoScore {
    var idx: Int64
    var mistakes: Int
    /// The name's length in characters.
    var length: Int
  }

  /// The stops whose name has, for every word of `query`, a word within reach (`reach`: per
  /// query word, the vocabulary words within reach with their mistakes), with the total
  /// mistakes: fewest mistakes first, then shortest name, then stop_idx.
  func typoScores(_ query: [[Character]], reach: [[String: Int]]) throws -> [TypoScore] {
    guard let narrowest = reach.indices.min(by: { reach[$0].count < reach[$1].count }), !reach[narrowest].isEmpty else { return [] }
    // The candidates' names in the same pass (a stop is read whole only if it is listed).
    var candidates: [Int64: String] = [:]
    let byWord = try db.cached(
      "SELECT sw.stop_idx, s.name FROM search_word_stops sw JOIN stops s ON s.stop_idx = sw.stop_idx WHERE sw.word = ?")
    for word in reach[narrowest].keys {
      byWord.reset()
      byWord.bind(word, at: 1)
      while try byWord.step() { candidates[byWord.int64(0)] = byWord.text(1) }
    }
    var folded: [String: Set<String>] = [:]
    var scored: [TypoScore] = []
    for (idx, name) in candidates {
      let words = folded[name] ?? Set(TextFolding.words(name))
      folded[name] = words
      var total = 0
      for index in query.indices {
        guard let best = words.compactMap({ reach[index][$0] }).min() else {
          total = -1
          break
        }
        total += best
      }
      if total >= 0 { scored.append(TypoScore(idx: idx, mistakes: total, length: name.count)) }
    }
    scored.sort { ($0.mistakes, $0.length, $0.idx) < ($1.mistakes, $1.length, $1.idx) }
    return scored
  }

  /// The edits between `word` and `candidate` or `candidate`'s start, when within the mistakes
  /// allowed for `word`; nil otherwise.
  static func mistakes<Element: Equatable>(_ word: [Element], _ candidate: [Element]) -> Int? {
    let allowed = TextFolding.allowedMistakes(word.count)
    var best = EditDistance.between(word, candidate, limit: allowed)
    if best > 0 && candidate.count > word.count {
      best = min(best, EditDistance.between(word, Array(candidate.prefix(word.count)), limit: allowed))
    }
    return best <= allowed ? best : nil
  }

  /// The stops whose parent_station is `idx`, by platform code then id.
  func children(of idx: Int64) throws -> [Stop] {
    let select = try db.cached(
      "SELECT \(Self.stopColumns) FROM stops s WHERE s.parent_idx = ? ORDER BY s.platform_code, s.stop_id")
    select.bind(idx, at: 1)
    var result: [Stop] = []
    while try select.step() { result.append(readStop(select)) }
    return result
  }

  /// The stop itself and, for a station, its platforms: where departures "at" it happen.
  func boardingStops(_ idx: Int64) throws -> [Int64] {
    let select = try db.cached("SELECT stop_idx FROM stops WHERE parent_idx = ?1 AND location_type = 0")
    select.bind(idx, at: 1)
    var result = [idx]
    while try select.step() { result.append(select.int64(0)) }
    return result
  }

  /// The routes whose patterns call at any of `stops`, in route_sort_order, then by short
  /// name (numbers in numeric order).
  func routes(atStops stops: [Int64]) throws -> [RouteSummary] {
    let select =
      hasStopRoutes
      ? try db.cached(
        """
        SELECT r.route_idx, r.route_id, r.short_name, r.long_name, r.route_type, r.color, r.sort_order
        FROM stop_routes sr JOIN routes r ON r.route_idx = sr.route_idx WHERE sr.stop_idx = ?
        """)
      : try db.cached(
        """
        SELECT DISTINCT r.route_idx, r.route_id, r.short_name, r.long_name, r.route_type, r.color, r.sort_order
        FROM pattern_stops ps JOIN patterns p ON p.pattern_idx = ps.pattern_idx JOIN routes r ON r.route_idx = p.route_idx
        WHERE ps.stop_idx = ?
        """)
    var byIndex: [Int64: (RouteSummary, Int64?)] = [:]
    for stop in stops {
      select.reset()
      select.bind(stop, at: 1)
      while try select.step() {
        byIndex[select.int64(0)] = (routeSummary(select, from: 1), select.optionalInt(6))
      }
    }
    let keyed: [(RouteSummary, Int64, NaturalOrder.Key)] = byIndex.values.map { route, order in
      (route, order ?? .max, NaturalOrder.Key(route.shortName))
    }
    return keyed.sorted { a, b in a.1 != b.1 ? a.1 < b.1 : a.2 < b.2 }.map(\.0)
  }

  /// A route from (route_id, short_name, long_name, route_type, color) at `column`.
  func routeSummary(_ statement: Statement, from column: Int32) -> RouteSummary {
    let id = statement.text(column)
    let short = statement.optionalText(column + 1).flatMap { $0.isEmpty ? nil : $0 }
    let long = statement.optionalText(column + 2).flatMap { $0.isEmpty ? nil : $0 }
    return RouteSummary(
      feed: name, id: RouteID(id), shortName: short ?? long ?? id, longName: long,
      routeType: statement.int(column + 3), color: statement.optionalText(column + 4).flatMap { $0.isEmpty ? nil : $0 })
  }

  /// Each route at `stops` with the headsigns of its trips there (not where a trip ends).
  func destinations(atStops stops: [Int64]) throws -> [RouteAtStop] {
    let routes = try routes(atStops: stops)
    let patternsAt = try db.cached(
      """
      SELECT ps.pattern_idx, ps.position, ps.stop_headsign, r.route_id, p.stop_count,
             (SELECT s.name FROM pattern_stops last JOIN stops s ON s.stop_idx = last.stop_idx
              WHERE last.pattern_idx = ps.pattern_idx AND last.position = p.stop_count - 1)
      FROM pattern_stops ps JOIN patterns p ON p.pattern_idx = ps.pattern_idx JOIN routes r ON r.route_idx = p.route_idx
      WHERE ps.stop_idx = ?
      """)
    let headsigns = try db.cached(
      "SELECT DISTINCT t.headsign FROM trip_times tt JOIN trips t ON t.trip_idx = tt.trip_idx WHERE tt.pattern_idx = ?")
    var byRoute: [String: [String]] = [:]
    for stop in stops {
      patternsAt.reset()
      patternsAt.bind(stop, at: 1)
      while try patternsAt.step() {
        guard patternsAt.int(1) < patternsAt.int(4) - 1 else { continue }  // the trip ends here
        let route = patternsAt.text(3)
        let lastStop = patternsAt.text(5)
        var names: [String] = []
        if let stopHeadsign = patternsAt.optionalText(2), !stopHeadsign.isEmpty {
          names = [stopHeadsign]
        } else {
          headsigns.reset()
          headsigns.bind(patternsAt.int64(0), at: 1)
          while try headsigns.step() {
            let headsign = headsigns.optionalText(0) ?? ""
            names.append(headsign.isEmpty ? lastStop : headsign)
          }
        }
        for name in names where !(byRoute[route]?.contains(name) ?? false) { byRoute[route, default: []].append(name) }
      }
    }
    return routes.map { RouteAtStop(route: $0, destinations: (byRoute[$0.id.rawValue] ?? []).sorted()) }
  }

  /// The stops of this feed within `radiusMeters` of `point`, unsorted, without routes; with
  /// `stations`, platforms give way to their station at the nearest platform's distance.
  func nearby(_ point: Coordinate, radiusMeters: Double, stations: Bool) throws -> [(Int64, Stop, Double)] {
    let dLat = radiusMeters / 111_194.9 * 1.01
    let cosine = max(0.01, cos(point.latitude * .pi / 180))
    let dLon = min(180, dLat / cosine)
    // A box missing this feed's stops finds none of them (a little margin: the R*Tree holds
    // its boxes in 32-bit floats).
    if let box = stopBox {
      let margin = 1e-4
      if point.latitude + dLat < box[0] - margin || point.latitude - dLat > box[2] + margin
        || point.longitude + dLon < box[1] - margin || point.longitude - dLon > box[3] + margin
      {
        return []
      }
    }
    let select = try db.cached(
      """
      SELECT \(Self.stopColumns) FROM stops_rtree r JOIN stops s ON s.stop_idx = r.stop_idx
      WHERE r.min_lat <= ?2 AND r.max_lat >= ?1 AND r.min_lon <= ?4 AND r.max_lon >= ?3 AND s.location_type = 0
      """)
    select.bind(point.latitude - dLat, at: 1)
    select.bind(point.latitude + dLat, at: 2)
    select.bind(point.longitude - dLon, at: 3)
    select.bind(point.longitude + dLon, at: 4)
    var found: [(Int64, Stop, Double)] = []
    while try select.step() {
      let stop = readStop(select)
      guard let coordinate = stop.coordinate else { continue }
      let distance = point.distanceMeters(to: coordinate)
      if distance <= radiusMeters { found.append((select.int64(0), stop, distance)) }
    }
    guard stations else { return found }
    // A station stands for its platforms, at the nearest one's distance.
    var byStation: [String: (Int64, Stop, Double)] = [:]
    var loose: [(Int64, Stop, Double)] = []
    for entry in found {
      guard let parent = entry.1.parentStation, let parentIdx = try stopIndex(id: parent.rawValue),
        let station = try stop(parentIdx)
      else {
        loose.append(entry)
        continue
      }
      if let known = byStation[parent.rawValue], known.2 <= entry.2 { continue }
      byStation[parent.rawValue] = (parentIdx, station, entry.2)
    }
    return loose + byStation.values
  }
}
