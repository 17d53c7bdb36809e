/// A stop, station or other location from stops.txt.
public struct Stop: Hashable, Sendable {
  /// The feed it comes from.
  public var feed: FeedName
  /// `stops.stop_id`.
  public var id: StopID
  /// `stop_code`, the number riders see on the pole.
  public var code: String?
  /// `stop_name`.
  public var name: String
  /// nil for locations without a position (generic nodes, boarding areas may omit it).
  public var coordinate: Coordinate?
  /// `location_type`: 0 stop or platform, 1 station, 2 entrance, 3 generic node, 4 boarding area.
  public var locationType: Int
  /// The station this stop belongs to.
  public var parentStation: StopID?
  /// `platform_code` ("A", "3").
  public var platformCode: String?

  /// Creates a stop.
  public init(
    feed: FeedName, id: StopID, code: String?, name: String, coordinate: Coordinate?,
    locationType: Int = 0, parentStation: StopID? = nil, platformCode: String? = nil
  ) {
    self.feed = feed
    self.id = id
    self.code = code
    self.name = name
    self.coordinate = coordinate
    self.locationType = locationType
    self.parentStation = parentStation
    self.platformCode = platformCode
  }

  /// Whether this is a station (location_type 1), whose departures are its platforms'.
  public var isStation: Bool { locationType == 1 }
}

/// A route, as riders know it.
public struct RouteSummary: Hashable, Sendable {
  /// The feed it comes from.
  public var feed: FeedName
  /// `routes.route_id`.
  public var id: RouteID
  /// `route_short_name`, else the long name, else the id.
  public var shortName: String
  /// `route_long_name`.
  public var longName: String?
  /// `route_type`, extended types kept.
  public var routeType: Int
  /// `route_color` as six hex digits, if the feed gives one.
  public var color: String?

  /// Creates a route summary.
  public init(feed: FeedName, id: RouteID, shortName: String, longName: String?, routeType: Int, color: String?) {
    self.feed = feed
    self.id = id
    self.shortName = shortName
    self.longName = longName
    self.routeType = routeType
    self.color = color
  }

  /// The mode riders call it by.
  public var mode: TransitMode { TransitMode(routeType: routeType) }
}

/// A mode of transport, from `route_type` (basic 0–12 and the extended 100–1799 types).
public enum TransitMode: String, Hashable, Sendable, CaseIterable {
  case tram, subway, rail, bus, ferry, cable, gondola, funicular, trolleybus, monorail, other

  /// The mode of a GTFS `route_type`, extended types (Google's "Extended GTFS Route Types")
  /// mapped to the nearest basic one.
  public init(routeType: Int) {
    switch routeType {
    case 0: self = .tram
    case 1: self = .subway
    case 2: self = .rail
    case 3: self = .bus
    case 4: self = .ferry
    case 5: self = .cable
    case 6: self = .gondola
    case 7: self = .funicular
    case 11: self = .trolleybus
    case 12: self = .monorail
    case 100..<200: self = .rail  // railway service
    case 200..<300: self = .bus  // coach
    case 400..<405: self = .subway  // urban railway, metro, underground
    case 405: self = .monorail
    case 400..<500: self = .subway
    case 700..<800: self = .bus
    case 800..<900: self = .trolleybus
    case 900..<1000: self = .tram
    case 1000..<1100, 1200..<1300: self = .ferry  // water transport, ferry
    case 1300..<1400: self = .gondola  // aerial lift (1301 telecabin; cable car in the old list)
    case 1400..<1500: self = .funicular
    case 1500..<1600: self = .bus  // taxi services: closest to a bus for riders
    case 1700..<1800: self = .other
    default: self = .other
    }
  }
}
