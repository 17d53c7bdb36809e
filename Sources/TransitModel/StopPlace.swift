// What a STOP argument can name (issue 32): values the timetables' queries return and every
// answer carries, so a command renders them without the timetables' target.

/// A station complex (issue 32): stations or stops a rider names as one place although the
/// feeds split them. Within a feed it was found at ingest (`StopComplexes`); across feeds held
/// at once, members of equal name within 400 m, or stations sharing their stop_id (BART's and
/// Caltrain's `place_MLBR`), join at query time.
public struct StopComplex: Sendable, Hashable {
  /// The name riders know it by.
  public var name: String
  /// Its stations and stops without a parent, by feed then stop_id.
  public var parts: [Stop]

  /// A complex of `parts`, named `name`.
  public init(name: String, parts: [Stop]) {
    self.name = name
    self.parts = parts
  }

  /// Whether its parts come from more than one feed.
  public var spansFeeds: Bool { Set(parts.map(\.feed)).count > 1 }
}

/// What a STOP argument names once resolved: one stop (or station), or a complex.
public enum StopPlace: Sendable, Hashable {
  case stop(Stop)
  case complex(StopComplex)

  /// The stops (stations included) its departures are at.
  public var parts: [Stop] {
    switch self {
    case .stop(let stop): [stop]
    case .complex(let complex): complex.parts
    }
  }

  /// The name riders read.
  public var name: String {
    switch self {
    case .stop(let stop): stop.name
    case .complex(let complex): complex.name
    }
  }

  /// The complex, when it is one.
  public var complex: StopComplex? {
    if case .complex(let complex) = self { return complex }
    return nil
  }
}

/// How a candidate can be reached from the stop named first (`Store.reach(from:to:)`).
public enum StopReach: Sendable, Hashable {
  /// A trip of this route calls at the first stop, then at the candidate.
  case trip(route: String)
  /// A walk of this many metres (straight line) joins them.
  case walk(meters: Int)
}
