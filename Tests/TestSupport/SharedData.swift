import Foundation

/// Finds the team's shared real-world test data (`shared/data`: `static/*.zip` GTFS feeds,
/// `rt/*.pb` realtime captures, `bad/*` broken inputs; see its PROVENANCE.md).
///
/// Tests that need it should skip, not fail, when it is absent:
/// `@Test(.enabled(if: SharedData.root != nil))`.
public enum SharedData {
  /// The data folder, or `nil` if there is none.
  ///
  /// The environment variable `TRANSIT_SHARED_DATA` wins when set (and then must name an
  /// existing folder). Otherwise the folder `shared/data` beside the package's own folder: the
  /// package root is the nearest folder above this source file that holds `Package.swift`.
  public static var root: String? { located }

  /// `root` joined with `relative` (such as `"static/caltrain-2023.zip"`), or `nil` if there is
  /// no data folder or nothing at that path.
  public static func path(_ relative: String) -> String? {
    guard let root else { return nil }
    let path = root + "/" + relative
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  /// The paths of the files in the data subfolder `folder` whose names end in `.\(pathExtension)`,
  /// sorted by name; empty if there is no such folder.
  public static func files(in folder: String, withExtension pathExtension: String) -> [String] {
    guard let directory = path(folder),
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
    else { return [] }
    return names.filter { $0.hasSuffix("." + pathExtension) }.sorted().map { directory + "/" + $0 }
  }

  private static let located: String? = locate()

  private static func locate(sourceFile: String = #filePath) -> String? {
    let files = FileManager.default
    func isDirectory(_ path: String) -> Bool {
      var isDirectory: ObjCBool = false
      return files.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
    if let configured = ProcessInfo.processInfo.environment["TRANSIT_SHARED_DATA"],
      !configured.isEmpty
    {
      return isDirectory(configured) ? configured : nil
    }
    var folder = URL(fileURLWithPath: sourceFile).deletingLastPathComponent()
    while folder.path != "/" {
      if files.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        let candidate = folder.deletingLastPathComponent().appendingPathComponent("shared/data")
          .path
        return isDirectory(candidate) ? candidate : nil
      }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }
}
