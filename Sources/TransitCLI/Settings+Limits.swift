import Services

extension Invocation {
  /// The settings from the config folder.
  /// - Throws: `SettingsError` when the file holds a value that does not parse.
  public func settings() throws -> Settings {
    try Settings.load(from: paths.config)
  }
}

extension Settings {
  /// Realtime's memory budget as these settings set it (Services makes the fetcher's and the
  /// decoder's limits of it).
  public var realtimeCaps: RealtimeCaps {
    RealtimeCaps(
      maxDownloadMegabytes: realtimeMaxDownloadMegabytes, maxMegabytes: realtimeMaxMegabytes, maxEntities: realtimeMaxEntities,
      maxStopUpdates: realtimeMaxStopUpdates)
  }
}
