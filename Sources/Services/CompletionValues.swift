import Fetch
import FoundationEssentials
import GTFS
import TransitModel
import UserData

/// What a shell completes a value from (`transit completions --values KIND`), read without
/// creating any file: the user's database only when it exists, the timetables only as held.
public enum CompletionValues {
  /// The feeds configured in `config` (`feeds add`), then those held in `data`.
  public static func feeds(config: String, data: String) -> [String] {
    let configured = (try? FeedConfiguration.load(from: config).feeds.map(\.name)) ?? []
    let held = (try? Timetables(directory: data).list().map(\.name)) ?? []
    return configured + held
  }

  /// The saved places' names.
  /// - Throws: what reading the user's database throws.
  public static func places(data: String) throws -> [String] {
    try userStore(data)?.places().map(\.name) ?? []
  }

  /// The favourites as a STOP argument names them: the stop id, with its feed when the
  /// favourites come from several feeds.
  /// - Throws: what reading the user's database throws.
  public static func favourites(data: String) throws -> [String] {
    guard let favourites = try userStore(data)?.favourites() else { return [] }
    let manyFeeds = Set(favourites.map(\.feed)).count > 1
    return favourites.map { (manyFeeds ? $0.feed + ":" : "") + $0.stopID }
  }

  /// The saved commutes' names.
  /// - Throws: what reading the user's database throws.
  public static func commutes(data: String) throws -> [String] {
    try userStore(data)?.commutes().map(\.name) ?? []
  }

  /// The short names of every route held.
  /// - Throws: what opening the timetables throws.
  public static func routes(data: String) throws -> [String] {
    try Store(directory: data).agencyRoutes().map(\.route.shortName)
  }

  private static func userStore(_ data: String) throws -> UserStore? {
    FileManager.default.fileExists(atPath: data + "/user.sqlite") ? try UserStore(directory: data) : nil
  }
}
