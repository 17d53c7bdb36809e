import FoundationEssentials
import GTFS
import TransitModel

/// What `routes` is asked: the routes a text names (else all), only those calling at a place
/// and only those of some modes.
public struct RoutesRequest: Sendable {
  /// A route's short name, long name or id (`Store.searchRoutes`); nil: every route.
  public var text: String?
  /// Only the routes calling at this place (a station: any platform; a complex: any part).
  public var stop: StopPlace?
  /// Only routes of these modes (none: every route).
  public var modes: Set<TransitMode>

  public init(text: String? = nil, stop: StopPlace? = nil, modes: Set<TransitMode> = []) {
    self.text = text
    self.stop = stop
    self.modes = modes
  }
}

/// The routes asked for, each with its agency, colours, main destinations and trip count. Its
/// `Encodable` form is `routes --json`.
public struct RoutesAnswer: Sendable {
  public var request: RoutesRequest
  public var listings: [RouteListing]
  /// Whether several feeds are held (a route is then named with its feed).
  public var namesFeed: Bool
}

extension TransitSession {
  /// The routes `request` asks for: those its text names, best match first (else every
  /// route), that call at its stop and are of its modes.
  /// - Throws: the store's errors.
  public func routes(_ request: RoutesRequest) throws -> RoutesAnswer {
    var listings = try request.text.map { try store.searchRoutes($0).map(\.listing) } ?? store.routeListings()
    if let place = request.stop {
      let serving = Set(try store.routes(at: place).map { $0.feed.rawValue + "\u{0}" + $0.id.rawValue })
      listings.removeAll { !serving.contains($0.route.feed.rawValue + "\u{0}" + $0.route.id.rawValue) }
    }
    if !request.modes.isEmpty { listings.removeAll { !request.modes.contains($0.route.mode) } }
    return RoutesAnswer(request: request, listings: listings, namesFeed: store.feedNames.count > 1)
  }
}

/// A route's colours as the answers give them.
public enum RouteColour {
  /// "#F6A800" from "f6a800"; nil for anything but six hex digits.
  public static func hex(_ color: String?) -> String? {
    guard let color, color.count == 6, color.allSatisfy(\.isHexDigit) else { return nil }
    return "#" + color.uppercased()
  }
}

/// A route's own members, as `routes --json` and `route show --json` give them.
struct RouteMembers {
  var listing: RouteListing
  var namesFeed: Bool

  func encode(into members: inout KeyedEncodingContainer<JSONKey>) throws {
    let route = listing.route
    if namesFeed { try members.encode(route.feed.rawValue, forKey: "feed") }
    try members.encode(route.id.rawValue, forKey: "route_id")
    try members.encode(route.shortName, forKey: "short_name")
    try members.encode(route.longName, forKey: "long_name")
    try members.encode(route.mode.rawValue, forKey: "mode")
    try members.encode(route.routeType, forKey: "route_type")
    try members.encode(RouteColour.hex(route.color), forKey: "color")
    try members.encode(RouteColour.hex(listing.textColor), forKey: "text_color")
    try members.encode(listing.agencyName, forKey: "agency")
    try members.encode(listing.destinations, forKey: "destinations")
    try members.encode(listing.tripCount, forKey: "trips")
  }
}

extension RoutesAnswer: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for listing in listings {
      var members = list.nestedContainer(keyedBy: JSONKey.self)
      try RouteMembers(listing: listing, namesFeed: namesFeed).encode(into: &members)
    }
  }
}
