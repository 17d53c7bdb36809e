import FoundationEssentials

extension Settings {
  /// Writes the settings to `configDirectory` atomically (a temporary file, then a rename).
  public func save(to configDirectory: String) throws(SettingsError) {
    do {
      try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
      try Data(fileText.utf8).write(to: URL(fileURLWithPath: Self.path(in: configDirectory)), options: .atomic)
    } catch {
      throw SettingsError("cannot write \(Self.path(in: configDirectory)): \(Transit.fileProblem(error))")
    }
  }
}
