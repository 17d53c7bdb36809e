import FoundationEssentials
import GTFS
import GTFSRealtime
import History
import Services
import TransitModel
import UserData

extension HistoryError: UserFacingError {}

/// What the history commands share: their options, opening the history, and rendering.
enum HistorySupport {
  static let route = Option.text("--route", value: "R", help: "Only route R (short name or route_id)", complete: .dynamic(.routes))
  static let to = Option.text("--to", value: "HEADSIGN", help: "Only trips whose headsign contains HEADSIGN")
  static let days = Option.integer("--days", value: "N", in: 1...3650, help: "The last N days").defaulting(to: 30)
  static let hours = Option<ClosedRange<Int>?>.single(
    OptionSpec("--hours", value: "HH-HH", help: "Only calls scheduled from the first hour to the second (07-09: 07:00 to 09:00)"),
    parseHours)
  static let weekdays = Option.flag("--weekdays", help: "Only Monday to Friday")
  static let ascii = Option.flag("--ascii", help: "Draw the histogram with ASCII '#' instead of block characters")
  static let csv = Option.flag("--csv", help: "Print the calls as CSV (one row each) instead")

  static let queryOptions = [to.spec, days.spec, hours.spec, weekdays.spec, ascii.spec, csv.spec]

  /// "07-09" as 7...9; a usage error otherwise.
  @Sendable static func parseHours(_ text: String, option: String) throws(UsageError) -> ClosedRange<Int> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]), (0...23).contains(from), (1...24).contains(to), from < to
    else {
      throw UsageError("option '\(option)' takes two hours HH-HH, the first before the second (07-09), not '\(text)'")
    }
    return from...to
  }

  /// The query the common options describe.
  static func query(_ invocation: Invocation) throws -> HistoryQuery {
    var query = HistoryQuery()
    query.headsign = try invocation.arguments.read(to)
    query.days = try invocation.arguments.read(days)
    query.hours = try invocation.arguments.read(hours)
    query.weekdaysOnly = invocation.arguments.isSet(weekdays)
    if invocation.arguments.isSet(csv) && invocation.global.json { throw UsageError("--csv and --json cannot go together") }
    return query
  }

  /// The history of the data folder; a clear error when nothing has been recorded.
  static func open(_ invocation: Invocation) throws -> HistoryStore {
    guard HistoryStore.exists(in: invocation.paths.data) else {
      throw RuntimeError("no history yet; fill it with 'transit history import DIR' or 'transit record DIR --history'")
    }
    return try HistoryStore(directory: invocation.paths.data)
  }

  /// Asks the session and prints the answer (text, --json or --csv).
  static func answer(_ invocation: Invocation, store: Store, query: HistoryQuery, subject: String) throws -> Int32 {
    let history = try open(invocation)
    let settings = try invocation.settings()
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let session = TransitSession(store: store, options: options)
    let answer = try session.history(query, subject: subject, in: history, now: invocation.now)
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(answer))
    } else if invocation.arguments.isSet(csv) {
      out.write(HistoryText.csv(answer))
    } else {
      let zone = store.timeZone(of: store.feedNames[0])
      out.write(HistoryText.text(answer, zone: zone, ascii: invocation.arguments.isSet(ascii) || invocation.usesPlainSymbols))
    }
    return 0
  }
}

/// `transit history STOP`: how the departures of a stop ran, from the recorded history.
enum HistoryCommand: TransitCommand {
  static let status = Option.flag("--status", help: "Say what the history holds, its size and its retention, instead")

  static let path = ["history"]
  static let spec = CommandSpec(
    path: path,
    summary: "How reliable a stop's departures were, from the recorded history",
    arguments: [ArgumentSpec("STOP", help: "Stop id, code or name (a station: all its platforms)", optional: true)],
    options: [HistorySupport.route.spec] + HistorySupport.queryOptions + [status.spec],
    discussion: """
      From history.sqlite (filled by 'transit history import DIR' and 'transit record DIR
      --history'): the calls recorded with an actual time (observed: the vehicle said
      STOPPED_AT, then left; inferred: the stop dropped out of the trip's update), their
      on-time share under the early and late settings, median and 90th percentile delay, a
      histogram in one-minute bins, overall and by hour; prediction accuracy as the ETA
      Accuracy Benchmark defines it (buckets 0-3, 3-6, 6-10, 10-15 min ahead); ghost trips
      and cancellations by day. Nothing is claimed from fewer than 3 observations.
      """,
    examples: [
      "transit history 4527 --route 27 --hours 07-09 --weekdays", "transit history --status",
      "transit history 4527 --csv > calls.csv",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    if invocation.arguments.isSet(status) { return try HistoryStatusText.run(invocation) }
    let text = try invocation.argument(0)
    var query = try HistorySupport.query(invocation)
    let store = try StopCommandSupport.openStore(invocation)
    let place = try StopCommandSupport.resolvePlace(text, in: store, context: invocation.context)
    query.stopIDs = Set(try store.callStopIDs(of: [place]).map(\.rawValue))
    var subject: String
    switch place {
    case .stop(let stop): subject = "stop \((stop.code ?? stop.id.rawValue).shown) \(stop.name.shown)"
    case .complex(let complex): subject = "\(complex.name.shown) (\(StopsSearchCommand.complexKind(complex)))"
    }
    if let routeText = try invocation.arguments.read(HistorySupport.route) {
      let route = try RouteCommandSupport.resolveRoute(routeText, in: store, context: invocation.context)
      query.routeIDs = [route.id.rawValue]
      subject += ", route \((route.shortName.isEmpty ? route.id.rawValue : route.shortName).shown)"
    }
    return try HistorySupport.answer(invocation, store: store, query: query, subject: subject)
  }
}

/// `transit history route R`.
enum HistoryRouteCommand: TransitCommand {
  static let path = ["history", "route"]
  static let spec = CommandSpec(
    path: path,
    summary: "How reliable a route was at all its stops, from the recorded history",
    arguments: [ArgumentSpec("R", help: "Route short name or route_id", complete: .dynamic(.routes))],
    options: HistorySupport.queryOptions,
    discussion: "As 'transit history STOP', over every stop of route R.",
    examples: ["transit history route 27 --hours 07-09 --weekdays", "transit history route 27 --days 14 --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    var query = try HistorySupport.query(invocation)
    let store = try StopCommandSupport.openStore(invocation)
    let route = try RouteCommandSupport.resolveRoute(text, in: store, context: invocation.context)
    query.routeIDs = [route.id.rawValue]
    return try HistorySupport.answer(
      invocation, store: store, query: query, subject: "route \((route.shortName.isEmpty ? route.id.rawValue : route.shortName).shown)")
  }
}

/// `transit history commute NAME`.
enum HistoryCommuteCommand: TransitCommand {
  static let path = ["history", "commute"]
  static let spec = CommandSpec(
    path: path,
    summary: "How reliable a saved commute's departures were, from the recorded history",
    arguments: [ArgumentSpec("NAME", help: "The commute's name", complete: .dynamic(.commutes))],
    options: HistorySupport.queryOptions,
    discussion: "As 'transit history STOP' for the commute's stop (and route, and destination as --to), on the days it runs.",
    examples: ["transit history commute work --days 60", "transit history commute work --csv > work.csv"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let name = try invocation.argument(0).lowercased()
    guard let commute = try UserStore(directory: invocation.paths.data).commutes().first(where: { $0.name == name }) else {
      throw NotFoundError("no commute '\(name)' (see 'transit commute list')")
    }
    var query = try HistorySupport.query(invocation)
    let store = try StopCommandSupport.openStore(invocation)
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard !stops.isEmpty else {
      throw NotFoundError("commute '\(commute.name)': stop \(commute.stopID) is not in the timetable since the last ingest")
    }
    query.stopIDs = Set(try store.callStopIDs(of: stops.map { .stop($0) }).map(\.rawValue))
    if let routeText = commute.route {
      let route = try RouteCommandSupport.resolveRoute(routeText, in: store, context: invocation.context)
      query.routeIDs = [route.id.rawValue]
    }
    // Weekday commutes: only the days it runs (Monday to Friday, when that is its mask).
    if commute.days == 0b0011111 { query.weekdaysOnly = true }
    return try HistorySupport.answer(invocation, store: store, query: query, subject: "commute '\(commute.name)'")
  }
}

/// `transit history --status`.
enum HistoryStatusText {
  static func run(_ invocation: Invocation) throws -> Int32 {
    if !invocation.arguments.positionals.isEmpty { throw UsageError("--status takes no STOP") }
    let settings = try invocation.settings()
    let out = invocation.context.stdout
    let path = invocation.paths.data + "/" + HistoryStore.fileName
    guard HistoryStore.exists(in: invocation.paths.data) else {
      if invocation.global.json {
        out.line(
          JSON.object([("path", .string(path)), ("exists", .bool(false)), ("retention_days", .number(settings.historyRetentionDays))])
            .serialized(pretty: true))
      } else {
        out.line("no history yet (\(path)); fill it with 'transit history import DIR' or 'transit record DIR --history'")
      }
      return 0
    }
    let status = try HistoryStore(directory: invocation.paths.data).status()
    let estimate = estimatedBytes(status, retentionDays: settings.historyRetentionDays)
    if invocation.global.json {
      var members: [(String, JSON)] = [("path", .string(path)), ("exists", .bool(true))]
      if case .object(let rest) = JSONTreeEncoder.encode(status) { members += rest }
      members.append(("retention_days", .number(settings.historyRetentionDays)))
      members.append(("estimated_bytes_at_retention", estimate.map { JSON.number($0) } ?? .null))
      out.line(JSON.object(members).serialized(pretty: true))
      return 0
    }
    func iso(_ t: Int64?) -> String { t.map { ISOTime.format(UnixTime($0), zone: LocalZone(identifier: "UTC", fixedOffset: 0)) } ?? "-" }
    out.line("history: \(path) (schema version \(status.schemaVersion))")
    out.line("snapshots: \(status.snapshots), from \(iso(status.firstSnapshot)) to \(iso(status.lastSnapshot))")
    out.line(
      "stop events: \(status.stopEvents) (\(status.observedActuals) observed, \(status.inferredActuals) inferred, \(status.skips) skipped, the rest still open or never resolved)"
    )
    out.line("predictions sampled: \(status.predictions); cancellations: \(status.cancellations); ghost trips: \(status.ghostTrips)")
    var size = "size: \(sizeText(status.bytes))"
    if let estimate { size += "; at this rate, about \(sizeText(estimate)) for the \(settings.historyRetentionDays) days kept" }
    out.line(size)
    out.line("retention: \(settings.historyRetentionDays) days (the history-days setting)")
    return 0
  }

  /// The size the history would reach holding `retentionDays` days at the rate of the days it
  /// covers now (at least one hour of snapshots needed to say).
  static func estimatedBytes(_ status: HistoryStore.Status, retentionDays: Int) -> Int64? {
    guard let first = status.firstSnapshot, let last = status.lastSnapshot, last - first >= 3600 else { return nil }
    // A recorder covers only the hours it runs: the rate is per recorded day (a calendar day
    // touched), not per 24 hours of snapshots.
    let days = max(1, (last - first + 86_399) / 86_400)
    return status.bytes / days * Int64(retentionDays)
  }

  static func sizeText(_ bytes: Int64) -> String {
    if bytes >= 1 << 30 { return Format.fixed(Double(bytes) / Double(1 << 30), decimals: 1) + " GiB" }
    if bytes >= 1 << 20 { return Format.fixed(Double(bytes) / Double(1 << 20), decimals: 1) + " MiB" }
    return "\(max(1, (bytes + 1023) / 1024)) KiB"
  }
}

/// `transit history import DIR`.
enum HistoryImportCommand: TransitCommand {
  static let path = ["history", "import"]
  static let spec = CommandSpec(
    path: path,
    summary: "Take recorded realtime snapshots into the history",
    arguments: [ArgumentSpec("DIR", help: "A folder of .pb snapshots ('transit record' writes them)")],
    options: [],
    discussion: """
      Reads every .pb (or .pb.gz) file in DIR, groups them by their feed header's timestamp
      (the files of one moment: trip updates and vehicle positions) and takes them in in time
      order, matched against the timetables held. A snapshot already in the history is
      skipped, so importing a folder again changes nothing; so is one older than the newest
      taken in (inferring actuals needs time order).
      """,
    examples: ["transit history import ~/rides/monday", "transit history import Data/replay --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let directory = invocation.absolutePath(try invocation.argument(0))
    let store = try StopCommandSupport.openStore(invocation)
    let settings = try invocation.settings()
    let limits = settings.realtimeCaps.realtimeLimits
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      throw RuntimeError("cannot read snapshot folder '\(directory)'")
    }
    struct File {
      var source: String
      var path: String
    }
    var byTime: [Int64: [File]] = [:]
    let history = try HistoryStore(directory: invocation.paths.data)
    // Snapshots named <unix-seconds>-<kind>.pb ('transit record') already in the history are
    // left unread: a second import of a folder reads names only.
    var namedKinds: [Int64: [String]] = [:]
    for name in names where name.hasSuffix(".pb") || name.hasSuffix(".pb.gz") {
      let prefix = name.prefix { $0.isNumber }
      guard let time = Int64(prefix), name.dropFirst(prefix.count).first == "-" else { continue }
      namedKinds[time, default: []].append(sourceName(String(name.dropFirst(prefix.count + 1))))
    }
    var known: [String: Set<Int64>] = [:]
    var unread = Set<Int64>()
    for (time, kinds) in namedKinds {
      let source = snapshotSource(kinds)
      if known[source] == nil { known[source] = try history.importedSnapshots(source: source) }
      if known[source]!.contains(time) { unread.insert(time) }
    }
    // Each file's moment is its header's timestamp: only headers are read here (a file not
    // named by its kind is decoded to learn it); the files are decoded whole one moment at a
    // time as they are taken in.
    for name in names.sorted() where name.hasSuffix(".pb") || name.hasSuffix(".pb.gz") {
      let prefix = name.prefix { $0.isNumber }
      let named = Int64(prefix).flatMap { name.dropFirst(prefix.count).first == "-" ? $0 : nil }
      if let named, unread.contains(named) { continue }
      let path = directory + "/" + name
      guard let data = FileManager.default.contents(atPath: path) else { throw RuntimeError("\(path): cannot be read") }
      let source: String
      let header: FeedHeader?
      if named != nil {
        source = sourceName(String(name.dropFirst(prefix.count + 1)))
        header = try RtDumpCommand.header([UInt8](data), source: path, limits: limits)
      } else {
        let message = try RtDumpCommand.decode([UInt8](data), source: path, limits: limits)
        source = kind(of: message)
        header = message.header
      }
      guard let time = header?.timestamp.map({ Int64(clamping: $0) }) ?? named else {
        throw RuntimeError("\(path): the feed header has no timestamp and the name does not start with one (<unix-seconds>-<kind>.pb)")
      }
      byTime[time, default: []].append(File(source: source, path: path))
    }
    guard !byTime.isEmpty || !unread.isEmpty else { throw RuntimeError("no snapshots (.pb files) in '\(directory)'") }
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let times = byTime.keys.sorted()
    let newest = try history.newestSnapshot()
    let recorder = try HistoryRecorder(store: store, history: history, options: options, resumeFrom: times.first ?? newest)
    var already = unread.count
    var older = 0
    var imported: [String: Set<Int64>] = [:]
    var snapshots: [HistoryRecorder.Snapshot] = []
    for time in times {
      // Alerts say nothing of when vehicles ran.
      let files = byTime[time]!.filter { !$0.source.hasSuffix("alerts") }
      let source = snapshotSource(files.map(\.source))
      if imported[source] == nil { imported[source] = try history.importedSnapshots(source: source) }
      if imported[source]!.contains(time) {
        already += 1
        continue
      }
      if let newest, time < newest {
        older += 1
        continue
      }
      guard !files.isEmpty else { continue }
      let paths = files.map(\.path)
      snapshots.append(
        HistoryRecorder.Snapshot(time: time, source: source) {
          try paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else { throw RuntimeError("\(path): cannot be read") }
            return try RtDumpCommand.decode([UInt8](data), source: path, limits: limits)
          }
        })
    }
    do {
      try recorder.take(snapshots, importedAt: invocation.context.clock.now().seconds, perTransaction: Self.snapshotsPerTransaction)
    } catch let failure as HistoryRecorder.ReadFailure {
      let taken = failure.takenIn
      throw RuntimeError(
        "\(failure.error); the \(taken) snapshot\(taken == 1 ? "" : "s") before it \(taken == 1 ? "is" : "are") in the history (import again once the file is mended or moved away)"
      )
    }
    let removed = try history.prune(before: invocation.now.seconds - Int64(settings.historyRetentionDays) * 86_400)
    let counts = recorder.counts
    if invocation.global.json {
      var members: [(String, JSON)] = [("folder", .string(directory))]
      if case .object(let rest) = JSONTreeEncoder.encode(counts) { members += rest }
      members.append(("already_imported", .number(already)))
      members.append(("older_than_history", .number(older)))
      members.append(("removed_past_retention", .number(removed)))
      invocation.context.stdout.line(JSON.object(members).serialized(pretty: true))
    } else {
      func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
      var line =
        "imported \(count(counts.snapshots, "snapshot")): \(count(counts.actuals, "actual")) (\(counts.observed) observed, \(counts.inferred) inferred), \(count(counts.skips, "skip")), \(count(counts.predictions, "prediction")), \(count(counts.cancellations, "cancellation")), \(count(counts.ghostTrips, "ghost trip"))"
      if already > 0 { line += "; \(already) already in the history" }
      if older > 0 { line += "; \(older) older than the history's newest snapshot, left out" }
      if removed > 0 {
        line += "; \(removed) calls older than the \(settings.historyRetentionDays) days kept deleted (the history-days setting)"
      }
      invocation.context.stdout.line(line)
    }
    return 0
  }

  /// How many snapshots an import writes in one transaction.
  static let snapshotsPerTransaction = 60

  /// The name a moment's snapshot is remembered by: its files' kinds, alerts left out, and
  /// vehicle positions too beside trip updates ('record --history' takes a trip-updates
  /// snapshot in with the vehicles it has, and names it so).
  static func snapshotSource(_ kinds: [String]) -> String {
    var kept = Set(kinds.filter { !$0.hasSuffix("alerts") })
    if kept.contains(where: { $0.hasSuffix("trip-updates") }) { kept = kept.filter { !$0.hasSuffix("vehicle-positions") } }
    return kept.sorted().joined(separator: "+")
  }

  /// "trip-updates" of "1796110560-trip-updates.pb" (after the time and dash): the name less
  /// its extensions.
  static func sourceName(_ rest: String) -> String {
    var source = rest
    if source.hasSuffix(".gz") { source.removeLast(3) }
    if source.hasSuffix(".pb") { source.removeLast(3) }
    return source
  }

  /// "trip-updates", "vehicle-positions", "alerts" or "mixed": what a file holds (one without
  /// entities says nothing: "alerts", left out).
  static func kind(of message: FeedMessage) -> String {
    let trips = message.entities.contains(where: \.hasTripUpdate)
    let vehicles = message.entities.contains(where: \.hasVehicle)
    if trips && vehicles { return "mixed" }
    if trips { return "trip-updates" }
    if vehicles { return "vehicle-positions" }
    return "alerts"
  }
}
