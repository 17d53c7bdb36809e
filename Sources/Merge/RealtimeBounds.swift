import GTFSRealtime
import TransitModel

/// The ranges a realtime value must lie in to be used; a value outside is treated as absent
/// (and counted in `MergeReport.outOfRangeCount`), so no arithmetic on a feed's numbers can
/// overflow or trap, whatever a producer sends (a time of INT64_MIN, a speed of NaN).
public enum RealtimeBounds {
  /// The fastest speed believed, in metres per second (1,080 km/h: faster than any train).
  public static let maxSpeedMetersPerSecond: Float = 300
  /// Bearings believed, in degrees (the spec's are 0 ..< 360; a turn or two either way is
  /// accepted and folded by whoever draws it).
  public static let bearingDegrees: ClosedRange<Float> = -720...720

  /// `feeds` with every out-of-range value removed: times and timestamps outside
  /// `UnixTime.supportedSeconds`, positions off the globe, speeds that are not finite, negative or
  /// above `maxSpeedMetersPerSecond`, bearings that are not finite or outside `bearingDegrees`,
  /// odometers that are not finite or negative. Also returns how many values were removed.
  ///
  /// - Complexity: O(values in the feeds); a feed with nothing out of range is not copied.
  public static func bounded(_ feeds: [FeedMessage]) -> (feeds: [FeedMessage], outOfRangeCount: Int) {
    var feeds = feeds
    var count = 0
    for index in feeds.indices where needsBounding(feeds[index]) {
      count += bound(&feeds[index])
    }
    return (feeds, count)
  }

  // MARK: - Checking

  static func isValid(time: Int64?) -> Bool { time.map { UnixTime(checked: $0) != nil } ?? true }
  static func isValid(stamp: UInt64?) -> Bool { stamp.map { UnixTime(checked: $0) != nil } ?? true }
  static func isValid(_ event: TripUpdate.StopTimeEvent?) -> Bool {
    guard let event else { return true }
    return isValid(time: event.time) && isValid(time: event.scheduledTime)
  }
  static func isValid(_ position: Position?) -> Bool {
    guard let position else { return true }
    if let latitude = position.latitude, !(latitude.isFinite && abs(latitude) <= 90) { return false }
    if let longitude = position.longitude, !(longitude.isFinite && abs(longitude) <= 180) { return false }
    if let speed = position.speed, !(speed.isFinite && speed >= 0 && speed <= maxSpeedMetersPerSecond) { return false }
    if let bearing = position.bearing, !(bearing.isFinite && bearingDegrees.contains(bearing)) { return false }
    if let odometer = position.odometer, !(odometer.isFinite && odometer >= 0) { return false }
    return true
  }

  /// Whether anything in `feed` is out of range (the quick pass: most feeds hold nothing).
  static func needsBounding(_ feed: FeedMessage) -> Bool {
    if !isValid(stamp: feed.header?.timestamp) { return true }
    for entity in feed.entities {
      if let update = entity.tripUpdate {
        if !isValid(stamp: update.timestamp) { return true }
        if !update.stopTimeUpdates.timesLie(within: UnixTime.supportedSeconds) { return true }
      }
      if let vehicle = entity.vehicle, !isValid(stamp: vehicle.timestamp) || !isValid(vehicle.position) { return true }
      if let alert = entity.alert {
        for period in alert.activePeriods where !isValid(stamp: period.start) || !isValid(stamp: period.end) { return true }
      }
    }
    return false
  }

  // MARK: - Removing

  /// Clears every out-of-range value of `feed`; returns how many.
  static func bound(_ feed: inout FeedMessage) -> Int {
    var count = 0
    func clear<T>(_ value: inout T?, if invalid: (T) -> Bool) {
      if let present = value, invalid(present) {
        value = nil
        count += 1
      }
    }
    let badStamp: (UInt64) -> Bool = { UnixTime(checked: $0) == nil }
    let badTime: (Int64) -> Bool = { UnixTime(checked: $0) == nil }
    if feed.header != nil { clear(&feed.header!.timestamp, if: badStamp) }
    for index in feed.entities.indices {
      if var update = feed.entities[index].tripUpdate,
        !isValid(stamp: update.timestamp) || update.stopTimeUpdates.contains(where: { !isValid($0.arrival) || !isValid($0.departure) })
      {
        clear(&update.timestamp, if: badStamp)
        for stop in update.stopTimeUpdates.indices
        where !isValid(update.stopTimeUpdates[stop].arrival) || !isValid(update.stopTimeUpdates[stop].departure) {
          for side in [\TripUpdate.StopTimeUpdate.arrival, \TripUpdate.StopTimeUpdate.departure] {
            guard var event = update.stopTimeUpdates[stop][keyPath: side] else { continue }
            clear(&event.time, if: badTime)
            clear(&event.scheduledTime, if: badTime)
            update.stopTimeUpdates[stop][keyPath: side] = event
          }
        }
        feed.entities[index].tripUpdate = update
      }
      if var vehicle = feed.entities[index].vehicle, !isValid(stamp: vehicle.timestamp) || !isValid(vehicle.position) {
        clear(&vehicle.timestamp, if: badStamp)
        if var position = vehicle.position {
          if let latitude = position.latitude, let longitude = position.longitude,
            !(latitude.isFinite && abs(latitude) <= 90 && longitude.isFinite && abs(longitude) <= 180)
          {
            // A point off the globe says nothing: both halves go.
            position.latitude = nil
            position.longitude = nil
            count += 1
          }
          clear(&position.latitude) { !($0.isFinite && abs($0) <= 90) }
          clear(&position.longitude) { !($0.isFinite && abs($0) <= 180) }
          clear(&position.speed) { !($0.isFinite && $0 >= 0 && $0 <= maxSpeedMetersPerSecond) }
          clear(&position.bearing) { !($0.isFinite && bearingDegrees.contains($0)) }
          clear(&position.odometer) { !($0.isFinite && $0 >= 0) }
          vehicle.position = position
        }
        feed.entities[index].vehicle = vehicle
      }
      if var alert = feed.entities[index].alert,
        alert.activePeriods.contains(where: { !isValid(stamp: $0.start) || !isValid(stamp: $0.end) })
      {
        for period in alert.activePeriods.indices {
          clear(&alert.activePeriods[period].start, if: badStamp)
          clear(&alert.activePeriods[period].end, if: badStamp)
        }
        feed.entities[index].alert = alert
      }
    }
    return count
  }
}
