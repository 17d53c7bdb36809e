import Fetch
import GTFSRealtime

extension Invocation {
  /// The settings from the config folder.
  /// - Throws: `SettingsError` when the file holds a value that does not parse.
  public func settings() throws -> Settings {
    try Settings.load(from: paths.config)
  }
}

extension Settings {
  /// Realtime's memory budget as these settings set it.
  public var realtimeLimits: RealtimeLimits {
    RealtimeLimits(
      maxCompressedBytes: realtimeMaxDownloadMegabytes << 20, maxDecompressedBytes: realtimeMaxMegabytes << 20,
      decoding: DecodingLimits(
        maxEntities: realtimeMaxEntities, maxStopTimeUpdates: realtimeMaxStopUpdates,
        maxMessages: max(DecodingLimits.default.maxMessages, realtimeMaxEntities + realtimeMaxStopUpdates)))
  }

}
