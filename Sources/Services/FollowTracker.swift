import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// One moment of `follow`: the vehicle as shown, and what changed.
public struct FollowFrame: Sendable {
  /// Something worth a line beside the vehicle.
  public enum Note: Sendable, Hashable {
    /// It went on to the next trip of its block (rule 10).
    case continues(route: String, headsign: String)
    /// It is back in the feed after an absence.
    case backInFeed
    /// It has not been in the feed since then; the timetable places it.
    case notInFeedSince(UnixTime)
    /// It was never in the feed; the timetable places it.
    case noVehicle
    /// An alert in force informing its trip, route or a stop ahead (in the options' language).
    case alert(AlertNotice)
  }

  /// The moment shown.
  public var now: UnixTime
  /// The vehicle.
  public var view: VehicleView
  /// What changed, then the alerts.
  public var notes: [Note]
  /// What the realtime of this frame matched.
  public var report: RealtimeReport
  /// The options it was worked out with (thresholds for the stops ahead).
  public var options: ServiceOptions
  /// With `--alight`: where the rider stands against the stop to get off at.
  public var alight: AlightStatus?
  /// With `--alight`: the alarm this frame rings, if any (each threshold once per follow).
  public var ring: AlightAlarm.Ring?
}

/// Why `follow --alight STOP` cannot watch for STOP.
public enum AlightError: Error, Sendable, Hashable {
  /// STOP names a stop the followed trip does not call at after the vehicle's place.
  case notAhead(text: String, stopName: String, route: String, headsign: String)
  /// STOP names no stop.
  case notAStop(text: String)
}

/// What `follow` keeps from one frame to the next: the vehicle and trip it is on.
public struct FollowTracker {
  /// What is followed.
  public enum Target: Sendable, Hashable {
    /// A vehicle, by the id (or label) in a vehicle position or a trip update.
    case vehicle(String)
    /// Whatever runs this trip.
    case trip(TripID)
    /// The next vehicle of a route still to reach one of the stops.
    case routeAtStop(route: String, stops: Set<StopID>, name: String)

    /// Whether it names a vehicle.
    public var isVehicle: Bool {
      if case .vehicle = self { return true }
      return false
    }
  }

  let store: Store
  let options: ServiceOptions
  /// What is followed.
  public let target: Target
  /// The vehicle followed, once known.
  public private(set) var vehicleID: String?
  var followedTrip: TripID?
  var trip: ScheduledTrip?
  var details: TripDetails?
  /// When it was last in the feed.
  public private(set) var lastSeen: UnixTime?
  var label: String?
  var wasLive = false
  /// With `--alight`: the text naming the stop, until the first frame reads it in the trip's
  /// context.
  public private(set) var alightText: String?
  /// The stop to get off at, once read.
  public private(set) var alightTarget: AlightTarget?
  /// The get-off alarm.
  public private(set) var alarm = AlightAlarm()

  /// A tracker for `target` over the timetables in `store`.
  public init(store: Store, target: Target, options: ServiceOptions) {
    self.store = store
    self.target = target
    self.options = options
    if case .vehicle(let id) = target { vehicleID = id }
    if case .trip(let id) = target { followedTrip = id }
  }

  /// Watches for the stop `text` names (read in the followed trip's context at the first
  /// frame) and rings `alarm` as it comes near.
  public mutating func alight(at text: String, alarm: AlightAlarm) {
    alightText = text
    self.alarm = alarm
  }

  /// `frame` with the get-off status and ring, when a stop to get off at is watched.
  mutating func withAlight(_ frame: FollowFrame) throws -> FollowFrame {
    guard let text = alightText else { return frame }
    if alightTarget == nil {
      switch try AlightTarget.resolve(text, in: frame.view, store: store) {
      case .found(let target): alightTarget = target
      case .notAhead(let name):
        throw AlightError.notAhead(
          text: text, stopName: name, route: frame.view.routeShortName ?? frame.view.routeID?.rawValue ?? "?",
          headsign: frame.view.headsign ?? "?")
      case .notAStop: throw AlightError.notAStop(text: text)
      }
    }
    guard let target = alightTarget else { return frame }
    var frame = frame
    let status = AlightStatus(target: target, view: frame.view)
    frame.alight = status
    frame.ring = alarm.check(status, now: frame.now)
    return frame
  }

  /// One note per active alert that informs the followed trip, its route, or a stop still
  /// ahead.
  static func alertNotes(_ live: LiveRealtime, view: VehicleView) -> [FollowFrame.Note] {
    guard live.feeds.contains(where: { $0.entities.contains { $0.alert != nil } }) else { return [] }
    var stops = Set(view.nextStops.map(\.stopID))
    if let current = view.currentStopID { stops.insert(current) }
    let scope = AlertScope(
      routeIDs: view.routeID.map { [$0] } ?? [], routeTypes: view.routeType.map { [$0] } ?? [], stopIDs: stops,
      tripIDs: view.tripID.map { [$0] } ?? [])
    return AlertMatcher.notices(in: live.feeds, scope: scope, at: live.now, language: live.options.language).map { .alert($0) }
  }

  /// The frame at `now` from `feeds`; nil when the target is nowhere (an unknown vehicle or
  /// trip before it was ever seen).
  /// - Throws: the store's errors.
  public mutating func frame(feeds: [FeedMessage], now: UnixTime) throws -> FollowFrame? {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    return try frame(live: live)
  }

  /// The frame for the realtime `live`.
  public mutating func frame(live: LiveRealtime) throws -> FollowFrame? {
    let now = live.now
    var fleet = Fleet(store: store, live: live)
    let vehicles = try fleet.vehicles(includeEstimated: false)
    var notes: [FollowFrame.Note] = []
    // Pick the vehicle once, for --route/--stop; --trip follows whatever runs the trip.
    if vehicleID == nil && followedTrip == nil, case .routeAtStop(let route, let stops, _) = target {
      var candidates = vehicles.filter { $0.runs(route: route) }
      if candidates.isEmpty { candidates = try fleet.vehicles(includeEstimated: true).filter { $0.isEstimated && $0.runs(route: route) } }
      // The next to reach the stop: still ahead of it, and not expected there before now.
      func arrival(_ view: VehicleView) -> UnixTime? {
        guard let next = view.nextStops.first(where: { stops.contains($0.stopID) && !$0.isSkipped }), let time = next.expected,
          time >= now
        else { return nil }
        return time
      }
      if let best = candidates.compactMap({ view in arrival(view).map { (view, $0) } }).min(by: { $0.1 < $1.1 })?.0 {
        if let id = best.vehicleID, !best.isEstimated {
          vehicleID = id
        } else {
          followedTrip = best.tripID
          trip = best.trip
          details = try best.tripID.flatMap { try store.tripDetails($0, feed: best.feed) }
        }
      }
    }
    let shown: VehicleView? =
      if let vehicleID { vehicles.first { $0.isNamed(vehicleID) } } else if let followedTrip {
        vehicles.first { $0.tripID == followedTrip && $0.isMatched && !$0.isAdded }
          ?? vehicles.first { $0.tripID == followedTrip && $0.isAdded }
      } else { nil }
    if let shown {
      if let previous = trip, let current = shown.trip, previous.instance != current.instance {
        notes.append(.continues(route: shown.routeShortName ?? "?", headsign: shown.headsign ?? "?"))
      } else if !wasLive && lastSeen != nil {
        notes.append(.backInFeed)
      }
      if let current = shown.trip, let tripID = shown.tripID {
        trip = current
        details = try shown.isAdded ? fleet.addedTrip(tripID)?.1 : store.tripDetails(tripID, feed: shown.feed)
      }
      lastSeen = now
      label = shown.label
      // Once a vehicle is known it is followed, onto the next trip of its block too.
      if let id = shown.vehicleID { self.vehicleID = id }
      wasLive = true
      return try withAlight(
        FollowFrame(now: now, view: shown, notes: notes + Self.alertNotes(live, view: shown), report: live.report, options: options))
    }
    // Not in the feed: the timetable, on this trip or the next of its block.
    if trip == nil, let followedTrip, let info = try store.tripDetails(followedTrip),
      let scheduled = try fleet.instance(of: followedTrip, feed: info.feed, startDate: nil)
    {
      trip = scheduled
      details = info
    }
    guard var current = trip, var info = details else { return nil }
    wasLive = false
    if let end = current.stops.compactMap({ $0.arrival ?? $0.departure }).max(), now > end,
      let next = try fleet.nextTrip(after: current, details: info)
    {
      current = next.0
      info = next.1
      trip = current
      details = info
      notes.append(.continues(route: info.route.shortName, headsign: info.headsign))
    }
    // Realtime may still predict a trip no vehicle is on yet (or no longer): its times count.
    let prediction = live.prediction(for: current.instance).flatMap { $0.isCanceled ? nil : $0 }
    var view =
      try fleet.estimated(current, details: info, prediction: prediction) ?? fleet.waiting(current, details: info, prediction: prediction)
    view.vehicleID = vehicleID
    view.label = label
    notes.append(lastSeen.map { .notInFeedSince($0) } ?? .noVehicle)
    return try withAlight(
      FollowFrame(now: now, view: view, notes: notes + Self.alertNotes(live, view: view), report: live.report, options: options))
  }
}
