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
}
