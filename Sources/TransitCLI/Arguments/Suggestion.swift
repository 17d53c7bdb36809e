import TransitModel

/// "Did you mean …?" by edit distance.
enum Suggestion {
  /// The candidate closest to `word`, if one is close enough to be a typo.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    var best: (String, Int)?
    for candidate in candidates {
      let distance = EditDistance.between(Array(word), Array(candidate))
      if distance <= max(2, candidate.count / 3), distance < (best?.1 ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.0
  }
}
