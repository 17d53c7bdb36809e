import GTFS
import TransitModel

/// A timetable held (`ingest --list`): where it came from, its service dates, when it was
/// loaded, its counts, where its service stands, and the previous one kept for `--rollback`.
/// The dates are as stored (`YYYYMMDD`).
public struct HeldTimetable: Sendable, Equatable {
  /// The previous timetable kept (`NAME.sqlite.prev`).
  public struct Previous: Sendable, Equatable {
    public var serviceStart: String?
    public var serviceEnd: String?
    public var loadedAt: UnixTime?
  }

  public var name: String
  /// The path or URL it was loaded from.
  public var source: String?
  public var serviceStart: String?
  public var serviceEnd: String?
  public var loadedAt: UnixTime?
  /// Stops (from stops.txt or stops.json), routes, trips and stop times stored.
  public var stops: Int
  public var routes: Int
  public var trips: Int
  public var stopTimes: Int
  /// Where its service stands on the local date of the time asked.
  public var status: ServiceStatus
  public var previous: Previous?

  init(_ feed: Timetables.Feed, now: UnixTime, previous: [String: String]?) {
    self.init(name: feed.name, meta: feed.meta, status: feed.serviceStatus(now: now), previous: previous)
  }

  init(name: String, meta: [String: String], status: ServiceStatus, previous: [String: String]?) {
    func rows(_ file: String) -> Int { Int(meta["rows." + file] ?? "") ?? 0 }
    self.name = name
    source = meta["source"]
    serviceStart = meta["service_start"]
    serviceEnd = meta["service_end"]
    loadedAt = Self.loadedAt(meta)
    stops = rows("stops.txt") + rows("stops.json")
    routes = rows("routes.txt")
    trips = rows("trips.txt")
    stopTimes = rows("stop_times.txt")
    self.status = status
    self.previous = previous.map { meta in
      Previous(serviceStart: meta["service_start"], serviceEnd: meta["service_end"], loadedAt: Self.loadedAt(meta))
    }
  }

  static func loadedAt(_ meta: [String: String]) -> UnixTime? { meta["loaded_at"].flatMap { Int64($0) }.map(UnixTime.init) }
}

extension ServiceStatus {
  /// One word or two for where a timetable's service stands: `ok`, `ends today`, `ends in 3
  /// days`, `ended`, `not started`, `no service` (the STATUS of `ingest --list`, in its JSON too).
  public var heldWord: String {
    switch self {
    case .running: return "ok"
    case .endingSoon(_, let days): return days == 0 ? "ends today" : "ends in \(days == 1 ? "1 day" : "\(days) days")"
    case .ended: return "ended"
    case .notStarted: return "not started"
    case .unknown: return "no service"
    }
  }
}

/// `ingest --check`: each timetable held and where its service stands.
public struct TimetableCheck: Sendable, Equatable {
  public var timetables: [HeldTimetable]
  /// Whether one has ended, ends within 7 days or has not started (exit 5).
  public var needsAttention: Bool { timetables.contains { $0.status.needsWarning } }
}

/// What one ingest did: loaded a timetable, or found it unchanged.
public enum IngestOutcome: Sendable {
  case ingested(IngestAnswer)
  case unchanged(UnchangedAnswer)
}

/// `ingest --if-changed` kept the held timetable: a 304, or the content already loaded.
public struct UnchangedAnswer: Sendable, Equatable {
  /// The timetable kept; nil when the download named none.
  public var feed: String?
  /// Why (`notModified` or `sameContent`).
  public var decision: ReingestDecision
}

/// One swap check and how it came out.
public struct SwapCheckAnswer: Sendable, Equatable {
  /// `service-ended`, `service-not-started`, `same-agency`, `stops`, `routes`, `trips` or
  /// `departures-ahead`.
  public var name: String
  public var passed: Bool
  /// The figures: "stops 2,349 -> 9 (-99.6 %, at most -50 %)".
  public var detail: String

  init(_ check: SwapCheck) {
    name = check.name
    passed = check.passed
    detail = check.detail
  }
}

/// A timetable loaded and swapped in: what was stored, what the swap checks said, and what it
/// changed for the user.
public struct IngestAnswer: Sendable {
  public var feed: String
  /// The path or URL as shown.
  public var source: String
  /// Whether `--if-changed` was asked (the answer then says "changed").
  public var saysChanged: Bool
  public var seconds: Double
  /// Rows stored per file, in load order.
  public var rows: [(file: String, count: Int)]
  public var interpolatedStopTimes: Int
  public var warnings: [String]
  /// The swap checks against the timetable replaced (none for a first load); a failed one
  /// means `--force` swapped anyway.
  public var checks: [SwapCheckAnswer]
  public var yourChanges: [ChangeForYou]
  /// Seconds per step of the load.
  public var steps: [(step: String, seconds: Double)]
}

/// The swap checks refused a new timetable: what `ingest --json` prints before the error.
public struct IngestRefusal: Sendable, Equatable {
  public var feed: String
  public var checks: [SwapCheckAnswer]

  /// The refusal `error` is, if it is one.
  public init?(_ error: any Error) {
    guard case .refused(let feed, let checks) = error as? IngestError else { return nil }
    self.feed = feed
    self.checks = checks.map(SwapCheckAnswer.init)
  }
}

// MARK: - JSON

extension HeldTimetable: Encodable {
  /// `{name, source, service_start, service_end, loaded_at, stops, routes, trips, stop_times,
  /// status, previous: {service_start, service_end, loaded_at}|null}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(name, forKey: "name")
    try members.encode(source, forKey: "source")
    try members.encode(serviceStart, forKey: "service_start")
    try members.encode(serviceEnd, forKey: "service_end")
    try members.encode(loadedAt.map(LocalZone.utc.isoText), forKey: "loaded_at")
    try members.encode(stops, forKey: "stops")
    try members.encode(routes, forKey: "routes")
    try members.encode(trips, forKey: "trips")
    try members.encode(stopTimes, forKey: "stop_times")
    try members.encode(status.heldWord, forKey: "status")
    if let previous {
      var object = members.nestedContainer(keyedBy: JSONKey.self, forKey: "previous")
      try object.encode(previous.serviceStart, forKey: "service_start")
      try object.encode(previous.serviceEnd, forKey: "service_end")
      try object.encode(previous.loadedAt.map(LocalZone.utc.isoText), forKey: "loaded_at")
    } else {
      try members.encodeNil(forKey: "previous")
    }
  }
}

extension UnchangedAnswer: Encodable {
  /// `{feed, changed: false, reason}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(feed, forKey: "feed")
    try members.encode(false, forKey: "changed")
    try members.encode(decision.reason, forKey: "reason")
  }
}

extension SwapCheckAnswer: Encodable {
  /// `{name, passed, detail}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(name, forKey: "name")
    try members.encode(passed, forKey: "passed")
    try members.encode(detail, forKey: "detail")
  }
}

extension IngestRefusal: Encodable {
  /// `{feed, swapped: false, checks}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(feed, forKey: "feed")
    try members.encode(false, forKey: "swapped")
    try members.encode(checks, forKey: "checks")
  }
}

extension IngestAnswer: Encodable {
  /// `{feed, changed (with --if-changed), source, seconds, rows: {file: count},
  /// interpolated_stop_times, warnings, swapped: true, checks, your_changes, steps: {step: seconds}}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(feed, forKey: "feed")
    if saysChanged { try members.encode(true, forKey: "changed") }
    try members.encode(source, forKey: "source")
    try members.encode(seconds, forKey: "seconds")
    var counts = members.nestedContainer(keyedBy: JSONKey.self, forKey: "rows")
    for (file, count) in rows { try counts.encode(count, forKey: JSONKey(stringLiteral: file)) }
    try members.encode(interpolatedStopTimes, forKey: "interpolated_stop_times")
    try members.encode(warnings, forKey: "warnings")
    try members.encode(true, forKey: "swapped")
    try members.encode(checks, forKey: "checks")
    try members.encode(yourChanges, forKey: "your_changes")
    var times = members.nestedContainer(keyedBy: JSONKey.self, forKey: "steps")
    for (step, seconds) in steps { try times.encode(seconds, forKey: JSONKey(stringLiteral: step)) }
  }
}

extension ChangeForYou: Encodable {
  /// A stop: `{stop_id, label, change: removed|moved|routes_gone, meters|routes}`; a commute:
  /// `{commute, change: "commute", date, before, after}`, each choice `{route_short_name,
  /// departs}` or null.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    switch self {
    case .stop(let change, let label):
      try members.encode(change.stopID, forKey: "stop_id")
      try members.encode(label, forKey: "label")
      switch change.kind {
      case .removed: try members.encode("removed", forKey: "change")
      case .moved(let meters):
        try members.encode("moved", forKey: "change")
        try members.encode(Int(meters.rounded()), forKey: "meters")
      case .routesGone(let routes):
        try members.encode("routes_gone", forKey: "change")
        try members.encode(routes, forKey: "routes")
      }
    case .commute(let change, let zone):
      try members.encode(change.name, forKey: "commute")
      try members.encode("commute", forKey: "change")
      try members.encode(change.date.description, forKey: "date")
      for (key, choice) in [("before", change.before), ("after", change.after)] {
        if let choice {
          var object = members.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(stringLiteral: key))
          try object.encode(choice.route, forKey: "route_short_name")
          try object.encode(zone.isoText(choice.departs), forKey: "departs")
        } else {
          try members.encodeNil(forKey: JSONKey(stringLiteral: key))
        }
      }
    }
  }
}
