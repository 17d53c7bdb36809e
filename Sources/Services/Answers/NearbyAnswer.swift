import FoundationEssentials
import GTFS
import TransitModel

/// What `stops near` is asked: where from, how far, how many, and which stops count.
public struct NearbyRequest: Sendable {
  /// The farthest a nearby search looks, in metres (100 km).
  public static let maximumRadiusMeters = Int(Store.nearbyLimitMeters)

  public var point: Coordinate
  /// Only stops within this many metres; nil: the nearest, however far (up to 100 km).
  public var radiusMeters: Double?
  public var limit: Int
  /// Only stops served by one of these modes (none: every stop).
  public var modes: Set<TransitMode>
  /// A station once, with its platforms, instead of each platform.
  public var stations: Bool
  /// Only stops with wheelchair boarding.
  public var accessibleOnly: Bool

  public init(
    point: Coordinate, radiusMeters: Double? = nil, limit: Int = 10, modes: Set<TransitMode> = [], stations: Bool = false,
    accessibleOnly: Bool = false
  ) {
    self.point = point
    self.radiusMeters = radiusMeters
    self.limit = limit
    self.modes = modes
    self.stations = stations
    self.accessibleOnly = accessibleOnly
  }
}

/// The stops nearest a point, nearest first, each with its routes, wheelchair access, what
/// tells it apart from stops of the same name and the complex it is part of. Its `Encodable`
/// form is DESIGN.md's `stops near --json`.
public struct NearbyAnswer: Sendable {
  /// A platform of a station listed with `stations`.
  public struct Platform: Sendable {
    public var stop: Stop
    public var access: WheelchairAccess
    public var routes: [RouteSummary]
  }

  /// A complex a stop found is part of: one line for all its stops, where the first was.
  public struct Complex: Sendable {
    public var complex: StopComplex
    /// The walk's straight line to its nearest entrance, else to its nearest stop.
    public var meters: Double
    /// The routes calling at any of its parts.
    public var routes: [RouteSummary]
  }

  /// One stop found.
  public struct Entry: Sendable {
    public var stop: Stop
    public var distanceMeters: Double
    /// The routes calling at it (a station: at any of its platforms).
    public var routes: [RouteSummary]
    public var access: WheelchairAccess
    /// The stop's own wheelchair_boarding as the feed gives it.
    public var wheelchairBoarding: Int?
    /// What tells it apart from the other stops found of its name (`Store.distinguishingLabels`).
    public var label: String?
    /// With `stations`: a station's platforms.
    public var platforms: [Platform]
    /// The complex it is part of (itself, or its station), if any.
    public var complex: Complex?
  }

  public var request: NearbyRequest
  public var entries: [Entry]
  /// Whether several feeds are held (a stop is then named with its feed).
  public var namesFeed: Bool
}

extension TransitSession {
  /// The stops nearest `request.point` (`Store.nearby`), with what a rider reads of each.
  /// - Throws: the store's errors.
  public func nearby(_ request: NearbyRequest) throws -> NearbyAnswer {
    let limit = request.limit
    var found = try store.nearby(
      request.point, radiusMeters: request.radiusMeters, limit: request.accessibleOnly ? min(10_000, limit * 20) : limit,
      modes: request.modes, stations: request.stations)
    var access: [Stop: (WheelchairAccess, Int?)] = [:]
    for entry in found {
      let attributes = try store.attributes(ofStop: entry.stop.id, feed: entry.stop.feed)
      access[entry.stop] = (
        Accessibility.stop(own: attributes?.wheelchairBoarding, parent: attributes?.parentWheelchairBoarding),
        attributes?.wheelchairBoarding
      )
    }
    if request.accessibleOnly { found = Array(found.filter { access[$0.stop]?.0.passesFilter ?? false }.prefix(limit)) }
    // The complex each stop found is part of (itself, or its station): one line for all of them.
    let places = try store.places(grouping: found.map(\.stop))
    var complexes: [StopComplex: NearbyAnswer.Complex] = [:]
    let labels = try store.distinguishingLabels(found.map(\.stop))
    var entries: [NearbyAnswer.Entry] = []
    for (nearby, label) in zip(found, labels) {
      let member = try store.member(of: nearby.stop)
      var complex: NearbyAnswer.Complex?
      if let place = places.lazy.compactMap(\.complex).first(where: { $0.parts.contains(member) }) {
        if complexes[place] == nil {
          var routes: [RouteSummary] = []
          for part in place.parts { routes += try store.routes(at: part).filter { !routes.contains($0) } }
          complexes[place] = NearbyAnswer.Complex(
            complex: place, meters: try store.nearestEntranceMeters(of: place, from: request.point) ?? nearby.distanceMeters,
            routes: routes)
        }
        complex = complexes[place]
      }
      let platforms =
        request.stations && nearby.stop.isStation
        ? try store.platforms(of: nearby.stop).map { platform in
          NearbyAnswer.Platform(
            stop: platform, access: try Accessibility.stop(platform, in: store), routes: try store.routes(at: platform))
        } : []
      entries.append(
        NearbyAnswer.Entry(
          stop: nearby.stop, distanceMeters: nearby.distanceMeters, routes: nearby.routes, access: access[nearby.stop]?.0 ?? .unknown,
          wheelchairBoarding: access[nearby.stop]?.1, label: label, platforms: platforms, complex: complex))
    }
    return NearbyAnswer(request: request, entries: entries, namesFeed: store.feedNames.count > 1)
  }
}

/// DESIGN.md's stop members (`stops near`, `stops search`): its feed when several are held,
/// id, code, name and position.
struct StopMembers {
  var stop: Stop
  var namesFeed: Bool

  func encode(into members: inout KeyedEncodingContainer<JSONKey>) throws {
    if namesFeed { try members.encode(stop.feed.rawValue, forKey: "feed") }
    try members.encode(stop.id.rawValue, forKey: "stop_id")
    try members.encode(stop.code, forKey: "stop_code")
    try members.encode(stop.name, forKey: "name")
    try members.encode(stop.coordinate?.latitude, forKey: "lat")
    try members.encode(stop.coordinate?.longitude, forKey: "lon")
  }
}

extension NearbyAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for entry in entries {
      var members = list.nestedContainer(keyedBy: JSONKey.self)
      try StopMembers(stop: entry.stop, namesFeed: namesFeed).encode(into: &members)
      try members.encode((entry.distanceMeters * 10).rounded() / 10, forKey: "distance_m")
      try members.encode(entry.stop.locationType, forKey: "location_type")
      try members.encode(entry.stop.parentStation?.rawValue, forKey: "parent_station")
      try members.encode(entry.routes.map(\.shortName), forKey: "routes")
      try members.encode(entry.wheelchairBoarding, forKey: "wheelchair_boarding")
      try members.encode(entry.access.rawValue, forKey: "wheelchair_access")
      if request.stations && entry.stop.isStation {
        try members.encode(entry.platforms.map(\.stop.id.rawValue), forKey: "platforms")
      }
      if let complex = entry.complex { try ComplexAnswer(complex.complex, namesFeed: namesFeed).encode(into: &members, forKey: "complex") }
    }
  }
}

/// Where a rider's position came from when they gave none (`TransitSession.startingPoint`).
public enum StartingPoint: Sendable, Equatable {
  /// Their saved place 'home'.
  case home
  /// The position the environment gives (`TRANSIT_LOCATION`).
  case environment
  /// The middle of the network held.
  case networkCentre
}

extension TransitSession {
  /// Where the rider is when they did not say: their saved place 'home', else `environment`
  /// (the position the environment gives, read only when there is no 'home'), else, when
  /// `allowsCentre`, the middle of the network; nil when none of them is there.
  /// - Throws: the stores' errors, and what `environment` throws.
  public func startingPoint(environment: () throws -> Coordinate?, allowsCentre: Bool = true) throws -> (Coordinate, StartingPoint)? {
    if let home = try userData.openIfPresent()?.place(named: "home") {
      return (Coordinate(latitude: home.latitude, longitude: home.longitude), .home)
    }
    if let environment = try environment() { return (environment, .environment) }
    if allowsCentre, let centre = try store.networkCentre() { return (centre, .networkCentre) }
    return nil
  }
}
