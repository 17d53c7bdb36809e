import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// Names the trip of every trip update and vehicle position that does not name it by a trip_id
/// the timetables hold (DESIGN.md rules 15, 16): by route_id + direction_id + start_time +
/// start_date, or by a producer's convention recognised from the feed itself (NYCT: the
/// extension in its header). The feeds come back with those descriptors rewritten to the
/// timetable's trip_id and service date, so that every answer read from them (`LiveRealtime`)
/// matches them once and the same way; NYCT's trips that the timetable lacks, on a route the
/// feed replaces, come back as ADDED trips built from their own stop time updates.
struct DescriptorResolver {
  let store: Store
  /// The moment resolved at: only a descriptor without start_date depends on it (its day), so
  /// a resolver carried from one snapshot to the next (`MatchCache`) is kept while the day is.
  var now: UnixTime

  /// What the resolution did, per kind of entity.
  struct Outcome {
    /// The feeds with descriptors rewritten.
    var feeds: [FeedMessage] = []
    /// Trip updates matched other than by trip_id, by rule.
    var tripUpdates: [MatchRule: Int] = [:]
    /// Trip updates without a usable trip_id that nothing names, by reason, with examples.
    var unresolvedTripUpdates: [UnmatchedReason: Int] = [:]
    var examples: [UnmatchedReason: [String]] = [:]
    /// Vehicles matched other than by trip_id, by rule.
    var vehicles: [MatchRule: Int] = [:]
    /// The timetable trips of NYCT's convention, with their NYCT train ids.
    var trainIDs: [String: String] = [:]
    /// The details of every held trip a descriptor named by trip_id, as looked up here (so the
    /// realtime step asks the store once per trip).
    var details: [TripID: TripDetails] = [:]
    /// The trip_ids looked up here that no timetable holds.
    var unknownTripIDs = Set<TripID>()
  }

  private var known: [String: TripDetails?] = [:]
  /// The trip_ids looked up by the current `resolve` call (a carried resolver knows more).
  private var asked = Set<String>()
  private var resolved: [String: TripResolution] = [:]
  /// The trips of a route on some dates (`Store.tripStarts`), read once per route and dates
  /// and indexed by first departure: NYCT names 171 trains on a few routes, each by its
  /// origin time.
  private var startIndex: [String: StartIndex] = [:]
  /// The feed holding each route asked about (nil: none).
  private var routeFeeds: [String: FeedName?] = [:]

  /// A route's trips on some dates: by first departure, and the frequency templates (told
  /// apart by start_time), each list in the store's order.
  private struct StartIndex {
    var byFirstDeparture: [Int32: [TripStart]] = [:]
    var templates: [TripStart] = []
    var count = 0
  }

  init(store: Store, now: UnixTime) {
    self.store = store
    self.now = now
  }

  /// Resolves every descriptor of `feeds`.
  mutating func resolve(_ feeds: [FeedMessage]) throws -> Outcome {
    var outcome = Outcome()
    outcome.feeds.reserveCapacity(feeds.count)
    asked.removeAll(keepingCapacity: true)
    for var feed in feeds {
      let isNYCT = feed.header?.nyctFeedHeader != nil
      let replaced = Reconciler.replacementPeriods(in: [feed])
      // Cheap exit: a feed whose every descriptor names a held trip is left as it is.
      var changed = false
      var entities = feed.entities
      for index in entities.indices where !entities[index].isDeletedOrDefault {
        if entities[index].hasTripUpdate, var update = entities[index].tripUpdate {
          var descriptor = update.trip ?? TripDescriptor()
          let result = try resolution(of: descriptor, isNYCT: isNYCT)
          switch result {
          case nil:
            break
          case .trip(let tripID, let date, let startTime, let rule)?:
            descriptor.tripID = tripID.rawValue
            descriptor.startDate = date.description
            if let startTime { descriptor.startTime = startTime.description }
            outcome.tripUpdates[rule, default: 0] += 1
            update.trip = descriptor
            if isNYCT { nameTrain(&update, outcome: &outcome) }
            entities[index].tripUpdate = update
            changed = true
          case .unmatched(let reason)?:
            if isNYCT, let route = descriptor.routeID, replaced[RouteID(route)] != nil, !update.stopTimeUpdates.isEmpty {
              // Not in the timetable, on a route the feed replaces: a live train of its own.
              descriptor.scheduleRelationship = .added
              update.trip = descriptor
              if update.tripProperties?.tripHeadsign == nil, let headsign = try lastStopName(of: update) {
                var properties = update.tripProperties ?? TripUpdate.TripProperties()
                properties.tripHeadsign = headsign
                update.tripProperties = properties
              }
              nameTrain(&update, outcome: &outcome)
              entities[index].tripUpdate = update
              outcome.tripUpdates[.builtFromUpdate, default: 0] += 1
              changed = true
            } else if descriptor.tripID?.isEmpty ?? true {
              outcome.unresolvedTripUpdates[reason, default: 0] += 1
              if outcome.examples[reason, default: []].count < 3 {
                outcome.examples[reason, default: []].append(Self.describe(descriptor, entity: entities[index].id))
              }
            }
          }
        }
        if entities[index].hasVehicle, var vehicle = entities[index].vehicle, var descriptor = vehicle.trip {
          switch try resolution(of: descriptor, isNYCT: isNYCT) {
          case .trip(let tripID, let date, let startTime, let rule)?:
            if isNYCT { Self.nameTrain(&vehicle.vehicle, descriptor) }
            descriptor.tripID = tripID.rawValue
            descriptor.startDate = date.description
            if let startTime { descriptor.startTime = startTime.description }
            vehicle.trip = descriptor
            entities[index].vehicle = vehicle
            outcome.vehicles[rule, default: 0] += 1
            changed = true
          case .unmatched?:
            if isNYCT, Self.nameTrain(&vehicle.vehicle, descriptor) {
              entities[index].vehicle = vehicle
              changed = true
            }
          case nil:
            break
          }
        }
      }
      if changed { feed.entities = entities }
      outcome.feeds.append(feed)
    }
    for id in asked {
      if let found = known[id] ?? nil { outcome.details[TripID(id)] = found } else { outcome.unknownTripIDs.insert(TripID(id)) }
    }
    return outcome
  }

  /// The NYCT train id as the trip's vehicle, once the train is assigned (an unassigned trip
  /// is not presented as a running train).
  private func nameTrain(_ update: inout TripUpdate, outcome: inout Outcome) {
    if let descriptor = update.trip { Self.nameTrain(&update.vehicle, descriptor) }
  }

  /// Names `vehicle` by the NYCT train id of `descriptor` when the train is assigned and the
  /// feed names no vehicle; whether it did.
  @discardableResult
  private static func nameTrain(_ vehicle: inout VehicleDescriptor?, _ descriptor: TripDescriptor) -> Bool {
    guard let nyct = descriptor.nyctTripDescriptor, nyct.isAssigned == true, let train = nyct.trainID, !train.isEmpty,
      vehicle?.id == nil
    else { return false }
    var identity = vehicle ?? VehicleDescriptor()
    identity.id = train
    vehicle = identity
    return true
  }

  /// Nil when the descriptor names a held trip by trip_id (or is not for resolving); else what
  /// it names, decided once per distinct descriptor.
  private mutating func resolution(of descriptor: TripDescriptor, isNYCT: Bool) throws -> TripResolution? {
    let tripID = descriptor.tripID ?? ""
    if !tripID.isEmpty {
      asked.insert(tripID)
      if let found = known[tripID] {
        if found != nil { return nil }
      } else {
        let found = try store.tripDetails(TripID(tripID))
        known[tripID] = .some(found)
        if found != nil { return nil }
      }
      guard isNYCT, let name = NYCTTripName(realtime: tripID) else { return nil }
      let key = "nyct|\(tripID)|\(descriptor.routeID ?? "")|\(descriptor.startDate ?? "")"
      if let done = resolved[key] { return done }
      let result = try resolveNYCT(name, descriptor: descriptor)
      resolved[key] = result
      return result
    }
    let key =
      "d|\(descriptor.routeID ?? "")|\(descriptor.directionID.map(String.init) ?? "")|\(descriptor.startTime ?? "")|\(descriptor.startDate ?? "")"
    if let done = resolved[key] { return done }
    let result = try resolveDescriptor(descriptor)
    resolved[key] = result
    return result
  }

  private mutating func resolveNYCT(_ name: NYCTTripName, descriptor: TripDescriptor) throws -> TripResolution {
    // Without start_date, today in the zone of the feed that holds the route.
    let route = descriptor.routeID.flatMap { $0.isEmpty ? nil : $0 } ?? name.route
    let feed = try feed(ofRoute: RouteID(route)) ?? store.feedNames.first
    let startDate =
      descriptor.startDate.flatMap { ServiceDate(gtfs: $0) } ?? feed.map { store.localDate(of: now, feed: $0) }
    guard let startDate else { return .unmatched(.unknownTrip) }
    let dates = [startDate, startDate.adding(days: -1)]
    var routes = [name.route]
    if let route = descriptor.routeID, !route.isEmpty, route != name.route { routes.insert(route, at: 0) }
    for route in routes {
      let starts = try tripStarts(route: RouteID(route), on: dates, firstDeparture: [name.originSeconds, name.originSeconds + 86_400])
      let result = Reconciler.resolveNYCT(name, startDate: startDate, among: Self.candidates(starts))
      if case .trip = result { return result }
    }
    return .unmatched(.unknownTrip)
  }

  private mutating func resolveDescriptor(_ descriptor: TripDescriptor) throws -> TripResolution {
    guard let route = descriptor.routeID, !route.isEmpty else { return .unmatched(.ambiguous) }
    let routeID = RouteID(route)
    guard try feed(ofRoute: routeID) != nil else { return .unmatched(.unknownRoute) }
    guard let start = descriptor.startTime.flatMap({ ServiceTime(gtfs: $0) }) else { return .unmatched(.ambiguous) }
    var dates: [ServiceDate]
    if let date = descriptor.startDate.flatMap({ ServiceDate(gtfs: $0) }) {
      dates = [date]
    } else {
      // Without start_date: the run nearest the feed's time, today's (in the zone of the feed
      // that holds the route) before its neighbours'.
      let feed = try feed(ofRoute: routeID) ?? store.feedNames.first
      let today = feed.map { store.localDate(of: now, feed: $0) } ?? ServiceDate(yyyymmdd: 19_700_101)!
      dates = [today, today.adding(days: -1), today.adding(days: 1)]
    }
    let starts = try tripStarts(route: routeID, on: dates, firstDeparture: [Int32(start.seconds)])
    var candidates = Self.candidates(starts)
    // Nearest date first, as `Reconciler.resolve` takes the first date found without start_date.
    candidates.sort { (dates.firstIndex(of: $0.serviceDate) ?? 0) < (dates.firstIndex(of: $1.serviceDate) ?? 0) }
    let routeTrips = starts.isEmpty ? try tripStartCount(route: routeID, on: dates) : starts.count
    if candidates.isEmpty { return .unmatched(routeTrips == 0 ? .notRunning : .unknownTrip) }
    return Reconciler.resolve(descriptor, among: candidates, routeKnown: true)
  }

  /// The feed holding `route` (the first that does), asked once per route.
  private mutating func feed(ofRoute route: RouteID) throws -> FeedName? {
    if let known = routeFeeds[route.rawValue] { return known }
    let feed = try store.route(route)?.feed
    routeFeeds[route.rawValue] = feed
    return feed
  }

  /// The index of `route`'s trips on `dates`, read on first use.
  private mutating func index(route: RouteID, on dates: [ServiceDate]) throws -> StartIndex {
    let key = route.rawValue + "|" + dates.map(\.description).joined(separator: ",")
    if let known = startIndex[key] { return known }
    var index = StartIndex()
    for start in try store.tripStarts(route: route, on: dates) {
      index.count += 1
      if !start.frequencyWindows.isEmpty {
        index.templates.append(start)
      } else if let first = start.firstDeparture {
        index.byFirstDeparture[first, default: []].append(start)
      }
    }
    startIndex[key] = index
    return index
  }

  /// `Store.tripStarts(route:on:firstDeparture:)`, from the index: the trips first departing at
  /// one of `firstDeparture` (in that order), then the frequency templates.
  private mutating func tripStarts(route: RouteID, on dates: [ServiceDate], firstDeparture: [Int32]) throws -> [TripStart] {
    let index = try index(route: route, on: dates)
    return firstDeparture.flatMap { index.byFirstDeparture[$0] ?? [] } + index.templates
  }

  /// How many trips of `route` run on `dates`.
  private mutating func tripStartCount(route: RouteID, on dates: [ServiceDate]) throws -> Int {
    try index(route: route, on: dates).count
  }

  private static func candidates(_ starts: [TripStart]) -> [TripStartCandidate] {
    starts.flatMap { start in
      start.runsOn.sorted().map { date in
        TripStartCandidate(
          tripID: start.tripID, directionID: start.directionID, firstDeparture: start.firstDeparture, mtaTripID: start.mtaTripID,
          frequencyWindows: start.frequencyWindows, serviceDate: date)
      }
    }
  }

  /// The name of the last stop of an update the timetable lacks, for its headsign.
  private func lastStopName(of update: TripUpdate) throws -> String? {
    guard let last = update.stopTimeUpdates.last(where: { $0.stopID != nil })?.stopID else { return nil }
    for feed in store.feedNames {
      if let stop = try store.stop(StopID(last), feed: feed) { return stop.name }
    }
    return nil
  }

  private static func describe(_ descriptor: TripDescriptor, entity: String?) -> String {
    var parts: [String] = []
    if let entity { parts.append("entity \(entity)") }
    if let route = descriptor.routeID { parts.append("route \(route)") }
    if let direction = descriptor.directionID { parts.append("direction \(direction)") }
    if let start = descriptor.startTime { parts.append("start \(start)") }
    if let date = descriptor.startDate { parts.append("date \(date)") }
    return parts.isEmpty ? "no descriptor" : parts.joined(separator: ", ")
  }
}
