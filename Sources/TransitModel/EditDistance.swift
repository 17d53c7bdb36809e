/// Levenshtein distance: how many insertions, deletions and substitutions turn one text into
/// another. Shared by stop search (typo tolerance) and the command line ("did you mean …?").
public enum EditDistance {
  /// The distance between `a` and `b`, or `limit + 1` as soon as it must exceed `limit`.
  /// - Complexity: O(a.count × b.count) at worst; stops early past `limit`.
  /// Generic so that ASCII words compare as bytes (far cheaper than `Character`s).
  @inlinable
  public static func between<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int = .max - 1) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var best = current[0]
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        best = min(best, current[j])
      }
      if best > limit { return limit + 1 }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
