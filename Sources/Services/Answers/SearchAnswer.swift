import FoundationEssentials
import GTFS
import TransitModel

/// What `stops search` is asked: the text, where the rider is (nearest first), how many.
public struct SearchRequest: Sendable {
  /// A stop code, a name, or the start of its words.
  public var text: String
  /// Nearest first from here within each kind of match; nil: by how well the name fits.
  public var near: Coordinate?
  public var limit: Int

  public init(text: String, near: Coordinate? = nil, limit: Int = 10) {
    self.text = text
    self.near = near
    self.limit = limit
  }
}

/// The stops a text names (`Store.search`): the code first, then the whole name, then the
/// start of its words, then a typo or two; each with what tells it apart from the others of
/// its name and the complex it is part of. Its `Encodable` form is `stops search --json`.
public struct SearchAnswer: Sendable {
  /// One stop found.
  public struct Match: Sendable {
    public var stop: Stop
    /// How the text matched it.
    public var kind: StopMatchKind
    /// From `request.near`, when given.
    public var distanceMeters: Double?
    /// What tells it apart from the other stops found of its name (`Store.distinguishingLabels`).
    public var label: String?
    /// The complex it is part of (itself, or its station), if any.
    public var complex: StopComplex?
  }

  public var request: SearchRequest
  public var matches: [Match]
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool
}

extension TransitSession {
  /// The stops `request.text` names, best match first (`Store.search`).
  /// - Throws: the store's errors.
  public func search(_ request: SearchRequest) throws -> SearchAnswer {
    let found = try store.search(request.text, near: request.near, limit: request.limit)
    // Each match that is (or is a platform of) part of a complex: the complex.
    let places = try store.places(grouping: found.map(\.stop))
    let labels = found.isEmpty ? [] : try store.distinguishingLabels(found.map(\.stop))
    var matches: [SearchAnswer.Match] = []
    for (match, label) in zip(found, labels) {
      let member = try store.member(of: match.stop)
      matches.append(
        SearchAnswer.Match(
          stop: match.stop, kind: match.kind, distanceMeters: match.distanceMeters, label: label,
          complex: places.lazy.compactMap(\.complex).first { $0.parts.contains(member) }))
    }
    return SearchAnswer(request: request, matches: matches, namesFeed: store.feedNames.count > 1)
  }
}

extension StopMatchKind {
  /// The `match` value in JSON.
  var jsonName: String {
    switch self {
    case .code: return "code"
    case .name: return "name"
    case .words: return "words"
    case .typo: return "typo"
    }
  }
}

extension SearchAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for match in matches {
      var members = list.nestedContainer(keyedBy: JSONKey.self)
      try StopMembers(stop: match.stop, namesFeed: namesFeed).encode(into: &members)
      if let complex = match.complex { try ComplexAnswer(complex, namesFeed: namesFeed).encode(into: &members, forKey: "complex") }
      try members.encode(match.stop.locationType, forKey: "location_type")
      try members.encode(match.stop.parentStation?.rawValue, forKey: "parent_station")
      try members.encode(match.kind.jsonName, forKey: "match")
      try members.encode(match.distanceMeters.map { ($0 * 10).rounded() / 10 }, forKey: "distance_m")
    }
  }
}
