import GTFS
import TransitModel

/// What a STOP argument named (`TransitSession.place(named:context:)`): one stop or station, a
/// complex, or the candidates a rider chooses from, each with what tells it apart, so every
/// command lists them the same way.
public struct PlaceLookup: Sendable {
  /// Where the name is read from: alone, or after other stops (a board's `--via`, plan's TO,
  /// a commute's `--to`), which narrow a name fitting several places.
  public enum Context: Sendable {
    case alone
    /// Places a trip from (or a walk from) `origin` reaches.
    case reachableFrom([Stop])
    /// Places from which `destination` is reached.
    case reaching([Stop])
  }

  /// What the name came to.
  public enum Outcome: Sendable, Hashable {
    /// One stop or station, or a complex.
    case found(StopPlace)
    /// Several stops fit: `candidates` lists them.
    case ambiguous
    /// Nothing fits: `candidates` are the closest names.
    case notFound
  }

  /// A stop a rider may have meant.
  public struct Candidate: Sendable, Hashable {
    public var stop: Stop
    /// What tells it apart from the other candidates (`Store.distinguishingLabels`).
    public var label: String?
    /// Why it is there when the context narrowed the candidates.
    public var reach: StopReach?

    public init(stop: Stop, label: String?, reach: StopReach?) {
      self.stop = stop
      self.label = label
      self.reach = reach
    }
  }

  /// The name as given.
  public var text: String
  public var outcome: Outcome
  /// The stops to choose from: for `.ambiguous` those that fit (platforms of one station
  /// offered after the station itself), for `.notFound` the closest names, for a complex
  /// found its parts (a command taking one stop lists them).
  public var candidates: [Candidate]
  /// How many stops fit (without the station offered).
  public var matchCount: Int
  /// When the context narrowed the places: how many fit the name.
  public var placeCount: Int?
  /// When the context narrowed the places to the one found: why it was taken.
  public var reach: StopReach?
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool
}

extension TransitSession {
  /// The stop, station or complex `text` names (an id, `FEED:id`, a code or a name), read in
  /// `context`.
  /// - Throws: the store's errors.
  public func place(named text: String, context: PlaceLookup.Context = .alone) throws -> PlaceLookup {
    try PlaceLookup.find(text, in: store, context: context)
  }
}

extension PlaceLookup {
  /// `TransitSession.place(named:context:)` over `store`.
  /// - Throws: the store's errors.
  public static func find(_ text: String, in store: Store, context: Context = .alone) throws -> PlaceLookup {
    let answer: ContextualResolution
    switch context {
    case .alone: answer = ContextualResolution(resolution: try store.resolveStop(text), reaches: [:])
    case .reachableFrom(let origin): answer = try store.resolveStop(text, reachableFrom: origin)
    case .reaching(let destination): answer = try store.resolveStop(text, reaching: destination)
    }
    func candidates(_ stops: [Stop]) -> [Candidate] {
      let labels = (try? store.distinguishingLabels(stops)) ?? stops.map { _ in nil }
      return zip(stops, labels).map { Candidate(stop: $0, label: $1, reach: answer.reaches[$0]) }
    }
    var lookup = PlaceLookup(
      text: text, outcome: .notFound, candidates: [], matchCount: 0, placeCount: answer.candidateCount, reach: nil,
      namesFeed: store.feedNames.count > 1)
    switch answer.resolution {
    case .found(let stop):
      lookup.outcome = .found(.stop(stop))
      lookup.matchCount = 1
      lookup.reach = answer.candidateCount == nil ? nil : answer.reaches[stop]
    case .complex(let complex):
      lookup.outcome = .found(.complex(complex))
      lookup.matchCount = 1
      lookup.candidates = candidates(complex.parts)
      lookup.reach = answer.candidateCount == nil ? nil : complex.parts.lazy.compactMap { answer.reaches[$0] }.first
    case .ambiguous(var stops):
      lookup.outcome = .ambiguous
      lookup.matchCount = stops.count
      if answer.candidateCount == nil {
        // Platforms of one station: offer the station itself first (its departures are all of theirs).
        let parents = Set(stops.map { $0.parentStation.map { "\($0)" } ?? "" })
        if parents.count == 1, let first = stops.first, let station = try store.parent(of: first), !stops.contains(station) {
          stops.insert(station, at: 0)
        }
      }
      lookup.candidates = candidates(stops)
    case .notFound(let suggestions):
      lookup.candidates = candidates(suggestions)
    }
    return lookup
  }
}
