import Services
import TransitModel

/// The marks riders read beside a stop or trip: wheelchair access and crowding.
enum RiderMarks {
  /// "♿" for what the feed says is accessible (`W` where the terminal or locale cannot show
  /// it), else "".
  static func wheelchair(_ access: WheelchairAccess, plain: Bool) -> String {
    access == .accessible ? (plain ? "W" : "♿") : ""
  }

  /// "●●○ few seats", "●○○ 30 %", or "" when the vehicle says nothing.
  static func crowding(_ crowding: Crowding?) -> String {
    guard let crowding, let summary = crowding.summary else { return "" }
    let gauge = Crowding.gauge(crowding.level).map { $0 + " " } ?? ""
    var text = gauge + summary
    if let carriages = crowding.carriageGauges { text += " · cars " + carriages }
    return text
  }

  /// Columns `text` takes on a terminal: 2 for the wheelchair symbol (East Asian Wide), none
  /// for an ANSI colour code, 1 for anything else the output draws.
  static func width(_ text: String) -> Int {
    var count = 0
    var escaped = false
    for character in text {
      if escaped {
        if character == "m" { escaped = false }
        continue
      }
      if character == "\u{1B}" {
        escaped = true
        continue
      }
      count += character == "♿" ? 2 : 1
    }
    return count
  }
}

extension ServiceDate {
  /// "2026-12-01".
  var dashed: String {
    let text = description
    return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
  }

  /// "Tuesday": a calendar date's weekday, the same in every zone.
  var weekdayName: String {
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][weekday - 1]
  }
}
