/// How people walk: speed, how much longer than the straight line a walk is, and how far a
/// transfer between two stops may be.
public struct WalkingModel: Sendable, Hashable {
  /// Metres per second.
  public var metersPerSecond: Double
  /// A walk is this many times the straight line.
  public var detourFactor: Double
  /// Transfers between stops at most this far apart in a straight line (ingest links stops up
  /// to 400 m apart, so a larger value has no effect).
  public var maxTransferMeters: Double

  /// Creates a walking model (defaults: 1.3 m/s, 1.25 × the straight line, 400 m).
  public init(metersPerSecond: Double = 1.3, detourFactor: Double = 1.25, maxTransferMeters: Double = 400) {
    self.metersPerSecond = metersPerSecond
    self.detourFactor = detourFactor
    self.maxTransferMeters = maxTransferMeters
  }

  /// The seconds needed to walk between two points `meters` apart in a straight line: the one
  /// formula behind departures' "reachable", the home view, commute and plan's walks.
  public func seconds(straightLineMeters meters: Double) -> Int32 {
    Int32((meters * detourFactor / metersPerSecond).rounded(.up))
  }

  /// The seconds needed to walk from `origin` to `destination`.
  public func seconds(from origin: Coordinate, to destination: Coordinate) -> Int32 {
    seconds(straightLineMeters: origin.distanceMeters(to: destination))
  }
}
