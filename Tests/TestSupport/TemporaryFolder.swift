import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when
/// the value is released.
public final class TemporaryFolder: @unchecked Sendable {
  /// The folder's absolute path.
  public let path: String

  /// Creates the folder.
  public init() {
    path = NSTemporaryDirectory() + "transit-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The package's root folder (the one holding Package.swift), found from this source file.
public let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
    url.deleteLastPathComponent()
  }
  return url.path
}()
