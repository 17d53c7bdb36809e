import GTFS
import TransitModel

/// Express trips in a printed timetable: the stops of the usual pattern a trip does not call at.
///
/// The usual pattern of a route and direction is the stop sequence most of its trips running
/// that service day follow (a frequency-based trip counts once); on a tie, the one with more
/// stops, then the first trip's. A departure skips the usual pattern's stops that lie after
/// this stop and before the last stop of the usual pattern the trip still calls at: where it
/// goes from here, it passes them by. Stops compare by their station (a platform's parent
/// station), so a trip using another platform of the same station does not skip it. A trip
/// that stops short of the usual end, or leaves the usual line, skips nothing (other
/// footnotes say where it goes).
extension TimetableGrid {
  /// The stops `usual` calls at after `here` that `trip` passes without calling, between
  /// `here` and the last stop of `usual` that `trip` calls at after it; empty when `here` is
  /// not on either.
  /// - Complexity: O(stops of both).
  public static func skippedStops(trip: [TransitModel.Stop], usual: [TransitModel.Stop], at here: StopID) -> [TransitModel.Stop] {
    func place(_ stop: TransitModel.Stop) -> StopID { stop.parentStation ?? stop.id }
    guard let position = trip.firstIndex(where: { $0.id == here }) else { return [] }
    let usualPlaces = usual.map(place)
    guard let start = usualPlaces.firstIndex(of: place(trip[position])) else { return [] }
    let ahead = Set(trip[(position + 1)...].map(place))
    guard let end = usualPlaces.indices.last(where: { $0 > start && ahead.contains(usualPlaces[$0]) }), end > start + 1 else {
      return []
    }
    return usual[(start + 1)..<end].filter { !ahead.contains(place($0)) }
  }

  /// The usual stop sequence of each direction among `trips` (one route's trips of a day).
  /// - Complexity: O(trips + patterns² × stops): trips are counted by stored pattern, then
  ///   patterns with the same stop sequence are added together.
  public static func usualSequences(_ trips: [TripStopSequence]) -> [Int?: [TransitModel.Stop]] {
    struct Tally {
      var direction: Int?
      var stops: [TransitModel.Stop]
      var ids: [StopID]
      var count: Int
    }
    var tallies: [Tally] = []
    var byPattern: [Int64: Int] = [:]
    for trip in trips {
      if let index = byPattern[trip.pattern], tallies[index].direction == trip.directionID {
        tallies[index].count += 1
        continue
      }
      let ids = trip.stops.map(\.id)
      if let index = tallies.firstIndex(where: { $0.direction == trip.directionID && $0.ids == ids }) {
        tallies[index].count += 1
        byPattern[trip.pattern] = index
      } else {
        byPattern[trip.pattern] = tallies.count
        tallies.append(Tally(direction: trip.directionID, stops: trip.stops, ids: ids, count: 1))
      }
    }
    var usual: [Int?: Tally] = [:]
    // In order of first trip: a full tie keeps the first trip's sequence.
    for tally in tallies {
      if let best = usual[tally.direction], (best.count, best.ids.count) >= (tally.count, tally.ids.count) { continue }
      usual[tally.direction] = tally
    }
    return usual.mapValues(\.stops)
  }

  /// "skips Hayward Park", "skips A and B", "skips A, B, C and 2 more".
  public static func skipText(_ stops: [TransitModel.Stop]) -> String {
    var names: [String] = []
    for stop in stops where !names.contains(stop.name) { names.append(stop.name) }
    let shown = names.prefix(3)
    let more = names.count - shown.count
    if more > 0 { return "skips " + shown.joined(separator: ", ") + " and \(more) more" }
    if shown.count <= 1 { return "skips " + (shown.first ?? "") }
    return "skips " + shown.dropLast().joined(separator: ", ") + " and " + shown.last!
  }

  /// Per trip of `calls` that skips stops of its route and direction's usual pattern after
  /// the stop it calls at here, the footnote ("skips A and B"), for service day `date`.
  /// - Throws: the store's errors.
  /// - Complexity: one `Store.stopSequences` per route in `calls`.
  public static func expressNotes(calls: [ScheduledCall], on date: ServiceDate, store: Store) throws -> [TripID: String] {
    struct Key: Hashable {
      var feed: FeedName
      var route: RouteID
    }
    var byRoute: [Key: [ScheduledCall]] = [:]
    for call in calls where call.serviceDate == date && !call.isLastStop {
      byRoute[Key(feed: call.feed, route: call.routeID), default: []].append(call)
    }
    var notes: [TripID: String] = [:]
    for (key, routeCalls) in byRoute {
      let trips = try store.stopSequences(route: key.route, feed: key.feed, on: date)
      let usual = usualSequences(trips)
      var sequence: [TripID: TripStopSequence] = [:]
      for trip in trips { sequence[trip.tripID] = trip }
      // The same pattern at the same stop skips the same stops: worked out once.
      struct Place: Hashable {
        var pattern: Int64
        var stop: StopID
      }
      var known: [Place: String?] = [:]
      for call in routeCalls {
        guard let trip = sequence[call.tripID], let main = usual[call.directionID] else { continue }
        let place = Place(pattern: trip.pattern, stop: call.stopID)
        if known[place] == nil {
          let skipped = skippedStops(trip: trip.stops, usual: main, at: call.stopID)
          known[place] = .some(skipped.isEmpty ? nil : skipText(skipped))
        }
        if let note = known[place] ?? nil { notes[call.tripID] = note }
      }
    }
    return notes
  }
}
