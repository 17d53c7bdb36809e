import GTFS
import Merge
import TransitModel

/// What matching one snapshot asked of the timetables, kept for the next (`LiveRealtime`'s
/// `cache`): each trip's details, facts and stop times, each instance built from them with its
/// calls, the candidate instances of each descriptor that gives its start date, and the
/// descriptor resolver with its answers. A train's instance and calls do not change from one
/// minute to the next, and the timetables do not change during an import, so a sequence of
/// snapshots (`HistoryRecorder`) reads each trip once instead of every minute.
///
/// The resolver is kept while the day is (a descriptor without start_date names a run of
/// today); trips unused for `retainedSnapshots` snapshots are let go, so a day's import holds
/// only the trips running about then. Not for sharing between threads.
public final class MatchCache {
  /// How many snapshots a trip not named again is kept (an hour of one-minute snapshots).
  public var retainedSnapshots = 60

  private var resolver: DescriptorResolver?
  /// The local date of each feed held when `resolver` was made.
  private var resolverDays: [ServiceDate] = []
  private var details: [TripID: TripDetails?] = [:]
  private struct FeedTrip: Hashable {
    var tripID: TripID
    var feed: FeedName
  }
  private var facts: [FeedTrip: (TripFacts, TripStopTimes)?] = [:]
  private var trips: [TripInstance: ScheduledTrip] = [:]
  /// What a trip descriptor names: its trip, and the start date and start time it gives
  /// (`LiveRealtime` lists the trips a snapshot names by it).
  struct Descriptor: Hashable {
    var tripID: TripID
    var startDate: ServiceDate?
    var startTime: ServiceTime?
  }
  private var candidates: [Descriptor: [ScheduledTrip]] = [:]
  /// The snapshot count at which each trip was last asked for, and the count now.
  private var lastUsed: [TripID: Int] = [:]
  private var snapshot = 0

  /// An empty cache.
  public init() {}

  /// The resolver to resolve a snapshot at `now` with: the kept one while every feed's local
  /// date is the one it was made on, else a new one. Counts the snapshot. The kept one is
  /// handed over, not copied (the cache lets go of it until `keep`), so what it learns does not
  /// copy its tables.
  func resolver(store: Store, now: UnixTime) -> DescriptorResolver {
    snapshot += 1
    if snapshot % retainedSnapshots == 0 { forgetUnused() }
    let days = store.feedNames.map { store.localDate(of: now, feed: $0) }
    if var kept = resolver.take(), days == resolverDays {
      kept.now = now
      return kept
    }
    resolverDays = days
    return DescriptorResolver(store: store, now: now)
  }

  /// Keeps `resolver` (with what it has learnt) for the next snapshot.
  func keep(_ resolver: DescriptorResolver) { self.resolver = resolver }

  /// `Store.tripDetails`, asked once per trip.
  func details(_ tripID: TripID, store: Store) throws -> TripDetails? {
    lastUsed[tripID] = snapshot
    if let known = details[tripID] { return known }
    let found = try store.tripDetails(tripID)
    details[tripID] = .some(found)
    return found
  }

  /// `Store.tripFacts` and `Store.stopTimes(of:)`, asked once per trip.
  func facts(_ tripID: TripID, feed: FeedName, store: Store) throws -> (TripFacts, TripStopTimes)? {
    lastUsed[tripID] = snapshot
    let key = FeedTrip(tripID: tripID, feed: feed)
    if let known = facts[key] { return known }
    let found = try LiveRealtime.tripFacts(tripID, feed: feed, store: store)
    facts[key] = .some(found)
    return found
  }

  /// The instance built before, if any.
  func trip(_ instance: TripInstance) -> ScheduledTrip? {
    guard let found = trips[instance] else { return nil }
    lastUsed[instance.tripID] = snapshot
    return found
  }

  /// Keeps an instance built.
  func keep(_ trip: ScheduledTrip) {
    trips[trip.instance] = trip
    lastUsed[trip.instance.tripID] = snapshot
  }

  /// The candidate instances found before for a descriptor that gives its start date.
  func candidates(of descriptor: Descriptor) -> [ScheduledTrip]? {
    guard let found = candidates[descriptor] else { return nil }
    lastUsed[descriptor.tripID] = snapshot
    return found
  }

  /// Keeps the candidate instances of a descriptor that gives its start date.
  func keep(_ found: [ScheduledTrip], of descriptor: Descriptor) {
    candidates[descriptor] = found
    lastUsed[descriptor.tripID] = snapshot
  }

  /// Lets go of the trips not asked for in the last `retainedSnapshots` snapshots.
  private func forgetUnused() {
    let stale = Set(lastUsed.filter { snapshot - $0.value > retainedSnapshots }.keys)
    guard !stale.isEmpty else { return }
    for tripID in stale {
      lastUsed[tripID] = nil
      details[tripID] = nil
    }
    facts = facts.filter { !stale.contains($0.key.tripID) }
    trips = trips.filter { !stale.contains($0.key.tripID) }
    candidates = candidates.filter { !stale.contains($0.key.tripID) }
  }
}
