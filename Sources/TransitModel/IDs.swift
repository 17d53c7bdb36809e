/// A GTFS identifier. IDs are text whatever they look like ("007" is not 7).
public protocol GTFSIdentifier: Hashable, Sendable, Comparable, RawRepresentable,
  ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
  init(_ rawValue: String)
}

extension GTFSIdentifier {
  public init(rawValue: String) { self.init(rawValue) }
  public init(stringLiteral value: String) { self.init(value) }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// `stops.stop_id`.
public struct StopID: GTFSIdentifier {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// `routes.route_id`.
public struct RouteID: GTFSIdentifier {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// `trips.trip_id`.
public struct TripID: GTFSIdentifier {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// `calendar.service_id` / `calendar_dates.service_id`.
public struct ServiceID: GTFSIdentifier {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// `agency.agency_id`.
public struct AgencyID: GTFSIdentifier {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The name a timetable is held under in the data directory (one SQLite file per feed).
public struct FeedName: GTFSIdentifier {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// What `isValid` accepts, for error messages.
  public static let rule = "1 to 64 letters, digits, '-' or '_', not starting with '-'"

  /// Whether `name` can name a feed: 1 to 64 ASCII letters, digits, `-` or `_`, not starting
  /// with `-`.
  ///
  /// Every feed name, wherever it comes from (an argument, `feeds.json`, a name derived from a
  /// URL or an agency), passes this one check before it becomes part of a path: it cannot hold
  /// `/`, `.` or `..`, so `feeds/NAME.sqlite` never leaves the feeds folder.
  public static func isValid(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 64, name.utf8.first != UInt8(ascii: "-") else { return false }
    return name.utf8.allSatisfy { byte in
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
  }
}
