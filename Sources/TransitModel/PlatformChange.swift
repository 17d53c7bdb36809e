/// A call moved from its planned platform (DESIGN.md rule 17): to another stop
/// (`stop_time_properties.assigned_stop_id`), or, on NYCT, to another track than scheduled.
public struct PlatformChange: Hashable, Sendable {
  /// The stop the call is assigned to instead of the timetable's.
  public var assignedStopID: StopID?
  /// NYCT: the track the train is on, and the one it was scheduled on, when they differ.
  public var actualTrack: String?
  public var scheduledTrack: String?

  /// Creates a change.
  public init(assignedStopID: StopID? = nil, actualTrack: String? = nil, scheduledTrack: String? = nil) {
    self.assignedStopID = assignedStopID
    self.actualTrack = actualTrack
    self.scheduledTrack = scheduledTrack
  }
}
