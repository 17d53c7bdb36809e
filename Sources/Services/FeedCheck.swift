import GTFS
import GTFSRealtime
import Merge
import TransitModel

/// `rt check`: what a realtime feed matched in the timetables held and why the rest did not
/// (DESIGN.md rule 18), and the consumer-side rules of the public GTFS-Realtime validator
/// (MobilityData's gtfs-realtime-validator), by their ids so that publishers recognise them.
public struct FeedCheck: Sendable {
  /// One validator rule: its id, whether it is an error or a warning, what it checks, how many
  /// times it fired and the first examples.
  public struct Rule: Sendable, Hashable {
    public var id: String
    public var isError: Bool
    public var title: String
    public var count = 0
    public var examples: [String] = []

    /// Notes one occurrence; the first `examplesKept` are kept.
    mutating func fire(_ example: @autoclosure () -> String) {
      count += 1
      if examples.count < FeedCheck.examplesKept { examples.append(example()) }
    }
  }

  /// Examples kept per rule or reason.
  public static let examplesKept = 3

  /// What matched, and how (`RealtimeReport.match`), with the totals.
  public var report: RealtimeReport
  /// Every rule checked, in id order, fired or not.
  public var rules: [Rule]

  /// Whether an error rule fired (`rt check` exits 1 then).
  public var hasErrors: Bool { rules.contains { $0.isError && $0.count > 0 } }

  /// The validator's rules this check runs (ids and titles as the validator names them).
  static let catalogue: [(String, Bool, String)] = [
    ("E003", true, "trip_id not in the GTFS (and not ADDED)"),
    ("E004", true, "route_id not in the GTFS"),
    ("E011", true, "stop_id not in the GTFS"),
    ("E012", true, "header timestamp older than an entity's timestamp"),
    ("E017", true, "content changed but the header timestamp did not"),
    ("E018", true, "header timestamp went back between consecutive feeds"),
    ("E022", true, "stop_time_update times not increasing"),
    ("E025", true, "departure before arrival at a stop"),
    ("E026", true, "vehicle position not a valid coordinate"),
    ("E027", true, "vehicle bearing not within 0-360"),
    ("E028", true, "vehicle position outside the area the GTFS stops cover"),
    ("E029", true, "vehicle position more than 200 m from its trip's shape (and no DETOUR alert for the trip)"),
    ("E036", true, "consecutive stop_time_updates with the same stop_sequence"),
    ("E037", true, "consecutive stop_time_updates with the same stop_id"),
    ("E050", true, "timestamp in the future"),
    ("E052", true, "vehicle id not unique in the feed"),
    ("W004", false, "unrealistic vehicle speed (over 26 m/s)"),
    ("W008", false, "header timestamp more than 65 s old"),
  ]

  /// Checks `feeds` (consecutive fetches of one feed, or feeds of several kinds) against the
  /// timetables in `store` at `now`; matching is judged at the newest header time, so a recorded
  /// capture is matched as it was when fetched.
  /// - Throws: the store's errors.
  public static func check(store: Store, feeds: [FeedMessage], now: UnixTime, options: ServiceOptions) throws -> FeedCheck {
    let stamps = feeds.compactMap { $0.header?.timestamp }.filter { $0 <= UInt64(Int64.max) }
    let judged = stamps.max().map { UnixTime(Int64($0)) } ?? now
    let live = try LiveRealtime(store: store, feeds: feeds, now: judged, options: options)
    var rules = Dictionary(uniqueKeysWithValues: catalogue.map { ($0.0, Rule(id: $0.0, isError: $0.1, title: $0.2)) })
    var lookup = Lookup(store: store)
    let area = try store.stopArea()
    // E029 spares a trip that an alert says is on a DETOUR.
    var detoured = Set<String>()
    for alert in feeds.flatMap(\.entities).compactMap(\.alert) where alert.effect == .detour {
      for selector in alert.informedEntities { if let trip = selector.trip?.tripID { detoured.insert(trip) } }
    }

    var previous: (stamp: UInt64, bytes: Int)?
    for feed in feeds {
      let header = feed.header?.timestamp
      if let header {
        if Int64(clamping: header) > now.seconds + 60 { rules["E050"]!.fire("header \(header)") }
        if now.seconds - Int64(clamping: header) > 65 {
          rules["W008"]!.fire("header \(header) is \(now.seconds - Int64(clamping: header)) s old")
        }
        if let previous {
          if header < previous.stamp { rules["E018"]!.fire("\(previous.stamp) then \(header)") }
          if header == previous.stamp, feed.entities.count != previous.bytes {
            rules["E017"]!.fire("header \(header) repeated with other content")
          }
        }
        previous = (header, feed.entities.count)
      }
      var vehicleIDs = Set<String>()
      for entity in feed.entities where !entity.isDeletedOrDefault {
        let name = entity.id.map { "entity \($0)" } ?? "an entity"
        if let update = entity.tripUpdate {
          try checkDescriptor(update.trip, name: name, rules: &rules, lookup: &lookup)
          if let stamp = update.timestamp {
            if let header, stamp > header { rules["E012"]!.fire("\(name): timestamp \(stamp) after header \(header)") }
            if Int64(clamping: stamp) > now.seconds + 60 { rules["E050"]!.fire("\(name): timestamp \(stamp)") }
          }
          var last: (time: Int64, stop: String)?
          var previousSTU: TripUpdate.StopTimeUpdate?
          for stu in update.stopTimeUpdates {
            let at = stu.stopID.map { "stop \($0)" } ?? stu.stopSequence.map { "stop_sequence \($0)" } ?? "a stop"
            if let stop = stu.stopID, try !lookup.hasStop(stop) { rules["E011"]!.fire("\(name): stop_id \(stop)") }
            if let arrival = stu.arrival?.time, let departure = stu.departure?.time, departure < arrival {
              rules["E025"]!.fire("\(name) at \(at): departure \(departure) before arrival \(arrival)")
            }
            // E022 compares consecutive stops: this stop's first time with the last one before.
            if let time = stu.arrival?.time ?? stu.departure?.time, let last, time < last.time {
              rules["E022"]!.fire("\(name) at \(at): \(time) before \(last.time) at \(last.stop)")
            }
            if let time = stu.departure?.time ?? stu.arrival?.time { last = (time, at) }
            if let before = previousSTU {
              if let a = before.stopSequence, a == stu.stopSequence { rules["E036"]!.fire("\(name): stop_sequence \(a) twice") }
              if let a = before.stopID, a == stu.stopID { rules["E037"]!.fire("\(name): stop_id \(a) twice") }
            }
            previousSTU = stu
          }
        }
        if let vehicle = entity.vehicle {
          try checkDescriptor(vehicle.trip, name: name, rules: &rules, lookup: &lookup)
          if let id = vehicle.vehicle?.id, !id.isEmpty, !vehicleIDs.insert(id).inserted {
            rules["E052"]!.fire("vehicle \(id)")
          }
          if let stop = vehicle.stopID, try !lookup.hasStop(stop) { rules["E011"]!.fire("\(name): stop_id \(stop)") }
          if let stamp = vehicle.timestamp {
            if let header, stamp > header { rules["E012"]!.fire("\(name): timestamp \(stamp) after header \(header)") }
            if Int64(clamping: stamp) > now.seconds + 60 { rules["E050"]!.fire("\(name): timestamp \(stamp)") }
          }
          if let position = vehicle.position {
            let lat = Double(position.latitude ?? .nan), lon = Double(position.longitude ?? .nan)
            if !(lat.isFinite && lon.isFinite && (-90...90).contains(lat) && (-180...180).contains(lon)) || (lat == 0 && lon == 0) {
              rules["E026"]!.fire(
                "\(name): \(position.latitude.map { "\($0)" } ?? "no latitude"),\(position.longitude.map { "\($0)" } ?? "no longitude")")
            } else if let area, !area.contains(Coordinate(latitude: lat, longitude: lon)) {
              rules["E028"]!.fire("\(name): \(lat),\(lon)")
            } else if let trip = vehicle.trip?.tripID, !trip.isEmpty, !detoured.contains(trip),
              let path = try lookup.shape(ofTrip: trip)
            {
              let off = path.distance(from: Coordinate(latitude: lat, longitude: lon))
              if off > 200 { rules["E029"]!.fire("\(name): \(lat),\(lon) is \(Int(off.rounded())) m from trip \(trip)'s shape") }
            }
            if let bearing = position.bearing, !(bearing.isFinite && (0...360).contains(bearing)) {
              rules["E027"]!.fire("\(name): bearing \(bearing)")
            }
            if let speed = position.speed, !(speed.isFinite && speed <= 26) { rules["W004"]!.fire("\(name): \(speed) m/s") }
          }
        }
      }
    }
    return FeedCheck(report: live.report, rules: rules.values.sorted { $0.id < $1.id })
  }

  /// E003 and E004 for one descriptor (a trip the producer's convention names is not E003).
  private static func checkDescriptor(
    _ descriptor: TripDescriptor?, name: String, rules: inout [String: Rule], lookup: inout Lookup
  ) throws {
    guard let descriptor else { return }
    let relationship = descriptor.scheduleRelationshipOrDefault
    let isAdded = relationship == .added || relationship == .new || relationship == .duplicated
    if let trip = descriptor.tripID, !trip.isEmpty, !isAdded, try !lookup.hasTrip(trip) {
      let isNYCTName = descriptor.nyctTripDescriptor != nil && NYCTTripName(realtime: trip) != nil
      if !isNYCTName { rules["E003"]!.fire("\(name): trip_id \(trip)") }
    }
    if let route = descriptor.routeID, !route.isEmpty, try !lookup.hasRoute(route) {
      rules["E004"]!.fire("\(name): route_id \(route)")
    }
  }

  /// Ids looked up once each.
  private struct Lookup {
    let store: Store
    var trips: [String: Bool] = [:]
    var routes: [String: Bool] = [:]
    var stops: [String: Bool] = [:]
    var shapes: [String: ShapePath?] = [:]

    init(store: Store) { self.store = store }

    /// The shape of a trip the timetables hold (nil without one), read once per trip.
    mutating func shape(ofTrip id: String) throws -> ShapePath? {
      if let known = shapes[id] { return known }
      var path: ShapePath?
      if let details = try store.tripDetails(TripID(id)), let shape = try store.shapeID(ofTrip: details.tripID, feed: details.feed) {
        path = ShapePath(try store.shape(shape, feed: details.feed))
      }
      shapes[id] = path
      return path
    }

    mutating func hasTrip(_ id: String) throws -> Bool {
      if let known = trips[id] { return known }
      let found = try store.tripDetails(TripID(id)) != nil
      trips[id] = found
      return found
    }

    mutating func hasRoute(_ id: String) throws -> Bool {
      if let known = routes[id] { return known }
      let found = try store.hasRoute(RouteID(id))
      routes[id] = found
      return found
    }

    mutating func hasStop(_ id: String) throws -> Bool {
      if let known = stops[id] { return known }
      var found = false
      for feed in store.feedNames where try store.stop(StopID(id), feed: feed) != nil {
        found = true
        break
      }
      stops[id] = found
      return found
    }
  }
}
