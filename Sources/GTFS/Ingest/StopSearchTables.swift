import SQLite

/// Tables that let `stops search` find the best-fitting names without reading every match
/// (issue 18): on a national feed "flori ave" matches thousands of stops, and ranking them all
/// (FTS5's bm25) took milliseconds.
///
/// - `search_names`: each distinct folded name (`TextFolding.fold`) once.
/// - `search_name_stops`: the stops (and stations) of each folded name: a whole-name search
///   is one index seek.
/// - `search_words`: each folded name word with the number of stops having it, so that a
///   search starts from its rarest word.
/// - `search_word_stops`: per word, its stops in the order a word search lists them (`rank`:
///   fewest words in the name, then shortest name, then stop_id), with the stop's name: a word
///   search reads its rarest word's stops in that order and stops once it has enough.
///
/// They answer every name search: whole names, word starts, and the typo search, whose
/// vocabulary is `search_words` (layout 8 dropped the FTS5 index and the `words` and
/// `stop_words` tables that repeated them).
enum StopSearchTables {
  static let tables = """
    CREATE TABLE search_names (name_idx INTEGER PRIMARY KEY, folded TEXT NOT NULL UNIQUE);
    CREATE TABLE search_name_stops (
      name_idx INTEGER NOT NULL, stop_idx INTEGER NOT NULL, PRIMARY KEY (name_idx, stop_idx)) WITHOUT ROWID;
    CREATE TABLE search_words (word TEXT PRIMARY KEY, stops INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE search_word_stops (
      word TEXT NOT NULL, rank INTEGER NOT NULL, stop_idx INTEGER NOT NULL, name_idx INTEGER NOT NULL,
      PRIMARY KEY (word, rank)) WITHOUT ROWID;
    """

  /// Fills the tables from the stops and stations (location_type 0 and 1) of `db`.
  /// - Complexity: O(n log n) in the stops and the words of their names; each distinct name
  ///   is folded once.
  static func build(in db: Connection) throws {
    try db.execute(tables)
    struct Entry {
      var stop: Int64
      var id: String
      var name: Int  // index into `names`
    }
    var names: [(folded: String, words: [String], wordCount: Int, length: Int)] = []
    var nameIndex: [String: Int] = [:]  // by the name as written
    var entries: [Entry] = []
    let select = try db.prepare(
      "SELECT stop_idx, stop_id, name FROM stops WHERE location_type IN (0, 1) AND name IS NOT NULL")
    while try select.step() {
      let written = select.text(2)
      let index: Int
      if let known = nameIndex[written] {
        index = known
      } else {
        let words = TextFolding.words(written)
        index = names.count
        names.append((TextFolding.fold(written), Array(Set(words)).sorted(), words.count, written.count))
        nameIndex[written] = index
      }
      entries.append(Entry(stop: select.int64(0), id: select.text(1), name: index))
    }
    // Names written differently can fold alike ("Main St" and "MAIN ST"): one row for both.
    var foldedIndex: [String: Int64] = [:]
    let insertName = try db.prepare("INSERT INTO search_names (name_idx, folded) VALUES (?, ?)")
    var nameIdx: [Int64] = []
    for name in names {
      if let known = foldedIndex[name.folded] {
        nameIdx.append(known)
        continue
      }
      let idx = Int64(foldedIndex.count)
      foldedIndex[name.folded] = idx
      insertName.bind(idx, at: 1)
      insertName.bind(name.folded, at: 2)
      try insertName.run()
      nameIdx.append(idx)
    }
    // The order a word search lists stops in.
    entries.sort { a, b in
      let na = names[a.name], nb = names[b.name]
      return (na.wordCount, na.length, a.id) < (nb.wordCount, nb.length, b.id)
    }
    var byName: [(Int64, Int64)] = entries.map { (nameIdx[$0.name], $0.stop) }
    byName.sort { $0 < $1 }
    let insertNameStop = try db.prepare("INSERT INTO search_name_stops (name_idx, stop_idx) VALUES (?, ?)")
    for (name, stop) in byName {
      insertNameStop.bind(name, at: 1)
      insertNameStop.bind(stop, at: 2)
      try insertNameStop.run()
    }
    // Each word's stops in rank order: appended while walking the stops in that order.
    var byWord: [String: [Int]] = [:]
    for (rank, entry) in entries.enumerated() {
      for word in names[entry.name].words { byWord[word, default: []].append(rank) }
    }
    let insertWord = try db.prepare("INSERT INTO search_words (word, stops) VALUES (?, ?)")
    let insertWordStop = try db.prepare("INSERT INTO search_word_stops (word, rank, stop_idx, name_idx) VALUES (?, ?, ?, ?)")
    for (word, ranks) in byWord.sorted(by: { $0.key < $1.key }) {
      insertWord.bind(word, at: 1)
      insertWord.bind(ranks.count, at: 2)
      try insertWord.run()
      insertWordStop.bind(word, at: 1)
      for rank in ranks {
        insertWordStop.bind(rank, at: 2)
        insertWordStop.bind(entries[rank].stop, at: 3)
        insertWordStop.bind(nameIdx[entries[rank].name], at: 4)
        try insertWordStop.run()
      }
    }
  }
}
