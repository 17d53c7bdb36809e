import GTFS
import TransitModel

/// What a ROUTE argument named (`TransitSession.route(named:)`): one route, or the routes a
/// rider chooses from, so every command lists them the same way.
public struct RouteLookup: Sendable {
  /// What the name came to.
  public enum Outcome: Sendable, Hashable {
    /// Exactly one route.
    case found(RouteSummary)
    /// Several routes fit: `candidates`.
    case ambiguous
    /// Nothing fits; `candidates` are the closest names (maybe none).
    case notFound
  }

  /// The text looked up.
  public var text: String
  public var outcome: Outcome
  /// The routes fitting (`ambiguous`) or the closest names (`notFound`).
  public var candidates: [RouteSummary]
  /// Whether several feeds are held (a route is then named with its feed).
  public var namesFeed: Bool

  /// What `text` names among `store`'s routes (`Store.resolveRoute`).
  /// - Throws: the store's errors.
  public static func find(_ text: String, in store: Store) throws -> RouteLookup {
    let namesFeed = store.feedNames.count > 1
    switch try store.resolveRoute(text) {
    case .found(let route):
      return RouteLookup(text: text, outcome: .found(route), candidates: [], namesFeed: namesFeed)
    case .ambiguous(let routes):
      return RouteLookup(text: text, outcome: .ambiguous, candidates: routes, namesFeed: namesFeed)
    case .notFound(let suggestions):
      return RouteLookup(text: text, outcome: .notFound, candidates: suggestions, namesFeed: namesFeed)
    }
  }
}

extension TransitSession {
  /// What a ROUTE argument names: its route_id, short name or long name (typos forgiven).
  /// - Throws: the store's errors.
  public func route(named text: String) throws -> RouteLookup { try RouteLookup.find(text, in: store) }
}
