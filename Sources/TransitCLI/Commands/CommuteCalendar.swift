import FoundationEssentials
import Services
import TransitModel

/// iCalendar (RFC 5545) leave-by reminders for a commute.
enum CommuteCalendar {
  /// The calendar of `answer`: a VEVENT with a VALARM for each day the commute runs with a
  /// recommended departure, from the timetable.
  static func ics(_ answer: CommuteCalendarAnswer, now: UnixTime) -> String {
    let (commute, stop, zone) = (answer.commute, answer.stop, answer.zone)
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//transit//commute \(Transit.version)//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
      "X-WR-CALNAME:" + escape("transit: \(commute.name)"),
    ]
    for (date, option) in answer.days {
      let call = option.departure.call
      let departs = StopCommandSupport.clock(option.departs, zone: zone, twelveHour: false)
      let summary = "Leave for \(commute.name): \(call.routeShortName) to \(call.headsign) at \(departs)"
      var description = "Walk \(commute.walkMinutes) min to \(stop.name); \(call.routeShortName) \(call.headsign) departs \(departs)"
      if let arrives = option.arrives {
        description += ", arrives \(StopCommandSupport.clock(arrives, zone: zone, twelveHour: false))"
      }
      if commute.thenWalkMinutes > 0, let reaches = option.reaches {
        description += "; walk \(commute.thenWalkMinutes) min, there \(StopCommandSupport.clock(reaches, zone: zone, twelveHour: false))"
      }
      description +=
        " (arrive by \(SavedCommute.clockText(minutes: commute.arriveByMinutes))).\nFrom the timetable: run 'transit commute \(commute.name)' for live times."
      lines += [
        "BEGIN:VEVENT",
        "UID:" + escape("\(commute.name)-\(date.description)@transit"),
        "DTSTAMP:" + utc(now),
        "DTSTART:" + utc(option.leaveBy),
        "DTEND:" + utc(option.eventEnd),
        "SUMMARY:" + escape(summary),
        "DESCRIPTION:" + escape(description),
        "LOCATION:" + escape(stop.name + (stop.code.map { " [\($0)]" } ?? "")),
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + escape(summary), "TRIGGER:-PT5M", "END:VALARM",
        "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  /// "20261201T074600Z".
  static func utc(_ time: UnixTime) -> String {
    let iso = ISOTime.format(time, zone: LocalZone.utc)  // 2026-12-01T07:46:00+00:00
    return String(iso.prefix(19)).replacing("-", with: "").replacing(":", with: "") + "Z"
  }

  /// TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma and newline.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result
  }

  /// Folds a content line at 75 octets (RFC 5545 3.1): a CRLF and a space before each
  /// continuation, never inside a UTF-8 sequence.
  static func fold(_ line: String) -> String {
    var parts: [String] = []
    var current = ""
    var octets = 0
    for scalar in line.unicodeScalars {
      let size = String(scalar).utf8.count
      if octets + size > 75 {
        parts.append(current)
        current = " "
        octets = 1
      }
      current.unicodeScalars.append(scalar)
      octets += size
    }
    parts.append(current)
    return parts.joined(separator: "\r\n")
  }
}
