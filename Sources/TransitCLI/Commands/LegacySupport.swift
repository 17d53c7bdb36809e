import GTFS
import GTFSRealtime
import Services
import TransitModel

// The pieces `record`, not yet on the session, still assembles its answers from. Each goes
// when its last caller asks the session instead (issue 33).

extension RealtimeSupport {
  /// `feeds` matched against the timetables at `now`; the warnings (a feed matching nothing or
  /// less than half) go to stderr, once.
  static func live(
    _ invocation: Invocation, store: Store, feeds: [FeedMessage], now: UnixTime, options: ServiceOptions, warn: Bool = true
  ) throws -> LiveRealtime {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    if warn { self.warn(live.report, invocation: invocation) }
    return live
  }
}

extension FollowCommand {
  /// "vehicle-positions" from ".../1796110560-vehicle-positions.pb" (`SnapshotNaming.kind`).
  static func kind(of path: String) -> String { SnapshotNaming.kind(of: path) }
}
