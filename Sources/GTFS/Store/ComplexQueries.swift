import SQLite
import TransitModel

// MARK: - Public values

/// A name resolved after another one (`Store.resolveStop(_:reachableFrom:)`).
public struct ContextualResolution: Sendable, Equatable {
  /// The answer: `.found` or `.complex` when one candidate (or none but one) is reachable.
  public var resolution: StopResolution
  /// When the name fitted several places and the context narrowed them: how many it fitted.
  public var candidateCount: Int?
  /// Why each candidate kept is reachable (by feed and stop_id).
  public var reaches: [Stop: StopReach]

  /// An answer; `candidateCount` only when the context narrowed the candidates.
  public init(resolution: StopResolution, candidateCount: Int? = nil, reaches: [Stop: StopReach]) {
    self.resolution = resolution
    self.candidateCount = candidateCount
    self.reaches = reaches
  }
}

// MARK: - Store: complexes

extension Store {
  /// Members joined across feeds at most this far apart (as `StopComplexes.radiusMeters`).
  static let complexRadiusMeters = StopComplexes.radiusMeters

  /// The top of `stop`'s tree: its station when it has one held, else itself.
  public func member(of stop: Stop) throws -> Stop {
    if stop.parentStation != nil, let parent = try parent(of: stop) { return parent }
    return stop
  }

  /// The complex `stop` (or its station) is part of, in its feed and across the feeds held;
  /// nil when it stands alone.
  /// - Complexity: a seek or two per part in `complexes`; per other feed, a name lookup and an
  ///   id seek per part.
  public func complex(containing stop: Stop, name: String? = nil) throws -> StopComplex? {
    let first = try member(of: stop)
    var parts: [Stop] = []
    var included: Set<Stop> = []
    var queue = [first]
    while let next = queue.popLast(), parts.count < 200 {
      guard !included.contains(next) else { continue }
      for part in try localComplex(of: next) where !included.contains(part) {
        included.insert(part)
        parts.append(part)
        queue += try acrossFeeds(part)
      }
    }
    guard parts.count > 1 else { return nil }
    parts.sort { ($0.feed.rawValue, $0.id.rawValue) < ($1.feed.rawValue, $1.id.rawValue) }
    return StopComplex(name: name ?? first.name, parts: parts)
  }

  /// The entrances (children of location_type 2) of a station, by stop_id.
  public func entrances(of station: Stop) throws -> [Stop] {
    guard let reader = reader(station.feed), let idx = try reader.stopIndex(id: station.id.rawValue) else { return [] }
    return try reader.children(of: idx).filter { $0.locationType == 2 }
  }

  /// The metres from `point` to the nearest way into `complex`: its parts' entrances, else
  /// its parts and their platforms; nil when none is placed.
  public func nearestEntranceMeters(of complex: StopComplex, from point: Coordinate) throws -> Double? {
    var entrances: [Stop] = []
    for part in complex.parts { entrances += try self.entrances(of: part) }
    let ways = entrances.isEmpty ? try withPlatforms(complex.parts) : entrances
    return ways.compactMap { $0.coordinate.map(point.distanceMeters) }.min()
  }

  /// `stops` as places, in order: each stop that is (or belongs to a station that is) part of
  /// a complex becomes that complex, listed once where its first stop was; the others stay as
  /// they are (a platform outside any complex stays a platform).
  /// - Complexity: `complex(containing:)` per stop.
  public func places(grouping stops: [Stop]) throws -> [StopPlace] {
    var places: [StopPlace] = []
    for stop in stops {
      let member = try member(of: stop)
      if places.contains(where: { $0.complex?.parts.contains(member) == true }) { continue }
      if let complex = try complex(containing: member) {
        places.append(.complex(complex))
      } else {
        places.append(.stop(stop))
      }
    }
    return places
  }

  /// The routes calling at any of `place`'s parts (a station: any platform), each once, in the
  /// order of the parts.
  /// - Complexity: `routes(at:)` per part.
  public func routes(at place: StopPlace) throws -> [RouteSummary] {
    var routes: [RouteSummary] = []
    for part in place.parts {
      for route in try self.routes(at: part) where !routes.contains(route) { routes.append(route) }
    }
    return routes
  }

  /// The stop ids a trip calls at to call at any of `places`: each part, and a station's
  /// platforms (realtime and the history name the platform).
  /// - Complexity: a platform lookup per station.
  public func callStopIDs(of places: [StopPlace]) throws -> Set<StopID> {
    var ids: Set<StopID> = []
    for place in places {
      for part in place.parts {
        ids.insert(part.id)
        if part.isStation { for platform in try platforms(of: part) { ids.insert(platform.id) } }
      }
    }
    return ids
  }

  /// The one complex `stops` (stations, platforms, stops) all belong to, when they are parts
  /// of at least two members; nil otherwise.
  func complex(of stops: [Stop], name: String?) throws -> StopComplex? {
    var members: [Stop] = []
    for stop in stops {
      let member = try member(of: stop)
      if !members.contains(member) { members.append(member) }
    }
    guard members.count > 1, let complex = try complex(containing: members[0], name: name) else { return nil }
    return members.allSatisfy(complex.parts.contains) ? complex : nil
  }

  /// `member` and the other members of its feed's stored complex.
  private func localComplex(of member: Stop) throws -> [Stop] {
    guard let reader = reader(member.feed), let idx = try reader.stopIndex(id: member.id.rawValue) else { return [member] }
    let parts = try reader.complexMembers(of: idx)
    return parts.isEmpty ? [member] : parts
  }

  /// The members of other feeds that join `member` across feeds: equal folded name within the
  /// radius, or a station of the same stop_id within it.
  private func acrossFeeds(_ member: Stop) throws -> [Stop] {
    guard let here = member.coordinate, feeds.count > 1 else { return [] }
    let name = SearchText(member.name)
    var found: [Stop] = []
    for feed in feeds where feed.name != member.feed {
      // A feed whose stops all lie far away is not opened (its box is in the catalog): the
      // same street names recur in many networks.
      guard distanceLowerBound(feed, from: here) <= Self.complexRadiusMeters else { continue }
      var candidates = try feed.stops(named: name).filter { $0.parentStation == nil }
      if member.isStation, let idx = try feed.stopIndex(id: member.id.rawValue), let same = try feed.stop(idx), same.isStation {
        candidates.append(same)
      }
      for candidate in candidates where !found.contains(candidate) {
        guard let there = candidate.coordinate, here.distanceMeters(to: there) <= Self.complexRadiusMeters else { continue }
        found.append(candidate)
      }
    }
    return found
  }

  // MARK: - Names in context

  /// How `candidate` (a stop, a station or a complex's part) is reached from `origin`: a trip
  /// calling at one of `origin`'s stops (a station's platforms included), then at one of the
  /// candidate's; else a walk within the footpath radius between any of their stops; nil
  /// when neither.
  /// - Complexity: per stop of either side one covering-index read of the patterns through it.
  public func reach(from origin: [Stop], to candidate: [Stop]) throws -> StopReach? {
    for feed in feeds {
      let from = origin.filter { $0.feed == feed.name }, to = candidate.filter { $0.feed == feed.name }
      guard !from.isEmpty, !to.isEmpty else { continue }
      var boarding: [Int64: Int] = [:]  // pattern: its first position where one may board
      for stop in from {
        guard let idx = try feed.stopIndex(id: stop.id.rawValue) else { continue }
        for platform in try feed.boardingStops(idx) {
          for call in try feed.patternPositions(atStop: platform) where call.pickupType != 1 {
            boarding[call.pattern] = min(boarding[call.pattern] ?? .max, call.position)
          }
        }
      }
      for stop in to {
        guard let idx = try feed.stopIndex(id: stop.id.rawValue) else { continue }
        for platform in try feed.boardingStops(idx) {
          for call in try feed.patternPositions(atStop: platform) where call.dropOffType != 1 {
            if let start = boarding[call.pattern], start < call.position {
              return .trip(route: try feed.routeName(ofPattern: call.pattern))
            }
          }
        }
      }
    }
    var nearest: Double?
    for a in try withPlatforms(origin) {
      for b in try withPlatforms(candidate) {
        guard let p = a.coordinate, let q = b.coordinate else { continue }
        let meters = p.distanceMeters(to: q)
        if meters <= Schema.footpathRadiusMeters, meters < (nearest ?? .infinity) { nearest = meters }
      }
    }
    return nearest.map { .walk(meters: Int($0.rounded())) }
  }

  /// `stops` and, for each station among them, its platforms.
  private func withPlatforms(_ stops: [Stop]) throws -> [Stop] {
    var result: [Stop] = []
    for stop in stops {
      result.append(stop)
      if stop.isStation { result += try platforms(of: stop) }
    }
    return result
  }

  /// Resolves `text` as `resolveStop` does; when that finds several, keeps those reachable from
  /// `origin` (`reach(from:to:)`), a station standing for its platforms: one left is the
  /// answer, several are the candidates (each with its reach), none leaves the list as it was.
  /// - Complexity: `resolveStop`, then `reach` per station or stop among the candidates.
  public func resolveStop(_ text: String, reachableFrom origin: [Stop]) throws -> ContextualResolution {
    try resolveStop(text) { candidate in try reach(from: origin, to: candidate) }
  }

  /// Resolves `text` as `resolveStop(_:reachableFrom:)` does, keeping instead the candidates
  /// from which `destination` is reachable (plan's FROM when TO is known).
  public func resolveStop(_ text: String, reaching destination: [Stop]) throws -> ContextualResolution {
    try resolveStop(text) { candidate in try reach(from: candidate, to: destination) }
  }

  private func resolveStop(_ text: String, keeping reachOf: ([Stop]) throws -> StopReach?) throws -> ContextualResolution {
    let plain = try resolveStop(text)
    guard case .ambiguous(let stops) = plain else { return ContextualResolution(resolution: plain, reaches: [:]) }
    var places: [StopPlace] = []
    for stop in stops {
      let member = try member(of: stop)
      if places.contains(where: { $0.parts.contains(member) }) { continue }
      if let complex = try complex(containing: member, name: member.name) {
        places.append(.complex(complex))
      } else {
        places.append(.stop(member))
      }
    }
    var kept: [(StopPlace, StopReach)] = []
    for place in places {
      if let reach = try reachOf(place.parts) { kept.append((place, reach)) }
    }
    guard !kept.isEmpty, kept.count < places.count else { return ContextualResolution(resolution: plain, reaches: [:]) }
    var reaches: [Stop: StopReach] = [:]
    for (place, reach) in kept {
      for part in place.parts { reaches[part] = reach }
    }
    if kept.count == 1 {
      switch kept[0].0 {
      case .stop(let stop): return ContextualResolution(resolution: .found(stop), candidateCount: places.count, reaches: reaches)
      case .complex(let complex):
        return ContextualResolution(resolution: .complex(complex), candidateCount: places.count, reaches: reaches)
      }
    }
    return ContextualResolution(resolution: .ambiguous(kept.flatMap { $0.0.parts }), candidateCount: places.count, reaches: reaches)
  }
}

// MARK: - FeedReader

extension FeedReader {
  /// The members of the stored complex `idx` is a member of, by stop_id; empty when it is in
  /// none (or the timetable predates complexes).
  func complexMembers(of idx: Int64) throws -> [Stop] {
    let select = try db.cached(
      """
      SELECT \(Self.stopColumns) FROM complexes c JOIN complexes m ON m.complex_idx = c.complex_idx
        JOIN stops s ON s.stop_idx = m.stop_idx WHERE c.stop_idx = ? ORDER BY s.stop_id
      """)
    select.bind(idx, at: 1)
    var result: [Stop] = []
    while try select.step() { result.append(readStop(select)) }
    return result
  }

  /// A pattern's call at a stop, as reachability reads it.
  struct PatternPosition {
    var pattern: Int64
    var position: Int
    var pickupType: Int
    var dropOffType: Int
  }

  /// The patterns calling at `stop` and where (the covering by-stop index alone).
  func patternPositions(atStop stop: Int64) throws -> [PatternPosition] {
    let select = try db.cached(
      "SELECT pattern_idx, position, pickup_type, drop_off_type FROM pattern_stops WHERE stop_idx = ?")
    select.bind(stop, at: 1)
    var result: [PatternPosition] = []
    while try select.step() {
      result.append(
        PatternPosition(pattern: select.int64(0), position: select.int(1), pickupType: select.int(2), dropOffType: select.int(3)))
    }
    return result
  }

  /// The stops `pattern` lets riders off at after `position`.
  func laterAlightingStops(of pattern: Int64, after position: Int) throws -> Set<Int64> {
    let select = try db.cached(
      "SELECT stop_idx FROM pattern_stops WHERE pattern_idx = ? AND position > ? AND drop_off_type <> 1")
    select.bind(pattern, at: 1)
    select.bind(position, at: 2)
    var result: Set<Int64> = []
    while try select.step() { result.insert(select.int64(0)) }
    return result
  }

  /// The short name of `pattern`'s route (its id when it has none).
  func routeName(ofPattern pattern: Int64) throws -> String {
    let select = try db.cached("SELECT route_idx FROM patterns WHERE pattern_idx = ?")
    select.bind(pattern, at: 1)
    guard try select.step(), let route = try route(select.int64(0)) else { return "" }
    return route.shortName
  }
}
