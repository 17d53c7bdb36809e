/// A route's status, green, yellow or red: what the alerts informing it say (Merge's
/// `RouteStatus(effect:)`), as the MTA app shows saved routes.
public enum RouteStatus: Int, Sendable, Comparable, CaseIterable {
  /// No alert affects the route (or only alerts with `NO_EFFECT`).
  case green
  /// Altered service: detour, modified or reduced service, stop moved, additional service,
  /// accessibility issues, other or unknown effects.
  case yellow
  /// No service or significant delays.
  case red

  /// "green", "yellow", "red".
  public var name: String {
    switch self {
    case .green: "green"
    case .yellow: "yellow"
    case .red: "red"
    }
  }

  /// Green before yellow before red.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
