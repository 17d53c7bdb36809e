import FoundationEssentials
import Services
import TransitModel

/// What the `fav` commands and the no-argument view share.
enum FavSupport {
  typealias Resolved = FavouriteItem
  typealias Entry = FavouriteEntry

  /// A favourite entry as JSON members (`FavouriteAnswer`), for an object that adds its own.
  static func json(_ entry: Entry, manyFeeds: Bool) -> [(String, JSON)] {
    guard case .object(let members) = JSONTreeEncoder.encode(FavouriteAnswer(entry, namesFeed: manyFeeds)) else { return [] }
    return members
  }

  /// A group's NAME as saved (spaces trimmed, lower case): it starts with a letter, so that
  /// `fav add 4529 4530` is not read as a group named 4529.
  static func groupName(_ text: String) throws(UsageError) -> String {
    let name = text.trimmingSpaces().lowercased()
    guard let first = name.first, first.isLetter, name.count <= 40,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
    else {
      throw UsageError(
        "favourite name '\(text)' must start with a letter and be at most 40 characters (NAME STOP STOP... saves a group)")
    }
    return name
  }

  /// "TINT" or "demo:TINT" with several feeds.
  static func id(feed: String, stopID: String, manyFeeds: Bool) -> String {
    (manyFeeds ? feed + ":" : "") + stopID
  }

  /// The note for a favourite whose stop the timetables no longer hold.
  static let missingNote = "not in the timetable since the last ingest; kept in case it returns"
}
