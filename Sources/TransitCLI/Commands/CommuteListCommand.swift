import Services
import TransitModel

/// `transit commute list`.
enum CommuteListCommand: TransitCommand {
  static let path = ["commute", "list"]
  static let spec = CommandSpec(
    path: path, summary: "The saved commutes", examples: ["transit commute list", "transit commute list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let commutes = try CommuteSupport.saved(invocation)
    let session = try SessionSupport.session(
      invocation, requiresTimetables: false, realtime: { FixedRealtime([]) }, warnsAboutExpiry: false)
    let entries = try session.commuteEntries(commutes)
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(entries))
      return 0
    }
    guard !commutes.isEmpty else {
      out.line("no commutes yet; add one with 'transit commute add NAME --stop S --arrive-by HH:MM'")
      return 0
    }
    out.write(StopCommandSupport.table(entries.map { [$0.commute.name, describe($0)] }))
    return 0
  }

  /// "Tallaght (The Square) [4530], route 27, to Crumlin, arrive by 08:30, mon-fri, 5 min walk";
  /// a commute of several stops: "Times Sq-42 St (and 3 more stations), ...".
  static func describe(_ entry: CommuteEntry) -> String {
    let commute = entry.commute, stop = entry.stop
    var place = stop.map { $0.name.shown + ($0.code.map { " [\($0.shown)]" } ?? "") } ?? "\(commute.stopID) (not in the timetable)"
    if !commute.otherStops.isEmpty {
      let count = commute.otherStops.count
      place += " (and \(count) more \(stop?.isStation == true ? "station" : "stop")\(count == 1 ? "" : "s"))"
    }
    var parts = [place]
    if let route = commute.route { parts.append("route \(route)") }
    if let destination = commute.destination { parts.append("to \((entry.destination?.name ?? destination).shown)") }
    parts.append("arrive by \(SavedCommute.clockText(minutes: commute.arriveByMinutes))")
    parts.append(SavedCommute.daysText(commute.days))
    if commute.walkMinutes > 0 { parts.append("\(commute.walkMinutes) min walk") }
    if commute.thenWalkMinutes > 0 { parts.append("then \(commute.thenWalkMinutes) min walk") }
    return parts.joined(separator: ", ")
  }
}
