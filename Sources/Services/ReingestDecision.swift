/// Whether `ingest --if-changed` loads a timetable again: the rule, apart from the download
/// and the hashing that feed it.
public enum ReingestDecision: Sendable, Hashable {
  /// Load it (it changed, or nothing says it did not).
  case ingest
  /// Keep the held timetable: the server said 304 Not Modified.
  case notModified
  /// Keep the held timetable: the content's SHA-256 is the one already loaded.
  case sameContent(sha256: String)

  /// Whether a request is made conditional (ETag / Last-Modified): only with `--if-changed`
  /// and while the timetable loaded from this very URL is still held, since a 304 then means
  /// "keep it"; any other 304 would leave nothing loaded.
  public static func isConditional(ifChanged: Bool, heldSourceURL: String?, url: String) -> Bool {
    ifChanged && heldSourceURL == url
  }

  /// What to do with a source: `notModified` when the server answered 304, else the content's
  /// hash against the held timetable's (only with `--if-changed`).
  public static func decide(ifChanged: Bool, notModified: Bool = false, heldSHA256: String?, sha256: String?) -> ReingestDecision {
    if notModified { return .notModified }
    guard ifChanged, let sha256, let heldSHA256, heldSHA256 == sha256 else { return .ingest }
    return .sameContent(sha256: sha256)
  }

  /// The reason shown after "unchanged:", nil for `ingest`.
  public var reason: String? {
    switch self {
    case .ingest: return nil
    case .notModified: return "the server says not modified"
    case .sameContent(let hash): return "same content, sha256 \(hash.prefix(12))"
    }
  }
}
