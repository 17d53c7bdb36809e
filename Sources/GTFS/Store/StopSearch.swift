import FoundationEssentials
import Glibc
import SQLite
import TransitModel

// The fast paths of `Store.search` (issue 18): whole names and word prefixes through the tables
// `StopSearchTables` builds at ingest, typos through a vocabulary held in memory and filtered by
// letters before any edit distance is worked out.

extension FeedReader {
  /// The stops (not entrances or nodes) whose folded name is `folded`, stations first, then by
  /// stop_id: one index seek.
  func stops(foldedName folded: String) throws -> [Stop] {
    let select = try db.cached(
      """
      SELECT \(Self.stopColumns) FROM search_names n JOIN search_name_stops ns ON ns.name_idx = n.name_idx
      JOIN stops s ON s.stop_idx = ns.stop_idx
      WHERE n.folded = ?1 AND s.location_type IN (0, 1) ORDER BY s.location_type DESC, s.stop_id
      """)
    select.bind(folded, at: 1)
    var result: [Stop] = []
    while try select.step() { result.append(readStop(select)) }
    return result
  }

  /// The folded name words starting with `prefix`, with how many stops have each.
  func vocabulary(startingWith prefix: String) throws -> [(word: String, stops: Int)] {
    let select = try db.cached("SELECT word, stops FROM search_words WHERE word >= ?1 ORDER BY word")
    select.bind(prefix, at: 1)
    var result: [(String, Int)] = []
    while try select.step() {
      let word = select.text(0)
      guard word.hasPrefix(prefix) else { break }
      result.append((word, select.int(1)))
    }
    return result
  }

  /// At most `limit` stops whose name has, for every word of `words` (folded), a word starting
  /// with it; fewest words in the name first, then shortest name, then stop_id.
  ///
  /// Starts from the query word reaching fewest stops and reads its stops in that order
  /// (`search_word_stops` is kept sorted so: one merge of the words it starts), checking the
  /// other words against each name (folded once per name), until `limit` are found.
  /// - Complexity: O(v + r) where v is the vocabulary words the query's words start and r the
  ///   rows read before `limit` stops match, not every stop matching.
  func rankedStops(matchingWords words: [String], limit: Int) throws -> [Stop] {
    guard !words.isEmpty, limit > 0 else { return [] }
    var drivingWord = ""
    var driving: [String] = []
    var fewest = Int.max
    for word in Set(words) {
      let reached = try vocabulary(startingWith: word)
      let stops = reached.reduce(0) { $0 + $1.stops }
      if stops == 0 { return [] }
      if stops < fewest || (stops == fewest && word > drivingWord) {
        fewest = stops
        drivingWord = word
        driving = reached.map(\.word)
      }
    }
    // Words the driving word starts with hold for every row read.
    let others = Set(words).filter { !drivingWord.hasPrefix($0) }
    let select: Statement
    if driving.count <= Self.mergedWordsLimit {
      // One arm per word, merged in rank order by SQLite (each arm reads its index in order).
      let arm = "SELECT rank, stop_idx, name_idx FROM search_word_stops WHERE word = ?"
      select = try db.cached(Array(repeating: arm, count: driving.count).joined(separator: " UNION ALL ") + " ORDER BY 1")
      for (index, word) in driving.enumerated() { select.bind(word, at: Int32(index + 1)) }
    } else {
      // The words starting with the driving word: a range of the index, from it to it followed
      // by the byte 0xFF, which no UTF-8 text holds (so every such word sorts below the bound).
      select = try db.cached(
        """
        SELECT rank, stop_idx, name_idx FROM search_word_stops
        WHERE word IN (SELECT word FROM search_words WHERE word >= ?1 AND word < ?1 || CAST(X'FF' AS TEXT)) ORDER BY rank
        """)
      select.bind(drivingWord, at: 1)
    }
    let nameWords = try db.cached("SELECT folded FROM search_names WHERE name_idx = ?")
    var namesChecked: [Int64: Bool] = [:]
    var seen = Set<Int64>()
    var found: [Int64] = []
    while found.count < limit, try select.step() {
      let stop = select.int64(1)
      guard seen.insert(stop).inserted else { continue }
      let name = select.int64(2)
      var fits = namesChecked[name]
      if fits == nil {
        nameWords.reset()
        nameWords.bind(name, at: 1)
        var nameIsFit = false
        if try nameWords.step() {
          let folded = nameWords.text(0).split { !($0.isLetter || $0.isNumber) }
          nameIsFit = others.allSatisfy { word in folded.contains { $0.hasPrefix(word) } }
        }
        namesChecked[name] = nameIsFit
        fits = nameIsFit
      }
      if fits == true { found.append(stop) }
    }
    select.reset()
    return try found.compactMap { try self.stop($0) }
  }

  /// How many vocabulary words one merged query reads at most; past it, one sorted range read.
  static let mergedWordsLimit = 64

  /// The vocabulary (`search_words`: each folded name word once), read once per reader, each
  /// word with its letters' mask.
  func typoVocabulary() throws -> TypoVocabulary {
    if let vocabularyCache { return vocabularyCache }
    let select = try db.cached("SELECT word FROM search_words")
    var result = TypoVocabulary()
    while try select.step() {
      let word = select.text(0)
      let characters = Array(word)
      result.words.append(word)
      result.masks.append(Self.letterMask(characters))
      result.lengths.append(characters.count)
    }
    vocabularyCache = result
    return result
  }

  /// The vocabulary as the typo search compares it: per word its text, its letters' mask and
  /// its length in characters, in arrays of their own so that the pass over masks and lengths
  /// touches nothing else (a word's characters are made only when it passes them).
  struct TypoVocabulary {
    var words: [String] = []
    var masks: [UInt64] = []
    var lengths: [Int] = []
  }

  /// One bit per letter or digit (other characters share 27 bits by their code point). A word
  /// within k edits of another (or of its start) lacks at most k of the other's bits: each
  /// insertion or substitution brings one character.
  static func letterMask(_ characters: [Character]) -> UInt64 {
    var mask: UInt64 = 0
    for character in characters {
      guard let scalar = character.unicodeScalars.first?.value else { continue }
      switch scalar {
      case 0x61...0x7A: mask |= 1 << UInt64(scalar - 0x61)
      case 0x30...0x39: mask |= 1 << UInt64(26 + scalar - 0x30)
      default: mask |= 1 << UInt64(36 + scalar % 27)
      }
    }
    return mask
  }

  /// The words of `vocabulary` within reach of each query word, by index, with the mistakes.
  static func typoReach(_ query: [[Character]], in vocabulary: TypoVocabulary) -> [[(word: Int, mistakes: Int)]] {
    var reach = [[(word: Int, mistakes: Int)]](repeating: [], count: query.count)
    let masks = query.map(Self.letterMask)
    let allowed = query.map { TextFolding.allowedMistakes($0.count) }
    // ASCII words compare as bytes: the same edits as their characters.
    let bytes: [[UInt8]?] = query.map { word in
      let text = String(word)
      return text.utf8.count == word.count ? Array(text.utf8) : nil
    }
    for index in query.indices {
      let mask = masks[index], shortest = query[index].count - allowed[index]
      for word in vocabulary.masks.indices
      where vocabulary.lengths[word] >= shortest && (mask & ~vocabulary.masks[word]).nonzeroBitCount <= allowed[index] {
        let mistakes =
          if let queryBytes = bytes[index], vocabulary.words[word].utf8.count == vocabulary.lengths[word] {
            Self.mistakes(queryBytes, Array(vocabulary.words[word].utf8))
          } else {
            Self.mistakes(query[index], Array(vocabulary.words[word]))
          }
        if let mistakes { reach[index].append((word, mistakes)) }
      }
    }
    return reach
  }
}

/// The name words of every feed held, each once, with the feeds that have it: a typo search
/// compares the query's words with each distinct word once, however many feeds share it
/// (feeds of one country share most street names).
struct SharedVocabulary {
  var vocabulary = FeedReader.TypoVocabulary()
  /// Per word, the indices in `Store.feeds` of the feeds having it.
  var holders: [[Int]] = []

  /// Nothing yet (`VocabularyCatalog` fills it, from each feed's own vocabulary or from the
  /// file it keeps beside the timetables).
  init() {}

  /// Per feed (as in `Store.feeds`), the words within reach of each query word with their
  /// mistakes, as that feed's own `typoReach` gives them; nil for a feed where some query
  /// word reaches nothing (it can have no match).
  func reachByFeed(_ query: [[Character]], feeds: Int) -> [[[String: Int]]?] {
    var result = [[[String: Int]]](repeating: [[String: Int]](repeating: [:], count: query.count), count: feeds)
    for (index, entries) in FeedReader.typoReach(query, in: vocabulary).enumerated() {
      for entry in entries {
        for feed in holders[entry.word] { result[feed][index][vocabulary.words[entry.word]] = entry.mistakes }
      }
    }
    return result.map { reach in reach.contains(where: \.isEmpty) ? nil : reach }
  }
}

extension Store {
  /// A lower bound on the distance from `point` to any stop of `feed`, from the box around its
  /// stops (ingest's `stop_box`), less 2 km (a station may stand a little outside its
  /// platforms' box); 0 when the feed stores no box. The bound is the larger of the latitude
  /// difference and the distance to the nearer edge meridian (`asin(cos φ · sin Δλ)`), both
  /// at most the great-circle distance.
  func distanceLowerBound(_ feed: FeedReader, from point: Coordinate) -> Double {
    guard let box = feed.stopBox else { return 0 }
    let radius = 6_371_008.8
    let toRadians = Double.pi / 180
    let dLat = max(0, box[0] - point.latitude, point.latitude - box[2]) * toRadians
    let dLon = min(90, max(0, box[1] - point.longitude, point.longitude - box[3])) * toRadians
    let acrossMeridians = asin(min(1, cos(point.latitude * toRadians) * sin(dLon)))
    return max(0, max(dLat, acrossMeridians) * radius - 2_000)
  }
}
