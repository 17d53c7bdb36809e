import Fetch
import FoundationEssentials
import GTFS
import GTFSRealtime
import History
import TransitModel

/// What `record` is asked: where to save, which feed, for how long, and whether to take each
/// snapshot into the history as it comes.
public struct RecordRequest {
  /// The folder to save in (created if missing).
  public var directory: String
  /// Only the configured feed of this name.
  public var feed: String?
  /// Stop after this many seconds; nil: until the process is stopped.
  public var durationSeconds: Int64?
  /// With `--history`: the session whose timetables the snapshots are matched against, and
  /// how many days the history keeps (asked once the folder is made).
  public var history: (() throws -> (session: TransitSession, retentionDays: Int))?
  /// The options the last snapshot is matched with.
  public var options: () throws -> ServiceOptions
  /// The time `--now` names (the history's pruning and the last snapshot's match).
  public var now: UnixTime

  public init(
    directory: String, feed: String?, durationSeconds: Int64?,
    history: (() throws -> (session: TransitSession, retentionDays: Int))?, options: @escaping () throws -> ServiceOptions,
    now: UnixTime
  ) {
    self.directory = directory
    self.feed = feed
    self.durationSeconds = durationSeconds
    self.history = history
    self.options = options
    self.now = now
  }
}

/// How a recording goes, for a progress line.
public enum RecordEvent: Sendable {
  /// A round of fetches starts: snapshots saved so far, seconds since the start.
  case round(saved: Int, elapsedSeconds: Int64)
  /// A fetch failed (any key redacted); it is tried again next round.
  case failed(String)
}

/// What `record` saved, what the history took in, and what the last snapshot of each feed
/// matched in the timetables held (the matching every other command does, so a wrong feed
/// shows while recording, not at replay).
public struct RecordAnswer: Sendable {
  public var folder: String
  public var snapshots: Int
  /// With `--history`: what was written.
  public var history: HistoryRecorder.Counts?
  /// The last snapshots' match; nil without timetables or snapshots.
  public var report: RealtimeReport?
  /// The clock of the first feed held (the report's times).
  public var zone: LocalZone?
}

extension RecordAnswer: Encodable {
  /// `{folder, snapshots, history?, realtime?}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(folder, forKey: "folder")
    try members.encode(snapshots, forKey: "snapshots")
    if let history { try members.encode(history, forKey: "history") }
    if let report, let zone { try members.encode(RealtimeAnswer(report, zone: zone), forKey: "realtime") }
  }
}

/// A recorded snapshot's file name: `<unix-seconds>-<kind>.pb`.
public enum RecordedSnapshot {
  public static func fileName(time: Int64, kind: String) -> String { "\(time)-\(kind).pb" }
}

extension FeedAccess {
  /// Fetches every realtime URL of the configured feeds (or `request.feed`'s) in step with
  /// their publish period and writes each new snapshot as `DIR/<seconds>-<kind>.pb`, named by
  /// the feed's own header timestamp (else the fetch time); with several feeds the kind is
  /// prefixed by the feed's name. With `history`, each new trip-updates snapshot (with the
  /// feed's latest vehicle positions) is taken into history.sqlite as it comes.
  /// - Parameters:
  ///   - dataDirectory: where the timetables and the history are.
  /// - Throws: `FeedKeepingError.noRealtimeFeeds`, `.notConfigured`, `.cannotCreate`;
  ///   what a request, the history or the timetables throw. A failed fetch is an event.
  public func record(
    _ request: RecordRequest, dataDirectory: String,
    events: (RecordEvent) -> Void
  ) throws -> RecordAnswer {
    let configuration = try self.configuration()
    var feeds = configuration.feeds.filter { !$0.realtimeURLs.isEmpty }
    if let name = request.feed { feeds = [try feed(named: name, in: configuration)] }
    guard !feeds.isEmpty else { throw FeedKeepingError.noRealtimeFeeds }
    do {
      try FileManager.default.createDirectory(atPath: request.directory, withIntermediateDirectories: true)
    } catch {
      throw FeedKeepingError.cannotCreate(request.directory, underlying: error)
    }
    let client = try client()
    let limits = try realtimeSettings().caps.realtimeLimits
    let recorder: HistoryRecorder?
    if let history = request.history {
      let (session, retentionDays) = try history()
      let historyStore = try HistoryStore(directory: dataDirectory)
      try historyStore.prune(before: request.now.seconds - Int64(retentionDays) * 86_400)
      recorder = try HistoryRecorder(store: session.store, history: historyStore, options: session.options, resumeFrom: clock())
    } else {
      recorder = nil
    }
    let start = clock()
    var saved = 0
    var lastStamp: [String: Int64] = [:]
    var latest: [String: FeedMessage] = [:]
    while true {
      events(.round(saved: saved, elapsedSeconds: clock() - start))
      let now = clock()
      var wake = now + 300
      for feed in feeds {
        for (kind, url) in feed.realtimeURLs {
          let resolved = try resolve(url, feed: feed)
          let key = feed.name + " " + kind
          do {
            let result = try client.get(
              resolved.url, headers: resolved.headers, expecting: .protobuf, redactor: resolved.redactor,
              maxBodyBytes: limits.maxDecompressedBytes)
            guard case .body(let response) = result else { continue }
            let message = try RealtimeCapture.decode(response.bytes, source: resolved.shownURL, limits: limits)
            let stamp = message.header?.timestamp.map { Int64(clamping: $0) } ?? now
            latest[key] = message
            if lastStamp[key] != stamp {
              lastStamp[key] = stamp
              let prefix = feeds.count > 1 ? feed.name + "-" : ""
              let path = request.directory + "/" + RecordedSnapshot.fileName(time: stamp, kind: prefix + kind)
              try Data(response.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
              saved += 1
              if let recorder, kind == "trip-updates" {
                // The moment's trip updates with the feed's latest vehicle positions.
                let vehicles = latest[feed.name + " vehicle-positions"].map { [$0] } ?? []
                _ = try recorder.record([message] + vehicles, at: stamp, source: prefix + kind, importedAt: clock())
              }
            }
          } catch {
            events(.failed(resolved.redactor.redact("\(error)")))
          }
          let next = PollSchedule.nextFetch(now: clock(), lastHeaderTimestamp: lastStamp[key], period: Int64(feed.periodSeconds))
          wake = min(wake, next)
        }
      }
      if let duration = request.durationSeconds, clock() - start >= duration { break }
      var until = wake
      if let duration = request.durationSeconds { until = min(until, start + duration) }
      let pause = until - clock()
      if pause > 0 { sleep(Double(pause)) }
      if let duration = request.durationSeconds, clock() - start >= duration { break }
    }
    try recorder?.finish()
    var answer = RecordAnswer(folder: request.directory, snapshots: saved, history: recorder?.counts)
    let store = try Store(directory: dataDirectory)
    if !store.isEmpty, !latest.isEmpty {
      let feeds = latest.sorted { $0.key < $1.key }.map(\.value)
      answer.report = try LiveRealtime(store: store, feeds: feeds, now: request.now, options: try request.options()).report
      answer.zone = store.timeZone(of: store.feedNames[0])
    }
    return answer
  }
}
