import Services
import TransitModel

/// `transit ingest`: load a GTFS feed into the timetable database.
enum IngestCommand: TransitCommand {
  /// The options, declared once.
  enum Options {
    static let feed = Option.feedName(
      "--feed", value: "NAME",
      help: "Hold the feed under NAME (default: from its agency, else the file name); without PATH, download only the configured feed NAME")
    static let list = Option.flag("--list", help: "List the feeds held, with their service dates and when each was loaded")
    static let remove = Option.feedName("--remove", value: "NAME", help: "Drop the feed NAME")
    static let quiet = Option.flag("--quiet", short: "-q", help: "Print nothing but errors")
    static let ifChanged = Option.flag(
      "--if-changed", help: "Do nothing when the server says 304 or the content's SHA-256 is the one already loaded")
    static let force = Option.flag("--force", help: "Replace the held timetable even when the new one fails a swap check")
    static let rollback = Option.feedName(
      "--rollback", value: "NAME", help: "Swap the previous timetable of feed NAME back in (the current one becomes the previous)")
    static let wait = Option.integer(
      "--wait", value: "SECONDS", in: 0...86_400, help: "Wait this long for another ingest to finish before giving up"
    ).defaulting(to: 300)
    static let check = Option.flag(
      "--check", help: "Exit 5 when a held timetable has ended, ends within 7 days or has not started (for monitoring)")
    static let printSystemdUnits = Option.flag(
      "--print-systemd-units", help: "Print a systemd user service and timer for a nightly refresh")
  }

  static let path = ["ingest"]
  static let spec = CommandSpec(
    path: path,
    summary: "Load a GTFS feed (ZIP, folder of .txt files, stops.json, or a URL) into the timetables",
    arguments: [
      ArgumentSpec(
        "PATH|URL",
        help: "A GTFS .zip, a folder of GTFS .txt files, a stops.json list, or a ZIP's URL (default: each configured feed's --gtfs URL)",
        optional: true)
    ],
    options: [
      Options.feed.spec, Options.list.spec, Options.remove.spec, Options.quiet.spec, Options.ifChanged.spec,
      Options.force.spec, Options.rollback.spec, Options.wait.spec, Options.check.spec, Options.printSystemdUnits.spec,
    ],
    discussion: """
      Each feed is held in its own timetable file and replaced whole: the new timetable is built
      beside the current one, checked, and swapped in atomically, keeping the previous one as
      NAME.sqlite.prev. If anything goes wrong the current timetable stays as it was.
      Queries span every feed held.

      Without PATH, downloads and loads the GTFS ZIP of each feed configured with 'transit feeds
      add' (only the one named by --feed, if given); with a URL, downloads that. Downloads go to
      the cache folder and are loaded from there; a failed download leaves the current timetable
      answering. With --if-changed, the request is conditional (ETag / Last-Modified from the
      last download) and a 304, or content whose SHA-256 matches the loaded timetable's, is a
      no-op; the output says "changed" or "unchanged" (exit 0 either way; --quiet prints
      nothing on success, for cron).

      A timetable already held is replaced only when the new one passes the swap checks: its
      service has not ended and starts within 60 days (swap-days-ahead); it shares an agency
      (agency_id or name) with the held one; its stops, routes and trips shrink by at most 50 %
      (swap-shrink); it has departures in the next 7 days where the held one has some
      (swap-lookahead). Otherwise the held timetable stays, one line names the check and its
      figures, and the exit code is 4; --force swaps anyway. The thresholds are settings
      ('transit config set swap-shrink 70'). --rollback NAME swaps the previous timetable back.
      A second ingest waits for the first (up to --wait seconds); queries never wait.

      Exit codes: 0 done (or unchanged), 1 a bad feed or a failed download, 2 a usage error,
      3 no such feed, 4 the swap checks refused the new timetable, 5 (--check) a held
      timetable has ended, ends within 7 days or has not started.

      From cron, refresh every night and hear about it only when something needs you:
        17 4 * * *  transit ingest --if-changed --quiet; transit ingest --check --quiet
      cron mails what a command prints: --quiet prints nothing on success, a refused or
      failed refresh prints one line on stderr (exit 4 or 1), and --check prints a line for
      each timetable that has ended or ends within 7 days (exit 5). With systemd instead,
      'transit ingest --print-systemd-units' prints a user service and timer to install.
      """,
    examples: [
      "transit ingest Data/gtfs",
      "transit ingest ~/Downloads/google_transit.zip --feed dublin-bus",
      "transit ingest --list",
      "transit ingest --if-changed --quiet",
      "transit ingest https://example.org/gtfs.zip --feed example --if-changed",
      "transit ingest --remove dublin-bus",
      "transit ingest --rollback dublin-bus",
      "transit ingest --check --quiet",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    let arguments = invocation.arguments
    let out = invocation.context.stdout
    let quiet = arguments.isSet(Options.quiet)
    let keeper = TimetableKeeper(dataDirectory: invocation.paths.data, feeds: FeedsSupport.access(invocation))
    if arguments.isSet(Options.list) {
      try invocation.expectPositionals(atMost: 0)
      list(try keeper.held(now: invocation.now), invocation)
      return 0
    }
    if arguments.isSet(Options.check) {
      try invocation.expectPositionals(atMost: 0)
      let check = try keeper.check(now: invocation.now)
      render(check, quiet: quiet, invocation)
      return check.needsAttention ? 5 : 0
    }
    if arguments.isSet(Options.printSystemdUnits) {
      try invocation.expectPositionals(atMost: 0)
      out.write(systemdUnits)
      return 0
    }
    if let name = (try arguments.read(Options.rollback)) {
      try invocation.expectPositionals(atMost: 0)
      let held = try keeper.rollback(
        name, waitSeconds: try arguments.read(Options.wait), now: invocation.now, waiting: progress(invocation).report)
      if !quiet { out.line("rolled back \(name) to the timetable loaded \(loadedText(held.loadedAt)) (\(serviceText(held)))") }
      return 0
    }
    if let name = (try arguments.read(Options.remove)) {
      try invocation.expectPositionals(atMost: 0)
      try keeper.remove(name)
      if !quiet { out.line("removed feed \(name)") }
      return 0
    }
    try invocation.expectPositionals(atMost: 1)
    let request = IngestRequest(
      source: arguments.positionals.first, feed: try arguments.read(Options.feed), ifChanged: arguments.isSet(Options.ifChanged),
      isForced: arguments.isSet(Options.force),
      limits: {
        let settings = try invocation.settings()
        let swap = SwapSettings(
          shrinkPercent: settings.swapShrinkPercent, daysAhead: settings.swapDaysAhead, lookaheadDays: settings.swapLookaheadDays)
        return (swap, settings.feedMaxUnzippedMegabytes)
      }, waitSeconds: try arguments.read(Options.wait),
      options: { try RealtimeSupport.options(invocation, settings: try invocation.settings()) }, now: invocation.now)
    let progress = progress(invocation)
    var failed = false
    do {
      try keeper.ingest(
        request, progress: progress.report, done: { render($0, invocation) },
        failed: { feed, error in
          failed = true
          printRefusal(error, invocation)
          invocation.context.stderr.line("transit: \(feed): \(Transit.userFacing(error)?.message ?? "\(error)")")
        })
    } catch {
      printRefusal(error, invocation)
      throw error
    }
    return failed ? 1 : 0
  }

  /// With --json, the refusal of the swap checks, printed before the error.
  static func printRefusal(_ error: any Error, _ invocation: Invocation) {
    guard invocation.global.json, let refusal = IngestRefusal(error) else { return }
    invocation.context.stdout.line(JSONTreeEncoder.text(refusal))
  }
}
