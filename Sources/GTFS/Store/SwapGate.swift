import FoundationEssentials
import SQLite
import TransitModel

/// What a new timetable must pass before it replaces the one held: a cron refresh must never
/// swap in a wrong feed (another agency's, an expired one, a truncated one) just because it
/// parses.
public struct SwapPolicy: Sendable, Equatable {
  /// Swap whatever the checks say (`ingest --force`).
  public var isForced: Bool
  /// Refuse when stops, routes or trips shrink by more than this share (0.5: to under half).
  public var maximumShrink: Double
  /// Refuse a timetable whose service starts more than this many days after today.
  public var maximumDaysAhead: Int
  /// Refuse a timetable with no departure in this many days from today when the held one has
  /// some.
  public var lookaheadDays: Int

  /// The defaults: shrink 50 %, 60 days ahead, 7 days of departures.
  public init(isForced: Bool = false, maximumShrink: Double = 0.5, maximumDaysAhead: Int = 60, lookaheadDays: Int = 7) {
    self.isForced = isForced
    self.maximumShrink = maximumShrink
    self.maximumDaysAhead = maximumDaysAhead
    self.lookaheadDays = lookaheadDays
  }
}

/// One check of the swap gate and how it came out.
public struct SwapCheck: Sendable, Equatable {
  /// `service-ended`, `service-not-started`, `same-agency`, `stops`, `routes`, `trips` or
  /// `departures-ahead`.
  public var name: String
  /// Whether the new timetable passed it.
  public var passed: Bool
  /// The figures: "stops 2,349 -> 9 (-99.6 %, at most -50 %)".
  public var detail: String

  public init(name: String, passed: Bool, detail: String) {
    self.name = name
    self.passed = passed
    self.detail = detail
  }
}

/// What the gate compares of a timetable.
struct TimetableFacts {
  var serviceStart: ServiceDate?
  var serviceEnd: ServiceDate?
  var agencyIDs: Set<String>
  var agencyNames: Set<String>
  var stops: Int
  var routes: Int
  var trips: Int
  /// The local date of `now` in the feed's zone.
  var today: ServiceDate
  /// Whether some trip runs on a date in `today ..< today + lookaheadDays`.
  var hasDeparturesAhead: Bool

  init(_ db: Connection, now: UnixTime, lookaheadDays: Int) throws {
    func meta(_ key: String) throws -> String? {
      let select = try db.cached("SELECT value FROM feed_meta WHERE key = ?")
      select.bind(key, at: 1)
      return try select.step() ? select.text(0) : nil
    }
    serviceStart = try meta("service_start").flatMap { ServiceDate(gtfs: $0) }
    serviceEnd = try meta("service_end").flatMap { ServiceDate(gtfs: $0) }
    var ids = Set<String>(), names = Set<String>()
    let agencies = try db.prepare("SELECT agency_id, name FROM agency")
    while try agencies.step() {
      if !agencies.text(0).isEmpty { ids.insert(agencies.text(0)) }
      names.insert(TextFolding.fold(agencies.text(1)).trimmingSpaces())
    }
    agencyIDs = ids
    agencyNames = names
    stops = Int(try db.scalarInt("SELECT count(*) FROM stops") ?? 0)
    routes = Int(try db.scalarInt("SELECT count(*) FROM routes") ?? 0)
    trips = Int(try db.scalarInt("SELECT count(*) FROM trips") ?? 0)
    let zone =
      try (try db.scalarText("SELECT timezone FROM agency ORDER BY agency_idx LIMIT 1")).map { name throws(LocalZoneError) in
        try LocalZone(named: name)
      } ?? LocalZone.utc
    today = ServiceCalendar.localDate(of: now, in: zone)
    var used = Set<Int64>()
    let services = try db.prepare("SELECT DISTINCT service_idx FROM trips")
    while try services.step() { used.insert(services.int64(0)) }
    let calendar = ServiceCalendar(db: db, zone: zone)
    var ahead = false
    for offset in 0..<max(0, lookaheadDays) where !ahead {
      ahead = !(try calendar.services(on: today.adding(days: offset))).isDisjoint(with: used)
    }
    hasDeparturesAhead = ahead
  }
}

enum SwapGate {
  /// The checks of `new` against `old`, in a fixed order.
  static func checks(new: TimetableFacts, old: TimetableFacts, policy: SwapPolicy) -> [SwapCheck] {
    var result: [SwapCheck] = []
    let today = new.today
    if let end = new.serviceEnd {
      result.append(
        SwapCheck(
          name: "service-ended", passed: end >= today,
          detail: "its service ended on \(end.iso) (today is \(today.iso))"))
    }
    if let start = new.serviceStart {
      let days = start.daysSinceEpoch - today.daysSinceEpoch
      result.append(
        SwapCheck(
          name: "service-not-started", passed: days <= policy.maximumDaysAhead,
          detail: "its service starts on \(start.iso), \(days) days ahead (at most \(policy.maximumDaysAhead))"))
    }
    let sharesAgency = !new.agencyIDs.isDisjoint(with: old.agencyIDs) || !new.agencyNames.isDisjoint(with: old.agencyNames)
    result.append(
      SwapCheck(
        name: "same-agency", passed: sharesAgency,
        detail:
          "its agencies (\(new.agencyNames.sorted().joined(separator: ", "))) share no agency_id or name with the held one's (\(old.agencyNames.sorted().joined(separator: ", ")))"
      ))
    for (name, before, after) in [("stops", old.stops, new.stops), ("routes", old.routes, new.routes), ("trips", old.trips, new.trips)] {
      let change = before == 0 ? 0 : Double(after - before) / Double(before)
      result.append(
        SwapCheck(
          name: name, passed: change >= -policy.maximumShrink,
          detail: "\(name) \(before) -> \(after) (\(percent(change)), at most \(percent(-policy.maximumShrink)))"))
    }
    result.append(
      SwapCheck(
        name: "departures-ahead", passed: new.hasDeparturesAhead || !old.hasDeparturesAhead,
        detail: "no departure in the \(policy.lookaheadDays) days from \(today.iso), where the held timetable has some"))
    return result
  }

  static func percent(_ share: Double) -> String {
    let value = (share * 1000).rounded() / 10
    return (value > 0 ? "+" : "") + (value == value.rounded() ? "\(Int(value))" : "\(value)") + " %"
  }
}

extension ServiceDate {
  /// `2021-04-24`.
  var iso: String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))"
  }
}
