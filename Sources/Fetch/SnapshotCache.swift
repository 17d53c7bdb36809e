import FoundationEssentials

/// The last good realtime snapshot of one feed URL, with when it was fetched and the feed's own
/// header timestamp.
public struct Snapshot: Sendable, Equatable {
  /// The feed as fetched (after content decoding).
  public var bytes: [UInt8]
  /// Unix seconds when it was fetched (or last confirmed unchanged by a 304).
  public var fetchedAt: Int64
  /// The FeedHeader timestamp, when the feed has one.
  public var headerTimestamp: Int64?
  /// The validators the server sent with it.
  public var validators: Validators
  /// The distinct header timestamps seen lately, oldest first (for learning the period).
  public var recentTimestamps: [Int64]
  /// The FeedHeader `feed_version`, when the feed has one (a change means it restarted).
  public var feedVersion: String?

  /// A snapshot.
  public init(
    bytes: [UInt8], fetchedAt: Int64, headerTimestamp: Int64?, validators: Validators, recentTimestamps: [Int64],
    feedVersion: String? = nil
  ) {
    self.bytes = bytes
    self.fetchedAt = fetchedAt
    self.headerTimestamp = headerTimestamp
    self.validators = validators
    self.recentTimestamps = recentTimestamps
    self.feedVersion = feedVersion
  }
}

/// Realtime snapshots kept in `CACHE/realtime/`, one pair of files per URL (named by the URL's
/// SHA-256, so keys in URLs are not written out): `HASH.pb` and `HASH.json`.
public struct SnapshotCache: Sendable {
  /// `CACHE/realtime`.
  public let directory: String
  /// How many distinct header timestamps are kept per feed.
  static let historyLength = 12

  /// The cache under `cacheDirectory`.
  public init(cacheDirectory: String) {
    directory = cacheDirectory + "/realtime"
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }

  private struct Meta: Codable {
    var fetchedAt: Int64
    var headerTimestamp: Int64?
    var etag: String?
    var lastModified: String?
    var recentTimestamps: [Int64]?
    var feedVersion: String?
  }

  /// The snapshot stored for `url`.
  public func load(_ url: String) -> Snapshot? {
    let base = directory + "/" + SHA256.hex(url)
    guard let metaBytes = FileStore.read(base + ".json"),
      let meta = try? Self.decoder.decode(Meta.self, from: Data(metaBytes)),
      let bytes = FileStore.read(base + ".pb")
    else { return nil }
    return Snapshot(
      bytes: bytes, fetchedAt: meta.fetchedAt, headerTimestamp: meta.headerTimestamp,
      validators: Validators(etag: meta.etag, lastModified: meta.lastModified), recentTimestamps: meta.recentTimestamps ?? [],
      feedVersion: meta.feedVersion)
  }

  /// Stores `snapshot` for `url` (body first, then the metadata that points at it).
  public func store(_ snapshot: Snapshot, for url: String) throws {
    let base = directory + "/" + SHA256.hex(url)
    try FileStore.write(snapshot.bytes, to: base + ".pb")
    try writeMeta(snapshot, base: base)
  }

  /// Records that the stored snapshot was confirmed unchanged at `time` (after a 304).
  public func touch(_ url: String, at time: Int64) throws {
    guard var snapshot = load(url) else { return }
    snapshot.fetchedAt = time
    try writeMeta(snapshot, base: directory + "/" + SHA256.hex(url))
  }

  private func writeMeta(_ snapshot: Snapshot, base: String) throws {
    let meta = Meta(
      fetchedAt: snapshot.fetchedAt, headerTimestamp: snapshot.headerTimestamp, etag: snapshot.validators.etag,
      lastModified: snapshot.validators.lastModified, recentTimestamps: Array(snapshot.recentTimestamps.suffix(Self.historyLength)),
      feedVersion: snapshot.feedVersion)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    try FileStore.write([UInt8](try encoder.encode(meta)), to: base + ".json")
  }
}
