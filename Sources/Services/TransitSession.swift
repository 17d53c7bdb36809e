import Fetch
import GTFS
import GTFSRealtime
import TransitModel

/// The one entry point of the answers: what a command needs to ask a rider's question (the
/// timetables and the options resolved from the settings), with one method per question. Each
/// answer is a value whose `Encodable` form is the documented JSON; the command line parses,
/// asks once and renders.
public struct TransitSession {
  /// The timetables held (every feed).
  public let store: Store
  /// The thresholds, walking model and language every answer uses.
  public let options: ServiceOptions
  /// Where the realtime comes from (local files, the configured feeds, a test's messages).
  public let realtime: any RealtimeSource
  /// The user's own data (favourites, seen alerts, ...), opened by the answers that need it.
  public let userData: UserDataAccess

  /// A session over `store`, its realtime from `realtime` (none unless given), the user's data
  /// from `userData` (none unless given).
  public init(
    store: Store, options: ServiceOptions, realtime: any RealtimeSource = FixedRealtime([]), userData: UserDataAccess = .none
  ) {
    self.store = store
    self.options = options
    self.realtime = realtime
    self.userData = userData
  }

  /// A session over the timetables held in `directory` (none is not an error here: see
  /// `holdsTimetables`), the user's data beside them.
  /// - Throws: what opening the timetables throws.
  public init(directory: String, options: ServiceOptions) throws {
    self.init(store: try Store(directory: directory), options: options, userData: UserDataAccess(directory: directory))
  }

  /// Whether any timetable is held.
  public var holdsTimetables: Bool { !store.isEmpty }

  /// Where each held timetable's service stands on the local date of `now` (ended, ending
  /// soon, not started...), by feed name, in the order held.
  public func timetableStatuses(now: UnixTime) -> [(feed: String, status: ServiceStatus)] {
    store.held.map { ($0.name, $0.serviceStatus(now: now)) }
  }

  /// This session with its realtime from `source` instead (a command looks its stops up
  /// before it reads any realtime, so an unknown stop is the first error).
  public func with(realtime source: any RealtimeSource) -> TransitSession {
    TransitSession(store: store, options: options, realtime: source, userData: userData)
  }

  /// When a live view that read `feeds` fetches again, in real Unix seconds from `now`: just
  /// after the feeds' next publish, `period` apart (nil: the feeds' own timestamps alone).
  public func nextFetch(after feeds: [FeedMessage], period: Int64?, now: Int64) -> Int64 {
    let stamp = feeds.compactMap { $0.header?.timestamp }.max().map { Int64(clamping: $0) }
    return PollSchedule.nextFetch(now: now, lastHeaderTimestamp: stamp, period: period)
  }

  /// When a live view of `board` fetches again, in real Unix seconds from `now`: just after its
  /// feeds' next publish (their period, the poll schedule `follow` uses).
  public func nextFetch(after board: Board, now: Int64) -> Int64 {
    PollSchedule.nextFetch(
      now: now, lastHeaderTimestamp: board.newestHeaderTimestamp, period: realtime.periodSeconds(preferring: board.stop.feed))
  }

  /// `journey` kept live under `live` (issue 35): each ride's expected times, each change's
  /// buffer and state under the transfer margin, and where the rider is.
  /// - Throws: the store's errors.
  public func guardedJourney(_ journey: JourneyPlanner.Journey, live: LiveRealtime) throws -> GuardedJourney {
    try TransferGuard.guarded(journey, store: store, live: live, marginSeconds: options.transferMarginSeconds)
  }
}
