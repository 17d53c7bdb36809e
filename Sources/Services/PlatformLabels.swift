import GTFS
import TransitModel

/// What riders read for a station's platform: its `platform_code`; else, where the platforms'
/// names say nothing apart, what the platform's own name adds to the others' (its suffix:
/// "Platform 2", "Northbound") or its `stop_desc`; else the direction it serves ("towards
/// Gilroy"). Never the internal stop_id.
public enum PlatformLabels {
  /// One platform of a station, as the label rules read it.
  public struct Platform: Sendable, Hashable {
    public var id: StopID
    public var name: String
    public var platformCode: String?
    public var description: String?

    /// Creates a platform.
    public init(id: StopID, name: String, platformCode: String? = nil, description: String? = nil) {
      self.id = id
      self.name = name
      self.platformCode = platformCode
      self.description = description
    }
  }

  /// The label of each platform that its own data gives ("platform 2", "Platform 2",
  /// "Northbound"), or nil where it gives none that tells it from the others (the caller then
  /// says the direction: `towards(_:)`).
  ///
  /// - `platform_code` wins: "platform CODE".
  /// - Else the words of its name after those all the station's platforms share, when those
  ///   suffixes differ ("Tallaght Platform 1" / "Tallaght Platform 2" → "Platform 1", "Platform 2";
  ///   a lone short word takes the word before it: "Bay A" rather than "A").
  /// - Else its `stop_desc`, when the platforms' descriptions differ and it is not the name.
  public static func labels(_ platforms: [Platform]) -> [StopID: String] {
    var labels: [StopID: String] = [:]
    let suffixes = Self.suffixes(platforms.map(\.name))
    let descriptions = platforms.map { platform in
      platform.description.flatMap { text -> String? in
        let trimmed = text.trimmingSpaces()
        return trimmed.isEmpty || fold(trimmed) == fold(platform.name) ? nil : trimmed
      }
    }
    let distinctDescriptions = Set(descriptions.compactMap { $0.map(fold) }).count > 1
    for (index, platform) in platforms.enumerated() {
      if let code = platform.platformCode?.trimmingSpaces(), !code.isEmpty {
        labels[platform.id] = "platform \(code)"
      } else if let suffix = suffixes[index] {
        labels[platform.id] = suffix
      } else if distinctDescriptions, let description = descriptions[index] {
        labels[platform.id] = description
      }
    }
    return labels
  }

  /// "towards DESTINATION", for a platform nothing else names.
  public static func towards(_ destination: String) -> String { "towards \(destination)" }

  /// What each name adds after the words all `names` share, when that tells them apart (every
  /// name has some, and no two are the same); nil entries otherwise.
  static func suffixes(_ names: [String]) -> [String?] {
    let none = [String?](repeating: nil, count: names.count)
    guard names.count > 1 else { return none }
    let separators: Set<Character> = [" ", "-", "–", ",", "(", ")", "/", ":"]
    let words = names.map { $0.split(whereSeparator: { separators.contains($0) }).map(String.init) }
    var shared = 0
    while words.allSatisfy({ $0.count > shared }), Set(words.map { fold($0[shared]) }).count == 1 { shared += 1 }
    let suffixes = words.map { word -> String? in
      guard word.count > shared else { return nil }
      var start = shared
      // "A" alone says little: "Bay A", "Platform 2".
      if word.count - shared == 1, word[shared].count <= 3, shared > 0 { start -= 1 }
      return word[start...].joined(separator: " ")
    }
    guard suffixes.allSatisfy({ $0 != nil }), Set(suffixes.map { fold($0!) }).count == suffixes.count else { return none }
    return suffixes
  }

  /// The label of every platform of `station` in `store`: the rules above, then "towards" the
  /// first destination of the routes calling there, then the platform's name.
  /// - Throws: the store's errors.
  public static func labels(of station: TransitModel.Stop, in store: Store) throws -> [StopID: String] {
    let stops = try store.platforms(of: station)
    return try labels(for: stops, in: store)
  }

  /// The label of each of `platforms` (siblings of one station) in `store`.
  /// - Throws: the store's errors.
  public static func labels(for stops: [TransitModel.Stop], in store: Store) throws -> [StopID: String] {
    var platforms: [Platform] = []
    for stop in stops {
      let description = try store.attributes(ofStop: stop.id, feed: stop.feed)?.description
      platforms.append(Platform(id: stop.id, name: stop.name, platformCode: stop.platformCode, description: description))
    }
    var labels = labels(platforms)
    for stop in stops where labels[stop.id] == nil {
      let destination = try store.routesWithDestinations(at: stop).lazy.compactMap(\.destinations.first).first
      labels[stop.id] = destination.map(towards) ?? stop.name
    }
    return labels
  }
}

/// Case-insensitive comparison key.
private func fold(_ text: String) -> String { text.lowercased() }
