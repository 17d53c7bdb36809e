import SQLite

/// The folded words of stop names (`TextFolding.words`), for the typo search of `stops search`.
///
/// `words` holds each distinct word once: a typo search compares the query's words with this
/// vocabulary (which grows far slower than the stops: the same street names recur) instead of
/// folding and comparing every stop's name. `stop_words` then gives the stops having a word.
enum StopWords {
  static let tables = """
    CREATE TABLE words (word TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE TABLE stop_words (
      word TEXT NOT NULL, stop_idx INTEGER NOT NULL, PRIMARY KEY (word, stop_idx)) WITHOUT ROWID;
    """

  /// Fills both tables from the stops and stations (location_type 0 and 1) of `db`.
  /// - Complexity: O(n log n) in the words of all names (one sort, then appends in key order).
  static func build(in db: Connection) throws {
    try db.execute(tables)
    let select = try db.prepare("SELECT stop_idx, name FROM stops WHERE location_type IN (0, 1) AND name IS NOT NULL")
    var pairs: [(word: String, stop: Int64)] = []
    var folded: [String: [String]] = [:]  // names repeat (the same street at many stops)
    while try select.step() {
      let name = select.text(1)
      let words: [String]
      if let known = folded[name] {
        words = known
      } else {
        words = Array(Set(TextFolding.words(name)))
        folded[name] = words
      }
      let stop = select.int64(0)
      for word in words { pairs.append((word, stop)) }
    }
    pairs.sort { ($0.word, $0.stop) < ($1.word, $1.stop) }
    let insertWord = try db.prepare("INSERT INTO words (word) VALUES (?)")
    let insertPair = try db.prepare("INSERT INTO stop_words (word, stop_idx) VALUES (?, ?)")
    var previous: String?
    for pair in pairs {
      if pair.word != previous {
        insertWord.bind(pair.word, at: 1)
        try insertWord.run()
        previous = pair.word
      }
      insertPair.bind(pair.word, at: 1)
      insertPair.bind(pair.stop, at: 2)
      try insertPair.run()
    }
  }
}
