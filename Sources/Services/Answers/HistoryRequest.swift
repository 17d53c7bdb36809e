import GTFS
import History
import TransitModel
import UserData

/// What `transit history` asks of the history: a stop (a station's platforms, a complex's
/// parts), a route or a saved commute, with the filters its options give.
public struct HistoryRequest: Sendable {
  /// What the history is of.
  public enum Subject: Sendable {
    case place(StopPlace)
    case route(RouteSummary)
    /// The commute's stop (and route), on the days it runs.
    case commute(UserStore.Commute)
  }

  public var subject: Subject
  /// The subject in words, as the answer names it ("stop 4527 Tallaght Village").
  public var subjectText: String
  /// Only this route (`--route`, with a stop).
  public var route: RouteSummary?
  /// The headsign, days, hours and weekdays asked (its stops and routes are the subject's).
  public var filters: HistoryQuery

  public init(subject: Subject, subjectText: String, route: RouteSummary? = nil, filters: HistoryQuery = HistoryQuery()) {
    self.subject = subject
    self.subjectText = subjectText
    self.route = route
    self.filters = filters
  }
}

/// Why the history cannot answer.
public enum HistoryFailure: Error, Sendable {
  /// Nothing has been recorded yet (no history.sqlite).
  case noHistory
  /// No commute is saved by this name (lower-cased).
  case noCommute(name: String)
  /// The commute's stop is not in the timetables since the last ingest.
  case commuteStopNotHeld(commute: String, stopID: String)
  /// The commute's route names no route, or several: the lookup, to list them.
  case commuteRoute(RouteLookup)
}

extension TransitSession {
  /// The commute saved as `name` (case ignored).
  /// - Throws: `HistoryFailure.noCommute`; what opening the user's data throws.
  public func savedCommute(named name: String) throws -> UserStore.Commute {
    let name = name.lowercased()
    guard let commute = try userData.open()?.commutes().first(where: { $0.name == name }) else {
      throw HistoryFailure.noCommute(name: name)
    }
    return commute
  }

  /// The history `request` asks for over its days before `now`: a stop's calls (its
  /// platforms', a complex's parts'), a route's at every stop, or a commute's at its stop on
  /// its route (a weekday commute: Monday to Friday only).
  /// - Throws: `HistoryFailure`; the store's and the history's errors.
  public func history(_ request: HistoryRequest, now: UnixTime) throws -> HistoryAnswer {
    var query = request.filters
    query.stopIDs = nil
    query.routeIDs = nil
    switch request.subject {
    case .place(let place):
      query.stopIDs = Set(try store.callStopIDs(of: [place]).map(\.rawValue))
    case .route(let route):
      query.routeIDs = [route.id.rawValue]
    case .commute(let commute):
      let stops = try CommutePlanner.stops(of: commute, store: store)
      guard !stops.isEmpty else { throw HistoryFailure.commuteStopNotHeld(commute: commute.name, stopID: commute.stopID) }
      query.stopIDs = Set(try store.callStopIDs(of: stops.map { .stop($0) }).map(\.rawValue))
      if let text = commute.route {
        let lookup = try route(named: text)
        guard case .found(let route) = lookup.outcome else { throw HistoryFailure.commuteRoute(lookup) }
        query.routeIDs = [route.id.rawValue]
      }
      // Weekday commutes: only the days it runs (Monday to Friday, when that is its mask).
      if commute.days == 0b0011111 { query.weekdaysOnly = true }
    }
    if let route = request.route { query.routeIDs = [route.id.rawValue] }
    guard let history = try userData.historyIfPresent() else { throw HistoryFailure.noHistory }
    return try self.history(query, subject: request.subjectText, in: history, now: now)
  }
}

/// What the history holds (`history --status`): its file, its size and figures, and the size it
/// would reach at the retention kept. Its `Encodable` form is `history --status --json`.
public struct HistoryStatusAnswer: Sendable, Encodable {
  /// The history's file.
  public var path: String
  /// Its figures; nil when nothing has been recorded.
  public var status: HistoryStore.Status?
  /// The days kept.
  public var retentionDays: Int
  /// The size it would reach holding `retentionDays` days at the rate of the days it covers
  /// now; nil with less than an hour of snapshots.
  public var estimatedBytes: Int64?

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(path, forKey: "path")
    try members.encode(status != nil, forKey: "exists")
    guard let status else {
      try members.encode(retentionDays, forKey: "retention_days")
      return
    }
    try status.encode(to: encoder)
    var rest = encoder.container(keyedBy: JSONKey.self)
    try rest.encode(retentionDays, forKey: "retention_days")
    try rest.encode(estimatedBytes, forKey: "estimated_bytes_at_retention")
  }

  /// The size a history of `status` would reach holding `retentionDays` days at the rate of
  /// the days it covers (at least one hour of snapshots needed to say).
  public static func estimatedBytes(_ status: HistoryStore.Status, retentionDays: Int) -> Int64? {
    guard let first = status.firstSnapshot, let last = status.lastSnapshot, last - first >= 3600 else { return nil }
    // A recorder covers only the hours it runs: the rate is per recorded day (a calendar day
    // touched), not per 24 hours of snapshots.
    let days = max(1, (last - first + 86_399) / 86_400)
    return status.bytes / days * Int64(retentionDays)
  }
}

extension TransitSession {
  /// What the history beside the user's data holds (asking makes no file), at a retention of
  /// `retentionDays` days.
  /// - Throws: the history's errors.
  public func historyStatus(retentionDays: Int) throws -> HistoryStatusAnswer {
    let path = (userData.directory ?? ".") + "/" + HistoryStore.fileName
    let status = try userData.historyIfPresent()?.status()
    return HistoryStatusAnswer(
      path: path, status: status, retentionDays: retentionDays,
      estimatedBytes: status.flatMap { HistoryStatusAnswer.estimatedBytes($0, retentionDays: retentionDays) })
  }
}
