import FoundationEssentials

/// The ETag and Last-Modified last seen for each URL, kept in the cache folder so the next run
/// can ask "has it changed?" (a 304 costs the agency nothing).
///
/// Keyed by the SHA-256 of the URL, so URLs holding keys are not written out.
public struct ValidatorStore: Sendable {
  /// `CACHE/http-validators.json`.
  public let path: String

  /// The store under `cacheDirectory`.
  public init(cacheDirectory: String) {
    path = cacheDirectory + "/http-validators.json"
  }

  /// The validators remembered for `url`.
  public func validators(for url: String) -> Validators? {
    load()[SHA256.hex(url)]
  }

  /// Remembers `validators` for `url` (or forgets them when empty).
  public func remember(_ validators: Validators, for url: String) throws {
    var all = load()
    all[SHA256.hex(url)] = validators.isEmpty ? nil : validators
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try FileStore.write([UInt8](try encoder.encode(all)), to: path)
  }

  private func load() -> [String: Validators] {
    guard let bytes = FileStore.read(path) else { return [:] }
    return (try? JSONDecoder().decode([String: Validators].self, from: Data(bytes))) ?? [:]
  }
}
