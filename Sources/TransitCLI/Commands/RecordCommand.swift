import Fetch
import FoundationEssentials
import GTFS
import GTFSRealtime
import History
import Services
import TransitModel

/// A folder of recorded realtime snapshots: `<unix-seconds>-<kind>.pb`, where kind is
/// `trip-updates`, `vehicle-positions` or `alerts`; the files sharing a time are one snapshot.
struct SnapshotDirectory {
  /// One recorded moment and its files.
  struct Snapshot {
    var time: UnixTime
    var paths: [String]
  }

  let path: String

  /// The snapshots in time order.
  /// - Throws: `RuntimeError` when the folder cannot be read or holds no snapshot.
  func snapshots() throws -> [Snapshot] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
      throw RuntimeError("cannot read replay folder '\(path)'")
    }
    var byTime: [Int64: [String]] = [:]
    for name in names where name.hasSuffix(".pb") {
      guard let seconds = Int64(name.prefix { $0.isNumber }), name.dropFirst(String(seconds).count).first == "-" else { continue }
      byTime[seconds, default: []].append(path + "/" + name)
    }
    guard !byTime.isEmpty else { throw RuntimeError("no snapshots (<unix-seconds>-<kind>.pb) in '\(path)'") }
    return byTime.keys.sorted().map { Snapshot(time: UnixTime($0), paths: byTime[$0]!.sorted()) }
  }

  /// The files making up the snapshot at or before `time` (the newest file of each kind
  /// recorded by then; the first snapshot when `time` is earlier or nil means the last), and
  /// that snapshot's time.
  func state(at time: UnixTime?) throws -> (time: UnixTime, paths: [String]) {
    let all = try snapshots()
    let upTo = time.map { t in all.filter { $0.time <= t } } ?? all
    let chosen = upTo.isEmpty ? [all[0]] : upTo
    var latest: [String: String] = [:]
    for snapshot in chosen { for path in snapshot.paths { latest[FollowCommand.kind(of: path)] = path } }
    return (chosen.last!.time, latest.values.sorted())
  }

  /// The file name of a snapshot of `kind` taken at `time`.
  static func name(time: Int64, kind: String) -> String { "\(time)-\(kind).pb" }

  /// `--replay DIR`: the snapshot of the folder `directory` at `--now` (else the last one) as
  /// a realtime source, its files read as `--realtime` files are.
  static func replay(_ directory: String, invocation: Invocation) throws -> ReplayRealtime {
    let state = try SnapshotDirectory(path: invocation.absolutePath(directory)).state(at: invocation.global.now)
    return ReplayRealtime(time: state.time, files: state.paths) { try RtDumpCommand.load($0, invocation: invocation) }
  }
}

/// `transit record DIR`: saves timestamped snapshots of the configured realtime feeds, for
/// `follow --replay`.
enum RecordCommand: TransitCommand {
  static let duration = Option.duration("--duration", value: "D", help: "Stop after D (90s, 15m, 2h; default: until Ctrl-C)")
  static let feed = Option.text("--feed", value: "NAME", help: "Only the configured feed NAME", complete: .dynamic(.feeds))
  static let history = Option.flag("--history", help: "Also take each snapshot into the history ('transit history')")

  static let path = ["record"]
  static let spec = CommandSpec(
    path: path,
    summary: "Save realtime snapshots of the configured feeds for --replay",
    arguments: [ArgumentSpec("DIR", help: "The folder to save snapshots in (created if missing)")],
    options: [
      duration.spec, feed.spec, history.spec,
    ],
    discussion: """
      Fetches every realtime URL of the configured feeds in step with their publish period and
      writes each new snapshot as DIR/<unix-seconds>-<kind>.pb (kind: trip-updates,
      vehicle-positions, alerts), named by the feed's own header timestamp (else the fetch
      time). 'transit follow ... --replay DIR' plays them back by that clock. With --history,
      each new trip-updates snapshot (with the feed's latest vehicle positions) is also taken
      into history.sqlite as it comes, as 'transit history import DIR' would.
      """,
    examples: [
      "transit record ~/rides/monday --duration 30m",
      "transit record ~/rides/dublin --feed dublin --duration 2h",
      "transit record ~/rides/week --history --duration 2h",
      "transit follow V27-1 --replay ~/rides/monday",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let clock = invocation.context.clock
    let directory = invocation.absolutePath(try invocation.argument(0))
    let duration = try invocation.arguments.read(Self.duration)
    let configuration = try FeedsSupport.configuration(invocation)
    var feeds = configuration.feeds.filter { !$0.realtimeURLs.isEmpty }
    if let name = try invocation.arguments.read(feed) { feeds = [try FeedsSupport.feed(named: name, in: configuration)] }
    guard !feeds.isEmpty else { throw RuntimeError("no realtime feeds are configured; add one with 'transit feeds add'") }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw RuntimeError("cannot create '\(directory)'")
    }
    let client = try FeedsSupport.client(invocation)
    let settings = try invocation.settings()
    let limits = settings.realtimeLimits
    // With --history: the recorder over the timetables held, writing as snapshots come.
    let recorder: HistoryRecorder?
    if invocation.arguments.isSet(history) {
      let store = try StopCommandSupport.openStore(invocation)
      let historyStore = try HistoryStore(directory: invocation.paths.data)
      try historyStore.prune(before: invocation.now.seconds - Int64(settings.historyRetentionDays) * 86_400)
      recorder = try HistoryRecorder(
        store: store, history: historyStore, options: try RealtimeSupport.options(invocation, settings: settings),
        resumeFrom: clock.now().seconds)
    } else {
      recorder = nil
    }
    let start = clock.now()
    var saved = 0
    var lastStamp: [String: Int64] = [:]
    var latest: [String: FeedMessage] = [:]
    let bar = ProgressBar(sink: invocation.context.stderr, enabled: invocation.showsProgress, unit: "snapshots")
    while true {
      let elapsed = clock.now() - start
      bar.update(
        fraction: duration.map { Double(elapsed) / Double($0) },
        label: "recording: \(saved) snapshot\(saved == 1 ? "" : "s") saved", count: saved)
      let now = clock.now()
      var wake = now + 300
      for feed in feeds {
        for (kind, url) in feed.realtimeURLs {
          let request = try FeedsSupport.resolve(url, feed: feed, invocation: invocation)
          let key = feed.name + " " + kind
          do {
            let result = try client.get(
              request.url, headers: request.headers, expecting: .protobuf, redactor: request.redactor,
              maxBodyBytes: limits.maxDecompressedBytes)
            guard case .body(let response) = result else { continue }
            let message = try RtDumpCommand.decode(response.bytes, source: request.shownURL, limits: limits)
            let stamp = message.header?.timestamp.map { Int64(clamping: $0) } ?? now.seconds
            latest[key] = message
            if lastStamp[key] != stamp {
              lastStamp[key] = stamp
              let prefix = feeds.count > 1 ? feed.name + "-" : ""
              let path = directory + "/" + SnapshotDirectory.name(time: stamp, kind: prefix + kind)
              try Data(response.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
              saved += 1
              if let recorder, kind == "trip-updates" {
                // The moment's trip updates with the feed's latest vehicle positions.
                let vehicles = latest[feed.name + " vehicle-positions"].map { [$0] } ?? []
                try recorder.record(
                  [message] + vehicles, at: stamp, source: prefix + kind, importedAt: clock.now().seconds)
              }
            }
          } catch {
            bar.finish()
            invocation.context.stderr.line("transit: \(request.redactor.redact("\(error)")); will retry")
          }
          let next = PollSchedule.nextFetch(
            now: clock.now().seconds, lastHeaderTimestamp: lastStamp[key], period: Int64(feed.periodSeconds))
          wake = min(wake, UnixTime(next))
        }
      }
      if let duration, clock.now() - start >= duration { break }
      var until = wake
      if let duration { until = min(until, start + duration) }
      let pause = until - clock.now()
      if pause > 0 { invocation.context.sleep(Double(pause)) }
      if let duration, clock.now() - start >= duration { break }
    }
    bar.finish()
    try recorder?.finish()
    // What the last snapshot of each feed matched in the timetables held: the same matching
    // every other command does, so a wrong feed shows while recording, not at replay.
    var report: RealtimeReport?
    let store = try Store(directory: invocation.paths.data)
    if !store.isEmpty, !latest.isEmpty {
      let options = try RealtimeSupport.options(invocation, settings: try invocation.settings())
      let feeds = latest.sorted { $0.key < $1.key }.map(\.value)
      report = try RealtimeSupport.live(invocation, store: store, feeds: feeds, now: invocation.now, options: options).report
    }
    if invocation.global.json {
      var members: [(String, JSON)] = [("folder", .string(directory)), ("snapshots", .number(saved))]
      if let counts = recorder?.counts { members.append(("history", JSONTreeEncoder.encode(counts))) }
      if let report { members.append(("realtime", RealtimeSupport.json(report, zone: store.timeZone(of: store.feedNames[0])))) }
      invocation.context.stdout.line(JSON.object(members).serialized(pretty: true))
    } else {
      let matched = report.flatMap(RealtimeSupport.matchText).map { "; the last snapshot: \($0)" } ?? ""
      invocation.context.stdout.line("saved \(saved) snapshot\(saved == 1 ? "" : "s") in \(directory)\(matched)")
      if let counts = recorder?.counts {
        invocation.context.stdout.line(
          "history: \(counts.snapshots) snapshots taken in, \(counts.actuals) actuals (\(counts.observed) observed, \(counts.inferred) inferred), \(counts.cancellations) cancellations, \(counts.ghostTrips) ghost trips"
        )
      }
    }
    return 0
  }
}
