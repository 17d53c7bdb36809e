import Fetch
import FoundationEssentials
import GTFS
import Glibc
import TransitModel
import UserData

/// The entry point beside the session for keeping the timetables (issue 33): it runs before
/// any timetable is held. It decides what to load (a path, a URL, the configured feeds), makes
/// the conditional GET, applies the swap policy, and answers `ingest --list` and `--check`.
/// The command line parses, asks once and renders.
public struct TimetableKeeper {
  /// The data folder (`feeds/NAME.sqlite`, `user.sqlite`).
  public var dataDirectory: String
  /// The configured feeds and how to fetch them.
  public var feeds: FeedAccess

  /// A keeper of the timetables in `dataDirectory`, downloading through `feeds`.
  public init(dataDirectory: String, feeds: FeedAccess) {
    self.dataDirectory = dataDirectory
    self.feeds = feeds
  }

  var timetables: Timetables { Timetables(directory: dataDirectory) }

  // MARK: - The timetables held

  /// Every timetable held, by name, with its previous one (`--list`).
  /// - Throws: what reading their `feed_meta` throws.
  public func held(now: UnixTime) throws -> [HeldTimetable] {
    let timetables = self.timetables
    return try timetables.list().map { feed in
      HeldTimetable(feed, now: now, previous: (try? timetables.previousMeta(of: feed.name)).flatMap { $0 })
    }
  }

  /// Each timetable held and where its service stands (`--check`); `needsAttention` when one
  /// has ended, ends within 7 days or has not started.
  public func check(now: UnixTime) throws -> TimetableCheck {
    TimetableCheck(timetables: try timetables.list().map { HeldTimetable($0, now: now, previous: nil) })
  }

  /// Swaps the previous timetable of `name` back in (the current one becomes the previous).
  /// - Parameter waitForLock: `IngestRequest.waitForLock`'s rule, for another ingest's lock.
  /// - Returns: the timetable now held.
  /// - Throws: `FeedKeepingError.notHeld`; `IngestError.noPrevious` when none is kept.
  public func rollback(
    _ name: String, waitSeconds: Int, now: UnixTime, waiting: @escaping (IngestStep) -> Void
  ) throws
    -> HeldTimetable
  {
    let timetables = self.timetables
    guard try timetables.list().contains(where: { $0.name == name }) else { throw FeedKeepingError.notHeld(name) }
    try timetables.rollback(name, waitForLock: lockWaiter(waitSeconds: waitSeconds, report: waiting))
    guard let feed = try timetables.list().first(where: { $0.name == name }) else {
      return HeldTimetable(name: name, meta: [:], status: .unknown, previous: nil)
    }
    return HeldTimetable(feed, now: now, previous: nil)
  }

  /// Drops the timetable `name` (and its previous one).
  /// - Throws: `FeedKeepingError.notHeld`.
  public func remove(_ name: String) throws {
    guard try timetables.remove(name) else { throw FeedKeepingError.notHeld(name) }
  }

  // MARK: - Ingest

  /// Loads what `request` names: a ZIP, folder or stops.json list by path (or `file://` URL),
  /// a ZIP's URL, or without a source each configured feed's GTFS URL (the one `request.feed`
  /// names, if given). Each outcome is given to `done` as it comes.
  /// - Parameters:
  ///   - progress: told how the download and the load go, and of a wait for another ingest.
  ///   - failed: with several configured feeds, told of each that failed while the others go
  ///     on; otherwise the error is thrown.
  /// - Throws: `FeedKeepingError`, `FeedConfigError`, `IngestError` (`refused`: the swap
  ///   checks), `GTFSError`, `ZipError`, ...; the held timetable is untouched whenever it throws.
  public func ingest(
    _ request: IngestRequest, progress: @escaping (IngestStep) -> Void, done: (IngestOutcome) -> Void,
    failed: (_ feed: String, _ error: any Error) -> Void = { _, _ in }
  ) throws {
    guard let target = request.source else {
      try ingestConfigured(request, progress: progress, done: done, failed: failed)
      return
    }
    let lowered = target.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      let feed = try feeds.configuration().feeds.first { $0.gtfs == target }
      let resolved = try feeds.resolve(target, feed: feed)
      done(try download(resolved, as: request.feed ?? feed?.name, request, progress: progress))
      return
    }
    let path = lowered.hasPrefix("file://") ? (HTTPClient.localPath(target) ?? target) : feeds.absolutePath(target)
    var meta: [String: String] = [:]
    var lateMeta: (() throws -> [String: String])?
    if let isFolder = ContentFingerprint.isFolder(path) {
      if request.ifChanged {
        let hash = try ContentFingerprint.sha256(path, isFolder: isFolder)
        meta["content_sha256"] = hash
        let held = try timetables.list().first { feed in request.feed.map { feed.name == $0 } ?? (feed.meta["source"] == path) }
        let decision = ReingestDecision.decide(ifChanged: true, heldSHA256: held?.meta["content_sha256"], sha256: hash)
        if let held, decision != .ingest {
          done(.unchanged(UnchangedAnswer(feed: held.name, decision: decision)))
          return
        }
      } else {
        // Only stored, for a later --if-changed: hashed on another core while the feed loads.
        let hash = ContentFingerprint.background(path, isFolder: isFolder)
        lateMeta = { ["content_sha256": try hash()] }
      }
    }
    done(try load(path, as: request.feed, meta: meta, lateMeta: lateMeta, shownSource: path, request, progress: progress))
  }

  /// Downloads each configured feed's GTFS ZIP (or the one `request.feed` names) and loads it.
  func ingestConfigured(
    _ request: IngestRequest, progress: @escaping (IngestStep) -> Void, done: (IngestOutcome) -> Void,
    failed: (String, any Error) -> Void
  ) throws {
    let configuration = try feeds.configuration()
    var chosen = configuration.feeds.filter { $0.gtfs != nil }
    if let name = request.feed {
      let feed = try feeds.feed(named: name, in: configuration)
      guard feed.gtfs != nil else { throw FeedKeepingError.noGTFSURL(name) }
      chosen = [feed]
    }
    guard !chosen.isEmpty else { throw FeedKeepingError.nothingToIngest }
    for feed in chosen {
      do {
        let resolved = try feeds.resolve(feed.gtfs!, feed: feed)
        done(try download(resolved, as: feed.name, request, progress: progress))
      } catch {
        guard chosen.count > 1 else { throw error }
        failed(feed.name, error)
      }
    }
  }

  /// Downloads `resolved` into the cache folder and loads it; with `ifChanged`, a 304 or the
  /// same content as the held timetable is a no-op. A failed download never touches the
  /// current timetable.
  func download(
    _ resolved: ResolvedRequest, as name: String?, _ request: IngestRequest, progress: @escaping (IngestStep) -> Void
  )
    throws -> IngestOutcome
  {
    let shown = resolved.shownURL
    let held = try timetables.list().first { feed in name.map { feed.name == $0 } ?? (feed.meta["source_url"] == shown) }
    let validatorStore = ValidatorStore(cacheDirectory: feeds.cacheDirectory)
    // Conditional only when the timetable from this URL is still held: a 304 then means "keep it".
    let validators =
      ReingestDecision.isConditional(ifChanged: request.ifChanged, heldSourceURL: held?.meta["source_url"], url: shown)
      ? validatorStore.validators(for: resolved.url) : nil
    let folder = feeds.cacheDirectory + "/downloads"
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw FeedKeepingError.cannotCreate(folder, underlying: error)
    }
    let file = folder + "/\(name ?? "download")-\(SHA256.hex(resolved.url).prefix(12))-\(getpid()).zip"
    defer { try? FileManager.default.removeItem(atPath: file) }
    let client = try feeds.client()
    let result: FetchResult
    do {
      defer { progress(.downloaded) }
      result = try client.get(
        resolved.url, headers: resolved.headers, validators: validators, expecting: .zip, destination: file,
        redactor: resolved.redactor
      ) { received, total in
        progress(.downloading(receivedBytes: received, totalBytes: total))
      }
    } catch {
      throw FeedKeepingError.download(resolved.redactor.redact("\(error)"))
    }
    guard case .body(let body) = result else {
      return .unchanged(UnchangedAnswer(feed: held?.name ?? name, decision: .notModified))
    }
    let hash = try ContentFingerprint.fileSHA256(file)
    let decision = ReingestDecision.decide(ifChanged: request.ifChanged, heldSHA256: held?.meta["content_sha256"], sha256: hash)
    if let held, decision != .ingest {
      try? validatorStore.remember(body.validators, for: resolved.url)
      return .unchanged(UnchangedAnswer(feed: held.name, decision: decision))
    }
    let meta = ["source": shown, "source_url": shown, "content_sha256": hash]
    let outcome = try load(file, as: name ?? held?.name, meta: meta, shownSource: shown, request, progress: progress)
    try? validatorStore.remember(body.validators, for: resolved.url)
    return outcome
  }

  /// Loads `path` under the swap policy, and what the swap changed for the user.
  func load(
    _ path: String, as name: String?, meta: [String: String], lateMeta: (() throws -> [String: String])? = nil,
    shownSource: String, _ request: IngestRequest, progress: @escaping (IngestStep) -> Void
  ) throws -> IngestOutcome {
    let (swap, maxUnzippedMegabytes) = try request.limits()
    let policy = SwapPolicy(
      isForced: request.isForced, maximumShrink: Double(swap.shrinkPercent) / 100, maximumDaysAhead: swap.daysAhead,
      lookaheadDays: swap.lookaheadDays)
    let result: (feed: String, summary: IngestSummary)
    // Rows are counted per file; the rate is over all of them.
    var file = "", rowsBefore = 0, rowsInFile = 0
    do {
      defer { progress(.loaded) }
      result = try timetables.ingest(
        path, as: name, now: request.now.seconds, meta: meta, lateMeta: lateMeta,
        maxUnzippedBytes: UInt64(maxUnzippedMegabytes) << 20, policy: policy,
        waitForLock: lockWaiter(waitSeconds: request.waitSeconds, report: progress)
      ) { step in
        if step.isIndexing {
          progress(.indexing)
          return
        }
        if step.file != file {
          rowsBefore += rowsInFile
          file = step.file
        }
        rowsInFile = step.rows
        let fraction = step.bytesTotal == 0 ? 0 : Double(step.bytesDone) / Double(step.bytesTotal)
        progress(.loading(file: step.file, rows: step.rows, rowsSoFar: rowsBefore + rowsInFile, fraction: fraction))
      }
    } catch {
      // A download is loaded from a file in the cache: a bad archive's errors name the URL
      // instead (the others keep their type).
      guard shownSource != path, TimetableFailure.isAboutTheFeed(error) else { throw error }
      var message = "\(error)".replacing(path, with: shownSource)
      let file = PathText.lastComponent(path)
      if message.hasPrefix(file + ":") { message = shownSource + message.dropFirst(file.count) }
      throw FeedKeepingError.badDownload(message)
    }
    let summary = result.summary
    return .ingested(
      IngestAnswer(
        feed: result.feed, source: shownSource, saysChanged: request.ifChanged, seconds: summary.seconds,
        rows: summary.rows.map { ($0.file, $0.count) }, interpolatedStopTimes: summary.interpolatedStopTimes,
        warnings: summary.warnings, checks: summary.checks.map(SwapCheckAnswer.init),
        yourChanges: try changesForYou(result.feed, now: request.now, options: request.options),
        steps: summary.steps.map { ($0.step, $0.seconds) }))
  }

  /// What the swap of `feed` changed for the user (nothing when they have no user database).
  func changesForYou(_ feed: String, now: UnixTime, options: () throws -> ServiceOptions) throws -> [ChangeForYou] {
    guard let user = try UserDataAccess(directory: dataDirectory).openIfPresent() else { return [] }
    return try ChangeForYou.after(
      swapOf: FeedName(feed), timetables: timetables, favourites: try user.favourites(), commutes: try user.commutes(),
      now: now, options: try options())
  }

  /// Waits for another ingest's lock, a quarter second at a time, up to `waitSeconds`; every
  /// second of it is reported.
  func lockWaiter(waitSeconds: Int, report: @escaping (IngestStep) -> Void) -> (Int) -> Bool {
    let sleep = feeds.sleep
    return { attempts in
      let waited = Double(attempts - 1) * 0.25
      guard waited < Double(waitSeconds) else { return false }
      if attempts % 4 == 1 { report(.waitingForLock(waitedSeconds: Int(waited), limitSeconds: waitSeconds)) }
      sleep(0.25)
      return true
    }
  }
}

/// What `ingest` is asked.
public struct IngestRequest {
  /// PATH or URL as given; nil: each configured feed's GTFS URL.
  public var source: String?
  /// `--feed`: the name to hold it under; without a source, the one configured feed to load.
  public var feed: String?
  /// `--if-changed`: a 304, or the content already loaded, is a no-op.
  public var ifChanged: Bool
  /// `--force`: swap whatever the checks say.
  public var isForced: Bool
  /// The swap checks' thresholds and the most MiB a ZIP feed's files may unzip to in all (the
  /// settings), asked for once something is to be loaded.
  public var limits: () throws -> (swap: SwapSettings, maxUnzippedMegabytes: Int)
  /// How long to wait for another ingest to finish.
  public var waitSeconds: Int
  /// The options what changed for you is compared with (asked only when there is user data).
  public var options: () throws -> ServiceOptions
  public var now: UnixTime

  public init(
    source: String?, feed: String?, ifChanged: Bool, isForced: Bool,
    limits: @escaping () throws -> (swap: SwapSettings, maxUnzippedMegabytes: Int), waitSeconds: Int,
    options: @escaping () throws -> ServiceOptions, now: UnixTime
  ) {
    self.source = source
    self.feed = feed
    self.ifChanged = ifChanged
    self.isForced = isForced
    self.limits = limits
    self.waitSeconds = waitSeconds
    self.options = options
    self.now = now
  }
}

/// The swap checks' thresholds (the `swap-shrink`, `swap-days-ahead`, `swap-lookahead` settings).
public struct SwapSettings: Sendable, Hashable {
  /// Refuse when stops, routes or trips shrink by more than this many percent.
  public var shrinkPercent: Int
  /// Refuse a timetable whose service starts more than this many days ahead.
  public var daysAhead: Int
  /// Refuse a timetable with no departure in this many days where the held one has some.
  public var lookaheadDays: Int

  public init(shrinkPercent: Int = 50, daysAhead: Int = 60, lookaheadDays: Int = 7) {
    self.shrinkPercent = shrinkPercent
    self.daysAhead = daysAhead
    self.lookaheadDays = lookaheadDays
  }
}

/// How an ingest goes, for a progress bar.
public enum IngestStep: Sendable {
  /// Another ingest holds the lock: waited so far, of at most.
  case waitingForLock(waitedSeconds: Int, limitSeconds: Int)
  /// Bytes of the ZIP received so far, of a total when the server says.
  case downloading(receivedBytes: Int, totalBytes: Int?)
  /// The download ended (done or failed).
  case downloaded
  /// Reading `file`: its rows so far, the rows of every file so far, the share of the feed's bytes.
  case loading(file: String, rows: Int, rowsSoFar: Int, fraction: Double)
  /// Building the indexes.
  case indexing
  /// The load ended (done or failed).
  case loaded
}
