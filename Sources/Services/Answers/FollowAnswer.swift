import Fetch
import GTFS
import GTFSRealtime
import TransitModel

/// What `follow` is asked: what to follow, where to get off, and whether it replays recorded
/// snapshots or polls the session's realtime.
public struct FollowRequest: Sendable {
  /// What is followed, as the rider named it.
  public enum Target: Sendable {
    /// A vehicle, by the id (or label) in a vehicle position or a trip update.
    case vehicle(String)
    /// Whatever runs this trip.
    case trip(TripID)
    /// The next vehicle of a route to reach a stop, station or complex.
    case routeAtStop(route: String, place: StopPlace)
  }

  public var target: Target
  /// The stop to get off at (read among the stops the trip still calls at) and when to ring.
  public var alight: (text: String, alarm: AlightAlarm)?
  /// Recorded snapshots to play back (`transit record`'s); nil: live, from the session's
  /// realtime source. The moments before the replay's start only set the scene.
  public var replay: SnapshotReplay?

  public init(target: Target, alight: (text: String, alarm: AlightAlarm)? = nil, replay: SnapshotReplay? = nil) {
    self.target = target
    self.alight = alight
    self.replay = replay
  }
}

/// Why `follow` has nothing to show.
public enum FollowError: Error, Sendable, Hashable {
  /// No vehicle by that id or label was ever seen.
  case unknownVehicle(String)
  /// The trip is not in the timetable, and no realtime feed adds it.
  case unknownTrip(TripID)
  /// No vehicle of the route is on its way to the place.
  case noVehicle(route: String, placeName: String)
  /// The followed trip does not run now.
  case notRunning
  /// `--alight STOP` cannot be watched for.
  case alight(AlightError)
}

/// One update of `follow`: the frame, and how long until the next.
public struct FollowStep: Sendable {
  public var frame: FollowFrame
  /// Real seconds until the next update (a replay's gap to its next snapshot at its speed, the
  /// live feed's next publish).
  public var wait: Double
  /// Whether this is the last (a replay's last snapshot): it stays up for `wait`, then the
  /// view ends.
  public var isLast: Bool
}

/// A `follow` in progress: the tracker, the moments still to show, and the shapes read for
/// the map. Each `next()` is one update.
public struct FollowRun {
  let session: TransitSession
  let request: FollowRequest
  var tracker: FollowTracker
  /// The replay, when it plays recorded snapshots.
  var replay: SnapshotReplay?
  let clock: () -> UnixTime
  let wallClock: () -> Int64
  var shapes: [String: [[Coordinate]]] = [:]

  /// The first-feed clock the view reads times on.
  public var zone: LocalZone { session.store.timeZone(of: session.store.feedNames.first ?? FeedName("")) }
  /// Whether it replays recorded snapshots.
  public var isReplay: Bool { replay != nil }

  /// The next update; nil when a replay has shown its last snapshot.
  /// - Throws: `FollowError` when the target is nowhere to be seen, the store's and the
  ///   realtime source's errors.
  public mutating func next() throws -> FollowStep? {
    let now: UnixTime
    let feeds: [FeedMessage]
    var step: SnapshotReplay.Step?
    if replay == nil {
      now = clock()
      let read = try session.realtime.read(preferring: nil)
      problems = read.problems
      feeds = read.feeds
    } else {
      guard let played = try replay?.next() else { return nil }
      (now, feeds, step) = (played.time, played.feeds, played)
    }
    let live = try LiveRealtime(store: session.store, feeds: feeds, now: now, options: session.options)
    report = live.report
    let found: FollowFrame?
    do {
      found = try tracker.frame(live: live)
    } catch let error as AlightError {
      throw FollowError.alight(error)
    }
    guard let frame = found else { throw try missing() }
    guard let replay, let step else {
      // Live: the next fetch just after the feed's next publish.
      let stamp = feeds.compactMap { $0.header?.timestamp }.max().map { Int64(clamping: $0) }
      let real = wallClock()
      let next = PollSchedule.nextFetch(now: real, lastHeaderTimestamp: stamp, period: nil)
      return FollowStep(frame: frame, wait: Double(next - real), isLast: false)
    }
    // The last frame stays up for one more of the replay's gaps, as every earlier one did.
    return FollowStep(frame: frame, wait: step.wait ?? replay.lastGap, isLast: step.wait == nil)
  }

  /// What a live read went wrong on (a fallback snapshot, a feed left out), for the last update.
  public private(set) var problems: [RealtimeProblem] = []
  /// What the last update's realtime matched.
  public private(set) var report: RealtimeReport?

  /// Why there is no frame.
  func missing() throws -> FollowError {
    switch tracker.target {
    case .vehicle(let id) where tracker.lastSeen == nil: return .unknownVehicle(id)
    case .trip(let id) where tracker.lastSeen == nil:
      if try session.store.tripDetails(id) == nil { return .unknownTrip(id) }
    case .routeAtStop(let route, _, let name): return .noVehicle(route: route, placeName: name)
    default: break
    }
    return .notRunning
  }

  /// The map beside the list: the trip's shape (else a line through its stops), its located
  /// stops, and the vehicle's place; nil when the vehicle has no position. Shapes are read
  /// once per trip.
  /// - Throws: the store's errors.
  public mutating func map(of frame: FollowFrame) throws -> FollowMap? {
    let view = frame.view
    guard let coordinate = view.coordinate else { return nil }
    var map = FollowMap(vehicle: coordinate, label: view.routeShortName ?? view.routeID?.rawValue ?? "?")
    guard let trip = view.trip, let feed = view.feed else { return map }
    for call in trip.stops {
      if let stop = try session.store.stop(call.stopID, feed: feed), stop.coordinate != nil { map.stops.append(stop) }
    }
    let located = map.stops.compactMap(\.coordinate)
    let key = feed.rawValue + "\u{0}" + trip.instance.tripID.rawValue
    if let known = shapes[key] {
      map.lines = known
    } else {
      var lines: [[Coordinate]] = []
      if let shapeID = try session.store.shapeID(ofTrip: trip.instance.tripID, feed: feed) {
        let points = try session.store.shape(shapeID, feed: feed).map(\.coordinate)
        if points.count >= 2 { lines = [points] }
      }
      if lines.isEmpty && located.count >= 2 { lines = [located] }
      shapes[key] = lines
      map.lines = lines
    }
    return map
  }
}

/// What the map beside a followed vehicle draws.
public struct FollowMap: Sendable {
  /// Where the vehicle is, and its route's name.
  public var vehicle: Coordinate
  public var label: String
  /// The trip's stops that have a position, in order.
  public var stops: [TransitModel.Stop] = []
  /// The trip's shape, or a line through its stops.
  public var lines: [[Coordinate]] = []
}

extension TransitSession {
  /// `follow` as `request` asks: a run whose `next()` gives each update. A replay first plays
  /// the snapshots before its start unseen (they set the scene: where the vehicle was last
  /// seen, which trip it was on); the stop to get off at is read at the first frame shown.
  /// - Parameters:
  ///   - clock: the moment a live update shows (`--now`, else the real clock).
  ///   - wallClock: the real clock, in Unix seconds: a live view polls on it.
  /// - Throws: the store's errors.
  public func follow(
    _ request: FollowRequest, clock: @escaping () -> UnixTime,
    wallClock: @escaping () -> Int64
  ) throws -> FollowRun {
    let target: FollowTracker.Target
    switch request.target {
    case .vehicle(let id): target = .vehicle(id)
    case .trip(let id): target = .trip(id)
    case .routeAtStop(let route, let place):
      target = .routeAtStop(route: route, stops: try store.callStopIDs(of: [place]), name: place.name)
    }
    var run = FollowRun(
      session: self, request: request, tracker: FollowTracker(store: store, target: target, options: options),
      replay: request.replay, clock: clock, wallClock: wallClock)
    if let replay = request.replay {
      for moment in replay.prelude { _ = try? run.tracker.frame(feeds: try replay.feeds(moment.paths), now: moment.time) }
    }
    if let alight = request.alight { run.tracker.alight(at: alight.text, alarm: alight.alarm) }
    return run
  }
}

/// How `transit record` names its files: `<unix-seconds>-<kind>.pb`.
public enum SnapshotNaming {
  /// "vehicle-positions" from ".../1796110560-vehicle-positions.pb" (or `.pb.gz`).
  public static func kind(of path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return named(name)?.kind ?? name
  }

  /// The time and kind of a file named `<unix-seconds>-<kind>.pb`, or `.pb.gz` as a capture
  /// kept compressed ("trip-updates" of "1796110560-trip-updates.pb.gz"); nil for other names.
  public static func named(_ name: String) -> (time: Int64, kind: String)? {
    let prefix = name.prefix { $0.isNumber }
    guard let time = Int64(prefix), name.dropFirst(prefix.count).first == "-" else { return nil }
    var kind = String(name.dropFirst(prefix.count + 1))
    if kind.hasSuffix(".gz") { kind.removeLast(3) }
    guard kind.hasSuffix(".pb") else { return nil }
    kind.removeLast(3)
    return (time, kind)
  }

  /// The moments of a replay of `snapshots` (oldest first): each with the newest file of each
  /// kind recorded by then, so a moment that recorded only trip updates keeps the vehicles.
  public static func moments(_ snapshots: [(time: UnixTime, paths: [String])]) -> [(time: UnixTime, paths: [String])] {
    var latest: [String: String] = [:]
    return snapshots.map { snapshot in
      for path in snapshot.paths { latest[kind(of: path)] = path }
      return (snapshot.time, latest.values.sorted())
    }
  }
}
