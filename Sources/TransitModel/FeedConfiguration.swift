/// The configured feeds (issue 33: plain data the command line names; reading and writing
/// the file, expanding variables and redacting secrets are Fetch's, in extensions there).

/// One configured agency: its GTFS ZIP, up to three realtime feeds, request headers and how
/// often its realtime is published.
public struct FeedDefinition: Codable, Equatable, Sendable {
  /// The feed's name; `transit ingest` holds its timetable under it.
  public var name: String
  /// The GTFS ZIP's URL.
  public var gtfs: String?
  /// The GTFS-Realtime trip updates URL.
  public var tripUpdates: String?
  /// The GTFS-Realtime vehicle positions URL.
  public var vehiclePositions: String?
  /// The GTFS-Realtime service alerts URL.
  public var alerts: String?
  /// Request headers as written: values may name environment variables (`$MTA_KEY`).
  public var headers: [HeaderTemplate]
  /// The realtime publish period in seconds, when set by `--poll`.
  public var pollSeconds: Int?

  /// A feed with the given URLs, headers and period.
  public init(
    name: String, gtfs: String? = nil, tripUpdates: String? = nil, vehiclePositions: String? = nil,
    alerts: String? = nil, headers: [HeaderTemplate] = [], pollSeconds: Int? = nil
  ) {
    self.name = name
    self.gtfs = gtfs
    self.tripUpdates = tripUpdates
    self.vehiclePositions = vehiclePositions
    self.alerts = alerts
    self.headers = headers
    self.pollSeconds = pollSeconds
  }

  enum CodingKeys: String, CodingKey {
    case name, gtfs, headers
    case tripUpdates = "trip_updates"
    case vehiclePositions = "vehicle_positions"
    case alerts
    case pollSeconds = "poll_seconds"
  }

  /// The realtime URLs, labelled by kind, in a fixed order.
  public var realtimeURLs: [(kind: String, url: String)] {
    [("trip-updates", tripUpdates), ("vehicle-positions", vehiclePositions), ("alerts", alerts)]
      .compactMap { kind, url in url.map { (kind, $0) } }
  }

  /// The period realtime snapshots stay fresh for (default 30 s).
  public var periodSeconds: Int { pollSeconds ?? Self.defaultPeriodSeconds }

  /// A feed's realtime period when `--poll` does not set it: 30 s.
  public static let defaultPeriodSeconds = 30
}

/// A request header as configured: `x-api-key: $MTA_KEY`.
public struct HeaderTemplate: Codable, Equatable, Sendable {
  /// The header's name.
  public var name: String
  /// The value as written, `$VARIABLES` unexpanded.
  public var value: String

  /// A header template.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }

  /// Parses `Name: value`.
  public static func parse(_ text: String) -> HeaderTemplate? {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let name = text[..<colon].trimmingSpaces()
    let value = text[text.index(after: colon)...].trimmingSpaces()
    guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { return nil }
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), !value.isEmpty else { return nil }
    return HeaderTemplate(name: name, value: value)
  }
}

/// The configured feeds, kept as `CONFIG/feeds.json` (mode 0600, written atomically: see Fetch).
public struct FeedConfiguration: Codable, Equatable, Sendable {
  /// The feeds, in the order they were added.
  public var feeds: [FeedDefinition]

  /// A configuration holding `feeds`.
  public init(feeds: [FeedDefinition] = []) { self.feeds = feeds }

  /// The feed called `name`.
  public func feed(named name: String) -> FeedDefinition? { feeds.first { $0.name == name } }
}
