import TransitModel

/// How a platform change (DESIGN.md rule 17) reads on a board row and in JSON.
enum PlatformChangeText {
  /// "track 2, not 1", "platform change: stop 70012", or both.
  static func text(_ change: PlatformChange) -> String {
    var parts: [String] = []
    if let assigned = change.assignedStopID { parts.append("platform change: stop \(assigned.rawValue)") }
    if let actual = change.actualTrack, let scheduled = change.scheduledTrack { parts.append("track \(actual), not \(scheduled)") }
    return parts.joined(separator: ", ")
  }
}
