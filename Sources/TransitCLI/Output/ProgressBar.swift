import FoundationEssentials
import HostSystem
import TransitModel

/// A one-line progress bar on stderr: the bar, the share done, a label, the rate and the time
/// left, redrawn in place at most ten times a second.
///
/// It draws only when enabled (`Invocation.showsProgress`: stderr is a terminal that can move
/// the cursor, and no `--json` / `--quiet`); otherwise it writes nothing, so cron and pipes get
/// only the command's own final line.
final class ProgressBar {
  private let sink: OutputSink
  private let enabled: Bool
  private let unit: String
  private let clock: () -> UInt64
  private let started: UInt64
  private var lastDraw: UInt64 = 0
  private var drawn = false

  /// - Parameters:
  ///   - unit: what the rate counts ("rows", "URLs"), shown as "1,234 rows/s".
  ///   - clock: monotonic nanoseconds (tests pass their own).
  init(
    sink: OutputSink, enabled: Bool, unit: String = "",
    clock: @escaping () -> UInt64 = { MonotonicClock.nanoseconds() }
  ) {
    self.sink = sink
    self.enabled = enabled
    self.unit = unit
    self.clock = clock
    self.started = clock()
  }

  /// Redraws with `fraction` done (0…1; nil when the end is not known), a label, and `count`
  /// units done so far (for the rate).
  func update(fraction: Double?, label: String, count: Int? = nil) {
    guard enabled else { return }
    let now = clock()
    guard now &- lastDraw > 100_000_000 || !drawn else { return }
    lastDraw = now
    drawn = true
    sink.write(
      "\r\u{1B}[2K" + Self.line(fraction: fraction, label: label, count: count, unit: unit, elapsedSeconds: Double(now &- started) / 1e9))
  }

  /// Clears the bar's line, so the command's final line starts clean.
  func finish() {
    guard enabled, drawn else { return }
    sink.write("\r\u{1B}[2K")
    drawn = false
  }

  /// `████░░░░ 40% stop_times.txt 1,200 rows · 52,000 rows/s · 3 s left`; without a fraction,
  /// the label, the rate and the time so far.
  static func line(fraction: Double?, label: String, count: Int?, unit: String, elapsedSeconds: Double) -> String {
    var parts: [String] = []
    let width = 24
    let clamped = fraction.map { min(max($0.isFinite ? $0 : 0, 0), 1) }
    if let clamped {
      let done = Int((clamped * Double(width)).rounded())
      parts.append(String(repeating: "█", count: done) + String(repeating: "░", count: width - done) + " \(Int(clamped * 100))%")
    }
    if !label.isEmpty { parts.append(label) }
    var text = parts.joined(separator: " ")
    if let count, elapsedSeconds >= 0.2, !unit.isEmpty {
      let perSecond = Double(count) / elapsedSeconds
      text +=
        perSecond >= 1 || count == 0
        ? " · \(Format.thousands(Int(perSecond.rounded()))) \(unit)/s"
        : " · \(Format.fixed(perSecond * 60, decimals: 1)) \(unit)/min"
    }
    guard let clamped else {
      return text + " · \(Format.duration(seconds: Int64(elapsedSeconds))) so far"
    }
    if clamped > 0.02 && clamped < 1 && elapsedSeconds >= 0.2 {
      let left = elapsedSeconds / clamped - elapsedSeconds
      text += " · \(Format.duration(seconds: Int64(left.rounded(.up)))) left"
    }
    return text
  }
}
