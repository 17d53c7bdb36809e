import Services
import TransitModel

/// The parts of a status line (`--line`) as named fields, and the line or waybar JSON they make.
extension StatusLine {
  /// The parts of a status line, each as its field shows it.
  struct Fields: Equatable {
    var route: String
    var headsign: String
    /// The expected time, else the scheduled one, on the agency's clock.
    var clock: String
    /// Whole minutes until it leaves (as the countdown counts them).
    var minutes: Int64
    /// `+3`, `-1`, `sched`, or empty when live and on the minute.
    var delay: String
    /// The delay state: `on time`, `late`, `early`, `scheduled`, `added`.
    var status: String
    /// When to leave, else the countdown: `leave in 6 min`, `in 13 min`, `now`.
    var leave: String
    /// What is wrong with realtime: `feed 5 min old`, `offline`, both, or empty.
    var note: String
    /// The delay in minutes as a phrase: `3 min late`, `on time` (for the tooltip).
    var delayPhrase: String
    /// On a board of several stops (a complex), the one it leaves from where the route does
    /// not tell (`Board.Row.partLabel`); empty otherwise.
    var stop = ""

    func value(of field: LineTemplate.Field) -> String {
      switch field {
      case .route: route
      case .headsign: headsign
      case .clock: clock
      case .min: String(minutes)
      case .delay: delay
      case .status: status
      case .leave: leave
      case .note: note
      case .stop: stop
      }
    }

    /// The line `--line` prints without --format.
    var defaultText: String {
      var text = route + " " + clock
      if !delay.isEmpty { text += " " + delay }
      if !stop.isEmpty { text += " · " + stop }
      text += " · " + leave
      if !note.isEmpty { text += " · " + note }
      return text
    }

    /// The status as a CSS class name (waybar's `class`): `on-time`, `late`, ...
    var cssClass: String { String(status.map { $0 == " " ? "-" : $0 }) }
  }

  /// The fields of the line for `departure` at `now`.
  static func fields(
    _ departure: Departure, advice: LeaveAdvice?, now: UnixTime, freshness: RealtimeFreshness?, offline: Bool, zone: LocalZone,
    twelveHour: Bool
  ) -> Fields {
    let time = departure.time ?? now
    let isScheduled = departure.isTimetableOnly
    var delay = isScheduled ? "sched" : ""
    var minutesLate: Int64 = 0
    if !isScheduled, let seconds = departure.delaySeconds {
      minutesLate = DelayRounding.minutes(seconds)
      if minutesLate > 0 { delay = seconds > 0 ? "+\(minutesLate)" : "-\(minutesLate)" }
    }
    // The status by the early/late thresholds (a line never shows cancelled or skipped), and
    // the tooltip's phrase for it: "+1" is still on time.
    let status: String
    let delayPhrase: String
    switch departure.status {
    case _ where isScheduled: (status, delayPhrase) = ("scheduled", "timetable only")
    case .late: (status, delayPhrase) = ("late", minutesLate > 0 ? "\(minutesLate) min late" : "late")
    case .early: (status, delayPhrase) = ("early", minutesLate > 0 ? "\(minutesLate) min early" : "early")
    case .added: (status, delayPhrase) = ("added", "added trip")
    case .scheduled: (status, delayPhrase) = ("scheduled", "timetable only")
    default: (status, delayPhrase) = ("on time", "on time")
    }
    let minutes = now.minutes(until: time)
    let leave: String
    if let advice {
      leave = advice.text
    } else {
      let countdown = StopCommandSupport.countdown(to: time, from: now)
      leave = countdown == "now" ? "now" : "in " + countdown
    }
    return Fields(
      route: departure.call.routeShortName, headsign: departure.call.headsign,
      clock: StopCommandSupport.clock(time, zone: zone, twelveHour: twelveHour), minutes: minutes, delay: delay, status: status,
      leave: leave, note: notes(freshness: freshness, now: now, offline: offline).joined(separator: " · "), delayPhrase: delayPhrase)
  }

  /// What is wrong with realtime, for the end of the line: the age of a stale or unused feed,
  /// `offline` after a failed fetch.
  static func notes(freshness: RealtimeFreshness?, now: UnixTime, offline: Bool) -> [String] {
    var parts: [String] = []
    if let freshness, freshness.status == .stale || freshness.status == .expired, let stamp = freshness.feedTimestamp {
      parts.append("feed \(FeedsSupport.ageText(max(0, now - stamp))) old")
    }
    if offline { parts.append("offline") }
    return parts
  }

  /// What `--line` prints for `fields` (nil: nothing leaves, and `nothing` says so): the
  /// default line, the template filled, or with `json` one line of waybar's JSON.
  static func output(_ fields: Fields?, nothing: String, template: LineTemplate?, json: Bool) -> String {
    guard json else { return fields.map { template?.filled($0) ?? $0.defaultText } ?? nothing }
    guard let fields else {
      return JSON.object([("text", .string(nothing)), ("tooltip", .string(nothing)), ("class", .string("none")), ("alt", .string("none"))])
        .serialized()
    }
    var tooltip =
      "\(fields.route) to \(fields.headsign)\(fields.stop.isEmpty ? "" : " from " + fields.stop) · \(fields.clock) · \(fields.delayPhrase) · \(fields.leave)"
    if !fields.note.isEmpty { tooltip += " · " + fields.note }
    return JSON.object([
      ("text", .string(template?.filled(fields) ?? fields.defaultText)), ("tooltip", .string(tooltip)),
      ("class", .string(fields.cssClass)), ("alt", .string(fields.cssClass)),
    ]).serialized()
  }
}
