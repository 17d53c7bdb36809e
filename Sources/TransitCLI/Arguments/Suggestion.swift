/// "Did you mean …?" by edit distance.
enum Suggestion {
  /// The candidate closest to `word`, if one is close enough to be a typo.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(Array(word), Array(candidate))
      if distance <= max(2, candidate.count / 3), distance < (best?.1 ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.0
  }

  /// Levenshtein distance.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
