import FoundationEssentials
import GTFSRealtime
import Services
import TransitModel

/// `transit plan FROM TO --watch` (issue 35): the chosen journey kept live. Each ride's
/// expected times come from the realtime (fetched in step with the feed, or played back with
/// --replay); each change shows its buffer and state; when a state changes the bell rings and
/// the next journey from the change stop is offered, re-planned live.
enum PlanWatch {
  static let watch = Option.flag(
    "--watch",
    help: "Keep the journey live: each change's buffer (next departure - arrival - walk) and state; the bell rings when one changes")
  static let pick = Option.integer(
    "--pick", value: "N", in: 1...50, help: "Only the Nth journey found; with --watch, the one kept live"
  ).defaulting(to: 1)
  static let replay = Option.text("--replay", value: "DIR", help: "With --watch: play back snapshots saved by 'transit record'")
  static let speed = Option.number(
    "--speed", value: "X", help: "With --replay: play X times faster", described: "a positive number", accepts: { $0 > 0 }
  ).defaulting(to: 1)
  static let count = Option.integer("--count", value: "N", in: 1...1_000_000, help: "With --watch: stop after N updates")
  static let noBell = Option.flag("--no-bell", help: "With --watch: no bell and no desktop notification")

  static let discussion = """
    --watch keeps the journey (--pick N: the Nth listed) live until you arrive: each ride's
    expected departure and arrival, and at each change the buffer (the next ride's expected
    departure minus the arrival plus the walk) and its state: safe (at least the
    transfer-margin setting, 3 min), tight, at risk (under 1 min) or missed (also when the next
    ride is cancelled or skips the stop). Where you are is worked out from the clock and the
    rides' expected times. When a change's state moves, the terminal bell rings (notify-send
    too, in a desktop session; --no-bell keeps quiet) and the next journey from the change
    stop is offered, re-planned live. --replay DIR plays back snapshots saved by 'transit
    record' (from --now, or the first); --json writes one JSON object per update.
    """

  /// Refuses the watch's options without --watch.
  static func validate(_ invocation: Invocation) throws(UsageError) {
    let arguments = invocation.arguments
    guard !arguments.isSet(watch) else { return }
    if arguments.isGiven(replay) { throw UsageError("--replay DIR goes with --watch") }
    if arguments.isGiven(speed) { throw UsageError("--speed goes with --watch --replay") }
    if arguments.isGiven(count) { throw UsageError("--count N goes with --watch") }
    if arguments.isSet(noBell) { throw UsageError("--no-bell goes with --watch") }
  }

  /// The replay of --replay, from the snapshot at or before --now (else the first); nil
  /// without --replay.
  static func replay(_ invocation: Invocation) throws -> SnapshotReplay? {
    guard let directory = try invocation.arguments.read(replay) else { return nil }
    return try SnapshotFolder(path: invocation.absolutePath(directory)).replay(
      from: invocation.global.now, speed: try invocation.arguments.read(speed), caps: try invocation.settings().realtimeCaps)
  }

  /// What the watch needs of the plan.
  struct Context {
    var invocation: Invocation
    var session: TransitSession
    var answer: PlanAnswer
    var twelveHour: Bool
    var title: String
  }

  static func run(_ context: Context, replay: SnapshotReplay?) throws -> Int32 {
    let invocation = context.invocation
    let arguments = invocation.arguments
    let count = try arguments.read(Self.count)
    let bell = !arguments.isSet(noBell)
    let json = invocation.global.json
    var loop = WatchLoop(invocation, count: count, fullScreen: !json)
    loop.separatesFrames = !json
    let clock = BoardSupport.clock(invocation)
    var watched = context.session.watch(context.answer)
    let zone = watched.zone
    var events: [String] = []
    var updates = 0
    var replay = replay
    return try loop.run {
      let now: UnixTime
      let feeds: [FeedMessage]
      var step: SnapshotReplay.Step?
      if replay != nil {
        guard let played = try replay?.next() else { return .end }
        (now, feeds, step) = (played.time, played.feeds, played)
      } else {
        now = clock()
        let quiet = loop.quiet()
        feeds =
          invocation.global.realtimeFiles.isEmpty
          ? try FeedsSupport.realtimeFeeds(quiet)
          : try FeedsSupport.localFeeds(quiet)
      }
      let frame = try context.session.update(&watched, feeds: feeds, now: now)
      if updates == 0 && !loop.isFullScreen { RealtimeSupport.warn(frame.report, invocation: invocation) }
      let guarded = frame.guarded
      updates += 1
      for change in frame.changed {
        let transfer = guarded.transfers[change]
        let message = "change at \(transfer.from?.name ?? "?"): \(transfer.state.text) (\(RideText.buffer(transfer.bufferSeconds)))"
        events.append(StopCommandSupport.clockSeconds(now, zone: zone, twelveHour: context.twelveHour) + " " + message)
        if bell { BoardSupport.ring(invocation, message: message, bell: !json) }
      }
      let lines =
        json
        ? [JSONTreeEncoder.encode(frame).serialized()]
        : render(
          guarded, title: context.title, alternative: frame.alternative, events: events, zone: zone, twelveHour: context.twelveHour,
          report: frame.hasRealtime ? frame.report : nil)
      // A replay waits its gap to the next snapshot; live, the next publish.
      let wait: Double
      if let step {
        wait = step.wait ?? 0
      } else {
        let real = invocation.context.clock.now().seconds
        wait = Double(max(1, context.session.nextFetch(after: feeds, period: nil, now: real) - real))
      }
      return .update(
        WatchLoop.Update(
          plain: lines,
          screen: { size, _, _ in (lines + ["", "q quits"]).map { $0.count > size.columns ? String($0.prefix(size.columns)) : $0 } },
          wait: wait, isLast: guarded.progress == .arrived))
    }
  }
}
