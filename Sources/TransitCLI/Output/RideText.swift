import Services
import TransitModel

/// The text pieces a ride is shown with, in `vehicles`, `follow`, `trip show`, `plan --watch`
/// and `commute --watch`: a vehicle's delay, its report's age, its speed and its heading; a
/// change's buffer.
enum RideText {
  /// "2 min late", "on time", "1 min early" by the delay's class, which the answer gives under
  /// the configured thresholds (the CLI classes no delay itself), or "" without a delay.
  static func delay(_ delay: Int64?, status: DepartureStatus?) -> String {
    guard let delay, let status else { return "" }
    let minutes = DelayRounding.minutes(delay)
    switch status {
    case .late: return "\(minutes) min late"
    case .early: return "\(minutes) min early"
    default: return "on time"
    }
  }

  /// "12 s", "3 min", "2 h"; "now" for a report from the future.
  static func age(_ seconds: Int64) -> String {
    seconds < 0 ? "now" : FeedsSupport.ageText(seconds)
  }

  /// "43 km/h"; nil for a speed that is no number of km/h (NaN, infinite, beyond `Int`).
  static func speed(_ metersPerSecond: Double) -> String? {
    Int(roundingFinite: metersPerSecond * 3.6).map { "\($0) km/h" }
  }

  /// The arrow nearest a compass bearing (degrees clockwise from north).
  static func arrow(_ bearing: Double) -> String {
    let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
    guard bearing.isFinite else { return "" }
    let normal = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    return Int(roundingFinite: normal / 45).map { arrows[$0 % 8] } ?? ""
  }

  /// "buffer 6 min", "buffer 40 s", "2 min short".
  static func buffer(_ seconds: Int64) -> String {
    let amount = BufferAmount(seconds: seconds)
    let text = "\(amount.value) \(amount.isMinutes ? "min" : "s")"
    return amount.isShort ? text + " short" : "buffer " + text
  }
}
