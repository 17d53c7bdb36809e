import FoundationEssentials
import History
import TransitModel
import UserData

/// Where a session finds the user's own database (`user.sqlite`: favourites, places, commutes,
/// seen alerts), opened only by the answers that read or write it: a command that never asks
/// leaves the file alone, and one that only reads does not create it.
public struct UserDataAccess: Sendable {
  /// The folder of `user.sqlite`; nil: the session has no user data (every read is empty, and
  /// nothing is remembered).
  public let directory: String?

  /// The user data in `directory`.
  public init(directory: String?) { self.directory = directory }

  /// No user data.
  public static let none = UserDataAccess(directory: nil)

  /// The user's database, created when missing; nil without a folder.
  /// - Throws: what opening or migrating it throws.
  public func open() throws -> UserStore? {
    guard let directory else { return nil }
    return try UserStore(directory: directory)
  }

  /// The user's database when the file exists (a read does not create it); else nil.
  /// - Throws: what opening or migrating it throws.
  public func openIfPresent() throws -> UserStore? {
    guard let directory, FileManager.default.fileExists(atPath: directory + "/user.sqlite") else { return nil }
    return try UserStore(directory: directory)
  }

  /// The history beside the user's data, created when missing; nil without a folder.
  /// - Throws: what opening or migrating it throws.
  public func history() throws -> HistoryStore? {
    guard let directory else { return nil }
    return try HistoryStore(directory: directory)
  }

  /// The history `record` keeps beside the user's data, when there is one (asking makes no
  /// file); nil otherwise.
  /// - Throws: what opening it throws.
  public func historyIfPresent() throws -> HistoryStore? {
    guard let directory, HistoryStore.exists(in: directory) else { return nil }
    return try HistoryStore(directory: directory)
  }
}

extension UserDataAccess {
  /// Every saved commute, by name; none when the user's database does not exist (asking does
  /// not create it).
  /// - Throws: what opening or reading the database throws.
  public func commutes() throws -> [SavedCommute] { try openIfPresent()?.commutes() ?? [] }

  /// Forgets the commute `name`; false when there was none.
  /// - Throws: what opening or writing the database throws.
  public func removeCommute(_ name: String) throws -> Bool { try openIfPresent()?.removeCommute(name) ?? false }
}
