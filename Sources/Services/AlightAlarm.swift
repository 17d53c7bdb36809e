import GTFS
import Merge
import TransitModel

/// Where a rider following a trip gets off (issue 35, `follow --alight STOP`): one call of one
/// trip instance, read in the trip's context.
public struct AlightTarget: Sendable, Hashable {
  /// The trip instance it was chosen on.
  public var trip: TripInstance
  /// The stop, as the trip calls at it (a platform, when the trip's call is one).
  public var stopID: StopID
  /// The call's stop_sequence (a trip may call at a stop twice: the later call wins).
  public var stopSequence: Int
  /// The stop's name.
  public var name: String

  /// Creates a target.
  public init(trip: TripInstance, stopID: StopID, stopSequence: Int, name: String) {
    self.trip = trip
    self.stopID = stopID
    self.stopSequence = stopSequence
    self.name = name
  }

  /// What `resolve` found.
  public enum Resolution: Sendable, Hashable {
    /// A call still ahead of the vehicle.
    case found(AlightTarget)
    /// `text` names a stop, but not one the trip calls at after where the vehicle is.
    case notAhead(stopName: String)
    /// `text` names no stop at all.
    case notAStop
  }

  /// The call `text` names among the calls still ahead of `view` (stop id, stop code, name,
  /// or its station's id, code or name; names compared folded): the first such call wins,
  /// even where the name alone is shared by stops elsewhere, since the rider means a stop
  /// this trip reaches.
  /// - Throws: the store's errors.
  public static func resolve(_ text: String, in view: VehicleView, store: Store) throws -> Resolution {
    let wanted = text.trimmingSpaces()
    let folded = TextFold.fold(wanted)
    if let trip = view.trip, let feed = view.feed {
      for stop in view.nextStops {
        guard let sequence = stop.stopSequence else { continue }
        var names: [TransitModel.Stop] = []
        if let own = try store.stop(stop.stopID, feed: feed) {
          names.append(own)
          if let parent = try store.parent(of: own) { names.append(parent) }
        }
        let matches =
          stop.stopID.rawValue == wanted
          || names.contains { $0.id.rawValue == wanted || $0.code == wanted || TextFold.fold($0.name) == folded }
        if matches {
          return .found(AlightTarget(trip: trip.instance, stopID: stop.stopID, stopSequence: sequence, name: stop.name))
        }
      }
    }
    switch try store.resolveStop(wanted) {
    case .found(let stop): return .notAhead(stopName: stop.name)
    case .complex(let complex): return .notAhead(stopName: complex.name)
    case .ambiguous(let stops): return .notAhead(stopName: stops.first?.name ?? wanted)
    case .notFound: return .notAStop
    }
  }
}

/// Where the rider stands against the stop to get off at, in one frame of `follow`.
public struct AlightStatus: Sendable, Hashable {
  /// How near the stop is.
  public enum State: String, Sendable, Hashable {
    /// Two stops or more to go.
    case ahead
    /// The stop is the next one.
    case nextStop = "next_stop"
    /// The vehicle is at the stop.
    case atStop = "at_stop"
    /// The vehicle has left it (or gone on to another trip).
    case passed
  }

  /// The stop.
  public var target: AlightTarget
  public var state: State
  /// The stops still to be called at up to and including the target (skipped stops not
  /// counted); 0 at the stop, nil once passed.
  public var stopsLeft: Int?
  /// The timetable's arrival there.
  public var scheduledArrival: UnixTime?
  /// The expected arrival: realtime's, else the timetable's.
  public var expectedArrival: UnixTime?
  /// Whether the vehicle is not reporting and the timetable places it (the times are the
  /// timetable's).
  public var isFromTimetable: Bool
  /// Whether the feed says the vehicle will not stop there (SKIPPED).
  public var isSkipped: Bool

  /// The status of `target` for the vehicle as `view` shows it.
  public init(target: AlightTarget, view: VehicleView) {
    self.target = target
    isFromTimetable = view.isEstimated
    isSkipped = false
    scheduledArrival = nil
    expectedArrival = nil
    stopsLeft = nil
    guard view.trip?.instance == target.trip else {
      state = .passed
      return
    }
    let call = view.trip?.stops.first { $0.stopSequence == target.stopSequence }
    scheduledArrival = call?.arrival ?? call?.departure
    if let index = view.nextStops.firstIndex(where: { $0.stopSequence == target.stopSequence }) {
      let stop = view.nextStops[index]
      isSkipped = stop.isSkipped
      expectedArrival = stop.arrival ?? stop.expected ?? stop.scheduled
      let left = view.nextStops[...index].filter { !$0.isSkipped }.count
      stopsLeft = isSkipped ? nil : left
      state = left <= 1 ? .nextStop : .ahead
    } else if view.isAtStop, view.currentStopSequence == target.stopSequence {
      state = .atStop
      stopsLeft = 0
      expectedArrival = scheduledArrival
    } else {
      state = .passed
    }
  }

  /// Seconds from `now` until the expected arrival.
  public func secondsLeft(now: UnixTime) -> Int64? { expectedArrival.map { $0 - now } }
}

/// The get-off alarm of `follow --alight` (issue 35): it rings once when the stop comes within
/// the `before` threshold, and once more when it is the next stop; never twice for one
/// threshold, and a frame that reaches both at once rings only for "next stop".
public struct AlightAlarm: Sendable, Hashable {
  /// How early the first ring comes.
  public enum Threshold: Sendable, Hashable, CustomStringConvertible {
    /// When this many stops are left (the target counted).
    case stops(Int)
    /// When the expected arrival is this many seconds away.
    case seconds(Int64)

    /// "2 stops", "3 min".
    public var description: String {
      switch self {
      case .stops(let count): return count == 1 ? "1 stop" : "\(count) stops"
      case .seconds(let seconds): return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
      }
    }
  }

  /// Why it rang.
  public enum Ring: String, Sendable, Hashable {
    /// The `before` threshold was reached.
    case before
    /// The stop is next (or the vehicle is at it).
    case nextStop = "next_stop"
  }

  /// The first threshold (default: 2 stops).
  public let before: Threshold
  /// The rings so far.
  public private(set) var rung: Set<Ring> = []

  /// An alarm not yet rung.
  public init(before: Threshold = .stops(2)) { self.before = before }

  /// Whether the frame `status` at `now` rings, and why; at most once per threshold. Nothing
  /// rings for a stop passed or skipped.
  public mutating func check(_ status: AlightStatus, now: UnixTime) -> Ring? {
    guard !status.isSkipped, status.state != .passed else { return nil }
    let isNext = status.state == .nextStop || status.state == .atStop
    let isWithin: Bool
    switch before {
    case .stops(let count): isWithin = (status.stopsLeft ?? Int.max) <= count
    case .seconds(let seconds): isWithin = status.secondsLeft(now: now).map { $0 <= seconds } ?? false
    }
    if isNext {
      guard !rung.contains(.nextStop) else { return nil }
      rung.formUnion([.nextStop, .before])
      return .nextStop
    }
    if isWithin, !rung.contains(.before) {
      rung.insert(.before)
      return .before
    }
    return nil
  }
}
