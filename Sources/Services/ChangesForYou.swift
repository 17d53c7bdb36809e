import FoundationEssentials
import GTFS
import TransitModel
import UserData

/// What a timetable swap changed for this user: at their favourite stops (removed, moved, a
/// route gone) and to each commute's recommended departure on its next day, old timetable
/// against new. `ingest` prints it after every swap (alone under `--quiet`, for cron's mail).
public enum ChangeForYou: Sendable {
  /// A favourite stop removed, moved or losing a route; `label` is the user's name for it.
  case stop(StopChange, label: String?)
  /// A commute's recommended departure retimed or gone, on `zone`'s clock.
  case commute(CommuteChange, zone: LocalZone)

  /// The changes the swap of `feed` made to `favourites` and `commutes` (those of other feeds
  /// are ignored); commutes are compared only while the previous timetable is kept.
  public static func after(
    swapOf feed: FeedName, timetables: Timetables, favourites: [UserStore.Favourite], commutes: [UserStore.Commute],
    now: UnixTime, options: ServiceOptions = .init()
  ) throws -> [ChangeForYou] {
    let mine = favourites.filter { $0.feed == feed.rawValue }
    var labels: [String: String] = [:]
    for favourite in mine { labels[favourite.stopID] = favourite.label ?? labels[favourite.stopID] }
    var seen = Set<String>()
    let stops = mine.map(\.stopID).filter { seen.insert($0).inserted }
    var result = try timetables.changes(of: feed.rawValue, at: stops).map { ChangeForYou.stop($0, label: labels[$0.stopID]) }
    let myCommutes = commutes.filter { $0.feed == feed.rawValue }
    if !myCommutes.isEmpty, let previous = try timetables.previousPath(of: feed.rawValue) {
      let current = try timetables.path(of: feed.rawValue)
      let old = try Store(files: [(feed.rawValue, previous)]), new = try Store(files: [(feed.rawValue, current)])
      let zone = new.timeZone(of: feed)
      for commute in myCommutes {
        if let change = try CommuteChange.between(commute, old: old, new: new, now: now, options: options) {
          result.append(.commute(change, zone: zone))
        }
      }
    }
    return result
  }
}
