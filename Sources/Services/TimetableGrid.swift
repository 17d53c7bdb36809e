import GTFS
import TransitModel

/// A stop's day as a printed timetable: one block per route and direction, hours down and
/// minutes across, with footnotes for the departures that differ from the block's usual trip.
public struct TimetableGrid: Sendable {
  /// One departure in the grid.
  public struct Entry: Sendable, Hashable {
    /// Minute past the hour.
    public var minute: Int
    /// The footnote's mark ("a"), when the departure differs from the block's usual trip.
    public var mark: String?
    public var tripID: TripID
    public var headsign: String
    public var stopID: StopID
  }

  /// One hour's row.
  public struct Hour: Sendable, Hashable {
    /// The hour on the GTFS clock of the service day (24 and later are after midnight).
    public var hour: Int
    public var entries: [Entry]
  }

  /// A footnote: its mark and what it says.
  public struct Footnote: Sendable, Hashable {
    public var mark: String
    public var text: String

    /// Creates a footnote.
    public init(mark: String, text: String) {
      self.mark = mark
      self.text = text
    }
  }

  /// One route and direction.
  public struct Block: Sendable, Hashable {
    public var routeID: RouteID
    public var routeShortName: String
    public var routeType: Int
    public var directionID: Int?
    /// The destination most of its departures show.
    public var headsign: String
    public var hours: [Hour]
    public var footnotes: [Footnote]
    /// The stop or station asked about that the block's departures leave from, on a timetable
    /// of several (a complex's station, one of the stops named); nil on a timetable of one.
    public var part: TransitModel.Stop? = nil
    /// What tells `part` apart from the other parts (`Board.partLabels`); nil where the route
    /// already does (stations of one name in one feed) or on a timetable of one.
    public var partLabel: String? = nil
    /// Departures in the block.
    public var count: Int { hours.reduce(0) { $0 + $1.entries.count } }
  }

  public var serviceDate: ServiceDate
  public var blocks: [Block]

  /// Departures in the grid.
  public var count: Int { blocks.reduce(0) { $0 + $1.count } }

  /// Builds the grid of `calls` (one service day's, at one stop or station) whose service day
  /// starts at `dayStart` (noon minus 12 h). A call's place is its GTFS time (so 25:10 is hour
  /// 25, after midnight, at the end). Calls that differ from their block's usual trip get a
  /// footnote: another destination ("to X"), the trip ends here ("arrives only"), nobody may
  /// board (pickup_type 1, "no boarding"), it skips the stop (a `skipped` trip id, from
  /// realtime), or it runs express past stops its usual pattern calls at (`express`, the
  /// footnote per trip: see `expressNotes`). Blocks are ordered by route short name (numbers
  /// in numeric order), then direction.
  /// - Complexity: O(n log n) in the calls.
  public static func build(
    calls: [ScheduledCall], dayStart: UnixTime, serviceDate: ServiceDate, skipped: Set<TripID> = [], express: [TripID: String] = [:]
  ) -> TimetableGrid {
    struct Key: Hashable {
      var route: RouteID
      var direction: Int?
    }
    var groups: [Key: [ScheduledCall]] = [:]
    var order: [Key] = []
    for call in calls where call.serviceDate == serviceDate && call.scheduledTime != nil {
      let key = Key(route: call.routeID, direction: call.directionID)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(call)
    }
    var blocks: [Block] = []
    for key in order {
      let group = groups[key]!.sorted { ($0.scheduledTime!, $0.tripID) < ($1.scheduledTime!, $1.tripID) }
      var counts: [String: Int] = [:]
      for call in group where !call.isLastStop { counts[call.headsign, default: 0] += 1 }
      let main = counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key ?? group[0].headsign
      var footnotes: [Footnote] = []
      var marks: [String: String] = [:]
      func mark(for text: String) -> String {
        if let known = marks[text] { return known }
        let mark = Self.mark(footnotes.count)
        marks[text] = mark
        footnotes.append(Footnote(mark: mark, text: text))
        return mark
      }
      var hours: [Hour] = []
      for call in group {
        let seconds = Int(call.scheduledTime! - dayStart)
        let hour = seconds >= 0 ? seconds / 3600 : -1 - (-seconds - 1) / 3600
        let minute = ((seconds % 3600) + 3600) % 3600 / 60
        var notes: [String] = []
        if call.headsign != main && !call.headsign.isEmpty { notes.append("to \(call.headsign)") }
        if call.isLastStop { notes.append("arrives only, ends here") } else if call.pickupType == 1 { notes.append("no boarding") }
        if let note = express[call.tripID], !call.isLastStop { notes.append(note) }
        if skipped.contains(call.tripID) { notes.append("does not stop here today") }
        let entry = Entry(
          minute: minute, mark: notes.isEmpty ? nil : mark(for: notes.joined(separator: "; ")), tripID: call.tripID,
          headsign: call.headsign, stopID: call.stopID)
        if hours.last?.hour == hour {
          hours[hours.count - 1].entries.append(entry)
        } else {
          hours.append(Hour(hour: hour, entries: [entry]))
        }
      }
      let first = group[0]
      blocks.append(
        Block(
          routeID: key.route, routeShortName: first.routeShortName, routeType: first.routeType, directionID: key.direction,
          headsign: main, hours: hours, footnotes: footnotes))
    }
    sortBlocks(&blocks)
    return TimetableGrid(serviceDate: serviceDate, blocks: blocks)
  }

  /// Blocks by route short name (numbers in numeric order), then direction; blocks equal in
  /// both keep their order (a timetable of several parts: the order the parts were named).
  static func sortBlocks(_ blocks: inout [Block]) {
    blocks = blocks.enumerated().sorted { x, y in
      let a = x.element, b = y.element
      if a.routeShortName != b.routeShortName { return routeOrder(a.routeShortName, b.routeShortName) }
      if (a.directionID ?? -1) != (b.directionID ?? -1) { return (a.directionID ?? -1) < (b.directionID ?? -1) }
      return x.offset < y.offset
    }.map(\.element)
  }

  /// The trips of service day `date` that realtime says will not stop at any of `stopIDs`:
  /// cancelled, or the stop skipped.
  public static func skippedTrips(_ live: LiveRealtime, at stopIDs: Set<StopID>, on date: ServiceDate) -> Set<TripID> {
    var result = Set<TripID>()
    for (instance, prediction) in live.realtime.predictions where instance.serviceDate == date {
      let here = prediction.stops.filter { stopIDs.contains($0.stop.stopID) }
      guard !here.isEmpty else { continue }
      if prediction.isCanceled || here.allSatisfy(\.isSkipped) { result.insert(instance.tripID) }
    }
    return result
  }

  /// "a" … "z", then "aa", "ab" …
  static func mark(_ index: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return index < 26 ? String(letters[index]) : mark(index / 26 - 1) + String(letters[index % 26])
  }

  /// Route names in the order riders expect: numbers by value ("9" before "10"), then text.
  static func routeOrder(_ a: String, _ b: String) -> Bool {
    let na = Int(a.prefix { $0.isNumber }), nb = Int(b.prefix { $0.isNumber })
    switch (na, nb) {
    case let (x?, y?) where x != y: return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    default: return a < b
    }
  }

  /// The whole service day `date` at `stop` (a station: all its platforms) from `store`, as a grid;
  /// only `route` (short name or id) and `direction` when given; express trips footnoted
  /// (`expressNotes`); with `via`, only trips calling there later (`DepartureQuery.via`).
  /// - Throws: the store's errors.
  /// - Complexity: one departures query over the service day (30 hours, for times past 24:00),
  ///   and one read of each route's trips of the day.
  public static func build(
    stop: TransitModel.Stop, date: ServiceDate, route: String?, direction: Int?, store: Store, skipped: Set<TripID> = [],
    via: [TransitModel.Stop] = []
  ) throws -> TimetableGrid {
    let start = store.serviceDayStart(date, feed: stop.feed)
    var query = DepartureQuery(from: start, until: start + 48 * 3600, route: route, via: via)
    query.serviceDate = date
    var calls = try store.departures(at: stop, query)
    calls.removeAll { $0.serviceDate != date }
    if let direction { calls.removeAll { $0.directionID != direction } }
    let express = try expressNotes(calls: calls, on: date, store: store)
    return build(calls: calls, dayStart: start, serviceDate: date, skipped: skipped, express: express)
  }

  /// The whole service day `date` at each of `places` (stops, stations, complexes, as the
  /// rider named them; issue 32) as one timetable: each part's blocks (`build(stop:...)`, on
  /// the clock of the part's own feed), marked with the part when there are several and
  /// labelled where the route does not tell them apart (`Board.partLabels`), then ordered by
  /// route and direction, parts in the order named.
  /// - Throws: the store's errors.
  /// - Complexity: `build(stop:...)` per part.
  public static func build(
    places: [StopPlace], date: ServiceDate, route: String?, direction: Int?, store: Store, skipped: Set<TripID> = [],
    via: [TransitModel.Stop] = []
  ) throws -> TimetableGrid {
    let parts = Board.parts(of: places)
    guard parts.count > 1 else {
      return try build(stop: parts[0], date: date, route: route, direction: direction, store: store, skipped: skipped, via: via)
    }
    let labels = Board.partLabels(parts, places: places)
    var blocks: [Block] = []
    for part in parts {
      let grid = try build(stop: part, date: date, route: route, direction: direction, store: store, skipped: skipped, via: via)
      blocks += grid.blocks.map { block in
        var block = block
        block.part = part
        block.partLabel = labels[part]
        return block
      }
    }
    sortBlocks(&blocks)
    return TimetableGrid(serviceDate: date, blocks: blocks)
  }

}
