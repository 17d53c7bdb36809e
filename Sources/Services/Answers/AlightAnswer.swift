import GTFS
import TransitModel

/// `follow --alight`'s answer in one frame, its times on `zone`'s clock: the `alight` member of
/// each `follow --json` line.
public struct AlightAnswer: Encodable, Sendable {
  public var status: AlightStatus
  /// The alarm the frame rang, if any.
  public var ring: AlightAlarm.Ring?
  public var now: UnixTime
  public var zone: LocalZone

  /// The answer for `status` at `now`.
  public init(_ status: AlightStatus, ring: AlightAlarm.Ring?, now: UnixTime, zone: LocalZone) {
    self.status = status
    self.ring = ring
    self.now = now
    self.zone = zone
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(status.target.stopID.rawValue, forKey: "stop_id")
    try members.encode(status.target.name, forKey: "name")
    try members.encode(status.target.stopSequence, forKey: "stop_sequence")
    try members.encode(status.state.rawValue, forKey: "state")
    try members.encode(status.stopsLeft, forKey: "stops_left")
    try members.encode(status.scheduledArrival.map(zone.isoText), forKey: "scheduled_arrival")
    try members.encode(status.expectedArrival.map(zone.isoText), forKey: "expected_arrival")
    try members.encode(status.state == .passed ? nil : status.secondsLeft(now: now), forKey: "seconds_left")
    try members.encode(status.isFromTimetable, forKey: "from_timetable")
    try members.encode(status.isSkipped, forKey: "skipped")
    try members.encode(ring?.rawValue, forKey: "alarm")
  }
}
