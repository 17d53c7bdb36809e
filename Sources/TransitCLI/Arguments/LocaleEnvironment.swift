import TransitModel

/// The locale the environment names, read one way for every use (symbols, maps, the 12-hour
/// clock, the alert language): POSIX's order, `LC_ALL`, else the category's own variable, else
/// `LANG`, the first that is set and not empty.
enum LocaleEnvironment {
  enum Category: String {
    /// Characters: whether the terminal takes UTF-8.
    case characters = "LC_CTYPE"
    /// Times: the 12- or 24-hour clock.
    case time = "LC_TIME"
    /// Messages: the language of alert texts.
    case messages = "LC_MESSAGES"
  }

  /// The locale name for `category` ("en_US.UTF-8"), or nil when none is set.
  static func name(_ category: Category, in environment: [String: String]) -> String? {
    [environment["LC_ALL"], environment[category.rawValue], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
  }

  /// Whether the locale `name` encodes text as UTF-8.
  static func isUTF8(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return lowered.containsText("utf-8") || lowered.containsText("utf8")
  }
}
