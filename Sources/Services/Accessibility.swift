import GTFS
import TransitModel

/// Whether a rider using a wheelchair can board: a stop's `wheelchair_boarding` or a trip's
/// `wheelchair_accessible`, read as the GTFS reference says.
public enum WheelchairAccess: String, Sendable, Hashable {
  /// 1: boarding is possible (at the stop), or the vehicle takes at least one wheelchair.
  case accessible
  /// 2: not possible.
  case notAccessible = "not_accessible"
  /// 0 or empty, with nothing to inherit: the feed does not say.
  case unknown

  /// Whether the `--accessible` filters keep it: only what the feed says is accessible
  /// (unknown counts as not accessible).
  public var passesFilter: Bool { self == .accessible }
}

/// The GTFS reference's accessibility rules, apart from where the values come from.
public enum Accessibility {
  /// A stop's access from its own `wheelchair_boarding` and its parent station's: "0 or empty"
  /// on a stop with a parent station inherits the station's value (stops.txt,
  /// wheelchair_boarding, "For child stops"); 1 and 2 are the stop's own word.
  public static func stop(own: Int?, parent: Int?) -> WheelchairAccess {
    switch own {
    case 1: return .accessible
    case 2: return .notAccessible
    default:
      switch parent {
      case 1: return .accessible
      case 2: return .notAccessible
      default: return .unknown
      }
    }
  }

  /// A trip's access from `wheelchair_accessible`.
  public static func trip(_ raw: Int?) -> WheelchairAccess {
    switch raw {
    case 1: return .accessible
    case 2: return .notAccessible
    default: return .unknown
    }
  }

  /// The access of `stop` in `store`, inherited from its station as the reference says.
  /// - Throws: the store's errors.
  public static func stop(_ stop: TransitModel.Stop, in store: Store) throws -> WheelchairAccess {
    guard let attributes = try store.attributes(ofStop: stop.id, feed: stop.feed) else { return .unknown }
    return Self.stop(own: attributes.wheelchairBoarding, parent: attributes.parentWheelchairBoarding)
  }

  /// The access of `tripID` in `feed`.
  /// - Throws: the store's errors.
  public static func trip(_ tripID: TripID, feed: FeedName, in store: Store) throws -> WheelchairAccess {
    trip(try store.attributes(ofTrip: tripID, feed: feed)?.wheelchairAccessible)
  }
}
