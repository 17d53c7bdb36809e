import Foundation

/// A one-line progress bar on stderr, redrawn at most ten times a second; silent unless stderr
/// is a terminal (cron and pipes get only the final line).
final class ProgressBar {
  private let sink: OutputSink
  private let enabled: Bool
  private let started = DispatchTime.now().uptimeNanoseconds
  private var lastDraw: UInt64 = 0
  private var drawn = false

  init(sink: OutputSink, enabled: Bool) {
    self.sink = sink
    self.enabled = enabled
  }

  /// Redraws with `fraction` done (0…1) and a label.
  func update(fraction: Double, label: String) {
    guard enabled else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    guard now - lastDraw > 100_000_000 || !drawn else { return }
    lastDraw = now
    drawn = true
    let width = 24
    let done = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
    let elapsed = Double(now - started) / 1e9
    var eta = ""
    if fraction > 0.02 && fraction < 1 {
      eta = " · \(Int((elapsed / fraction - elapsed).rounded())) s left"
    }
    let bar = String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
    sink.write("\r\u{1B}[2K\(bar) \(Int(fraction * 100))% \(label)\(eta)")
  }

  /// Clears the bar's line.
  func finish() {
    guard enabled, drawn else { return }
    sink.write("\r\u{1B}[2K")
  }
}
