import Fetch
import FoundationEssentials
import GTFS
import Glibc
import HostSystem
import Services
import TransitModel
import UserData
import ZIP

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
    let context = invocation.context
    let timetables = Timetables(directory: invocation.paths.data)
    if arguments.isSet(Options.list) {
      try invocation.expectPositionals(atMost: 0)
      return try list(timetables, invocation)
    }
    if arguments.isSet(Options.check) {
      try invocation.expectPositionals(atMost: 0)
      return try check(timetables, invocation)
    }
    if arguments.isSet(Options.printSystemdUnits) {
      try invocation.expectPositionals(atMost: 0)
      invocation.context.stdout.write(systemdUnits)
      return 0
    }
    if let name = (try arguments.read(Options.rollback)) {
      try invocation.expectPositionals(atMost: 0)
      guard try timetables.list().contains(where: { $0.name == name }) else {
        throw NotFoundError("no feed named '\(name)' is held (see 'transit ingest --list')")
      }
      try timetables.rollback(name, waitForLock: try lockWaiter(invocation))
      if !arguments.isSet(Options.quiet) {
        let meta = try timetables.list().first { $0.name == name }?.meta ?? [:]
        invocation.context.stdout.line("rolled back \(name) to the timetable loaded \(loadedText(meta)) (\(serviceText(meta)))")
      }
      return 0
    }
    if let name = (try arguments.read(Options.remove)) {
      try invocation.expectPositionals(atMost: 0)
      guard try timetables.remove(name) else { throw NotFoundError("no feed named '\(name)' is held (see 'transit ingest --list')") }
      if !arguments.isSet(Options.quiet) { context.stdout.line("removed feed \(name)") }
      return 0
    }
    try invocation.expectPositionals(atMost: 1)
    guard let target = arguments.positionals.first else {
      return try ingestConfigured(timetables, invocation)
    }
    if FeedsSupport.isURL(target) && !target.lowercased().hasPrefix("file://") {
      let configuration = try FeedsSupport.configuration(invocation)
      let feed = configuration.feeds.first { $0.gtfs == target }
      let request = try FeedsSupport.resolve(target, feed: feed, invocation: invocation)
      try download(request, as: (try arguments.read(Options.feed)) ?? feed?.name, timetables, invocation)
      return 0
    }
    let path = target.lowercased().hasPrefix("file://") ? (HTTPClient.localPath(target) ?? target) : invocation.absolutePath(target)
    var meta: [String: String] = [:]
    var lateMeta: (() throws -> [String: String])?
    if let isFolder = FileInfo.isDirectory(path) {
      if arguments.isSet(Options.ifChanged) {
        let hash = isFolder ? try folderSHA256(path) : try fileSHA256(path)
        meta["content_sha256"] = hash
        let held = try timetables.list().first { feed in
          (try arguments.read(Options.feed)).map { feed.name == $0 } ?? (feed.meta["source"] == path)
        }
        let decision = ReingestDecision.decide(ifChanged: true, heldSHA256: held?.meta["content_sha256"], sha256: hash)
        if let held, let reason = decision.reason {
          reportUnchanged(held.name, reason: reason, invocation)
          return 0
        }
      } else {
        // Only stored, for a later --if-changed: hashed on another core while the feed loads
        // (a national feed's folder is about 1 GB, seconds of SHA-256).
        let hash = BackgroundResult { isFolder ? try folderSHA256(path) : try fileSHA256(path) }
        lateMeta = { ["content_sha256": try hash.value()] }
      }
    }
    try ingestFile(path, as: (try arguments.read(Options.feed)), meta: meta, lateMeta: lateMeta, shownSource: path, timetables, invocation)
    return 0
  }

  // MARK: - Loading

  /// Loads `path` and prints the summary (or JSON).
  static func ingestFile(
    _ path: String, as name: String?, meta: [String: String], lateMeta: (() throws -> [String: String])? = nil,
    shownSource: String, _ timetables: Timetables, _ invocation: Invocation
  ) throws {
    let arguments = invocation.arguments
    let context = invocation.context
    let quiet = arguments.isSet(Options.quiet)
    let ifChanged = arguments.isSet(Options.ifChanged)
    let bar = ProgressBar(sink: context.stderr, enabled: invocation.showsProgress && !quiet, unit: "rows")
    let result: (feed: String, summary: IngestSummary)
    // Rows are counted per file; the rate is over all of them.
    var file = "", rowsBefore = 0, rowsInFile = 0
    let settings = try invocation.settings()
    let policy = SwapPolicy(
      isForced: arguments.isSet(Options.force), maximumShrink: Double(settings.swapShrinkPercent) / 100,
      maximumDaysAhead: settings.swapDaysAhead, lookaheadDays: settings.swapLookaheadDays)
    do {
      let budget = UInt64(try invocation.settings().feedMaxUnzippedMegabytes) << 20
      result = try timetables.ingest(
        path, as: name, now: invocation.now.seconds, meta: meta, lateMeta: lateMeta, maxUnzippedBytes: budget, policy: policy,
        waitForLock: try lockWaiter(invocation)
      ) { progress in
        if progress.isIndexing {
          bar.update(fraction: 1, label: "building indexes")
        } else {
          if progress.file != file {
            rowsBefore += rowsInFile
            file = progress.file
          }
          rowsInFile = progress.rows
          let fraction = progress.bytesTotal == 0 ? 0 : Double(progress.bytesDone) / Double(progress.bytesTotal)
          bar.update(
            fraction: fraction, label: "\(progress.file) \(Format.thousands(progress.rows)) rows", count: rowsBefore + rowsInFile)
        }
      }
    } catch {
      bar.finish()
      if case .refused(let feed, let checks) = error as? IngestError, invocation.global.json {
        context.stdout.line(
          JSON.object([("feed", .string(feed)), ("swapped", .bool(false)), ("checks", checksJSON(checks))]).serialized(pretty: true))
      }
      // A download is loaded from a file in the cache: a bad archive's errors name the URL
      // instead (the others keep their type and exit code).
      guard shownSource != path, error is ZipError || error is GTFSError else { throw error }
      var message = "\(error)".replacing(path, with: shownSource)
      let file = PathText.lastComponent(path)
      if message.hasPrefix(file + ":") { message = shownSource + message.dropFirst(file.count) }
      throw RuntimeError(message)
    }
    bar.finish()
    let summary = result.summary
    let yours = try changesForYou(result.feed, timetables, invocation)
    if invocation.global.json {
      var members: [(String, JSON)] = [
        ("feed", .string(result.feed)), ("source", .string(shownSource)), ("seconds", .double(summary.seconds)),
        ("rows", .object(summary.rows.map { ($0.file, .number($0.count)) })),
        ("interpolated_stop_times", .number(summary.interpolatedStopTimes)),
        ("warnings", .array(summary.warnings.map(JSON.string))), ("swapped", .bool(true)),
        ("checks", checksJSON(summary.checks)), ("your_changes", .array(yours.map(\.json))),
        ("steps", .object(summary.steps.map { ($0.step, .double($0.seconds)) })),
      ]
      if ifChanged { members.insert(("changed", .bool(true)), at: 1) }
      context.stdout.line(JSON.object(members).serialized(pretty: true))
      return
    }
    // Under --quiet, only what changed for you is printed: cron mails it then, and only then.
    if quiet {
      for change in yours { context.stdout.line(change.text) }
      return
    }
    let counts = summary.rows.map { "\(Format.thousands($0.count)) \($0.file.replacing(".txt", with: ""))" }
    var line =
      (ifChanged ? "changed: " : "") + "ingested \(result.feed) in \(Format.seconds(summary.seconds)): " + counts.joined(separator: ", ")
    if summary.interpolatedStopTimes > 0 { line += " (\(Format.thousands(summary.interpolatedStopTimes)) untimed stop times interpolated)" }
    if !summary.warnings.isEmpty { line += "; \(summary.warnings.count) warning\(summary.warnings.count == 1 ? "" : "s")" }
    context.stdout.line(line)
    for change in yours { context.stdout.line(change.text) }
    for check in summary.checks where !check.passed {
      context.stderr.line("warning: swapped with --force although \(check.name) failed: \(check.detail)")
    }
    for warning in summary.warnings.prefix(10) { context.stderr.line("warning: \(warning)") }
    if summary.warnings.count > 10 { context.stderr.line("warning: … and \(summary.warnings.count - 10) more") }
  }

  /// What the swap of `feed` changed for the user (nothing when they have no user database).
  static func changesForYou(_ feed: String, _ timetables: Timetables, _ invocation: Invocation) throws -> [ChangeForYou] {
    guard FileManager.default.fileExists(atPath: invocation.paths.data + "/user.sqlite") else { return [] }
    let user = try UserStore(directory: invocation.paths.data)
    return try ChangeForYou.after(
      swapOf: FeedName(feed), timetables: timetables, favourites: try user.favourites(), commutes: try user.commutes(),
      now: invocation.now, options: try RealtimeSupport.options(invocation, settings: try invocation.settings()))
  }

  /// `unchanged: NAME (reason)`, unless quiet.
  static func reportUnchanged(_ name: String?, reason: String, _ invocation: Invocation) {
    if invocation.global.json {
      invocation.context.stdout.line(
        JSON.object([("feed", .optional(name)), ("changed", .bool(false)), ("reason", .string(reason))]).serialized(pretty: true))
    } else if !invocation.arguments.isSet(Options.quiet) {
      invocation.context.stdout.line("unchanged: \(name ?? "feed") (\(reason))")
    }
  }

  // MARK: - Downloading

  /// Downloads each configured feed's GTFS ZIP (or the one --feed names) and loads it.
  static func ingestConfigured(_ timetables: Timetables, _ invocation: Invocation) throws -> Int32 {
    let configuration = try FeedsSupport.configuration(invocation)
    var feeds = configuration.feeds.filter { $0.gtfs != nil }
    if let name = (try invocation.arguments.read(Options.feed)) {
      let feed = try FeedsSupport.feed(named: name, in: configuration)
      guard feed.gtfs != nil else { throw UsageError("feed '\(name)' has no --gtfs url (see 'transit feeds list')") }
      feeds = [feed]
    }
    guard !feeds.isEmpty else {
      throw UsageError("missing PATH|URL (or configure a feed with 'transit feeds add NAME --gtfs URL')")
    }
    var failed = false
    for feed in feeds {
      do {
        let request = try FeedsSupport.resolve(feed.gtfs!, feed: feed, invocation: invocation)
        try download(request, as: feed.name, timetables, invocation)
      } catch {
        guard feeds.count > 1 else { throw error }
        failed = true
        invocation.context.stderr.line("transit: \(feed.name): \((error as? UserFacingError)?.message ?? "\(error)")")
      }
    }
    return failed ? 1 : 0
  }

  /// Downloads `request` into the cache folder and loads it; with --if-changed, a 304 or the
  /// same content as the held timetable is a no-op. A failed download never touches the
  /// current timetable.
  static func download(_ request: ResolvedRequest, as name: String?, _ timetables: Timetables, _ invocation: Invocation) throws {
    let shown = request.shownURL
    let ifChanged = invocation.arguments.isSet(Options.ifChanged)
    let held = try timetables.list().first { feed in name.map { feed.name == $0 } ?? (feed.meta["source_url"] == shown) }
    let validatorStore = ValidatorStore(cacheDirectory: invocation.paths.cache)
    // Conditional only when the timetable from this URL is still held: a 304 then means "keep it".
    let validators =
      ReingestDecision.isConditional(ifChanged: ifChanged, heldSourceURL: held?.meta["source_url"], url: shown)
      ? validatorStore.validators(for: request.url) : nil
    let folder = invocation.paths.cache + "/downloads"
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw RuntimeError("cannot create \(folder): \(Transit.fileProblem(error))")
    }
    let file = folder + "/\(name ?? "download")-\(SHA256.hex(request.url).prefix(12))-\(getpid()).zip"
    defer { try? FileManager.default.removeItem(atPath: file) }
    let client = try FeedsSupport.client(invocation)
    let result: FetchResult
    // A big city's ZIP takes a while: the download gets its own bar, in kB.
    let bar = ProgressBar(
      sink: invocation.context.stderr, enabled: invocation.showsProgress && !invocation.arguments.isSet(Options.quiet), unit: "kB")
    do {
      defer { bar.finish() }
      result = try client.get(
        request.url, headers: request.headers, validators: validators, expecting: .zip, destination: file,
        redactor: request.redactor
      ) { received, total in
        let label = "downloading \(FeedsSupport.sizeText(received))" + (total.map { " of \(FeedsSupport.sizeText($0))" } ?? "")
        bar.update(fraction: total.map { $0 > 0 ? Double(received) / Double($0) : 0 }, label: label, count: received / 1000)
      }
    } catch {
      throw RuntimeError(request.redactor.redact("\(error)"))
    }
    guard case .body(let body) = result else {
      reportUnchanged(held?.name ?? name, reason: ReingestDecision.notModified.reason!, invocation)
      return
    }
    let hash = try fileSHA256(file)
    let decision = ReingestDecision.decide(ifChanged: ifChanged, heldSHA256: held?.meta["content_sha256"], sha256: hash)
    if let held, let reason = decision.reason {
      try? validatorStore.remember(body.validators, for: request.url)
      reportUnchanged(held.name, reason: reason, invocation)
      return
    }
    let meta = ["source": shown, "source_url": shown, "content_sha256": hash]
    try ingestFile(file, as: name ?? held?.name, meta: meta, shownSource: shown, timetables, invocation)
    try? validatorStore.remember(body.validators, for: request.url)
  }

  /// The SHA-256 of a file, read in 1 MiB pieces.
  static func fileSHA256(_ path: String) throws -> String {
    var hasher = SHA256()
    try hash(path, into: &hasher)
    return SHA256.hexString(hasher.finish())
  }

  /// The SHA-256 of a folder of GTFS files: each regular file's name, size and bytes, in name
  /// order (dot files left out), so any change to what ingest reads changes it.
  static func folderSHA256(_ path: String) throws -> String {
    var hasher = SHA256()
    let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
    for name in names {
      let file = path + "/" + name
      guard FileInfo.isDirectory(file) == false else { continue }
      let size = FileInfo.size(file) ?? 0
      hasher.update(Array("\(name)\u{0}\(size)\u{0}".utf8))
      try hash(file, into: &hasher)
    }
    return SHA256.hexString(hasher.finish())
  }

  /// Feeds the bytes of `path` to `hasher`, a megabyte at a time.
  static func hash(_ path: String, into hasher: inout SHA256) throws {
    let read = FileReader.forEachChunk(path) { chunk in
      hasher.update(chunk)  // a slice of the reader's buffer: hashed in place, not copied
      return true
    }
    guard read != nil else { throw RuntimeError("\(path): cannot be read (\(String(cString: strerror(errno)).lowercased()))") }
  }

  static func list(_ timetables: Timetables, _ invocation: Invocation) throws -> Int32 {
    let feeds = try timetables.list()
    if invocation.global.json {
      let json = JSON.array(
        feeds.map { feed in
          .object([
            ("name", .string(feed.name)), ("source", .optional(feed.meta["source"])),
            ("service_start", .optional(feed.meta["service_start"])), ("service_end", .optional(feed.meta["service_end"])),
            ("loaded_at", .optional(feed.meta["loaded_at"].flatMap { Int64($0) }.map { ISOTime.format(.init($0)) })),
            ("stops", .number(feed.rows("stops.txt") + feed.rows("stops.json"))), ("routes", .number(feed.rows("routes.txt"))),
            ("trips", .number(feed.rows("trips.txt"))), ("stop_times", .number(feed.rows("stop_times.txt"))),
            ("status", .string(statusWord(feed.serviceStatus(now: invocation.now)))),
            (
              "previous",
              (try? timetables.previousMeta(of: feed.name)).flatMap { $0 }.map { meta in
                JSON.object([
                  ("service_start", .optional(meta["service_start"])), ("service_end", .optional(meta["service_end"])),
                  ("loaded_at", .optional(meta["loaded_at"].flatMap { Int64($0) }.map { ISOTime.format(.init($0)) })),
                ])
              } ?? .null
            ),
          ])
        })
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }
    if feeds.isEmpty {
      invocation.context.stdout.line("no feeds held yet; load one with 'transit ingest PATH'")
      return 0
    }
    var rows = [["FEED", "SERVICE", "STATUS", "LOADED", "STOPS", "ROUTES", "TRIPS", "PREVIOUS", "SOURCE"]]
    for feed in feeds {
      let previous = (try? timetables.previousMeta(of: feed.name)).flatMap { $0 }.map(serviceText) ?? "-"
      rows.append([
        feed.name, serviceText(feed.meta), statusWord(feed.serviceStatus(now: invocation.now)), loadedText(feed.meta),
        Format.thousands(feed.rows("stops.txt") + feed.rows("stops.json")), Format.thousands(feed.rows("routes.txt")),
        Format.thousands(feed.rows("trips.txt")), previous, feed.meta["source"].map { PathText.lastComponent($0) } ?? "",
      ])
    }
    invocation.context.stdout.write(Format.table(rows, rightAligned: [4, 5, 6]))
    return 0
  }

  /// `--check`: a line for each held timetable that has ended, ends within 7 days or has not
  /// started, and exit 5 when there is one (nothing printed with --quiet when all is well).
  static func check(_ timetables: Timetables, _ invocation: Invocation) throws -> Int32 {
    let feeds = try timetables.list()
    var warned = false
    for feed in feeds {
      let status = feed.serviceStatus(now: invocation.now)
      if let warning = status.warning(feed: feed.name) {
        warned = true
        invocation.context.stdout.line(warning)
      } else if !invocation.arguments.isSet(Options.quiet) {
        invocation.context.stdout.line(
          "\(feed.name): \(statusWord(status)), service to \(serviceText(feed.meta).components(separatedBy: " to ").last ?? "?")")
      }
    }
    if feeds.isEmpty && !invocation.arguments.isSet(Options.quiet) { invocation.context.stdout.line("no feeds held") }
    return warned ? 5 : 0
  }

  /// One word or two for `--list`'s STATUS column.
  static func statusWord(_ status: ServiceStatus) -> String {
    switch status {
    case .running: return "ok"
    case .endingSoon(_, let days): return days == 0 ? "ends today" : "ends in \(days == 1 ? "1 day" : "\(days) days")"
    case .ended: return "ended"
    case .notStarted: return "not started"
    case .unknown: return "no service"
    }
  }

  /// `2026-01-01 to 2027-12-31`.
  static func serviceText(_ meta: [String: String]) -> String {
    func day(_ text: String?) -> String {
      guard let text, text.count == 8 else { return "?" }
      return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
    }
    return "\(day(meta["service_start"])) to \(day(meta["service_end"]))"
  }

  /// `2026-11-29 12:00` (UTC).
  static func loadedText(_ meta: [String: String]) -> String {
    meta["loaded_at"].flatMap { Int64($0) }.map { String(ISOTime.format(.init($0)).prefix(16)).replacing("T", with: " ") }
      ?? "?"
  }

  static func checksJSON(_ checks: [SwapCheck]) -> JSON {
    .array(checks.map { .object([("name", .string($0.name)), ("passed", .bool($0.passed)), ("detail", .string($0.detail))]) })
  }

  /// Waits for another ingest's lock, a quarter second at a time, up to --wait seconds; on a
  /// terminal a line says so.
  static func lockWaiter(_ invocation: Invocation) throws -> (Int) -> Bool {
    let limit = try invocation.arguments.read(Options.wait)
    let stderr = invocation.context.stderr, sleep = invocation.context.sleep
    let showing = invocation.showsProgress && !invocation.arguments.isSet(Options.quiet)
    return { attempts in
      let waited = Double(attempts - 1) * 0.25
      guard waited < Double(limit) else { return false }
      if showing && attempts % 4 == 1 { stderr.write("\rwaiting for another ingest to finish (\(Int(waited)) s of \(limit) s)") }
      sleep(0.25)
      return true
    }
  }

  /// A systemd user service and timer running the nightly refresh.
  static let systemdUnits = """
    # ~/.config/systemd/user/transit-refresh.service
    [Unit]
    Description=Refresh transit timetables

    [Service]
    Type=oneshot
    ExecStart=/bin/sh -c 'transit ingest --if-changed --quiet; transit ingest --check --quiet'

    # ~/.config/systemd/user/transit-refresh.timer
    [Unit]
    Description=Refresh transit timetables every night

    [Timer]
    OnCalendar=*-*-* 04:17
    RandomizedDelaySec=15m
    Persistent=true

    [Install]
    WantedBy=timers.target

    # then: systemctl --user daemon-reload && systemctl --user enable --now transit-refresh.timer
    # failures show in 'systemctl --user status transit-refresh' and 'journalctl --user -u transit-refresh'

    """
}

/// How a change for you is shown: one line of text, or a JSON object.
extension ChangeForYou {
  var text: String {
    switch self {
    case .stop(let change, let label):
      let stop = change.stopID + (label.map { " (\($0))" } ?? "")
      switch change.kind {
      case .removed: return "your stop \(stop) is no longer in the timetable"
      case .moved(let meters): return "your stop \(stop) moved \(Int(meters.rounded())) m"
      case .routesGone(let routes):
        return
          "\(routes.count == 1 ? "route" : "routes") \(routes.joined(separator: ", ")) no longer \(routes.count == 1 ? "calls" : "call") at your stop \(stop)"
      }
    case .commute(let change, let zone):
      func clock(_ time: UnixTime) -> String { String(ISOTime.format(time, zone: zone).dropFirst(11).prefix(5)) }
      let prefix = "commute \(change.name): "
      switch (change.before, change.after) {
      case (let before?, let after?) where before.route == after.route:
        return prefix + "the \(clock(before.departs)) \(before.route) now leaves \(clock(after.departs))"
      case (let before?, let after?):
        return prefix + "the \(clock(before.departs)) \(before.route) is gone; take the \(clock(after.departs)) \(after.route)"
      case (let before?, nil): return prefix + "the \(clock(before.departs)) \(before.route) is gone, and nothing else arrives in time"
      case (nil, let after?): return prefix + "the \(clock(after.departs)) \(after.route) now arrives in time"
      case (nil, nil): return prefix + "changed"
      }
    }
  }

  var json: JSON {
    switch self {
    case .stop(let change, let label):
      var members: [(String, JSON)] = [("stop_id", .string(change.stopID)), ("label", .optional(label))]
      switch change.kind {
      case .removed: members.append(("change", .string("removed")))
      case .moved(let meters): members += [("change", .string("moved")), ("meters", .number(Int(meters.rounded())))]
      case .routesGone(let routes): members += [("change", .string("routes_gone")), ("routes", .array(routes.map(JSON.string)))]
      }
      return .object(members)
    case .commute(let change, let zone):
      func choice(_ choice: CommuteChange.Choice?) -> JSON {
        choice.map { .object([("route_short_name", .string($0.route)), ("departs", .string(ISOTime.format($0.departs, zone: zone)))]) }
          ?? .null
      }
      return .object([
        ("commute", .string(change.name)), ("change", .string("commute")), ("date", .string(change.date.description)),
        ("before", choice(change.before)), ("after", choice(change.after)),
      ])
    }
  }
}
