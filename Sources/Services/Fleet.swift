import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// One vehicle as `vehicles` and `follow` show it: live from the feed, or estimated from the
/// timetable (DESIGN.md rules 8–10).
public struct VehicleView: Sendable, Hashable {
  /// Where its position comes from.
  public enum PositionSource: String, Sendable, Hashable {
    /// Its own vehicle position.
    case vehicle
    /// Its trip update alone: placed between stops by the predicted times (rule 8, then 9).
    case tripUpdate = "trip_update"
    /// The timetable: no vehicle or trip update covers the trip (rule 9).
    case timetable
  }

  /// A stop still ahead, with what is expected there.
  public struct NextStop: Sendable, Hashable {
    public var stopID: StopID
    public var name: String
    public var scheduled: UnixTime?
    public var expected: UnixTime?
    public var delaySeconds: Int64?
    /// The delay's class under the configured thresholds (rule 12); nil without a delay.
    public var delayStatus: DepartureStatus?
    public var isSkipped: Bool
    /// Its stop_sequence on the trip (a trip may call at a stop twice), when known.
    public var stopSequence: Int?
    /// The expected arrival (what a rider getting off waits for), else the scheduled one; nil
    /// where neither is known.
    public var arrival: UnixTime?

    /// Creates a stop ahead; its delay classed by `options`' thresholds.
    public init(
      stopID: StopID, name: String, scheduled: UnixTime?, expected: UnixTime?, delaySeconds: Int64?, isSkipped: Bool,
      options: ServiceOptions, stopSequence: Int? = nil, arrival: UnixTime? = nil
    ) {
      self.stopID = stopID
      self.name = name
      self.scheduled = scheduled
      self.expected = expected
      self.delaySeconds = delaySeconds
      self.delayStatus = delaySeconds.map(options.status(delaySeconds:))
      self.isSkipped = isSkipped
      self.stopSequence = stopSequence
      self.arrival = arrival
    }
  }

  public var vehicleID: String?
  public var label: String?
  public var feed: FeedName?
  public var tripID: TripID?
  public var serviceDate: ServiceDate?
  public var routeID: RouteID?
  public var routeShortName: String?
  public var routeType: Int?
  public var headsign: String?
  public var blockID: String?
  public var coordinate: Coordinate?
  public var bearing: Double?
  public var speedMetersPerSecond: Double?
  public var timestamp: UnixTime?
  public var currentStopID: StopID?
  public var currentStopName: String?
  public var currentStopSequence: Int?
  public var isAtStop = false
  /// Placed by the timetable alone (no vehicle position, no trip update).
  public var isEstimated = false
  /// Where the position comes from.
  public var positionSource: PositionSource = .vehicle
  /// The delay at the current stop (else the next predicted one).
  public var delaySeconds: Int64?
  /// The delay's class under the configured thresholds (rule 12).
  public var delayStatus: DepartureStatus?
  public var nextStops: [NextStop] = []
  /// How full it is, from its own vehicle position (occupancy status, percentage, carriages).
  public var crowding: Crowding?
  /// The trip as the timetable has it, when matched; for an ADDED/NEW trip, its calls at the
  /// times its update gives (there is no other schedule).
  public var trip: ScheduledTrip?
  /// Whether its trip is one the realtime feed adds (ADDED or NEW): not in the timetable.
  public var isAdded = false

  /// An empty view.
  public init() {}

  /// `STOPPED_AT`, `IN_TRANSIT_TO`, or nil when no stop is known.
  public var status: String? { currentStopID == nil ? nil : isAtStop ? "STOPPED_AT" : "IN_TRANSIT_TO" }

  /// Whether it was matched to a trip of the timetable.
  public var isMatched: Bool { trip != nil }

  /// Live before estimated, then by route, destination and vehicle.
  public static func listOrder(_ a: VehicleView, _ b: VehicleView) -> Bool {
    listOrder(a, NaturalOrder.Key(a.listedRoute), b, NaturalOrder.Key(b.listedRoute))
  }

  /// `views` in `listOrder`, each route name folded once (not at every comparison: the list is
  /// sorted again at every redraw of `vehicles --watch`).
  public static func sortedForList(_ views: [VehicleView]) -> [VehicleView] {
    views.map { ($0, NaturalOrder.Key($0.listedRoute)) }.sorted { listOrder($0.0, $0.1, $1.0, $1.1) }.map(\.0)
  }

  /// The route it is listed under: its short name, else its route_id.
  var listedRoute: String { routeShortName ?? routeID?.rawValue ?? "" }

  private static func listOrder(_ a: VehicleView, _ ra: NaturalOrder.Key, _ b: VehicleView, _ rb: NaturalOrder.Key) -> Bool {
    if a.isEstimated != b.isEstimated { return !a.isEstimated }
    if ra.text != rb.text { return ra < rb }
    if (a.headsign ?? "") != (b.headsign ?? "") { return (a.headsign ?? "") < (b.headsign ?? "") }
    return (a.vehicleID ?? a.tripID?.rawValue ?? "") < (b.vehicleID ?? b.tripID?.rawValue ?? "")
  }

  /// Whether `text` names it: its vehicle id or label.
  public func isNamed(_ text: String) -> Bool { vehicleID == text || label == text }

  /// Whether it runs route `text` (short name or route_id, any case).
  public func runs(route text: String) -> Bool {
    let wanted = text.lowercased()
    return routeShortName?.lowercased() == wanted || routeID?.rawValue.lowercased() == wanted
  }
}

/// The fleet: every vehicle the realtime knows (by the id in a vehicle position or in a trip
/// update), and the trips the timetable has running without one; queries in GTFS, rules in
/// Merge, matching from one `LiveRealtime`.
public struct Fleet {
  let store: Store
  /// The realtime everything is read from.
  public let live: LiveRealtime
  var now: UnixTime { live.now }
  private var stopCache: [String: TransitModel.Stop?] = [:]
  private var addedTrips: [TripID: (ScheduledTrip, TripDetails)] = [:]
  private var shapeCache: [String: ShapePath?] = [:]

  /// A fleet over `live`, reading stops and shapes from `store`.
  public init(store: Store, live: LiveRealtime) {
    self.store = store
    self.live = live
  }

  /// The stop `id` of `feed`, cached.
  public mutating func stop(_ id: StopID, feed: FeedName) -> TransitModel.Stop? {
    let key = feed.rawValue + "\u{1}" + id.rawValue
    if let known = stopCache[key] { return known }
    let found: TransitModel.Stop? = (try? store.stop(id, feed: feed)) ?? nil
    stopCache[key] = .some(found)
    return found
  }

  /// The shape trip `tripID` follows, measured; cached by shape, since a route's trips share a
  /// few.
  mutating func shape(ofTrip tripID: TripID, feed: FeedName) throws -> ShapePath? {
    guard let shapeID = try store.shapeID(ofTrip: tripID, feed: feed) else { return nil }
    let key = feed.rawValue + "\u{1}" + shapeID
    if let known = shapeCache[key] { return known }
    let path = ShapePath(try store.shape(shapeID, feed: feed))
    shapeCache[key] = .some(path)
    return path
  }

  /// The scheduled instance of `tripID` a vehicle runs: the realtime's own match when it has
  /// one, else on `startDate` when given, else the service date (today or a day either side)
  /// whose run is nearest `now`.
  public func instance(of tripID: TripID, feed: FeedName, startDate: String?) throws -> ScheduledTrip? {
    var descriptor = TripDescriptor()
    descriptor.tripID = tripID.rawValue
    descriptor.startDate = startDate
    if let matched = live.instance(for: descriptor) { return matched }
    let today = store.localDate(of: now, feed: feed)
    let dates = startDate.flatMap { ServiceDate(gtfs: $0) }.map { [$0] } ?? [today.adding(days: -1), today, today.adding(days: 1)]
    var best: (distance: Int64, trip: ScheduledTrip)?
    for date in dates where try store.tripRuns(tripID, feed: feed, on: date) {
      let stops = try store.tripCalls(tripID, feed: feed, serviceDate: date)
      let times = stops.compactMap { $0.departure ?? $0.arrival }
      guard let first = times.min(), let last = times.max() else { continue }
      let distance = now < first ? first - now : now > last ? now - last : 0
      let trip = ScheduledTrip(
        instance: TripInstance(tripID: tripID, serviceDate: date), routeID: RouteID(""), stops: stops,
        serviceDayStart: store.serviceDayStart(date, feed: feed))
      if best == nil || distance < best!.distance { best = (distance, trip) }
    }
    return best?.trip
  }

  /// The vehicle list a rider asks for: `vehicles(includeEstimated:)` on `route` (id or short
  /// name) and within `radiusMeters` of `near`, in the list's one order: live before
  /// estimated, then by route (numbers in numeric order), destination and vehicle.
  public mutating func vehicles(
    includeEstimated: Bool, route: String? = nil, near: Coordinate? = nil, radiusMeters: Double = .infinity
  ) throws -> [VehicleView] {
    var views = try vehicles(includeEstimated: includeEstimated)
    if let route { views.removeAll { !$0.runs(route: route) } }
    if let near {
      views.removeAll { view in view.coordinate.map { $0.distanceMeters(to: near) > radiusMeters } ?? true }
    }
    return VehicleView.sortedForList(views)
  }

  /// Every vehicle in the feeds (each once, by vehicle id, else label, else entity id); then
  /// every trip a trip update covers that no vehicle position does, as a live vehicle placed by
  /// its predictions; then (with `includeEstimated`) every trip the timetable has running that
  /// no realtime covers, as estimated.
  public mutating func vehicles(includeEstimated: Bool) throws -> [VehicleView] {
    var positions: [(VehiclePosition, String)] = []
    var seen = Set<String>()
    var updates: [TripInstance: TripUpdate] = [:]
    var updatesByTrip: [TripID: TripUpdate] = [:]
    for feed in live.feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        if let update = entity.tripUpdate, let tripID = update.trip?.tripID {
          updatesByTrip[TripID(tripID)] = updatesByTrip[TripID(tripID)] ?? update
          if let descriptor = update.trip, let instance = live.instance(for: descriptor)?.instance {
            updates[instance] = updates[instance] ?? update
          }
        }
        guard let vehicle = entity.vehicle else { continue }
        let key = vehicle.vehicle?.id ?? vehicle.vehicle?.label ?? entity.id ?? "\(positions.count)"
        guard seen.insert(key).inserted else { continue }
        positions.append((vehicle, key))
      }
    }
    let realtime = live.realtime
    var views: [VehicleView] = []
    var covered = Set<TripInstance>()
    for (vehicle, key) in positions {
      var view = VehicleView()
      view.vehicleID = vehicle.vehicle?.id ?? key
      view.label = vehicle.vehicle?.label.flatMap { $0.isEmpty ? nil : $0 }
      view.timestamp = vehicle.timestamp.map { UnixTime(Int64(clamping: $0)) }
      view.crowding = Crowding(vehicle)
      if let position = vehicle.position, let latitude = position.latitude, let longitude = position.longitude {
        view.coordinate = Coordinate(latitude: Double(latitude), longitude: Double(longitude))
        view.bearing = position.bearing.map(Double.init)
        view.speedMetersPerSecond = position.speed.map(Double.init)
      }
      view.tripID = vehicle.trip?.tripID.flatMap { $0.isEmpty ? nil : TripID($0) }
      if let routeID = vehicle.trip?.routeID, !routeID.isEmpty {
        view.routeID = RouteID(routeID)
        if let route = try store.route(RouteID(routeID)) {
          view.routeShortName = route.shortName
          view.routeType = route.routeType
          view.feed = route.feed
        }
      }
      if let tripID = view.tripID, let details = live.details[tripID],
        var trip = try instance(of: tripID, feed: details.feed, startDate: vehicle.trip?.startDate)
      {
        trip.routeID = details.route.id
        covered.insert(trip.instance)
        let update = updates[trip.instance] ?? updatesByTrip[tripID]
        try describe(&view, trip: trip, details: details, prediction: realtime.predictions[trip.instance], vehicle: vehicle, update: update)
        if view.vehicleID == key, vehicle.vehicle?.id == nil, let named = update?.vehicle?.id { view.vehicleID = named }
      } else if let tripID = view.tripID, let (trip, details) = try addedTrip(tripID) {
        covered.insert(trip.instance)
        // An added trip's calls are numbered by the update (its stop_sequence, else its order),
        // which a producer's vehicle positions need not share (NYCT counts the timetable's
        // stops): the position's stop_id, when the trip calls there, places it.
        var placed = vehicle
        if let stopID = vehicle.stopID, trip.stops.contains(where: { $0.stopID.rawValue == stopID }) {
          placed.currentStopSequence = nil
        }
        try describe(&view, trip: trip, details: details, prediction: nil, vehicle: placed, update: nil)
        Self.markAdded(&view)
      }
      views.append(view)
    }
    // Trips the feed adds (ADDED, NEW) without a vehicle position: placed by their own times.
    for added in live.realtime.added {
      guard let (trip, details) = try addedTrip(added.tripID), !covered.contains(trip.instance),
        var view = try estimated(trip, details: details)
      else { continue }
      covered.insert(trip.instance)
      view.isEstimated = false
      Self.markAdded(&view)
      view.positionSource = .tripUpdate
      view.vehicleID = added.vehicleID
      views.append(view)
    }
    // Trips a trip update covers without a vehicle position: live, placed by their predictions.
    for trip in live.trips.sorted(by: { $0.instance < $1.instance }) where !covered.contains(trip.instance) {
      guard let prediction = realtime.predictions[trip.instance], !prediction.isCanceled, !prediction.isAdded,
        let details = live.details[trip.instance.tripID],
        var view = try placed(trip, details: details, prediction: prediction, update: updates[trip.instance])
      else { continue }
      covered.insert(trip.instance)
      view.vehicleID = prediction.vehicleID ?? updates[trip.instance]?.vehicle?.id
      view.label = updates[trip.instance]?.vehicle?.label.flatMap { $0.isEmpty ? nil : $0 }
      view.timestamp = updates[trip.instance]?.timestamp.map { UnixTime(Int64(clamping: $0)) }
      views.append(view)
    }
    guard includeEstimated else { return views }
    // Trips the timetable has running that no realtime covers: placed by the timetable.
    let coveredTrips = Set(covered.map(\.tripID))
    for running in try store.runningTrips(at: now) where !coveredTrips.contains(running.tripID) {
      let instance = TripInstance(tripID: running.tripID, serviceDate: running.serviceDate)
      // A trip realtime predicts is where its predictions put it: one still to start (running
      // late) is not on the road, whatever the timetable says.
      if realtime.deleted.contains(instance) || realtime.predictions[instance] != nil { continue }
      guard let details = try store.tripDetails(running.tripID, feed: running.feed) else { continue }
      // A route whose trips the feed replaces (NYCT, rule 16): one the feed omits is not running.
      if realtime.freshness.isUsable, let end = realtime.replacedRoutes[details.route.id], now <= end { continue }
      let stops = try store.tripCalls(running.tripID, feed: running.feed, serviceDate: running.serviceDate)
      let trip = ScheduledTrip(
        instance: instance, routeID: details.route.id,
        stops: stops, serviceDayStart: store.serviceDayStart(running.serviceDate, feed: running.feed))
      if let view = try estimated(trip, details: details) { views.append(view) }
    }
    return views
  }

  /// Where `trip` is at `now` by its times (rule 9; `prediction`'s when given), along its shape;
  /// nil when it is not on the road.
  mutating func position(of trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction?) throws -> EstimatedPosition? {
    var coordinates: [StopID: Coordinate] = [:]
    for call in trip.stops { coordinates[call.stopID] = stop(call.stopID, feed: details.feed)?.coordinate }
    // The shape is read only for a trip that is on the road now.
    guard Reconciler.estimatedPosition(of: trip, stopCoordinates: coordinates, at: now, prediction: prediction) != nil else {
      return nil
    }
    return Reconciler.estimatedPosition(
      of: trip, stopCoordinates: coordinates, at: now, prediction: prediction,
      shape: try shape(ofTrip: trip.instance.tripID, feed: details.feed))
  }

  /// A trip with a trip update but no vehicle position, placed by its predicted times: its
  /// stop by rule 8 (the first stop its update still lists ahead), its position between stops
  /// by rule 9 on the predicted times; nil when it is not on the road at `now`.
  mutating func placed(
    _ trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction, update: TripUpdate?
  ) throws
    -> VehicleView?
  {
    guard let estimate = try position(of: trip, details: details, prediction: prediction) else { return nil }
    var view = VehicleView()
    view.positionSource = .tripUpdate
    view.coordinate = estimate.coordinate
    fill(&view, trip: trip, details: details)
    var sequence = estimate.stopSequence, atStop = estimate.isAtStop
    if let location = Reconciler.currentStop(of: trip, vehicle: nil, update: update, now: now),
      location.stopSequence > sequence || !atStop && location.stopSequence == sequence
    {
      sequence = location.stopSequence
      atStop = false
    }
    setCurrent(&view, trip: trip, details: details, sequence: sequence, atStop: atStop, prediction: prediction)
    return view
  }

  /// An untracked trip placed by the timetable (rule 9), or nil when it is not running; with
  /// `prediction`, by its expected times.
  public mutating func estimated(
    _ trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction? = nil
  ) throws
    -> VehicleView?
  {
    guard let estimate = try position(of: trip, details: details, prediction: prediction) else { return nil }
    var view = VehicleView()
    view.isEstimated = true
    view.positionSource = .timetable
    view.coordinate = estimate.coordinate
    fill(&view, trip: trip, details: details)
    setCurrent(&view, trip: trip, details: details, sequence: estimate.stopSequence, atStop: estimate.isAtStop, prediction: prediction)
    return view
  }

  /// A trip not yet started (or ended): waiting at its first (or last) stop, by the timetable
  /// (and `prediction`'s expected times, when realtime has some).
  public mutating func waiting(_ trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction? = nil) -> VehicleView {
    var view = VehicleView()
    view.isEstimated = true
    view.positionSource = .timetable
    fill(&view, trip: trip, details: details)
    let scheduledFirst = trip.stops.first?.departure ?? trip.stops.first?.arrival ?? now
    let predictedFirst = prediction?.stops.first.flatMap { $0.source == .schedule ? nil : $0.expected }
    let first = predictedFirst ?? scheduledFirst
    guard let call = now < first ? trip.stops.first : trip.stops.last else { return view }
    view.coordinate = stop(call.stopID, feed: details.feed)?.coordinate
    setCurrent(&view, trip: trip, details: details, sequence: call.stopSequence, atStop: now < first, prediction: prediction)
    if now < first {
      view.nextStops.insert(
        VehicleView.NextStop(
          stopID: call.stopID, name: view.currentStopName ?? call.stopID.rawValue, scheduled: scheduledFirst, expected: first,
          delaySeconds: predictedFirst.map { $0 - scheduledFirst }, isSkipped: false, options: live.options,
          stopSequence: call.stopSequence, arrival: first), at: 0)
    }
    return view
  }

  /// Trip, route, current stop and the stops ahead of a live vehicle.
  mutating func describe(
    _ view: inout VehicleView, trip: ScheduledTrip, details: TripDetails, prediction: TripPrediction?, vehicle: VehiclePosition?,
    update: TripUpdate?
  ) throws {
    fill(&view, trip: trip, details: details)
    // TransitModel.Stop positions are read only when the vehicle's own stop and its trip update do not say.
    var location = Reconciler.currentStop(of: trip, vehicle: vehicle, update: update, now: now)
    if location == nil, vehicle?.position != nil {
      var coordinates: [StopID: Coordinate] = [:]
      for call in trip.stops { coordinates[call.stopID] = stop(call.stopID, feed: details.feed)?.coordinate }
      location = Reconciler.currentStop(
        of: trip, vehicle: vehicle, update: update, stopCoordinates: coordinates, now: now,
        shape: try shape(ofTrip: trip.instance.tripID, feed: details.feed))
    }
    if let location {
      setCurrent(&view, trip: trip, details: details, sequence: location.stopSequence, atStop: location.isAtStop, prediction: prediction)
    }
  }

  func fill(_ view: inout VehicleView, trip: ScheduledTrip, details: TripDetails) {
    view.feed = details.feed
    view.tripID = trip.instance.tripID
    view.serviceDate = trip.instance.serviceDate
    view.routeID = details.route.id
    view.routeShortName = details.route.shortName
    view.routeType = details.route.routeType
    view.headsign = details.headsign
    view.blockID = details.blockID
    view.trip = trip
  }

  /// Sets the stop the vehicle is at or heading to, its delay there (and its class), and the
  /// stops ahead.
  mutating func setCurrent(
    _ view: inout VehicleView, trip: ScheduledTrip, details: TripDetails, sequence: Int, atStop: Bool, prediction: TripPrediction?
  ) {
    guard let index = trip.stops.firstIndex(where: { $0.stopSequence == sequence }) else { return }
    let call = trip.stops[index]
    view.currentStopID = call.stopID
    view.currentStopSequence = call.stopSequence
    view.currentStopName = stop(call.stopID, feed: details.feed)?.name ?? call.stopID.rawValue
    view.isAtStop = atStop
    let predicted = Dictionary(
      (prediction?.stops ?? []).map { ($0.stop.stopSequence, $0) }, uniquingKeysWith: { first, _ in first })
    let ahead = trip.stops[(atStop ? index + 1 : index)...]
    view.nextStops = ahead.map { call in
      let scheduled = call.departure ?? call.arrival
      let guess = predicted[call.stopSequence]
      let expected = guess.flatMap { $0.source == .schedule ? nil : $0.expected }
      let delay = zip(expected, scheduled).map { $0 - $1 }
      let arrival =
        guess.flatMap { $0.source == .schedule ? nil : $0.expectedArrival ?? $0.expectedDeparture } ?? call.arrival ?? call.departure
      return VehicleView.NextStop(
        stopID: call.stopID, name: stop(call.stopID, feed: details.feed)?.name ?? call.stopID.rawValue, scheduled: scheduled,
        expected: expected ?? scheduled, delaySeconds: delay, isSkipped: guess?.isSkipped ?? false, options: live.options,
        stopSequence: call.stopSequence, arrival: arrival)
    }
    if let here = predicted[call.stopSequence], here.source != .schedule, let expected = here.expected,
      let scheduled = call.departure ?? call.arrival
    {
      view.delaySeconds = expected - scheduled
    } else {
      view.delaySeconds = view.nextStops.first { !$0.isSkipped }?.delaySeconds
    }
    view.delayStatus = view.delaySeconds.map(live.options.status(delaySeconds:))
  }

  /// The trip an ADDED/NEW update describes, as a trip with its details: its calls (skipped ones
  /// left out) at the times the update gives, on the route it names (else an unnamed one), in
  /// the feed that holds its stops. Nil when the feeds add no trip `tripID` or none of its stops
  /// is known.
  public mutating func addedTrip(_ tripID: TripID) throws -> (ScheduledTrip, TripDetails)? {
    if let known = addedTrips[tripID] { return known }
    guard let added = live.realtime.added.first(where: { $0.tripID == tripID }) else { return nil }
    let calls = added.calls.filter { !$0.isSkipped && ($0.arrival ?? $0.departure) != nil }
    let route = try added.routeID.flatMap { try store.route($0) }
    guard
      let feed = route?.feed
        ?? store.feedNames.first(where: { feed in calls.contains { stop($0.stopID, feed: feed) != nil } }),
      let first = calls.first.flatMap({ $0.departure ?? $0.arrival })
    else { return nil }
    let date = added.serviceDate ?? store.localDate(of: first, feed: feed)
    let stops = calls.map {
      ScheduledStop(
        stopID: $0.stopID, stopSequence: $0.stopSequence, arrival: $0.arrival ?? $0.departure, departure: $0.departure ?? $0.arrival)
    }
    let summary =
      route
      ?? RouteSummary(
        feed: feed, id: added.routeID ?? RouteID(""), shortName: added.routeID?.rawValue ?? "", longName: nil, routeType: 3, color: nil)
    let headsign = added.headsign ?? calls.last.flatMap { stop($0.stopID, feed: feed)?.name } ?? "?"
    let trip = ScheduledTrip(
      instance: TripInstance(tripID: tripID, serviceDate: date), routeID: summary.id, stops: stops,
      serviceDayStart: store.serviceDayStart(date, feed: feed), route: summary, headsign: headsign)
    let result = (trip, TripDetails(feed: feed, tripID: tripID, route: summary, headsign: headsign, blockID: nil))
    addedTrips[tripID] = result
    return result
  }

  /// Marks a view of an added trip; a route the update does not name stays unnamed (no id).
  static func markAdded(_ view: inout VehicleView) {
    view.isAdded = true
    if view.routeID?.rawValue.isEmpty ?? true {
      view.routeID = nil
      view.routeShortName = nil
    }
  }

  /// The next trip of `trip`'s block that service day (rule 10), with its details.
  public func nextTrip(after trip: ScheduledTrip, details: TripDetails) throws -> (ScheduledTrip, TripDetails)? {
    guard let block = details.blockID else { return nil }
    let date = trip.instance.serviceDate
    var trips: [ScheduledTrip] = []
    for tripID in try store.blockTrips(block, feed: details.feed, on: date) {
      let stops = try store.tripCalls(tripID, feed: details.feed, serviceDate: date)
      trips.append(
        ScheduledTrip(
          instance: TripInstance(tripID: tripID, serviceDate: date), routeID: RouteID(""), stops: stops,
          serviceDayStart: store.serviceDayStart(date, feed: details.feed)))
    }
    guard let next = Reconciler.nextTrip(after: trip, in: trips), let info = try store.tripDetails(next.instance.tripID, feed: details.feed)
    else { return nil }
    var result = next
    result.routeID = info.route.id
    return (result, info)
  }
}

/// `zip` for optionals: both values, or nil.
func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
  guard let a, let b else { return nil }
  return (a, b)
}
